"""Races (``/race``): a lobby in a channel, then everyone breaks the same secret on a
private board of their own (an ordinary private breaker game, ``race_id`` set), against the
clock. Discord-free.

Exactly once: each change of a race's state is a conditional UPDATE naming the state it was
read in (:class:`~bot.store.races.RaceStore`), inside one write transaction holding the
race's channel, which also locks every racer's board. A race's time limit ends it lazily
(any move, look or button of the race past its deadline ends it, in that transaction) and by
the sweep (:meth:`RaceService.sweep`, run every few seconds by each process); whichever comes
first ends it, the others find it ended. The ratings are applied in the same transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from engine import Feedback, Rules, draw_secret

from ...core.clock import Clock, system_clock
from ...core.enums import GameKind, GameStatus, RacerStatus, RaceStatus
from ...core.errors import GameAlreadyRunning, UserError
from ...core.races import (
    DEFAULT_TIME_LIMIT,
    LOBBY_SECONDS,
    MAX_RACERS,
    RaceHead,
    RaceRecord,
    RatingShown,
    places,
)
from ...core.records import GameEnding, GameRecord, NewGame
from ...services.games import GameService
from ...store import Connection, GameStore, StaleWrite, StatsStore, once
from ...store.races import RaceStore
from .errors import (
    AlreadyJoined,
    DoneRacing,
    NotInRace,
    NotStartedYet,
    NotTheStarter,
    RaceFull,
    RaceGone,
    RaceOver,
    RaceRunning,
    RaceStarted,
)

#: Rates a finished race inside the transaction that ends it: ``(conn, race, {racer:
#: place}, now)`` -> each racer's change as shown (the ratings service, through
#: :mod:`.rating`).
RateRace = Callable[[Connection, RaceRecord, dict[int, int], float],
                    Awaitable[dict[int, RatingShown]]]
#: A server's race time limit, in seconds (its settings).
TimeLimit = Callable[["int | None"], float]


async def _unrated(conn: Connection, race: RaceRecord, placed: dict[int, int],
                   now: float) -> dict[int, RatingShown]:
    return {}


def _default_limit(guild_id: int | None) -> float:
    return DEFAULT_TIME_LIMIT


def best_reply(game: GameRecord) -> Feedback:
    """The best reply a board got, black pegs first (how an unsolved racer ranks)."""
    return max((g.feedback for g in game.guesses), key=lambda f: (f.black, f.white),
               default=Feedback(0, 0))


def racer_status(game: GameRecord) -> RacerStatus:
    if game.status is GameStatus.WON:
        return RacerStatus.SOLVED
    if game.status is GameStatus.LOST:  # out of guesses, or out of time
        return RacerStatus.UNSOLVED
    return RacerStatus.LEFT  # quit (or, never for a race's board, abandoned)


class RaceBoards:
    """What a race does inside :class:`GameService`'s transactions: hold its channel while
    it runs (a channel check), and when a racer's board ends, record how, and end the race
    when everyone has finished or its time is up (an end hook). Built before the game
    service, which is given both when it is built."""

    def __init__(self, *, clock: Clock = system_clock, rate: RateRace = _unrated):
        self.clock = clock
        self.rate = rate
        self.store = RaceStore()
        self.games = GameStore()
        self.stats = StatsStore()

    async def check_channel(self, conn: Connection, channel_id: int) -> None:
        """A lobby or a running race holds its channel (no game or match starts there)."""
        race = await self.store.open_in_channel(conn, channel_id)
        if race is not None:
            raise RaceRunning(race)

    async def on_game_end(self, conn: Connection, game: GameRecord, by: int | None) -> None:
        if game.race_id is None:
            return
        race = await self.store.get(conn, game.race_id)
        if race is None or race.status is not RaceStatus.RUNNING:
            return  # the race's own end is ending this board
        now = game.ended_at or self.clock()
        await self.store.racer_done(conn, race.id, game.started_by, status=racer_status(game),
                                    guesses=len(game.guesses), best=best_reply(game), at=now)
        after = await self.store.get(conn, race.id)
        assert after is not None
        if after.time_up(now) or not any(r.racing for r in after.racers):
            await self.finish(conn, after, now)

    async def finish(self, conn: Connection, race: RaceRecord, now: float) -> None:
        """End the race (StaleWrite if it has ended already): the boards still running end
        unsolved, everyone is placed, and the ratings move, all in the caller's commit."""
        await self.store.finish(conn, race, now)
        for game_id in await self.store.running_boards(conn, race.id):
            game = await self.games.racer_board(conn, game_id)
            if game is None or not game.active:
                continue
            ended = await self.games.finish(conn, game, GameEnding(GameStatus.LOST), now=now)
            await self.stats.record(conn, ended)
            await self.store.racer_done(conn, race.id, game.started_by,
                                        status=RacerStatus.UNSOLVED, guesses=len(game.guesses),
                                        best=best_reply(game), at=now)
        over = await self.store.get(conn, race.id)
        assert over is not None and over.started_at is not None
        placed = places(over.racers, over.started_at)
        await self.store.place(conn, race.id, placed, await self.rate(conn, over, placed, now))
        await self.store.show_codes(conn, race.id)


@dataclass(frozen=True)
class Started:
    race: RaceRecord
    #: Racers left out at the start: they had started a private game since joining.
    dropped: tuple[int, ...] = ()


def _not_in_lobby(race: RaceRecord) -> UserError | None:
    if race.status is RaceStatus.RUNNING:
        return RaceStarted(race)
    return None if race.status is RaceStatus.LOBBY else RaceOver(race)


class RaceService:
    def __init__(self, games: GameService, boards: RaceBoards, *,
                 time_limit: TimeLimit = _default_limit):
        self.games = games
        self.boards = boards
        self.store = boards.store
        self.time_limit = time_limit

    @property
    def clock(self) -> Clock:
        return self.games.clock

    # ---- the lobby ----------------------------------------------------------------------------
    async def open(self, *, guild_id: int | None, channel_id: int, user_id: int,
                   user_name: str, rules: Rules, action_id: int | None = None) -> RaceRecord:
        """A lobby in this channel, with its starter in it: unless the channel has a race,
        a game or a match running, or the starter a private game."""
        self.games.channel_allowed(guild_id, channel_id)
        await self._check_free_to_race(user_id)
        now = self.clock()
        async with once(), self.games.db.transaction() as conn:
            refusal = await self._channel_refusal(conn, channel_id, now)
            if refusal is None:
                return await self._create(conn, guild_id, channel_id, user_id, user_name,
                                          rules, now, action_id)
        raise refusal  # after the commit: a race settled on the way stays settled

    async def _channel_refusal(self, conn: Connection, channel_id: int, now: float
                               ) -> UserError | None:
        """Why no race can open here now: a race (settled first), a game or a match."""
        running = await self.store.open_in_channel(conn, channel_id)
        if running is not None and (running := await self.settle(conn, running, now)).open:
            return RaceRunning(running)
        game, _ = await self.games.load_active(conn, channel_id)
        if game is not None:
            return GameAlreadyRunning(game)
        try:
            for check in self.games.channel_checks:
                await check(conn, channel_id)
        except UserError as exc:
            return exc
        return None

    async def _create(self, conn: Connection, guild_id: int | None, channel_id: int,
                      user_id: int, user_name: str, rules: Rules, now: float,
                      action_id: int | None) -> RaceRecord:
        race = await self.store.create(
                conn, guild_id=guild_id, channel_id=channel_id, rules=rules,
                secret=draw_secret(rules), started_by=user_id, now=now,
                lobby_until=now + LOBBY_SECONDS, time_limit=self.time_limit(guild_id),
                action_id=action_id)
        await self.games.store.remember_player(conn, user_id, user_name, now)
        return race

    async def join(self, race_id: int, *, user_id: int, user_name: str) -> RaceRecord:
        await self._check_free_to_race(user_id)
        now = self.clock()
        async with once(), self.games.db.transaction() as conn:
            race = await self._settled(conn, race_id, now)
            in_it = race.open and race.racer(user_id) is not None
            refusal = AlreadyJoined(race) if in_it else _not_in_lobby(race) or (
                RaceFull(race) if len(race.racers) >= MAX_RACERS else None)
            if refusal is None:
                await self.store.join(conn, race.id, user_id, now)
                await self.games.store.remember_player(conn, user_id, user_name, now)
                return await self._reread(conn, race.id)
        raise refusal  # after the commit (a lobby whose minute was up has started)

    async def start(self, race_id: int, *, user_id: int) -> Started:
        """The starter starts the race before the lobby's minute is up; a racer's Start on
        a race that has started (a double tap, or its minute was up) changes nothing and
        shows it under way."""
        now = self.clock()
        async with once(), self.games.db.transaction() as conn:
            race = await self._settled(conn, race_id, now)
            if race.status is RaceStatus.RUNNING and race.racer(user_id) is not None:
                return Started(race)
            refusal = _not_in_lobby(race) or (
                NotTheStarter(race) if user_id != race.started_by else None)
            if refusal is None:
                return await self._start(conn, race, now)
        raise refusal

    async def leave(self, race_id: int, *, user_id: int, action_id: int | None = None
                    ) -> RaceRecord:
        """Leave the lobby (the starter leaving calls it off), or the race: a forfeit, the
        racer's board ends as quit and they rank last."""
        now = self.clock()
        async with once(), self.games.db.transaction() as conn:
            race = await self._settled(conn, race_id, now)
            racer = race.racer(user_id)
            board = await self._board(conn, race.id, user_id)
            refusal: UserError | None = (
                RaceOver(race) if not race.open else NotInRace(race) if racer is None
                else None)
            if refusal is None and race.status is RaceStatus.LOBBY:
                if user_id == race.started_by:
                    await self.store.cancel(conn, race, now)
                else:
                    await self.store.unjoin(conn, race.id, user_id)
                return await self._reread(conn, race.id)
            if refusal is None and (board is None or not board.active):
                refusal = DoneRacing(race)
            if refusal is None and board is not None:
                await self.games.end(conn, board, GameEnding(
                    GameStatus.QUIT, action_id=action_id), now=now, by=user_id)
                return await self._reread(conn, race.id)
        raise refusal or DoneRacing(race)

    # ---- reads, and what settles a race on the way ----------------------------------------
    async def board_of(self, race_id: int, user_id: int) -> tuple[RaceRecord, GameRecord]:
        """A racer's board (a race out of time ends first: the board shows its end)."""
        now = self.clock()
        async with self.games.db.transaction() as conn:
            race = await self._settled(conn, race_id, now)
            board = await self._board(conn, race.id, user_id)
        if race.status is RaceStatus.LOBBY:
            raise NotStartedYet(race)
        if board is None:  # a racer's ended board is no longer theirs after forget-me
            raise NotInRace(race) if race.racer(user_id) is None else DoneRacing(race)
        return race, board

    async def get(self, race_id: int) -> RaceRecord | None:
        return await self.store.get(await self.games.db.reader(), race_id)

    async def head(self, race_id: int) -> RaceHead | None:
        """The race's state and board alone (one statement: a racer's every move reads it)."""
        return await self.store.head(await self.games.db.reader(), race_id)

    async def in_channel(self, channel_id: int) -> RaceRecord | None:
        return await self.store.open_in_channel(await self.games.db.reader(), channel_id)

    async def sweep(self) -> list[RaceRecord]:
        """Start the lobbies whose minute is up, end the races whose time is up; returns the
        races whose board has something new to show (every process sweeps; each change
        happens once)."""
        now = self.clock()
        changed: list[RaceRecord] = []
        for race_id in await self.store.due(await self.games.db.reader(), now):
            async with once(), self.games.db.transaction() as conn:
                changed.append(await self._settled(conn, race_id, now))
        return changed

    async def claim_announcement(self, race_id: int) -> bool:
        """Whether this caller shows the race's ending in the channel (once in all)."""
        async with self.games.db.transaction() as conn:
            return await self.store.claim_announcement(conn, race_id)

    async def release_announcement(self, race_id: int) -> None:
        async with self.games.db.transaction() as conn:
            await self.store.release_announcement(conn, race_id)

    async def set_board_message(self, race_id: int, message_id: int) -> None:
        async with self.games.db.transaction() as conn:
            await self.store.set_board_message(conn, race_id, message_id)

    # ---- inside a transaction ---------------------------------------------------------------
    async def _settled(self, conn: Connection, race_id: int, now: float) -> RaceRecord:
        race = await self.store.get(conn, race_id)
        if race is None:
            raise RaceGone()
        return await self.settle(conn, race, now)

    async def settle(self, conn: Connection, race: RaceRecord, now: float) -> RaceRecord:
        """The race as it stands at ``now``: a lobby whose minute is up starts, a race whose
        time is up ends (each once: whoever comes later finds it done)."""
        if race.lobby_over(now):
            return (await self._start(conn, race, now)).race
        if race.time_up(now):
            await self.boards.finish(conn, race, now)
            return await self._reread(conn, race.id)
        return race

    async def _start(self, conn: Connection, race: RaceRecord, now: float) -> Started:
        """Everyone in the lobby gets a board with the same secret, all ending at the same
        deadline; a racer who started a private game since joining is left out (also one
        whose game, or another race's board, was committed while this start ran)."""
        busy = await self.store.with_private_game(conn, (r.user_id for r in race.racers))
        if len(busy) < len(race.racers):
            race = await self.store.start(conn, race, now)
            # boards in player order: two starts sharing players wait in one order (PostgreSQL)
            for user_id in sorted(r.user_id for r in race.racers if r.user_id not in busy):
                board = await self.games.store.create_racer_board(conn, NewGame(
                    GameKind.BREAKER, race.guild_id, race.channel_id, user_id, race.rules,
                    secret=race.secret, private=True, race_id=race.id, deadline=race.deadline),
                    now=now)
                if board is None:
                    busy.add(user_id)
        await self.store.drop(conn, race.id, busy)
        if len(busy) == len(race.racers):
            await self.store.cancel(conn, race, now)
        return Started(await self._reread(conn, race.id), tuple(sorted(busy)))

    async def _board(self, conn: Connection, race_id: int, user_id: int) -> GameRecord | None:
        game_id = await self.store.board_id(conn, race_id, user_id)
        return None if game_id is None else await self.games.store.racer_board(conn, game_id)

    async def _reread(self, conn: Connection, race_id: int) -> RaceRecord:
        race = await self.store.get(conn, race_id)
        assert race is not None
        return race

    async def _check_free_to_race(self, user_id: int) -> None:
        """A racer's board is their private game: someone with one running can't race
        (read at once; the start checks again)."""
        await self.games.check_private_free(user_id)


__all__ = ["RaceBoards", "RaceService", "StaleWrite", "Started"]
