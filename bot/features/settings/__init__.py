"""Per-server settings (``/mastermind settings``), honoured by the other features."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import SettingsCog

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    await bot.add_cog(SettingsCog(bot.settings))
