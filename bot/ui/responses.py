"""Answering interactions the same way everywhere, and the one place errors are reported."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import types
from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from i18n import tr, trc

from ..core.errors import MalformedButton, StorageUnavailable, UserError
from ..core.metrics import Metrics
from ..store.db import committed, on_write_wait
from .client import bot_of
from .messages import describe_user_error
from .translation import speak_to_user

log = logging.getLogger(__name__)

ERROR_COLOUR = discord.Colour.orange()
CogT = TypeVar("CogT", bound=commands.Cog)


def error_embed(title: str, message: str) -> discord.Embed:
    return discord.Embed(title=title, description=message[:4000], colour=ERROR_COLOUR)


async def send_ephemeral(interaction: discord.Interaction, embed: discord.Embed) -> None:
    """Answer only the person who acted, whether or not the interaction was answered yet.

    After a public "thinking..." defer, that placeholder is deleted first so it doesn't
    hang in the channel, and the message goes to the user alone.
    """
    if interaction.response.is_done():
        if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def defer_once(interaction: discord.Interaction) -> None:
    """Defer an interaction that is not answered yet: a command shows "thinking...", a
    button or modal keeps its message until it is edited."""
    if interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.application_command:
        await interaction.response.defer(thinking=True)
    else:
        await interaction.response.defer()


class Restarting(app_commands.CheckFailure):
    """An interaction that arrived while the bot shuts down: refused before anything runs."""


def begin(interaction: discord.Interaction) -> None:
    """Before any interaction runs: speak its user's language; refuse it during shutdown;
    otherwise, within its task, a write that has to wait for the database defers it first."""
    speak_to_user(interaction)
    if bot_of(interaction).closing:  # MastermindBot.shutdown sets it
        raise Restarting(tr("The bot is restarting: try again in a few seconds. Nothing was "
                            "stored."))
    committed.set(False)  # tasks inherit the context they were made in: start clean
    on_write_wait.set(lambda: defer_once(interaction))
    _time_reply(interaction)


def _metrics(interaction: discord.Interaction) -> Metrics:
    """The bot's operational counts."""
    return bot_of(interaction).metrics


#: Kinds of interaction, as the metrics label them.
_KINDS = {discord.InteractionType.application_command: "command",
          discord.InteractionType.component: "button",
          discord.InteractionType.modal_submit: "modal",
          discord.InteractionType.autocomplete: "autocomplete"}
#: A custom_id's name: its leading words (``mmc:r`` of ``mmc:r:12:3:1:0``).
_CUSTOM_NAME = re.compile(r"[a-z]+(?::[a-z]+)*")


def action_labels(interaction: discord.Interaction) -> tuple[str, str]:
    """(kind, name) of an interaction for the metrics: a command's full name, or the
    leading words of a button's or form's custom_id (the metrics bound how many)."""
    kind = _KINDS.get(interaction.type, "other")
    data: Any = interaction.data or {}
    if kind in ("command", "autocomplete"):
        command = interaction.command
        return kind, command.qualified_name if command else str(data.get("name", "?"))
    found = _CUSTOM_NAME.match(str(data.get("custom_id", "")))
    return kind, found.group(0) if found else "?"


def _time_reply(interaction: discord.Interaction) -> None:
    """Measure this interaction's handler, from now until its task (answer sent) is done."""
    metrics, task = _metrics(interaction), asyncio.current_task()
    if task is None:
        return
    started = time.perf_counter()
    labels = action_labels(interaction)
    task.add_done_callback(
        lambda _: metrics.reply_took(time.perf_counter() - started, *labels))


def _count_error(interaction: discord.Interaction, kind: str) -> None:
    _metrics(interaction).error(kind)


async def respond(interaction: discord.Interaction, *, embed: discord.Embed,
                  view: discord.ui.View | None = None, content: str | None = None,
                  ephemeral: bool = False) -> int | None:
    """Send the answer (public unless ``ephemeral``), whether or not the interaction was
    deferred meanwhile; returns the message id."""
    if not interaction.response.is_done():
        sent = await interaction.response.send_message(
            content=content, embed=embed, view=view or discord.utils.MISSING,
            ephemeral=ephemeral)
        return sent.message_id
    message = await interaction.followup.send(
        content=content or discord.utils.MISSING, embed=embed,
        view=view or discord.utils.MISSING, wait=True, ephemeral=ephemeral)
    return message.id


async def update(interaction: discord.Interaction, *, embed: discord.Embed,
                 view: discord.ui.View | None) -> None:
    """Edit the message a button is on, whether or not the click was deferred meanwhile."""
    if not interaction.response.is_done():
        await interaction.response.edit_message(embed=embed, view=view)
    else:
        await interaction.edit_original_response(embed=embed, view=view)


def describe_error(error: Exception) -> tuple[str, str] | None:
    """A (title, message) for errors that are the user's or Discord's doing, else None.

    Takes app-command errors (unwrapping the one a command raised) and plain exceptions
    from buttons and modals alike."""
    original = getattr(error, "original", error)
    if isinstance(original, UserError):
        return describe_user_error(original)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return tr("This command was updated"), tr(
            "This command changed in the bot's latest version and your Discord app still "
            "shows the old one. Try again in a moment (restarting Discord refreshes it).")
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr("Servers only"), tr(
            "Mastermind games live in server channels: use this command there.")
    if isinstance(error, app_commands.TransformerError):
        return tr("That value doesn't fit"), tr(
            "I couldn't read {value} for this option. Check the option and try again.",
            value=repr(error.value)[:100])
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr("Slow down"), tr("Try again in {seconds} s.",
                                   seconds=f"{error.retry_after:.0f}")
    if isinstance(error, Restarting):
        return tr("Restarting"), str(error)
    if isinstance(error, app_commands.MissingPermissions):
        needed = ", ".join(map(_permission, error.missing_permissions))
        return tr("Not here"), tr("You need the {permissions} permission for this command.",
                                  permissions=needed)
    if isinstance(error, app_commands.CheckFailure):
        return tr("Not here"), str(error) or tr("You can't use that command here.")
    return None


def _permission(name: str) -> str:
    """A permission as Discord's app names it (``manage_guild``: Manage Server)."""
    if name == "manage_guild":
        return trc("permission", "Manage Server")
    if name == "manage_messages":
        return trc("permission", "Manage Messages")
    return name.replace("_", " ").title()


#: Discord's "Interaction has already been acknowledged": another process on the same token
#: (during a deploy) or an earlier delivery of this interaction answered it already.
ALREADY_ANSWERED = 40060


def answered_elsewhere(error: BaseException) -> bool:
    original = getattr(error, "original", error)
    return isinstance(original, discord.HTTPException) and original.code == ALREADY_ANSWERED


async def report_error(interaction: discord.Interaction, error: Exception) -> None:
    """Tell the user what went wrong: their mistake plainly, our bug with an apology."""
    if answered_elsewhere(error):
        log.warning("interaction %s was already answered (delivered twice?)", interaction.id)
        return
    original = getattr(error, "original", error)
    if isinstance(original, discord.NotFound) and original.code == EXPIRED:
        _count_error(interaction, "expired")
        log.warning("interaction %s expired before it was answered (move %s)", interaction.id,
                    "stored" if committed.get() else "not stored")
        return
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.warning("interaction %s used a command that changed since it was synced: %s",
                    interaction.id, error)
    if isinstance(original, StorageUnavailable):
        _count_error(interaction, "storage")
        log.warning("interaction %s: nothing stored, the database is unavailable (%s)",
                    interaction.id, original.reason)
    elif isinstance(original, UserError):
        _metrics(interaction).mistake(type(original).__name__)
    described = describe_error(error)
    if described is None:
        described = _describe_failure(interaction, original)
    try:
        await send_ephemeral(interaction, error_embed(*described))
    except Exception as exc:  # Discord refused it, the network failed, the bot is closing
        _not_delivered(interaction, exc, after_lost_connection=connection_lost(original))


def _not_delivered(interaction: discord.Interaction, error: Exception, *,
                   after_lost_connection: bool) -> None:
    """Log why an error message didn't reach the player, as what it is."""
    if answered_elsewhere(error) and after_lost_connection:
        log.info("interaction %s: Discord had taken the answer before the connection dropped",
                 interaction.id)
    elif answered_elsewhere(error):
        log.warning("interaction %s was already answered (delivered twice?)", interaction.id)
    else:
        log.warning("could not deliver an error message for interaction %s (%s: %s)",
                    interaction.id, type(error).__name__, error)


def connection_lost(error: BaseException) -> bool:
    """Did the connection to Discord drop mid-request? Then the request may have arrived
    (Discord took the answer) or not: only a second try tells."""
    return isinstance(error, aiohttp.ClientConnectionError | ConnectionError)


#: Discord's "Unknown interaction": the 15-minute token (or the 3 s window) has passed.
EXPIRED = 10062


def _describe_failure(interaction: discord.Interaction, error: BaseException
                      ) -> tuple[str, str]:
    """What to say when something failed that is not the player's doing: whether their move
    was stored decides the words. Discord's own failures are warnings; the rest is a bug."""
    saved = committed.get()
    command = interaction.command.qualified_name if interaction.command else "component"
    move = "stored" if saved else "not stored"
    discords = isinstance(error, discord.HTTPException) or connection_lost(error)
    _count_error(interaction, "discord" if discords else "bug")
    if connection_lost(error):
        log.warning("the connection to Discord dropped while answering %s (interaction %s, "
                    "move %s; the answer may have arrived): %s", command, interaction.id,
                    move, type(error).__name__)
    elif discords:
        log.warning("Discord refused an answer in %s (interaction %s, move %s): %s", command,
                    interaction.id, move, error)
    else:
        log.error("unexpected error in %s (interaction %s, move %s)", command, interaction.id,
                  move, exc_info=error)
    if saved:
        return tr("Saved, but not shown"), tr(
            "Your move was saved, but showing it failed. Don't repeat it: "
            "`/mastermind board` shows the game as it stands.")
    if discords:
        return tr("Discord didn't take my answer"), tr(
            "Discord didn't take my answer, and nothing was stored. Please try again.")
    return tr("Something went wrong on my side"), tr(
        "Sorry, that failed because of a bug in the bot, and nothing was stored. Please try "
        "again in a moment.")


class MastermindTree(app_commands.CommandTree):
    """Maps every app-command error to a friendly ephemeral reply, in one place."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        begin(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


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
