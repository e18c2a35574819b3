"""The Activity inside the bot: the board's button that opens it, its web server's life, the
chat's moves told to its live viewers, and its moves shown on the channel's live board."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.ext import commands

from i18n import speaking

from ...core.enums import GameKind
from ...core.records import GameRecord
from ...ui import launch
from ...ui.options import display_name
from ...ui.translation import server_locale
from ..breaker.buttons import board_view
from ..breaker.render import board_embed
from .buttons import LaunchButton
from .server import ActivityServer
from .service import Mode, Moved, Player
from .views import View

if TYPE_CHECKING:
    from ...app import MastermindBot

log = logging.getLogger(__name__)


class ActivityCog(commands.Cog, name="activity"):
    def __init__(self, bot: MastermindBot, *, launchable: bool,
                 server: ActivityServer | None, host: str = "127.0.0.1", port: int = 0):
        self.bot = bot
        self.launchable = launchable
        self.server = server
        self.host, self.port = host, port
        self._tasks: set[asyncio.Task[Any]] = set()

    async def cog_load(self) -> None:
        if self.launchable:
            self.bot.add_dynamic_items(LaunchButton)
            launch.install(LaunchButton)
        if self.server is not None:
            self.server.on_move.append(self.show_on_board)
            await self.server.hub.start()
            await self.server.start(self.host, self.port)

    async def cog_unload(self) -> None:
        if self._tasks:  # boards being updated: they need the database and Discord
            await asyncio.wait(self._tasks, timeout=5)
        if self.launchable:
            launch.install(None)
            self.bot.remove_dynamic_items(LaunchButton)
        if self.server is not None:
            await self.server.stop()
            await self.server.hub.close()
            await self.server.auth.session.close()

    # ---- the chat's moves, live in the Activity ---------------------------------------------
    @commands.Cog.listener()
    async def on_game_moved(self, game: GameRecord, user: discord.abc.User) -> None:
        if self.server is None:
            return
        by = Player(user.id, display_name(user))
        if not game.private:
            moved = Moved(Mode.CHANNEL, game.guild_id, game.channel_id, user.id, by)
        else:
            mode = Mode.CHALLENGE if game.kind is GameKind.CHALLENGE else Mode.PRIVATE
            moved = Moved(mode, game.guild_id, None, game.started_by, by)
        await self.server.hub.publish(moved)

    # ---- the Activity's moves, on the channel's live board ----------------------------------
    async def show_on_board(self, moved: Moved, view: View) -> None:
        """A channel game's board shows the Activity's move (in a task of its own: the
        mover's answer never waits for Discord); a move on a player's own game is told to
        the features that show more than its board (``on_activity_moved(game_id)``: a
        racer's board, on its race's standings)."""
        if moved.mode is Mode.PRIVATE and str(view.get("game_id") or "").isdigit():
            self.bot.dispatch("activity_moved", int(view["game_id"]))
        if moved.mode is not Mode.CHANNEL or not view.get("game_id"):
            return
        task = asyncio.get_running_loop().create_task(self._show(int(view["game_id"])))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _server_locale(self, guild_id: int | None) -> str | None:
        guild = self.bot.get_guild(guild_id) if guild_id else None
        return server_locale(self.bot.services.settings.language(guild_id),
                             guild.preferred_locale.value if guild else None)

    async def _show(self, game_id: int) -> None:
        games = self.bot.services.games
        game = await games.get(game_id)
        if game is None:
            return
        names = await games.names({g.player_id for g in game.guesses} | {game.started_by})
        with speaking(self._server_locale(game.guild_id)):
            embed, view = board_embed(game, names=names), board_view(game)
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            if game.board_message_id is not None:
                await channel.get_partial_message(game.board_message_id).edit(
                    embed=embed, view=view)
                message_id = game.board_message_id
            else:
                message_id = (await channel.send(embed=embed, view=view or discord.utils.MISSING
                                                 )).id
            await games.swap_board(game.id, message_id, len(game.guesses))
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
            log.info("activity: the board of game %s was not updated (%s)", game.id, exc)
        except Exception:
            log.exception("activity: the board of game %s was not updated", game.id)
