"""``/guess``, and starting and showing breaker games: people break the bot's code."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine import Rules

from ...core.records import GameRecord
from ...ui.followups import after_move
from ...ui.messages import abandoned_note, mention
from ...ui.options import CodeText, display_name
from ...ui.responses import respond
from ..analysis.buttons import analyse_view
from .render import board_embed
from .service import BreakerService


class BreakerCog(commands.Cog, name="breaker"):
    def __init__(self, service: BreakerService):
        self.service = service

    async def start(self, interaction: discord.Interaction, rules: Rules) -> None:
        """``/mastermind new``: a new board, posted as the answer, remembered as the game's."""
        assert interaction.channel_id is not None  # guild-only commands
        started = await self.service.new_game(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, user_name=display_name(interaction.user), rules=rules,
            action_id=interaction.id,
        )
        note = abandoned_note(started.abandoned) if started.abandoned else None
        message_id = await respond(interaction, embed=board_embed(started.game, note=note))
        if message_id is not None:
            await self.service.games.set_board_message(started.game.id, message_id)

    async def show_board(self, interaction: discord.Interaction, game: GameRecord) -> None:
        await interaction.response.send_message(embed=board_embed(game))

    async def show_ended(self, interaction: discord.Interaction, game: GameRecord) -> None:
        note = f"{mention(interaction.user.id)} ended the game."
        await respond(interaction, embed=board_embed(game, note=note), view=analyse_view(game))

    @app_commands.command(name="guess", description="Guess this channel's code, e.g. 1123")
    @app_commands.describe(code="Your guess: digits like 1123, letters like RROY, or colour emoji")
    @app_commands.guild_only()
    async def guess(self, interaction: discord.Interaction, code: CodeText) -> None:
        assert interaction.channel_id is not None
        game = await self.service.guess(
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            user_name=display_name(interaction.user),
            text=code,
            action_id=interaction.id,
        )
        await respond(interaction, embed=board_embed(game), view=analyse_view(game))
        await after_move(interaction, game)
