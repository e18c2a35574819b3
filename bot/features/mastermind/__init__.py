"""The ``/mastermind`` command group: start, show, end the channel's game; help; forget-me."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import MastermindCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(MastermindCog(bot, bot.services.games))
