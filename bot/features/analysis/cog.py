"""The Analyse button's controller: load the finished game, defer, analyse in a worker
thread, answer the clicker alone with the analysis and its chart."""

from __future__ import annotations

import asyncio
import io

import discord
from discord.ext import commands

from .buttons import AnalyseButton
from .render import CHART_NAME, analysis_embed
from .service import AnalysisService, Source, build_report


class AnalysisCog(commands.Cog, name="analysis"):
    def __init__(self, bot: commands.Bot, service: AnalysisService):
        self.bot = bot
        self.service = service

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(AnalyseButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(AnalyseButton)

    async def on_game(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.show(interaction, await self.service.game(game_id, interaction.user.id))

    async def on_daily(self, interaction: discord.Interaction, day: str) -> None:
        await self.show(interaction, await self.service.of_daily(day, interaction.user.id))

    async def show(self, interaction: discord.Interaction, source: Source) -> None:
        """Private to the clicker; the analysis of a big game takes a moment: defer first."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        report = await asyncio.to_thread(build_report, source)
        await interaction.followup.send(
            embed=analysis_embed(report),
            file=discord.File(io.BytesIO(report.chart), filename=CHART_NAME), ephemeral=True)
