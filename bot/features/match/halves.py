"""What a match does inside :class:`~bot.services.games.GameService`'s transactions: hold
its channel between half-rounds (a channel check), and when a half-round's game ends, score
it and open the next half-round in the same commit (an end hook). A match between two
people is rated at its end in the same commit (forfeits, leavers and time-outs last).

Built before the game service, which is given :meth:`HalfRounds.check_channel` and
:meth:`HalfRounds.on_game_end` when it is built; :class:`~.service.MatchService` uses the
same object to open and end half-rounds of its own actions.
"""

from __future__ import annotations

import secrets as secure_random

from engine import Code, draw_secret

from ...core.clock import Clock, system_clock
from ...core.enums import GameKind, GameStatus, RatedKind
from ...core.matches import (
    INVITATION_SECONDS,
    MatchRecord,
    MatchStatus,
    Side,
    half_score,
)
from ...core.records import GameRecord, NewGame
from ...services.games import DEFAULT_IDLE, IdleRule
from ...store import Connection, GameStore, MatchStore, StatsStore
from ..ratings.service import Placement, RatedGame, RatingService
from .errors import MatchRunning


def placements(match: MatchRecord, last: Side | None = None) -> tuple[Placement, ...]:
    """The two players' places in a match between people: the winner first, a draw a tie;
    ``last``: the side that timed out (an abandoned match has no winner)."""
    first = Side(match.winner) if match.winner in (Side.A, Side.B) else (
        last.other if last else None)
    places = {side: 1 if first in (None, side) else 2 for side in Side}
    return tuple(Placement(player, places[side]) for side in Side
                 if (player := match.player(side)) is not None)


class HalfRounds:
    def __init__(self, *, clock: Clock = system_clock, idle: IdleRule = DEFAULT_IDLE,
                 ratings: RatingService | None = None):
        self.clock = clock
        self.idle = idle
        #: Rates matches between people at their end (None: not rated, in some tests).
        self.ratings = ratings
        self.store = MatchStore()
        self.games = GameStore()
        self.stats = StatsStore()

    def lapsed(self, match: MatchRecord, now: float) -> bool:
        """An invitation unanswered too long, or a match waiting too long for a code."""
        if match.status is MatchStatus.INVITED:
            return now - match.created_at > INVITATION_SECONDS
        return match.status is MatchStatus.ACTIVE and now - match.updated_at > (
            self.idle.seconds(match.guild_id))

    async def check_channel(self, conn: Connection, channel_id: int) -> None:
        """A running match holds its channel between half-rounds (GameService asks)."""
        match = await self.store.running_in_channel(conn, channel_id)
        if match is not None and not self.lapsed(match, self.clock()):
            raise MatchRunning(match)

    async def expire(self, conn: Connection, match: MatchRecord, now: float
                      ) -> MatchRecord:
        status = (MatchStatus.EXPIRED if match.status is MatchStatus.INVITED
                  else MatchStatus.ABANDONED)
        ended = await self.store.finish(conn, match, status=status, winner=None, now=now)
        if status is MatchStatus.ABANDONED:  # its code was awaited: the setter timed out
            await self._rate(conn, ended, now, last=match.setter())
        return ended

    async def open_half(self, conn: Connection, match: MatchRecord, now: float, *,
                         secret: Code | None = None, action_id: int | None = None
                         ) -> GameRecord | None:
        """The game of the match's current half-round; None while a person's code is awaited.

        Against the bot: the player breaks the bot's code (a breaker game), then the bot
        breaks the player's (a challenge, its first guess thought of when first shown)."""
        if match.vs_bot and match.breaker() is Side.A:
            return await self._create(conn, match, now, action_id, GameKind.BREAKER,
                                      secret=draw_secret(match.rules), started_by=match.player_a)
        if match.vs_bot:
            return await self._create(conn, match, now, action_id, GameKind.CHALLENGE,
                                      secret=None, started_by=match.player_a)
        breaker, setter = match.player(match.breaker()), match.player(match.setter())
        if secret is None or breaker is None:
            return None
        return await self._create(conn, match, now, action_id, GameKind.BREAKER, secret=secret,
                                  started_by=breaker, setter_id=setter)

    async def _create(self, conn: Connection, match: MatchRecord, now: float,
                      action_id: int | None, kind: GameKind, *, secret: Code | None,
                      started_by: int, setter_id: int | None = None) -> GameRecord:
        challenge = kind is GameKind.CHALLENGE
        return await self.games.create(conn, NewGame(
            kind, match.guild_id, match.channel_id, started_by, match.rules, secret=secret,
            strategy=match.strategy if challenge else None,
            seed=secure_random.randbelow(2**31) if challenge else 0,
            match_id=match.id, match_half=match.half, setter_id=setter_id,
            action_id=action_id), now=now)

    # ---- the end of a half-round (inside the transaction that ended its game) ----------
    async def on_game_end(self, conn: Connection, game: GameRecord,
                          by: int | None) -> None:
        if game.match_id is None:
            return
        match = await self.store.get(conn, game.match_id)
        if match is None or match.status is not MatchStatus.ACTIVE or (
                game.match_half != match.half):
            return
        now = game.ended_at or self.clock()
        if game.status is GameStatus.ABANDONED:  # the breaker timed out
            match = await self.store.finish(conn, match, status=MatchStatus.ABANDONED,
                                            winner=None, now=now)
            await self._rate(conn, match, now, last=match.breaker())
        elif game.status is GameStatus.QUIT and by is None and game.kind is GameKind.CHALLENGE:
            # A reveal: the 1978 computer says "try again, and this time please be more
            # careful": the half-round starts over.
            match = await self.store.touch(conn, match, now)
            await self.open_half(conn, match, now)
        elif game.status is GameStatus.QUIT:
            await self.forfeit(conn, match, by, now)
        else:
            await self._score(conn, match, game, now)

    async def _score(self, conn: Connection, match: MatchRecord, game: GameRecord,
                     now: float) -> None:
        match = await self.store.advance(
            conn, match, half_scores=(*match.half_scores, half_score(game)), now=now)
        if match.half < match.halves:
            await self.open_half(conn, match, now)
            return
        match = await self.store.finish(conn, match, status=MatchStatus.FINISHED,
                                        winner=match.leader(), now=now)
        await self.stats.record_match(conn, match)
        await self._rate(conn, match, now)

    async def forfeit(self, conn: Connection, match: MatchRecord, by: int | None,
                       now: float, action_id: int | None = None) -> MatchRecord:
        """A player who quits loses the match; a moderator's end has no winner."""
        side = match.side_of(by) if by is not None else None
        if side is None:
            return await self.store.finish(conn, match, status=MatchStatus.ENDED, winner=None,
                                           now=now, ended_by=by, action_id=action_id)
        match = await self.store.finish(conn, match, status=MatchStatus.FORFEIT,
                                        winner=side.other.value, now=now, ended_by=by,
                                        action_id=action_id)
        await self.stats.record_match(conn, match)
        await self._rate(conn, match, now)
        return match

    async def _rate(self, conn: Connection, match: MatchRecord, now: float, *,
                    last: Side | None = None) -> None:
        """Rate a match between two people (never one against the bot), in the commit that
        ends it; the result reads the changes back (``RatingService.outcome``)."""
        if self.ratings is None or match.vs_bot:
            return
        await self.ratings.rate(conn, RatedGame(match.guild_id, RatedKind.MATCH, match.id,
                                                placements(match, last)), now)
