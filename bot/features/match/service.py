"""Matches, Discord-free: start, invite and answer, set a code, advance, quit, expire.

A half-round is an ordinary game (a breaker game, or a challenge when the bot breaks), so
its moves go through the breaker and challenge services as always. When a half-round's
game ends, :meth:`HalfRounds.on_game_end` runs inside the transaction that ended it
(one of ``GameService.end_hooks``, given it when built): the match scores the half and opens
the next one in the same commit, exactly once (the update names the half it advances from).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine import Rules
from i18n import mark

from ...core.codes import read_code
from ...core.enums import GameStatus, RatedKind
from ...core.errors import GameAlreadyRunning
from ...core.matches import MatchRecord, MatchStatus
from ...core.records import GameEnding, GameRecord
from ...services.games import GameService
from ...store import Connection, StaleWrite, once
from ..ratings.service import RatingOutcome
from .errors import (
    BadOpponent,
    MatchOver,
    MatchRunning,
    NotInMatch,
    NotYourCode,
    OnlyInvitee,
    StaleMatchButton,
)
from .halves import HalfRounds


@dataclass(frozen=True)
class MatchView:
    """A match and the game of its current half-round (None while a code is awaited)."""

    match: MatchRecord
    game: GameRecord | None = None
    #: The channel's previous match, when this action found it idle and ended it.
    expired: MatchRecord | None = None
    #: Each player's rating change, once a match between people is over and rated.
    rating: RatingOutcome | None = None


class MatchService:
    def __init__(self, games: GameService, halves: HalfRounds):
        self.games = games
        #: The same object the game service calls when a game opens or ends.
        self.halves = halves
        self.store = halves.store

    def lapsed(self, match: MatchRecord, now: float) -> bool:
        return self.halves.lapsed(match, now)

    async def _free_channel(self, conn: Connection, channel_id: int
                            ) -> MatchRecord | None:
        """Inside a write: refuse when a game or match runs here; end a lapsed match and
        return it (its score so far is shown)."""
        game, abandoned = await self.games.load_active(conn, channel_id)
        if game is not None:
            raise GameAlreadyRunning(game)
        match = await self.store.running_in_channel(conn, channel_id)
        now = self.games.clock()
        if match is not None:
            if not self.lapsed(match, now):
                raise MatchRunning(match)
            return await self.halves.expire(conn, match, now)
        if abandoned is not None and abandoned.match_id is not None:
            return await self.store.get(conn, abandoned.match_id)
        return None

    # ---- starting -------------------------------------------------------------------------
    async def start(
        self, *, guild_id: int | None, channel_id: int, user_id: int, user_name: str,
        rules: Rules, rounds: int, strategy: str, opponent: int | None,
        action_id: int | None = None,
    ) -> MatchView:
        """A match against the bot starts at once with its first half-round; one against a
        person waits for the invitation to be accepted."""
        if opponent == user_id:
            raise BadOpponent(mark("You can't play a match against yourself."))
        self.games.channel_allowed(guild_id, channel_id)  # the server's settings
        now = self.games.clock()
        async with once(), self.games.db.transaction() as conn:
            expired = await self._free_channel(conn, channel_id)
            match = await self.store.create(
                conn, guild_id=guild_id, channel_id=channel_id, rules=rules,
                strategy=strategy if opponent is None else None, rounds=rounds,
                player_a=user_id, player_b=opponent,
                status=MatchStatus.ACTIVE if opponent is None else MatchStatus.INVITED,
                now=now, action_id=action_id)
            game = await self.halves.open_half(conn, match, now) if opponent is None else None
            await self.games.store.remember_player(conn, user_id, user_name, now)
        return MatchView(match, game, expired)

    # ---- an invitation ----------------------------------------------------------------------
    async def check_invitation(self, match_id: int, user_id: int) -> MatchRecord:
        """Read-only: may this person answer this invitation now?"""
        match = await self.store.get(await self.games.db.reader(), match_id)
        if match is not None and user_id not in (match.player_a, match.player_b):
            raise NotInMatch(match)
        if match is not None and match.status is MatchStatus.ACTIVE:
            raise StaleMatchButton(match, accepted=True)  # a double click
        if match is None or match.status is not MatchStatus.INVITED:
            raise MatchOver(match)
        return match

    async def answer(self, match_id: int, *, user_id: int, user_name: str, accept: bool,
                     action_id: int | None = None) -> MatchView:
        """Accept (the invited player) or decline (either player: the inviter withdraws)."""
        now = self.games.clock()
        async with once(), self.games.db.transaction() as conn:
            match = await self.store.get(conn, match_id)
            if match is None or match.status is not MatchStatus.INVITED:
                raise MatchOver(match)
            if user_id not in (match.player_a, match.player_b):
                raise NotInMatch(match)
            if self.lapsed(match, now):
                match = await self.halves.expire(conn, match, now)
            elif accept and user_id == match.player_b:
                match = await self.store.accept(conn, match, now=now, action_id=action_id)
                await self.games.store.remember_player(conn, user_id, user_name, now)
                return MatchView(match)
            elif accept:
                raise OnlyInvitee(match)
            else:
                return MatchView(await self.store.finish(
                    conn, match, status=MatchStatus.DECLINED, winner=None, now=now,
                    ended_by=user_id, action_id=action_id))
        raise MatchOver(match)  # expired: recorded above, and committed

    # ---- a code set by a person --------------------------------------------------------------
    async def check_setter(self, match_id: int, half: int, user_id: int) -> MatchRecord:
        """Read-only: may this person set the code of this half-round now?"""
        conn = await self.games.db.reader()
        match = await self.store.get(conn, match_id)
        if match is None or match.status is not MatchStatus.ACTIVE:
            raise MatchOver(match)
        self._check_setter(match, half, user_id)
        if self.lapsed(match, self.games.clock()):
            raise MatchOver(await self._expire_lapsed(match_id))
        if await self.store.half_game(conn, match.id, half) is not None:
            raise StaleMatchButton(match)
        return match

    async def _expire_lapsed(self, match_id: int) -> MatchRecord | None:
        """End a match that waited too long (recorded, so its score so far is shown)."""
        async with self.games.db.transaction() as conn:
            match = await self.store.get(conn, match_id)
            if match is not None and match.running and self.lapsed(match, self.games.clock()):
                match = await self.halves.expire(conn, match, self.games.clock())
        return match

    @staticmethod
    def _check_setter(match: MatchRecord, half: int, user_id: int) -> None:
        side = match.side_of(user_id)
        if side is None:
            raise NotInMatch(match)
        if half != match.half:
            raise StaleMatchButton(match)
        if side is not match.setter() or match.vs_bot:
            raise NotYourCode(match)

    async def set_code(self, match_id: int, half: int, *, user_id: int, text: str,
                       action_id: int | None = None) -> MatchView:
        """The setter's code: the half-round's breaker game starts with it as the secret."""
        reader_match = await self.check_setter(match_id, half, user_id)
        code = read_code(text, reader_match.rules)
        now = self.games.clock()
        try:
            async with once(), self.games.db.transaction() as conn:
                match = await self.store.get(conn, match_id)
                if match is None or match.status is not MatchStatus.ACTIVE:
                    raise MatchOver(match)
                self._check_setter(match, half, user_id)
                if self.lapsed(match, now):
                    expired = await self.halves.expire(conn, match, now)
                else:
                    running, _ = await self.games.load_active(conn, match.channel_id)
                    if running is not None:
                        raise GameAlreadyRunning(running)
                    game = await self.halves.open_half(conn, match, now, secret=code,
                                                 action_id=action_id)
                    match = await self.store.touch(conn, match, now)
                    return MatchView(match, game)
        except StaleWrite:
            raise StaleMatchButton(reader_match) from None
        raise MatchOver(expired)

    # ---- quitting -------------------------------------------------------------------------
    async def quit(self, *, channel_id: int, user_id: int, can_manage: bool,
                   action_id: int | None = None) -> MatchView | None:
        """End the channel's match: a player forfeits, a moderator ends it with no winner.
        None when no match runs here (the caller ends the channel's game instead)."""
        now = self.games.clock()
        async with once(), self.games.db.transaction() as conn:
            game, _ = await self.games.load_active(conn, channel_id)
            match = await self.store.running_in_channel(conn, channel_id)
            if match is None or (game is not None and game.match_id != match.id):
                return None
            if match.side_of(user_id) is None and not can_manage:
                raise NotInMatch(match)
            if match.status is MatchStatus.INVITED:
                match = await self.store.finish(conn, match, status=MatchStatus.DECLINED,
                                                winner=None, now=now, ended_by=user_id,
                                                action_id=action_id)
            elif game is not None:
                game = await self.games.end(
                    conn, game, GameEnding(GameStatus.QUIT, action_id=action_id), now=now,
                    by=user_id)
                match = await self.store.get(conn, match.id) or match
            else:
                match = await self.halves.forfeit(conn, match, user_id, now, action_id)
        return await self._rated(MatchView(match, game))

    async def _rated(self, view: MatchView) -> MatchView:
        """The view with the rating changes of its match, once over (read after the commit
        that rated it)."""
        ratings = self.halves.ratings
        if view.match.running or view.match.vs_bot or ratings is None:
            return view
        return replace(view, rating=await ratings.outcome(RatedKind.MATCH, view.match.id))

    # ---- reading --------------------------------------------------------------------------
    async def view(self, match_id: int) -> MatchView | None:
        conn = await self.games.db.reader()
        match = await self.store.get(conn, match_id)
        if match is None:
            return None
        half = min(match.half, match.halves - 1)
        game = await self.store.half_game(conn, match.id, half)
        if game is not None and game.match_half != match.half and match.running:
            game = None  # the next half-round has not started yet
        return await self._rated(MatchView(match, game))

    async def in_channel(self, channel_id: int) -> MatchView | None:
        """The channel's running match (None when none runs, or it has lapsed: a game may
        run there since; the next match action ends it)."""
        match = await self.store.running_in_channel(await self.games.db.reader(), channel_id)
        if match is None or self.lapsed(match, self.games.clock()):
            return None
        return await self.view(match.id)

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        async with self.games.db.transaction() as conn:
            await self.store.set_board_message(conn, match_id, message_id)
