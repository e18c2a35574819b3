"""The daily code: one secret per UTC day for everyone, played privately once per player.

The secret of a day comes from a seed drawn at the first start and kept in the database,
so it can't be worked out from the source code or from earlier days' codes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from engine import CLASSIC, Code, draw_secret, score_codes

from ...core.codes import read_code
from ...core.enums import CodeEntry, DailyStatus
from ...core.records import DailyPlay
from ...core.results import utc
from ...core.streaks import streaks
from ...services.games import GameService
from ...store import StaleWrite, once
from ...store.daily import DailyRow, DailyStore
from .errors import DailyAlreadyPlayed, DailyNotFinished, DailyOver, DailyRaced, DailyRepeat

#: The daily is always the classic game: 4 pegs, 6 colours, 10 guesses, repeats allowed.
DAILY_RULES = CLASSIC
LEADERBOARD_SIZE = 10


@dataclass(frozen=True)
class DayStanding:
    """How a day went, here (a server) or everywhere: the top, the counts, a player's rank."""

    day: str
    guild_id: int | None
    rows: list[DailyRow]
    finished: int
    solved: int
    rank: int | None


def secret_for(seed: str, day: str) -> Code:
    """The code of a UTC day: a keyed hash of the day, so days can't be told from each other."""
    digest = hmac.new(seed.encode(), f"daily:{day}".encode(), hashlib.sha256).digest()
    return draw_secret(DAILY_RULES, int.from_bytes(digest[:16], "big"))


class DailyService:
    def __init__(self, games: GameService):
        self.games = games
        self.db = games.db
        self.store = DailyStore()
        self._seed: str | None = None
        #: The first day there was a daily (the day of the very first start).
        self._since = ""

    async def start(self) -> None:
        """Read the seed (drawing and storing one at the very first start)."""
        async with self.db.transaction() as conn:
            self._seed, self._since = await self.store.seed(conn, secrets.token_hex(32),
                                                            self.today())

    def today(self) -> str:
        return utc(self.games.clock()).date().isoformat()

    def day_key(self, purpose: str, day: str) -> int:
        """A number only this bot knows for ``day`` (a keyed hash under the stored seed):
        other features' daily content, such as the puzzle of the day."""
        assert self._seed is not None, "DailyService.start() reads the seed"
        digest = hmac.new(self._seed.encode(), f"{purpose}:{day}".encode(), hashlib.sha256)
        return int.from_bytes(digest.digest()[:16], "big")

    def secret(self, day: str) -> Code:
        assert self._seed is not None, "DailyService.start() reads the seed"
        return secret_for(self._seed, day)

    def yesterday(self) -> str:
        return (dt.date.fromisoformat(self.today()) - dt.timedelta(days=1)).isoformat()

    def yesterdays_secret(self) -> Code | None:
        """Yesterday's code, no secret once its day is over; None on the daily's first day
        (there was no daily yesterday)."""
        day = self.yesterday()
        return self.secret(day) if day >= self._since else None

    def is_over(self, day: str) -> bool:
        return day < self.today()

    async def play(self, day: str, user_id: int) -> DailyPlay | None:
        return await self.store.play(await self.db.reader(), day, user_id)

    async def check_open(self, day: str, user_id: int) -> DailyPlay | None:
        """Read-only: may this player still guess the daily of ``day``? Their play so far."""
        if day != self.today():
            raise DailyOver(day)
        play = await self.play(day, user_id)
        if play is not None and play.finished:
            raise DailyAlreadyPlayed(day, play.solved, len(play.guesses))
        return play

    async def guess(self, *, user_id: int, user_name: str, guild_id: int | None, text: str,
                    action_id: int | None, day: str | None = None) -> DailyPlay:
        """One guess at today's code; ``day``: only if that is still today (a picker's)."""
        if day is not None and day != self.today():
            raise DailyOver(day)
        day = self.today()
        code = read_code(text, DAILY_RULES, CodeEntry.DAILY)
        now = self.games.clock()
        try:
            async with once(), self.db.transaction() as conn:
                play = await self.store.play(conn, day, user_id)
                if play is not None and play.finished:
                    raise DailyAlreadyPlayed(day, play.solved, len(play.guesses))
                earlier = next((g for g in (play.guesses if play else ()) if g.code == code),
                               None)
                if earlier is not None:
                    raise DailyRepeat(earlier)
                feedback = score_codes(self.secret(day), code)
                turns = (len(play.guesses) if play else 0) + 1
                finish = (DailyStatus.WON if feedback.is_win(DAILY_RULES.pegs) else
                          DailyStatus.LOST if turns >= DAILY_RULES.max_guesses else None)
                play = await self.store.add_guess(
                    conn, play, day=day, user_id=user_id, guild_id=guild_id, code=code,
                    feedback=feedback, finish=finish, now=now, action_id=action_id)
                await self.games.store.remember_player(conn, user_id, user_name, now)
                return play
        except StaleWrite:
            raise DailyRaced() from None

    async def finished_play(self, day: str, user_id: int) -> DailyPlay:
        """A player's finished play of ``day``; refuses one not finished (the code is
        still hidden from them)."""
        play = await self.play(day, user_id)
        if play is None or not play.finished:
            raise DailyNotFinished(day)
        return play

    async def standing(self, day: str, guild_id: int | None, user_id: int) -> DayStanding:
        conn = await self.db.reader()
        rows = await self.store.top(conn, day, guild_id, LEADERBOARD_SIZE)
        finished, solved = await self.store.count(conn, day, guild_id)
        mine = await self.store.play(conn, day, user_id)
        rank = None
        if mine is not None and mine.finished and (guild_id is None or
                                                   mine.guild_id == guild_id):
            rank = await self.store.rank(conn, day, guild_id, mine)
        return DayStanding(day, guild_id, rows, finished, solved, rank)

    async def streak(self, user_id: int) -> tuple[int, int, int, int]:
        """(current streak, longest, finished, solved) of a player's dailies."""
        days = await self.store.finished_days(await self.db.reader(), user_id)
        today = dt.date.fromisoformat(self.today())
        current, longest = streaks({d for d, _ in days}, today)
        return current, longest, len(days), sum(solved for _, solved in days)
