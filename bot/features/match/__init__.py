"""Matches: the 1978 game of rounds against the bot or another player, and codes set by
people (``/match``, ``/mastermind new setter:me``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import MatchCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(MatchCog(bot, bot.services.matches, bot.services.breaker,
                                bot.services.challenges))
