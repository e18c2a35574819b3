"""Hints in a running channel game (``/mastermind hint``): shown to all, recorded, and the
game's crack kept off the leaderboards."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import HintsCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(HintsCog(bot.services.hints))
