"""Answering interactions the same way everywhere, and the one place errors are reported
(their words: :mod:`bot.ui.error_words`; the buttons' base: :mod:`bot.ui.buttons`)."""

from __future__ import annotations

import contextlib
import logging

import aiohttp
import discord
from discord import app_commands

from ..core.errors import NoGameRunning, StorageUnavailable, UserError
from ..store.db import committed, on_write_wait
from .error_words import describe_error, failure_words
from .followups import moved
from .reply_metrics import count_error, count_mistake, time_reply
from .shutdown import refuse_while_closing
from .translation import speak_to_user

log = logging.getLogger(__name__)

ERROR_COLOUR = discord.Colour.orange()


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


def begin(interaction: discord.Interaction) -> None:
    """Before any interaction runs: speak its user's language; refuse it during shutdown;
    otherwise, within its task, a write that has to wait for the database defers it first."""
    speak_to_user(interaction)
    refuse_while_closing(interaction)
    committed.set(False)  # tasks inherit the context they were made in: start clean
    on_write_wait.set(lambda: defer_once(interaction))
    time_reply(interaction)


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
        count_error(interaction, "expired")
        log.warning("interaction %s expired before it was answered (move %s)", interaction.id,
                    "stored" if committed.get() else "not stored")
        return
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.warning("interaction %s used a command that changed since it was synced: %s",
                    interaction.id, error)
    if isinstance(original, StorageUnavailable):
        count_error(interaction, "storage")
        log.warning("interaction %s: nothing stored, the database is unavailable (%s)",
                    interaction.id, original.reason)
    elif isinstance(original, UserError):
        count_mistake(interaction, original)
    described = describe_error(error)
    if described is None:
        described = _describe_failure(interaction, original)
    try:
        await send_ephemeral(interaction, error_embed(*described))
    except Exception as exc:  # Discord refused it, the network failed, the bot is closing
        _not_delivered(interaction, exc, after_lost_connection=connection_lost(original))
    if isinstance(original, NoGameRunning) and original.abandoned is not None:
        # the move found its game out of time and ended it (committed): told as a move is,
        # so the Activity shows the end and a racer's board that ended its race posts it now
        moved(interaction, original.abandoned)


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
    count_error(interaction, "discord" if discords else "bug")
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
    return failure_words(saved=saved, discords=discords)


class MastermindTree(app_commands.CommandTree):
    """Maps every app-command error to a friendly ephemeral reply, in one place."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        begin(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)
