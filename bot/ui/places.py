"""Where an interaction happens, and where each command may be installed and used.

Discord offers a command in a server that added the app (its bot is a member), in the bot's
DM, and, for people who installed the app to their account, in servers that did not add it,
in group DMs and in DMs between users. Where the bot is not a member it can only answer
interactions (at most 5 follow-ups each): no channel message, no edit of an older one. And a
server may forbid its members the apps they installed (``USE_EXTERNAL_APPS`` off): Discord
then shows every answer to the person who asked alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

from i18n import tr

from ..core.errors import UserError
from .messages import says

T = TypeVar("T")


def usable(*, dms: bool = True, private_channels: bool = True) -> Callable[[T], T]:
    """Declare a command installable to servers and to accounts, usable in servers, and in
    the bot's DM and private channels unless told otherwise. (Discord applies a group's
    declaration to all its subcommands.)"""
    def declare(command: T) -> T:
        command = app_commands.allowed_installs(guilds=True, users=True)(command)
        return app_commands.allowed_contexts(
            guilds=True, dms=dms, private_channels=private_channels)(command)
    return declare


def in_bot_dm(interaction: discord.Interaction) -> bool:
    """The player's DM with the bot: nobody else sees it, so every game there is private."""
    return interaction.guild_id is None and interaction.context.dm_channel


def bot_in_channel(interaction: discord.Interaction) -> bool:
    """Can the bot post and edit messages here, beyond answering interactions? In its DM and
    in servers that added it; not in a group DM, another user's DM, or a server reached
    through a member's own install."""
    if interaction.guild_id is None:
        return in_bot_dm(interaction)
    return interaction.is_guild_integration()


def answers_private(interaction: discord.Interaction) -> bool:
    """Will Discord show every answer here to the person who asked alone? (A server that did
    not add the bot and forbids its members the apps they installed.)"""
    return (interaction.guild_id is not None and not interaction.is_guild_integration()
            and not interaction.permissions.use_external_apps)


class NotHere(UserError):
    """A command that can't work where it was used: ``reason`` says why, ``instead`` what
    works."""

    def __init__(self, reason: str, instead: str):
        super().__init__(reason)
        self.reason, self.instead = reason, instead


says(NotHere)(lambda e: (tr("Not here"), f"{e.reason} {e.instead}"))


def require_shared_answers(interaction: discord.Interaction, what: str) -> None:
    """A game for everyone in the channel needs answers everyone sees (``what``: the
    caller's words for it, in the reader's language, e.g. ``tr("a game for the channel")``)."""
    if answers_private(interaction):
        raise NotHere(
            tr("This server doesn't let its members' own apps post for everyone, so {what} "
               "could only be seen by you.", what=what),
            tr("Start a game of your own instead: `/mastermind new private:True` or "
               "`/challenge private:True`."))


def require_server_with_bot(interaction: discord.Interaction, what: str) -> None:
    """Server settings belong to servers that added the bot (``what``: the caller's words,
    translated, e.g. ``tr("Server settings")``)."""
    if interaction.guild_id is None or not interaction.is_guild_integration():
        if interaction.guild_id is not None:
            reason = tr("{what} belong to a server that added the bot, and this server "
                        "didn't.", what=what)
        else:
            reason = tr("{what} belong to a server that added the bot, and a DM didn't.",
                        what=what)
        raise NotHere(reason, tr("A server admin can add it with the invite link in the "
                                 "bot's profile."))
