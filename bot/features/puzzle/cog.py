"""``/puzzle today|new|answer``: clues from which one code follows, answered in one try.

Every answer is private (ephemeral): a puzzle is the player's own, and its answer must not
reach anyone who has yet to try it.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.puzzle import Level

from ...store.puzzles import PuzzlePlay
from ...ui.options import CodeText
from ...ui.pegs import typed_code
from ...ui.responses import defer_once
from .buttons import AnswerModal, PuzzleAction, PuzzleButton, puzzle_view
from .render import puzzle_embed
from .service import DAILY_LEVEL, SIZES, PuzzleService


class PuzzleCog(commands.GroupCog, group_name="puzzle",
                group_description="Clues from which exactly one code follows: name it"):
    def __init__(self, bot: commands.Bot, service: PuzzleService):
        self.bot = bot
        self.service = service
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PuzzleButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PuzzleButton)

    async def _show(self, interaction: discord.Interaction, play: PuzzlePlay, *,
                    edit: bool = False) -> None:
        streak = tally = None
        if play.kind == "daily" and not play.open:
            streak = await self.service.streak(play.user_id)
            tally = await self.service.tally(play.day or "")
        embed = puzzle_embed(play, streak=streak, tally=tally)
        view = puzzle_view(play)
        if edit and interaction.message is not None and not interaction.response.is_done():
            await interaction.response.edit_message(embed=embed, view=view)
        elif interaction.response.is_done():
            await interaction.followup.send(embed=embed, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(name="today", description="Today's puzzle: the same for everyone")
    async def today(self, interaction: discord.Interaction) -> None:
        play = await self.service.today_play(user_id=interaction.user.id,
                                             guild_id=interaction.guild_id,
                                             action_id=interaction.id)
        await self._show(interaction, play)

    @app_commands.command(name="new", description="A new puzzle of the level you choose")
    @app_commands.describe(level="How much reasoning it takes (default: medium)",
                           size="Pegs x colours (default 4x6)")
    @app_commands.choices(
        level=[app_commands.Choice(name=level.value, value=level.value) for level in Level],
        size=[app_commands.Choice(name=size, value=size) for size in SIZES])
    async def new(self, interaction: discord.Interaction, level: str = DAILY_LEVEL.value,
                  size: str = "4x6") -> None:
        if size != "4x6":  # a hard 5x8 puzzle can take a second to find
            await defer_once(interaction)
        play = await self.service.new_play(user_id=interaction.user.id,
                                           guild_id=interaction.guild_id, level=Level(level),
                                           size=size, action_id=interaction.id)
        await self._show(interaction, play)

    @app_commands.command(name="answer", description="Name the code of your open puzzle")
    @app_commands.describe(code="The one code that fits every clue, e.g. 1123")
    async def answer_command(self, interaction: discord.Interaction, code: CodeText) -> None:
        await self.answer(interaction, None, code)

    async def answer(self, interaction: discord.Interaction, play_id: int | None,
                     text: str) -> None:
        play = await self.service.answer(play_id=play_id, user_id=interaction.user.id,
                                         text=typed_code(text), action_id=interaction.id)
        await self._show(interaction, play, edit=play_id is not None)

    async def on_button(self, interaction: discord.Interaction, action: PuzzleAction,
                        play_id: int) -> None:
        play = await self.service.get(play_id, interaction.user.id)
        if action is PuzzleAction.ANOTHER:
            size = f"{play.rules.pegs}x{play.rules.colors}"
            if size != "4x6":
                await defer_once(interaction)
            fresh = await self.service.new_play(
                user_id=interaction.user.id, guild_id=interaction.guild_id, level=play.level,
                size=size if size in SIZES else "4x6", action_id=interaction.id)
            await self._show(interaction, fresh)
            return
        if not play.open:
            await self._show(interaction, play, edit=True)  # the board as it now stands
            return
        await interaction.response.send_modal(AnswerModal(play.id, play.rules))
