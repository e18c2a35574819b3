"""Shutdown refusal: an interaction that arrives while the bot drains (``MastermindBot.drain``
sets ``closing``) is refused before anything runs, and told nothing was stored."""

from __future__ import annotations

import discord
from discord import app_commands

from i18n import tr

from .client import bot_of


class Restarting(app_commands.CheckFailure):
    """An interaction that arrived while the bot shuts down: refused before anything runs."""


def refuse_while_closing(interaction: discord.Interaction) -> None:
    if bot_of(interaction).closing:
        raise Restarting(tr("The bot is restarting: try again in a few seconds. Nothing was "
                            "stored."))
