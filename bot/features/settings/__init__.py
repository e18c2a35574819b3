"""Per-server settings (``/mastermind settings``), honoured by the other features."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import SettingsCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(SettingsCog(bot.services.settings))
