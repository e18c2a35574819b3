"""Leaderboards and stats: ``/leaderboard``, ``/stats`` and ``/mastermind forget-me``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import StatsCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(StatsCog(bot, bot.services.stats))
