"""Hints in a running channel game (``/mastermind hint``): shown to all, recorded, and the
game's crack kept off the leaderboards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import HintsCog
from .service import HintService

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    await bot.add_cog(HintsCog(HintService(bot.games, bot.settings.hints_allowed)))
