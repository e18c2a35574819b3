"""The daily code (``/daily``): one secret per UTC day, played privately, shared without
spoilers, ranked per server and everywhere."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import DailyCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(DailyCog(bot.services.daily, bot.services.settings.daily_posts))
