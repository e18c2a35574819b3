"""The leaderboard's paging buttons and forget-me's confirmation: persistent, their
custom_ids carry what to show; they parse it and hand over to the StatsCog."""

from __future__ import annotations

import re

import discord

from engine.rules import MAX_COLORS, MAX_PEGS, MIN_COLORS, MIN_PEGS
from i18n import tr

from ...core.enums import Mode, Period
from ...core.errors import MalformedButton
from ...ui.buttons import MAX_ID, ReportingButton, cog_of

#: A rule size as people type it: ``4x6`` or ``5x8 no-repeats``.
SIZE_PATTERN = re.compile(
    rf"^[{MIN_PEGS}-{MAX_PEGS}]x[{MIN_COLORS}-{MAX_COLORS}]( no-repeats)?$")


def size_code(size: str) -> str:
    """``4x6 no-repeats`` -> ``4x6n`` (fits a custom_id, no spaces)."""
    return size.replace(" no-repeats", "n")


def size_from_code(code: str) -> str:
    return code[:-1] + " no-repeats" if code.endswith("n") else code


def _controller(interaction: discord.Interaction):
    from .cog import StatsCog  # the cog builds these buttons: import it when clicked

    return cog_of(interaction, StatsCog)


_PAGE = re.compile(
    rf"(?P<mode>breaker|private|challenge|match-bot|match-people):(?P<scope>\d{{1,20}})"
    rf":(?P<period>all|month|week)"
    rf":(?P<size>[{MIN_PEGS}-{MAX_PEGS}]x[{MIN_COLORS}-{MAX_COLORS}]n?)"
    rf":(?P<page>\d{{1,6}}):(?P<way>prev|next)")


class PageButton(ReportingButton, prefix="mml"):
    """Prev/next on a leaderboard; the custom_id says which board and page to show."""

    def __init__(self, mode: Mode, scope: int, period: Period, size: str, page: int, way: str,
                 *, disabled: bool = False, readable: bool = True):
        self.mode, self.scope, self.period, self.size, self.page = mode, scope, period, size, page
        self.readable = readable
        super().__init__(discord.ui.Button(
            label=tr("◀ Prev") if way == "prev" else tr("Next ▶"),
            style=discord.ButtonStyle.secondary,
            custom_id=f"mml:{mode.value}:{scope}:{period.value}:{size_code(size)}:{page}:{way}",
            disabled=disabled,
        ))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> PageButton:
        found = _PAGE.fullmatch(match["body"])
        if found is None or int(found["scope"]) > MAX_ID:
            return cls(Mode.BREAKER, 0, Period.ALL, "4x6", 0, "next", readable=False)
        return cls(Mode(found["mode"]), int(found["scope"]), Period(found["period"]),
                   size_from_code(found["size"]), int(found["page"]), found["way"])

    async def run(self, interaction: discord.Interaction) -> None:
        if not self.readable:
            raise MalformedButton()
        await _controller(interaction).on_page(interaction, self.mode, self.scope, self.period,
                                               self.size, self.page)


_FORGET = re.compile(r"(?P<action>yes|no):(?P<user>\d{1,20})")


class ForgetButton(ReportingButton, prefix="mmf"):
    def __init__(self, confirm: bool, user_id: int):
        self.confirm, self.user_id = confirm, user_id
        label, style = ((tr("Delete my data"), discord.ButtonStyle.danger) if confirm
                        else (tr("Cancel"), discord.ButtonStyle.secondary))
        action = "yes" if confirm else "no"
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"mmf:{action}:{user_id}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> ForgetButton:
        found = _FORGET.fullmatch(match["body"])
        if found is None or int(found["user"]) > MAX_ID:
            return cls(False, 0)
        return cls(found["action"] == "yes", int(found["user"]))

    async def run(self, interaction: discord.Interaction) -> None:
        if self.user_id == 0:
            raise MalformedButton()
        await _controller(interaction).on_forget(interaction, self.user_id, self.confirm)
