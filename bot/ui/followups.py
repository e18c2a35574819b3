"""What a move may set off beyond its own board: a match's next half-round, the
Activity's live viewers."""

from __future__ import annotations

import discord
from discord.ext import commands

from ..core.records import GameRecord


def moved(interaction: discord.Interaction, game: GameRecord) -> None:
    """Tell whoever listens (the Activity's live viewers) that ``game`` moved or opened:
    ``on_game_moved(game, user)``."""
    interaction.client.dispatch("game_moved", game, interaction.user)


async def after_move(interaction: discord.Interaction, game: GameRecord) -> None:
    """Once a match's half-round game ends (and its board was shown), the match feature
    shows the score and the next half-round. Looked up by name: games know no matches.
    Every move is told to the listeners first (:func:`moved`)."""
    moved(interaction, game)
    if game.active or game.match_id is None:
        return
    client = interaction.client
    cog = client.get_cog("match") if isinstance(client, commands.Bot) else None
    after_half = getattr(cog, "after_half", None)
    if after_half is not None:
        await after_half(interaction, game)
