"""The picker's cog."""

from __future__ import annotations

from discord.ext import commands

from .buttons import PickerButton


class PickerCog(commands.Cog, name="picker"):
    """Registers the picker's buttons; the features register their purposes."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PickerButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PickerButton)
