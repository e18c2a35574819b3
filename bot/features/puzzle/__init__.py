"""Puzzles (``/puzzle``): a few guesses and their key pegs from which exactly one code
follows, generated and certified by the engine; a puzzle of the day and random ones by
level, each answered in one try."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import PuzzleCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(PuzzleCog(bot, bot.services.puzzles))
