"""``/challenge`` and ``/feedback``: the bot breaks the code you think of."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from engine import DEFAULT_STRATEGY, STRATEGIES
from engine.rules import MAX_PEGS

from ..challenge import ChallengeService
from ..errors import BadInput
from ..views.challenge import post_board
from .options import RULE_DESCRIPTIONS, Colors, MaxGuesses, Pegs, display_name, make_rules

log = logging.getLogger(__name__)

STRATEGY_CHOICES = [
    app_commands.Choice(name=f"{s.name}: {s.description}"[:100], value=s.name)
    for s in STRATEGIES.values()
]


class ChallengeCog(commands.Cog):
    def __init__(self, service: ChallengeService):
        self.service = service

    @app_commands.command(name="challenge", description="Think of a code: I will break it")
    @app_commands.describe(
        **RULE_DESCRIPTIONS, strategy=f"How I pick my guesses (default {DEFAULT_STRATEGY})"
    )
    @app_commands.choices(strategy=STRATEGY_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction,
        pegs: Pegs = 4,
        colors: Colors = 6,
        max_guesses: MaxGuesses = 10,
        repeats: bool = True,
        strategy: str = DEFAULT_STRATEGY,
    ) -> None:
        rules = make_rules(pegs, colors, max_guesses, repeats)
        if strategy not in STRATEGIES:
            raise BadInput(f"Unknown strategy {strategy!r}: choose one from the list.")
        await self.service.ensure_free(interaction.channel_id)
        await interaction.response.defer(thinking=True)
        state, _ = await self.service.start(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, user_name=display_name(interaction.user),
            rules=rules, strategy=strategy,
        )
        await post_board(interaction, state, None)

    @app_commands.command(name="feedback", description="Answer my guess in your challenge")
    @app_commands.describe(black="Right colour in the right place",
                           white="Right colour in the wrong place")
    @app_commands.guild_only()
    async def feedback(
        self,
        interaction: discord.Interaction,
        black: app_commands.Range[int, 0, MAX_PEGS],
        white: app_commands.Range[int, 0, MAX_PEGS],
    ) -> None:
        game = await self.service.active_in_channel(interaction.channel_id)
        self.service.check_challenger(game, interaction.user.id)
        self.service.check_reply(game, (black, white))  # answers mistakes before "thinking"
        await interaction.response.defer(thinking=True)
        state = await self.service.reply(game_id=game.id, turn=None, feedback=(black, white),
                                         user_id=interaction.user.id)
        await post_board(interaction, state, game.board_message_id)
