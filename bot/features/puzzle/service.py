"""Puzzles for players: the day's puzzle (the same for everyone) and random ones by level.

Generating a puzzle is the engine's (:mod:`engine.puzzle`, certified); it runs in a worker
thread. A play keeps its clues and answer as shown; answering is one try, stored exactly once.
"""

from __future__ import annotations

import asyncio
import secrets

from engine import CLASSIC, Code, Rules, score_codes
from engine.puzzle import Level, Puzzle, check_answer, generate

from ...core.codes import read_code
from ...core.enums import CodeEntry, PuzzleKind
from ...core.errors import AlreadyDone
from ...core.records import PuzzlePlay
from ...core.results import utc
from ...core.streaks import streaks
from ...services.games import GameService
from ...store import once
from ...store.puzzles import PuzzleStore
from ..daily.service import DailyService
from .errors import NoOpenPuzzle, NotYourPuzzle, PuzzleAnswered

#: The day's puzzle: classic size, medium reasoning, the same for everyone.
DAILY_RULES = CLASSIC
DAILY_LEVEL = Level.MEDIUM
#: Sizes a random puzzle comes in (the engine makes any; these read well on a phone).
SIZES = {"4x6": CLASSIC, "5x8": Rules(pegs=5, colors=8)}


class PuzzleService:
    def __init__(self, games: GameService, daily: DailyService):
        self.games = games
        self.daily = daily
        self.db = games.db
        self.store = PuzzleStore()

    def today(self) -> str:
        return self.daily.today()

    async def _generate(self, rules: Rules, level: Level, seed: int) -> Puzzle:
        return await asyncio.to_thread(generate, rules, level, seed=seed)

    async def today_play(self, *, user_id: int, guild_id: int | None,
                         action_id: int | None) -> PuzzlePlay:
        """The player's play of today's puzzle, opened on first sight."""
        day = self.today()
        conn = await self.db.reader()
        play = await self.store.daily(conn, user_id, day)
        if play is not None:
            return play
        puzzle = await self._generate(DAILY_RULES, DAILY_LEVEL,
                                      self.daily.day_key("puzzle", day))
        async with once(), self.db.transaction() as conn:
            play = await self.store.daily(conn, user_id, day)  # opened meanwhile?
            return play or await self._open(conn, puzzle, user_id=user_id, guild_id=guild_id,
                                            kind=PuzzleKind.DAILY, day=day, action_id=action_id)

    async def new_play(self, *, user_id: int, guild_id: int | None, level: Level, size: str,
                       action_id: int | None) -> PuzzlePlay:
        """A fresh random puzzle of ``level`` for the player."""
        puzzle = await self._generate(SIZES[size], level, secrets.randbits(64))
        async with once(), self.db.transaction() as conn:
            return await self._open(conn, puzzle, user_id=user_id, guild_id=guild_id,
                                    kind=PuzzleKind.RANDOM, day=None, action_id=action_id)

    async def _open(self, conn, puzzle: Puzzle, *, user_id: int, guild_id: int | None,
                    kind: PuzzleKind, day: str | None, action_id: int | None
                    ) -> PuzzlePlay:
        return await self.store.create(
            conn, user_id=user_id, guild_id=guild_id, kind=kind, day=day,
            level=puzzle.level, rules=puzzle.rules, clues=puzzle.clues, answer=puzzle.answer,
            spread=puzzle.spread, now=self.games.clock(), action_id=action_id)

    async def get(self, play_id: int, user_id: int) -> PuzzlePlay:
        play = await self.store.get(await self.db.reader(), play_id)
        if play is None or play.user_id != user_id:
            raise NotYourPuzzle("that is not your puzzle")
        return play

    async def open_play(self, play_id: int, user_id: int) -> PuzzlePlay:
        """The player's play, if it still waits for its one try."""
        play = await self.get(play_id, user_id)
        if not play.open:
            raise PuzzleAnswered(play)
        return play

    async def newest_open(self, user_id: int) -> PuzzlePlay:
        play = await self.store.newest_open(await self.db.reader(), user_id)
        if play is None:
            raise NoOpenPuzzle("no puzzle is waiting for your answer")
        return play

    async def answer(self, *, play_id: int | None, user_id: int, text: str | Code,
                     action_id: int | None) -> PuzzlePlay:
        """The one try at a puzzle (``play_id``, or the player's newest open one)."""
        play = (await self.get(play_id, user_id) if play_id is not None
                else await self.newest_open(user_id))
        named = read_code(text, play.rules, CodeEntry.PUZZLE) if (
            isinstance(text, str)) else text
        solved = check_answer_fits(play, named)
        async with once(), self.db.transaction() as conn:
            if not await self.store.answer(conn, play, named, solved, self.games.clock(),
                                           action_id):
                stored = await self.store.get(conn, play.id)
                assert stored is not None
                if action_id is not None and stored.answered_by == action_id:
                    raise AlreadyDone()  # this very answer, delivered twice
                raise PuzzleAnswered(stored)
            stored = await self.store.get(conn, play.id)
            assert stored is not None
            return stored

    async def streak(self, user_id: int) -> tuple[int, int]:
        """(current, longest) runs of days with the day's puzzle solved."""
        days = await self.store.daily_days(await self.db.reader(), user_id)
        today = utc(self.games.clock()).date()
        return streaks({d for d, solved in days if solved}, today)

    async def tally(self, day: str) -> tuple[int, int]:
        return await self.store.day_tally(await self.db.reader(), day)


def check_answer_fits(play: PuzzlePlay, named: Code) -> bool:
    """Is ``named`` the stored answer? (Only the answer fits every clue of a certified puzzle.)"""
    return named == play.answer and all(
        score_codes(named, clue.guess) == clue.feedback for clue in play.clues)


def miss_of(play: PuzzlePlay):
    """The first clue a missed answer breaks, and what it would have scored."""
    assert play.named is not None
    puzzle = Puzzle(play.rules, play.clues, play.answer, (), play.spread)
    return check_answer(puzzle, play.named)
