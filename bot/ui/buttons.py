"""The base of every persistent button and form: errors reported like a command's, a
custom_id prefix each kind owns, the answer to a button no kind owns, and how a button
finds its feature's cog."""

from __future__ import annotations

import re
import types
from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar

import discord
from discord.ext import commands

from ..core.errors import MalformedButton
from .responses import begin, report_error

CogT = TypeVar("CogT", bound=commands.Cog)


def cog_of(interaction: discord.Interaction, cls: type[CogT]) -> CogT:
    """The loaded cog of a feature: how a persistent button finds its controller."""
    client = interaction.client
    cog = client.get_cog(cls.__cog_name__) if isinstance(client, commands.Bot) else None
    if not isinstance(cog, cls):
        raise RuntimeError(f"the {cls.__cog_name__} feature is not loaded")
    return cog


#: A prefix a kind of button owns: ``mm`` and letters (``mmc``), then ``:`` in its ids.
BUTTON_PREFIX = re.compile(r"mm[a-z]+")


class ReportingButton(discord.ui.DynamicItem[discord.ui.Button], template=re.compile(r"(?!)")):
    """A persistent button whose errors are reported like a command's.

    Subclasses name the custom_id ``prefix`` they own (``class PlayAgainButton(
    ReportingButton, prefix="mmb")``: the template is ``mmb:(?P<body>.*)``) and implement
    :meth:`run`; discord.py only logs what a DynamicItem callback raises, so the reporting
    happens here, once for all of them. The bot answers a click on a prefix of ours that no
    registered button owns with :func:`unknown_button`."""

    #: The custom_id prefix this kind of button owns (None: a template of its own).
    prefix: ClassVar[str | None] = None

    def __init_subclass__(cls, *, prefix: str | None = None,
                          template: str | re.Pattern[str] | None = None) -> None:
        if prefix is not None and not BUTTON_PREFIX.fullmatch(prefix):
            raise TypeError(f"a button prefix is mm and letters, not {prefix!r}")
        if (prefix is None) == (template is None):
            raise TypeError(f"{cls.__name__} needs a prefix, or else a template")
        super().__init_subclass__(template=template or rf"{prefix}:(?P<body>.*)")
        cls.prefix = prefix

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            begin(interaction)
            await self.run(interaction)
        except Exception as exc:  # report_error logs the unexpected ones
            await report_error(interaction, exc)

    async def run(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


#: Largest id a custom_id may carry (SQLite integers are signed 64-bit).
MAX_ID = 2**63 - 1


class UnknownButton(ReportingButton, template=r"(?!)"):
    """A button of ours with a prefix no feature owns (an older version's): say so. Made
    for the prefixes registered by :func:`unknown_button`."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id="mmx:unknown"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> UnknownButton:
        return cls()

    async def run(self, interaction: discord.Interaction) -> None:
        raise MalformedButton()


def unknown_button(owned: Iterable[str]) -> type[UnknownButton]:
    """The :class:`UnknownButton` for every ``mm`` prefix but the ``owned`` ones (those of
    the buttons registered), so a new kind of button needs no list kept by hand."""
    taken = "|".join(sorted(map(re.escape, set(owned))))
    template = rf"(?!(?:{taken}):)mm[a-z]*:.*" if taken else r"mm[a-z]*:.*"
    return types.new_class("UnknownButton", (UnknownButton,), {"template": template})


class ReportingModal(discord.ui.Modal):
    """A modal whose errors are reported like a command's.

    Errors must leave ``on_submit`` (not be caught there): discord.py keeps a modal open
    for another try only when its submission failed, so a typo can be corrected."""

    # discord.py's own Modal.on_error drops BaseView.on_error's item argument; this is
    # Modal's signature exactly, which mypy reports against BaseView.
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        begin(interaction)
        return True

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await report_error(interaction, error)
