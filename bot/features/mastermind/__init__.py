"""The ``/mastermind`` command group: start, show, end the channel's game; help; forget-me."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import MastermindCog

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    await bot.add_cog(MastermindCog(bot, bot.games))
