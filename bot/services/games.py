"""The lifecycle every kind of game shares: open, load (ending idle games), end, quit.

Discord-free: methods take ids and names and return records or raise domain errors.
Each write is one transaction; reads use the read connection and never wait for a writer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..core.clock import Clock, system_clock
from ..core.config import DEFAULT_IDLE_HOURS
from ..core.enums import GameStatus, Which
from ..core.errors import (
    GameAlreadyRunning,
    InRace,
    NoGameRunning,
    NoPrivateGame,
    NotYourGame,
    PrivateGameRunning,
    RaceTimeUp,
    UserError,
)
from ..core.records import GameEnding, GameRecord, NewGame
from ..store import BoardElsewhere, Connection, Database, GameStore, StatsStore, once

DEFAULT_IDLE_TIMEOUT = DEFAULT_IDLE_HOURS * 3600

#: Called in the transaction that ends a game, with who ended it (a quit) if known: how a
#: match advances exactly once, in the same commit as its half-round's last move.
EndHook = Callable[[Connection, GameRecord, "int | None"], Awaitable[None]]
#: Called before a game opens in a channel (on the writer, or the read connection): raises
#: a domain error when something else (a match) holds the channel.
ChannelCheck = Callable[[Connection, int], Awaitable[None]]
#: Raises a domain error when a server's settings don't allow games in a channel.
ChannelAllowed = Callable[["int | None", int], None]


def _no_override(guild_id: int | None) -> float | None:
    return None


def _every_channel(guild_id: int | None, channel_id: int) -> None:
    return None


T = TypeVar("T")


@dataclass(frozen=True)
class IdleRule:
    """How long a game (or a match waiting for a code) may go without a move before it is
    abandoned: a server's own timeout (``by_server``: its settings; None, the bot's), or
    the bot's ``timeout``, in seconds."""

    timeout: float = DEFAULT_IDLE_TIMEOUT
    by_server: Callable[[int | None], float | None] = _no_override

    def seconds(self, guild_id: int | None) -> float:
        override = self.by_server(guild_id)
        return self.timeout if override is None else override


#: The bot's default idle timeout, with no server's settings.
DEFAULT_IDLE = IdleRule()


@dataclass(frozen=True)
class Opened:
    game: GameRecord
    #: The channel's previous game, if it had gone idle and was just ended as abandoned.
    abandoned: GameRecord | None


class GameService:
    """Built with everything it consults: the idle rule and the channel check of the
    servers' settings, and what other features do when a game opens or ends (a match's
    ``channel_checks`` and ``end_hooks``), so nothing is attached to it later."""

    def __init__(
        self, db: Database, *, clock: Clock = system_clock, idle: IdleRule = DEFAULT_IDLE,
        channel_allowed: ChannelAllowed = _every_channel,
        end_hooks: Sequence[EndHook] = (), channel_checks: Sequence[ChannelCheck] = (),
    ):
        self.db = db
        self.clock = clock
        self.idle = idle
        self.channel_allowed = channel_allowed
        self.end_hooks = tuple(end_hooks)
        self.channel_checks = tuple(channel_checks)
        self.store = GameStore()
        self.stats = StatsStore()

    @property
    def idle_timeout(self) -> float:
        """The bot's own idle timeout, in seconds (a server may set its own)."""
        return self.idle.timeout

    def idle_for(self, guild_id: int | None) -> float:
        return self.idle.seconds(guild_id)

    def is_idle(self, game: GameRecord, now: float) -> bool:
        """Gone without a move too long, or (a racer's board) past its race's deadline."""
        if game.deadline is not None:
            return game.active and now >= game.deadline
        return game.active and now - game.updated_at > self.idle_for(game.guild_id)

    def no_game(self, abandoned: GameRecord | None = None, *, private: bool = False
                ) -> NoGameRunning:
        timeout = self.idle_for(abandoned.guild_id) if abandoned else self.idle_timeout
        if abandoned is not None and abandoned.race_id is not None:
            return RaceTimeUp(abandoned, timeout)
        return (NoPrivateGame if private else NoGameRunning)(abandoned, timeout)

    @staticmethod
    def running_private(game: GameRecord) -> PrivateGameRunning:
        """The refusal of a second private game: ``game`` is the player's (a race's board)."""
        return (InRace if game.race_id is not None else PrivateGameRunning)(game)

    # ---- inside a write transaction -------------------------------------------------------
    async def end(self, conn: Connection, game: GameRecord, ending: GameEnding, *,
                  now: float, by: int | None = None) -> GameRecord:
        """End a game and count it for stats, in the caller's transaction; ``by``: who ended
        it (a quit), for the end hooks."""
        ended = await self.store.finish(conn, game, ending, now=now)
        await self.stats.record(conn, ended)
        for hook in self.end_hooks:
            await hook(conn, ended, by)
        return ended

    async def load_active(
        self, conn: Connection, channel_id: int
    ) -> tuple[GameRecord | None, GameRecord | None]:
        """The channel's running game, ending it first as abandoned if it has gone idle.

        Returns ``(running game or None, game just abandoned or None)``.
        """
        game = await self.store.active_in_channel(conn, channel_id)
        return await self.end_if_idle(conn, game)

    async def twice(self, attempt: Callable[[int | None], Awaitable[T]]) -> T:
        """Run ``attempt`` (a write transaction reaching the player's private game, given
        the race channel to hold from the start); once more holding the channel of a
        racer's board it found (:class:`~bot.store.BoardElsewhere`: nothing was written)."""
        try:
            return await attempt(None)
        except BoardElsewhere as elsewhere:
            return await attempt(elsewhere.channel_id)

    async def load_private(
        self, conn: Connection, user_id: int, race_channel: int | None = None
    ) -> tuple[GameRecord | None, GameRecord | None]:
        """The player's running private game, like :meth:`load_active`."""
        return await self.end_if_idle(conn, await self.store.active_private(
            conn, user_id, race_channel))

    async def load_for(
        self, conn: Connection, *, channel_id: int, user_id: int, which: Which = Which.AUTO,
        fits: Callable[[GameRecord], bool] | None = None, race_channel: int | None = None,
    ) -> tuple[GameRecord | None, GameRecord | None, bool]:
        """In a write transaction, the game a move made in this channel means (the rule of
        :meth:`private_meant`), like :meth:`load_active`: ``(running game or None, game just
        abandoned or None, whether the player's private game was meant)``. Chosen under the
        write lock, so moves keep their order whichever game they land on. Run it through
        :meth:`twice` (``race_channel``)."""
        if which is Which.AUTO:  # both games are read in nearly every case
            await self.store.hold_both(conn, channel_id, user_id, race_channel)
        if which is not Which.CHANNEL:
            private = await self.store.active_private(conn, user_id, race_channel)
            if private is None and which is Which.PRIVATE:
                return None, None, True
            if private is not None and (
                    which is Which.PRIVATE
                    or (private.channel_id == channel_id and (fits is None or fits(private)))
                    or not await self._busy(conn, channel_id, fits)):
                game, abandoned = await self.end_if_idle(conn, private)
                return game, abandoned, True
        game, abandoned = await self.load_active(conn, channel_id)
        return game, abandoned, False

    async def end_if_idle(
        self, conn: Connection, game: GameRecord | None
    ) -> tuple[GameRecord | None, GameRecord | None]:
        now = self.clock()
        if game is not None and self.is_idle(game, now):
            # a racer's board out of time is unsolved (lost), not abandoned
            status = GameStatus.ABANDONED if game.deadline is None else GameStatus.LOST
            return None, await self.end(conn, game, GameEnding(status), now=now)
        return game, None

    # ---- whole actions --------------------------------------------------------------------
    async def open(self, new: NewGame, *, user_name: str) -> Opened:
        """Start a game of any kind, unless one already runs in the channel; a private game
        unless the player has one running (it shows nothing in the channel, so the server's
        channel list and a match holding the channel don't concern it). ``user_name``: the
        starter's display name, remembered."""
        if not new.private:
            self.channel_allowed(new.guild_id, new.channel_id)
        now = self.clock()

        async def attempt(race_channel: int | None) -> tuple[GameRecord, GameRecord | None]:
            async with once(), self.db.transaction() as conn:
                if new.private:
                    running, abandoned = await self.load_private(conn, new.started_by,
                                                                 race_channel)
                    if running is not None:
                        raise self.running_private(running)
                else:
                    running, abandoned = await self.load_active(conn, new.channel_id)
                    if running is not None:
                        raise GameAlreadyRunning(running)
                    for check in self.channel_checks:
                        await check(conn, new.channel_id)
                game = await self.store.create(conn, new, now=now)
                await self.store.remember_player(conn, new.started_by, user_name, now)
                return game, abandoned

        game, abandoned = await self.twice(attempt)
        if abandoned is not None and abandoned.race_id is not None:
            abandoned = None  # a racer's board out of its race's time: the race tells its end
        return Opened(game, abandoned)

    async def running(self, channel_id: int) -> GameRecord:
        """The channel's running game, read without waiting for any writer.

        An idle game is reported as abandoned (the next write in the channel records it)."""
        game = await self.store.active_in_channel(await self.db.reader(), channel_id)
        if game is None:
            raise self.no_game()
        if self.is_idle(game, self.clock()):
            raise self.no_game(game)
        return game

    async def check_free(self, channel_id: int) -> None:
        """Refuse at once when a game runs here (``open`` checks again, atomically)."""
        reader = await self.db.reader()
        game = await self.store.active_in_channel(reader, channel_id)
        if game is not None and not self.is_idle(game, self.clock()):
            raise GameAlreadyRunning(game)
        for check in self.channel_checks:
            await check(reader, channel_id)

    async def check_private_free(self, user_id: int) -> None:
        """Refuse at once when the player has a private game running."""
        game = await self.store.active_private(await self.db.reader(), user_id)
        if game is not None and not self.is_idle(game, self.clock()):
            raise self.running_private(game)

    async def private_meant(
        self, *, channel_id: int, user_id: int, which: Which = Which.AUTO,
        fits: Callable[[GameRecord], bool] | None = None,
    ) -> GameRecord | None:
        """The player's private game when a command used in this channel means it, else
        None (the channel's game is meant). Unless ``which`` says, it is meant when it was
        started here (and the command can act on it: ``fits``), or when this channel has no
        game the command can act on (``fits``; None: any game, or a match holding the
        channel). Read without waiting for writers; raises :class:`NoPrivateGame` when
        ``which`` asks for one that isn't running, or the one meant has gone idle (reported
        as abandoned, with its code; the player's next private write records it)."""
        if which is Which.CHANNEL:
            return None
        reader = await self.db.reader()
        game = await self.store.active_private(reader, user_id)
        if game is None:
            if which is Which.PRIVATE:
                raise self.no_game(private=True)
            return None
        meant = which is Which.PRIVATE or (
            game.channel_id == channel_id and (fits is None or fits(game)))
        if not meant and await self._busy(reader, channel_id, fits):
            return None
        if self.is_idle(game, self.clock()):
            raise self.no_game(game, private=True)
        return game

    async def _busy(self, conn: Connection, channel_id: int,
                    fits: Callable[[GameRecord], bool] | None) -> bool:
        """Does this channel have a game (that ``fits``) or a match running?"""
        game = await self.store.active_in_channel(conn, channel_id)
        if game is not None and not self.is_idle(game, self.clock()):
            return fits is None or fits(game)
        if fits is None:
            for check in self.channel_checks:
                try:
                    await check(conn, channel_id)
                except UserError:
                    return True
        return False

    async def get(self, game_id: int) -> GameRecord | None:
        return await self.store.get(await self.db.reader(), game_id)

    async def latest(self, channel_id: int) -> GameRecord | None:
        return await self.store.latest_in_channel(await self.db.reader(), channel_id)

    async def latest_private(self, user_id: int) -> GameRecord | None:
        return await self.store.latest_private(await self.db.reader(), user_id)

    async def quit(self, *, channel_id: int, user_id: int, can_manage: bool,
                   action_id: int | None = None, game_id: int | None = None) -> GameRecord:
        """End the channel's game: ``game_id``, the one the player was shown, if given (a
        game that ended meanwhile is no game running, even if another has begun)."""
        async with once(), self.db.transaction() as conn:
            game, abandoned = await self.load_active(conn, channel_id)
            if game is not None and game_id not in (None, game.id):
                game = None
            allowed = game is not None and (game.started_by == user_id or can_manage)
            if game is not None and allowed:
                return await self.end(conn, game, GameEnding(GameStatus.QUIT, action_id=action_id),
                                      now=self.clock(), by=user_id)
        # Raised after the commit: an idle game found here stays recorded as abandoned.
        if game is None:
            raise self.no_game(abandoned)
        raise NotYourGame(game)

    async def quit_private(self, *, user_id: int, game_id: int | None = None,
                           action_id: int | None = None) -> GameRecord:
        """The player ends their private game (nobody else can see it, let alone end it):
        ``game_id``, the one they were shown, if given."""
        async def attempt(race_channel: int | None) -> GameRecord:
            async with once(), self.db.transaction() as conn:
                game, abandoned = await self.load_private(conn, user_id, race_channel)
                if game is not None and game_id in (None, game.id):
                    return await self.end(conn, game, GameEnding(
                        GameStatus.QUIT, action_id=action_id), now=self.clock(), by=user_id)
            raise self.no_game(abandoned, private=True)

        return await self.twice(attempt)

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await self.store.set_board_message(conn, game_id, message_id)

    async def swap_board(self, game_id: int, message_id: int, turn: int
                         ) -> tuple[int, int] | None:
        """Record the game's new live board; returns the board message to collapse and the
        number of moves it shows."""
        async with self.db.transaction() as conn:
            return await self.store.swap_board(conn, game_id, message_id, turn)

    async def names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Players' last display names, read without waiting for a writer."""
        return await self.store.player_names(await self.db.reader(), user_ids)
