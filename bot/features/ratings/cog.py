"""What ``/leaderboard mode:rating`` and ``/stats`` show of ratings (the commands are the
stats feature's; they hand over here), and the rating board's paging."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from i18n import tr

from ...ui.options import display_name
from ...ui.translation import publicly
from .buttons import RatingPageButton
from .chart import rating_chart
from .errors import RatingsPerServer
from .model import PROVISIONAL_GAMES
from .render import board_embed, card_field
from .service import Board, PageTurn, RatingService

#: The rating chart's file name on ``/stats``.
CHART_NAME = "rating.png"


class RatingsCog(commands.Cog, name="ratings"):
    def __init__(self, bot: commands.Bot, service: RatingService):
        self.bot = bot
        self.service = service

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RatingPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RatingPageButton)

    async def season_autocomplete(self, interaction: discord.Interaction, current: str
                                  ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        seasons = await self.service.seasons_played(interaction.guild_id)
        return [app_commands.Choice(name=s, value=s) for s in seasons if current in s][:25]

    # ---- the board ----------------------------------------------------------------------
    async def show_board(self, interaction: discord.Interaction, season: str | None) -> None:
        """``/leaderboard mode:rating``: the season's first page, in the channel."""
        if interaction.guild_id is None:
            raise RatingsPerServer()
        board = await self.service.board(interaction.guild_id, season or None, page=0,
                                         viewer_id=interaction.user.id)
        with publicly(interaction):
            embed, view = self._render(interaction, interaction.guild_id, board)
        await interaction.response.send_message(embed=embed, view=view)

    async def on_page(self, interaction: discord.Interaction, guild_id: int, season: str,
                      page: int, turn: PageTurn | None) -> None:
        """As the other boards: a click on the public board answers the clicker alone with
        the page; on that private page, it turns it."""
        board = await self.service.board(guild_id, season, page=page,
                                         viewer_id=interaction.user.id, turn=turn)
        embed, view = self._render(interaction, guild_id, board)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @staticmethod
    def _render(interaction: discord.Interaction, guild_id: int, board: Board
                ) -> tuple[discord.Embed, discord.ui.View]:
        server = (interaction.guild.name if interaction.guild and interaction.guild.id == guild_id
                  else "") or tr("this server")
        embed = board_embed(board, server, display_name(interaction.user))
        view = discord.ui.View(timeout=None)
        rows = board.rows
        first = (rows[0].rating, rows[0].user_id) if rows else None
        last = (rows[-1].rating, rows[-1].user_id) if rows else None
        view.add_item(RatingPageButton(guild_id, board.season, max(board.page - 1, 0), "prev",
                                       first, disabled=not rows or rows[0].rank <= 1))
        view.add_item(RatingPageButton(guild_id, board.season,
                                       min(board.page + 1, board.pages - 1), "next", last,
                                       disabled=not rows or rows[-1].rank >= board.size))
        return embed, view

    # ---- /stats -------------------------------------------------------------------------
    async def on_stats(self, guild_id: int | None, user_id: int, embed: discord.Embed
                       ) -> discord.File | None:
        """Add the player's rating in the server to their ``/stats`` embed (in the caller's
        language), and its history chart (drawn in a worker thread) as the embed's image."""
        if guild_id is None:
            return None
        card = await self.service.card(guild_id, user_id)
        if card is None:
            return None
        name, value = card_field(card)
        embed.add_field(name=name, value=value, inline=False)
        if not card.history:
            return None
        ratings = [c.after for c in card.history if c.after is not None]
        first = card.rating.total_games - len(ratings)  # rated games before the chart's first
        chart = await asyncio.to_thread(rating_chart, ratings,
                                        max(0, PROVISIONAL_GAMES - 1 - first))
        embed.set_image(url=f"attachment://{CHART_NAME}")
        return discord.File(io.BytesIO(chart), filename=CHART_NAME)
