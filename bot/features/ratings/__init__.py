"""Ratings (issue 35): OpenSkill ratings per server and season from rated matches and races;
shown on ``/leaderboard mode:rating``, ``/stats`` and every rated result. The service is
Discord-free and is called inside the transaction that ends a match or a race; the stats
feature's commands show what it keeps."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import RatingsCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(RatingsCog(bot, bot.services.ratings))
