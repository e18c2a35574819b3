"""``/leaderboard``, ``/stats`` and forget-me: per server and across servers, by period and
rule size."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from i18n import tr

from ...core.enums import Mode, Period
from ...ui.buttons import cog_of
from ...ui.options import display_name
from ...ui.places import usable
from ...ui.responses import update
from ...ui.translation import publicly
from ..ratings.cog import RatingsCog
from .buttons import SIZE_PATTERN, ForgetButton, PageButton
from .errors import BadSize, NotYourPrompt, SeasonWithoutRating
from .render import forget_embed, forgotten_embed, leaderboard_embed, stats_embed
from .service import CLASSIC_SIZE, LeaderboardPage, StatsService

GLOBAL_SCOPE = 0
#: ``/leaderboard mode:rating``: not a results board (see bot/features/ratings).
RATING = "rating"


async def season_autocomplete(interaction: discord.Interaction, current: str
                              ) -> list[app_commands.Choice[str]]:
    return await cog_of(interaction, RatingsCog).season_autocomplete(interaction, current)


def check_size(size: str) -> str:
    size = size.strip().lower()
    if not SIZE_PATTERN.match(size):
        raise BadSize(size)
    return size


class StatsCog(commands.Cog, name="stats"):
    def __init__(self, bot: commands.Bot, service: StatsService):
        self.bot = bot
        self.service = service

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton, ForgetButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PageButton, ForgetButton)

    async def size_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        sizes = await self.service.sizes()
        if CLASSIC_SIZE not in sizes:
            sizes.insert(0, CLASSIC_SIZE)
        return [app_commands.Choice(name=s, value=s) for s in sizes if current in s][:25]

    @app_commands.command(name="leaderboard", description="Top players, here or everywhere")
    @app_commands.describe(
        scope="This server or all servers (default: this server; outside servers: all)",
        period="All time, this month or this week (UTC; default: all time)",
        mode="Code breakers, or whose codes were hardest for the bot (default: breakers)",
        size="Rule size, like 4x6 or 5x8 no-repeats (default: classic 4x6)",
        season="With mode rating: a past season's final standings (default: this season)",
    )
    @app_commands.choices(
        scope=[app_commands.Choice(name="this server", value="server"),
               app_commands.Choice(name="all servers", value="global")],
        period=[app_commands.Choice(name="all time", value=Period.ALL.value),
                app_commands.Choice(name="this month", value=Period.MONTH.value),
                app_commands.Choice(name="this week", value=Period.WEEK.value)],
        mode=[app_commands.Choice(name="code breakers (/mastermind new)",
                                  value=Mode.BREAKER.value),
              app_commands.Choice(name="private games (/mastermind new private:True)",
                                  value=Mode.PRIVATE.value),
              app_commands.Choice(name="hardest codes (/challenge, /mastermind new setter:me)",
                                  value=Mode.CHALLENGE.value),
              app_commands.Choice(name="matches against the bot (/match)",
                                  value=Mode.MATCH_BOT.value),
              app_commands.Choice(name="matches between players (/match opponent)",
                                  value=Mode.MATCH_PEOPLE.value),
              app_commands.Choice(name="rating (matches between players, races)",
                                  value=RATING)],
    )
    @app_commands.autocomplete(size=size_autocomplete, season=season_autocomplete)
    @usable()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        scope: str = "server",
        period: str = Period.ALL.value,
        mode: str = Mode.BREAKER.value,
        size: str = CLASSIC_SIZE,
        season: str | None = None,
    ) -> None:
        if mode == RATING:  # per server, by season: the ratings feature's board
            await cog_of(interaction, RatingsCog).show_board(interaction, season)
            return
        if season is not None:
            raise SeasonWithoutRating()
        where = GLOBAL_SCOPE if scope == "global" else (interaction.guild_id or GLOBAL_SCOPE)
        embed, view = await self._page(interaction, Mode(mode), where, Period(period),
                                       check_size(size), 0, public=True)
        await interaction.response.send_message(embed=embed, view=view)

    async def on_page(self, interaction: discord.Interaction, mode: Mode, scope: int,
                      period: Period, size: str, page: int) -> None:
        """Paging is the clicker's own: a click on the public board answers them alone
        with the page (and their rank); on that private page, it turns it. The public
        board never moves."""
        embed, view = await self._page(interaction, mode, scope, period, size, page)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def _page(self, interaction: discord.Interaction, mode: Mode, scope: int,
                    period: Period, size: str, page: int, *, public: bool = False
                    ) -> tuple[discord.Embed, discord.ui.View]:
        """A page of a board: in the channel's language when posted there (``public``),
        else in the clicker's."""
        board = await self.service.leaderboard(mode=mode, scope=scope, period=period, size=size,
                                               page=page, viewer_id=interaction.user.id)
        if public:
            with publicly(interaction):
                return self._render_page(interaction, board)
        return self._render_page(interaction, board)

    def _render_page(self, interaction: discord.Interaction, board: LeaderboardPage
                     ) -> tuple[discord.Embed, discord.ui.View]:
        mode, scope, period, size = board.mode, board.scope, board.period, board.size
        # (a server reached through a user's install is only known by its id)
        scope_name = tr("all servers") if scope == GLOBAL_SCOPE else (
            interaction.guild.name if interaction.guild else "") or tr("this server")
        embed = leaderboard_embed(board, display_name(interaction.user), scope_name)
        view = discord.ui.View(timeout=None)
        view.add_item(PageButton(mode, scope, period, size, max(board.page - 1, 0), "prev",
                                 disabled=board.page == 0))
        view.add_item(PageButton(mode, scope, period, size,
                                 min(board.page + 1, board.pages - 1), "next",
                                 disabled=board.page >= board.pages - 1))
        return embed, view

    @app_commands.command(name="stats", description="Games, wins, streaks and records")
    @app_commands.describe(user="Whose stats (default: yours)",
                           size="Rule size, like 4x6 or 5x8 no-repeats (default: classic 4x6)")
    @app_commands.autocomplete(size=size_autocomplete)
    @usable()
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        size: str = CLASSIC_SIZE,
    ) -> None:
        target = user or interaction.user
        stats = await self.service.player(target.id, check_size(size))
        with publicly(interaction):  # posted in the channel
            embed = stats_embed(stats, display_name(target))
            chart = await cog_of(interaction, RatingsCog).on_stats(interaction.guild_id,
                                                                   target.id, embed)
        await interaction.response.send_message(embed=embed, file=chart or discord.utils.MISSING)

    async def ask_forget(self, interaction: discord.Interaction) -> None:
        """``/mastermind forget-me``: a private prompt with a confirm and a cancel button."""
        view = discord.ui.View(timeout=None)
        view.add_item(ForgetButton(True, interaction.user.id))
        view.add_item(ForgetButton(False, interaction.user.id))
        await interaction.response.send_message(embed=forget_embed(), view=view, ephemeral=True)

    async def on_forget(self, interaction: discord.Interaction, user_id: int,
                        confirm: bool) -> None:
        if interaction.user.id != user_id:
            raise NotYourPrompt()
        counts = await self.service.forget(user_id) if confirm else None
        await update(interaction, embed=forgotten_embed(counts), view=None)
