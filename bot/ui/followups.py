"""What a move tells beyond its own board: the Activity's live viewers listen for it."""

from __future__ import annotations

import discord

from ..core.records import GameRecord


def moved(interaction: discord.Interaction, game: GameRecord) -> None:
    """Tell whoever listens (the Activity's live viewers) that ``game`` moved or opened:
    ``on_game_moved(game, user)``."""
    interaction.client.dispatch("game_moved", game, interaction.user)
