"""Races (``/race``): everyone in a channel breaks the same code on a board of their own,
against each other and the clock, for a rating."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import RaceCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(RaceCog(bot, bot.services.races))
