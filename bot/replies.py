"""Sending replies the same way from every cog, and the one place errors become messages."""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands

from .errors import UserError

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


def describe_error(error: Exception) -> tuple[str, str] | None:
    """A (title, message) for errors that are the user's or Discord's doing, else None.

    Takes app-command errors (unwrapping the one a command raised) and plain exceptions
    from buttons and modals alike."""
    original = getattr(error, "original", error)
    if isinstance(original, UserError):
        return original.title, original.message
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Servers only", "Mastermind games live in server channels: use this command there."
    if isinstance(error, app_commands.TransformerError):
        return "That value doesn't fit", f"{error}. Check the option and try again."
    if isinstance(error, app_commands.CommandOnCooldown):
        return "Slow down", f"Try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.CheckFailure):
        return "Not here", str(error) or "You can't use that command here."
    return None


async def report_error(interaction: discord.Interaction, error: Exception) -> None:
    """Tell the user what went wrong: their mistake plainly, our bug with an apology."""
    described = describe_error(error)
    if described is None:
        command = interaction.command.qualified_name if interaction.command else "component"
        log.error("unexpected error in %s (interaction %s)", command, interaction.id,
                  exc_info=error)
        described = (
            "Something went wrong on my side",
            "Sorry, that failed because of a bug in the bot. Nothing you did was lost; "
            "please try again in a moment.",
        )
    try:
        await send_ephemeral(interaction, error_embed(*described))
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id)


class MastermindTree(app_commands.CommandTree):
    """Maps every app-command error to a friendly ephemeral reply, in one place."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)
