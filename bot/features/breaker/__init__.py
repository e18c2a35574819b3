"""Breaking the bot's code: ``/mastermind new`` starts a game, anyone plays with ``/guess``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import BreakerCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(BreakerCog(bot, bot.services.breaker))
