"""``/mastermind new|board|quit|help`` and ``/guess``: people break the bot's code."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..breaker import BreakerService
from ..render import board_embed, help_embed
from ..views.challenge import post_board, strip_buttons
from ..views.stats import forget_prompt
from .options import RULE_DESCRIPTIONS, Colors, MaxGuesses, Pegs, display_name, make_rules

#: Longest code text accepted from Discord (the engine refuses anything over 64 anyway).
MAX_CODE_TEXT = 100


@app_commands.guild_only()
class MastermindCog(
    commands.GroupCog, group_name="mastermind", group_description="Play Mastermind in this channel"
):
    def __init__(self, service: BreakerService):
        self.service = service
        super().__init__()

    @app_commands.command(name="forget-me",
                          description="Delete your stats and unlink your name from past games")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        embed, view = forget_prompt(interaction.user.id)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(name="new", description="Start a game here: I pick a secret code")
    @app_commands.describe(**RULE_DESCRIPTIONS)
    async def new(
        self,
        interaction: discord.Interaction,
        pegs: Pegs = 4,
        colors: Colors = 6,
        max_guesses: MaxGuesses = 10,
        repeats: bool = True,
    ) -> None:
        rules = make_rules(pegs, colors, max_guesses, repeats)
        started = await self.service.new_game(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            user_name=display_name(interaction.user),
            rules=rules,
        )
        note = None
        if started.abandoned is not None:
            old = started.abandoned
            note = (
                f"The previous game here (#{old.id}) had no move for too long and was abandoned; "
                f"its code was `{''.join(map(str, old.secret or ()))}`."
            )
        sent = await interaction.response.send_message(embed=board_embed(started.game, note=note))
        if sent.message_id is not None:
            await self.service.set_board_message(started.game.id, sent.message_id)

    @app_commands.command(name="board", description="Show this channel's game board")
    async def board(self, interaction: discord.Interaction) -> None:
        game = await self.service.current(interaction.channel_id)
        if game.kind == "challenge":  # the challenge board, with its live buttons
            await interaction.response.defer(thinking=True)
            state = await interaction.client.challenges.current_state(game.id)
            await post_board(interaction, state, game.board_message_id)
            return
        await interaction.response.send_message(embed=board_embed(game))

    @app_commands.command(name="quit", description="Give up this channel's game and reveal code")
    async def quit(self, interaction: discord.Interaction) -> None:
        permissions = interaction.permissions
        game = await self.service.quit(
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            can_manage=bool(permissions and permissions.manage_messages),
        )
        if game.kind == "challenge":
            embed = discord.Embed(
                title="Challenge ended",
                description=f"{interaction.user.mention} ended <@{game.started_by}>'s challenge.",
                colour=discord.Colour.dark_grey(),
            )
            await interaction.response.send_message(embed=embed)
            if game.board_message_id:
                await strip_buttons(interaction, game.board_message_id)
            return
        note = f"{interaction.user.mention} ended the game."
        await interaction.response.send_message(embed=board_embed(game, note=note))

    @app_commands.command(name="help", description="How to play and how to read the pegs")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True)


class GuessCog(commands.Cog):
    def __init__(self, service: BreakerService):
        self.service = service

    @app_commands.command(name="guess", description="Guess this channel's code, e.g. 1123")
    @app_commands.describe(code="Your guess: digits like 1123, letters like RROY, or colour emoji")
    @app_commands.guild_only()
    async def guess(
        self,
        interaction: discord.Interaction,
        code: app_commands.Range[str, 1, MAX_CODE_TEXT],
    ) -> None:
        result = await self.service.guess(
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            user_name=display_name(interaction.user),
            text=code,
        )
        await interaction.response.send_message(embed=board_embed(result.game))
