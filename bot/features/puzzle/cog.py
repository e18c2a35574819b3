"""``/puzzle today|new|answer``: clues from which one code follows, answered in one try.

Every answer is private (ephemeral): a puzzle is the player's own, and its answer must not
reach anyone who has yet to try it.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.puzzle import Level

from ...core.enums import PuzzleKind
from ...core.records import PuzzlePlay
from ...ui.options import CodeText
from ...ui.pegs import typed_code
from ...ui.places import usable
from ..picker.purposes import register
from .buttons import AnotherPuzzleButton, puzzle_view
from .picking import AnswerPurpose
from .render import puzzle_embed
from .service import DAILY_LEVEL, SIZES, PuzzleService


@usable()
class PuzzleCog(commands.GroupCog, group_name="puzzle",
                group_description="Clues from which exactly one code follows: name it"):
    def __init__(self, bot: commands.Bot, service: PuzzleService):
        self.bot = bot
        self.service = service
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(AnotherPuzzleButton)
        register(AnswerPurpose())

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(AnotherPuzzleButton)

    async def board(self, play: PuzzlePlay) -> tuple[discord.Embed, discord.ui.View]:
        """The puzzle's board as it stands (once answered, with the day's streak and tally)."""
        streak = tally = None
        if play.kind is PuzzleKind.DAILY and not play.open:
            streak = await self.service.streak(play.user_id)
            tally = await self.service.tally(play.day or "")
        return puzzle_embed(play, streak=streak, tally=tally), puzzle_view(play)

    async def _show(self, interaction: discord.Interaction, play: PuzzlePlay) -> None:
        embed, view = await self.board(play)
        if interaction.response.is_done():
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
            await _defer_privately(interaction)
        play = await self.service.new_play(user_id=interaction.user.id,
                                           guild_id=interaction.guild_id, level=Level(level),
                                           size=size, action_id=interaction.id)
        await self._show(interaction, play)

    @app_commands.command(name="answer", description="Name the code of your open puzzle")
    @app_commands.describe(code="The one code that fits every clue, e.g. 1123")
    async def answer_command(self, interaction: discord.Interaction, code: CodeText) -> None:
        play = await self.service.answer(play_id=None, user_id=interaction.user.id,
                                         text=typed_code(code), action_id=interaction.id)
        await self._show(interaction, play)

    async def another(self, interaction: discord.Interaction, play_id: int) -> None:
        """A new puzzle of the level and size of the player's ``play_id``."""
        play = await self.service.get(play_id, interaction.user.id)
        size = f"{play.rules.pegs}x{play.rules.colors}"
        if size != "4x6":
            await _defer_privately(interaction)
        fresh = await self.service.new_play(
            user_id=interaction.user.id, guild_id=interaction.guild_id, level=play.level,
            size=size if size in SIZES else "4x6", action_id=interaction.id)
        await self._show(interaction, fresh)


async def _defer_privately(interaction: discord.Interaction) -> None:
    """Defer a slow answer so that it stays private: a command's "thinking..." is shown to
    its user alone (the board then fills it in); a button keeps its board meanwhile."""
    if interaction.type is discord.InteractionType.application_command:
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()
