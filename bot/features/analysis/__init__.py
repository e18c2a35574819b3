"""Post-game analysis: the ``Analyse`` button on every finished game (and the daily)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import AnalysisCog
from .service import AnalysisService

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    await bot.add_cog(AnalysisCog(bot, AnalysisService(bot.games, bot.daily)))
