"""The bot breaks your code: ``/challenge``, the reply buttons and ``/feedback``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import ChallengeCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(ChallengeCog(bot, bot.services.challenges))
