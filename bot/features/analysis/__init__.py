"""Post-game analysis: the ``Analyse`` button on every finished game (and the daily)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import AnalysisCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(AnalysisCog(bot, bot.services.analysis))
