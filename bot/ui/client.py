"""The bot an interaction reached, typed as the bot it is.

The shared Discord-facing pieces (answering, translation, boards) reach what the bot holds
(``closing``, ``metrics``, ``services``, ``rest_budget``) through :func:`bot_of`, never by
name with a default: a rename fails the type check (``tests/test_lint.py`` runs mypy) and
every interaction, instead of silently turning shutdown refusal, metrics, languages or the
REST budget off."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

if TYPE_CHECKING:
    from ..app import MastermindBot


def bot_of(interaction: discord.Interaction) -> MastermindBot:
    """``interaction.client``: every interaction the bot's handlers see reached it."""
    return cast("MastermindBot", interaction.client)
