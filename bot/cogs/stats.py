"""``/leaderboard`` and ``/stats``: per server and across servers, by period and rule size."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..errors import BadInput
from ..stats import CLASSIC_SIZE, StatsService
from ..views.stats import SIZE_PATTERN, render_leaderboard, stats_embed


def check_size(size: str) -> str:
    size = size.strip().lower()
    if not SIZE_PATTERN.match(size):
        raise BadInput(
            f"{size!r} is not a rule size: write pegs x colours like `4x6`, or `5x8 no-repeats`.",
            title="Unknown size",
        )
    return size


class StatsCog(commands.Cog):
    def __init__(self, service: StatsService):
        self.service = service

    async def size_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        sizes = await self.service.sizes()
        if CLASSIC_SIZE not in sizes:
            sizes.insert(0, CLASSIC_SIZE)
        return [app_commands.Choice(name=s, value=s) for s in sizes if current in s][:25]

    @app_commands.command(name="leaderboard", description="Top players, here or everywhere")
    @app_commands.describe(
        scope="This server or all servers (default: this server)",
        period="All time, this month or this week (UTC; default: all time)",
        mode="Code breakers, or whose codes were hardest for the bot (default: breakers)",
        size="Rule size, like 4x6 or 5x8 no-repeats (default: classic 4x6)",
    )
    @app_commands.choices(
        scope=[app_commands.Choice(name="this server", value="server"),
               app_commands.Choice(name="all servers", value="global")],
        period=[app_commands.Choice(name="all time", value="all"),
                app_commands.Choice(name="this month", value="month"),
                app_commands.Choice(name="this week", value="week")],
        mode=[app_commands.Choice(name="code breakers (/mastermind new)", value="breaker"),
              app_commands.Choice(name="hardest codes for the bot (/challenge)",
                                  value="challenge")],
    )
    @app_commands.autocomplete(size=size_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        scope: str = "server",
        period: str = "all",
        mode: str = "breaker",
        size: str = CLASSIC_SIZE,
    ) -> None:
        embed, view = await render_leaderboard(
            interaction, mode=mode, scope=0 if scope == "global" else interaction.guild_id,
            period=period, size=check_size(size), page=0,
        )
        await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="Games, wins, streaks and records")
    @app_commands.describe(user="Whose stats (default: yours)",
                           size="Rule size, like 4x6 or 5x8 no-repeats (default: classic 4x6)")
    @app_commands.autocomplete(size=size_autocomplete)
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        size: str = CLASSIC_SIZE,
    ) -> None:
        target = user or interaction.user
        stats = await self.service.player(target.id, check_size(size))
        name = getattr(target, "display_name", target.name)
        await interaction.response.send_message(embed=stats_embed(stats, name))
