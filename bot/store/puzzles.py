"""SQL for puzzles: each player's plays, kept with their clues and answer as shown."""

from __future__ import annotations

import json

from engine import Code, Feedback, Rules, code_from_digits, format_code
from engine.puzzle import Clue, Level

from ..core.enums import PuzzleKind, PuzzleStatus
from ..core.records import PuzzlePlay
from . import locks
from .connection import Connection, fetch_all, fetch_one

_COLUMNS = ("id, user_id, guild_id, kind, day, level, pegs, colors, repeats, clues, answer,"
            " spread, status, named, created_at, answered_at, answer_interaction_id")


def _play(row) -> PuzzlePlay:
    rules = Rules(pegs=row[6], colors=row[7], repeats=bool(row[8]))
    clues = tuple(Clue(code_from_digits(g), Feedback(b, w)) for g, b, w in json.loads(row[9]))
    return PuzzlePlay(
        id=row[0], user_id=row[1], guild_id=row[2], kind=PuzzleKind(row[3]), day=row[4],
        level=Level(row[5]), rules=rules, clues=clues, answer=code_from_digits(row[10]),
        spread=row[11], status=PuzzleStatus(row[12]),
        named=code_from_digits(row[13]) if row[13] else None, created_at=row[14],
        answered_at=row[15], answered_by=row[16])


class PuzzleStore:
    """Stateless: one instance serves every connection."""

    async def _one(self, conn: Connection, where: str, args: tuple) -> PuzzlePlay | None:
        row = await fetch_one(conn, f"SELECT {_COLUMNS} FROM puzzle_plays WHERE {where}",
                              args)
        return _play(row) if row is not None else None

    async def get(self, conn: Connection, play_id: int) -> PuzzlePlay | None:
        return await self._one(conn, "id = ?", (play_id,))

    async def daily(self, conn: Connection, user_id: int, day: str) -> PuzzlePlay | None:
        await locks.hold(conn, locks.puzzles(user_id))  # in a write: before opening one
        return await self._one(conn, "kind = ? AND user_id = ? AND day = ?",
                               (PuzzleKind.DAILY.value, user_id, day))

    async def newest_open(self, conn: Connection, user_id: int) -> PuzzlePlay | None:
        return await self._one(
            conn, "user_id = ? AND status = ? ORDER BY id DESC LIMIT 1",
            (user_id, PuzzleStatus.OPEN.value))

    async def create(self, conn: Connection, *, user_id: int, guild_id: int | None,
                     kind: PuzzleKind,
                     day: str | None, level: Level, rules: Rules, clues: tuple[Clue, ...],
                     answer: Code, spread: int, now: float, action_id: int | None
                     ) -> PuzzlePlay:
        await locks.hold(conn, locks.puzzles(user_id))
        stored = json.dumps([[format_code(c.guess), c.feedback.black, c.feedback.white]
                             for c in clues])
        row = await fetch_one(
            conn, "INSERT INTO puzzle_plays (user_id, guild_id, kind, day, level, pegs, colors,"
            " repeats, clues, answer, spread, created_at, open_interaction_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (user_id, guild_id, kind.value, day, level.value, rules.pegs, rules.colors,
             int(rules.repeats), stored, format_code(answer), spread, now, action_id),
        )
        assert row is not None
        play = await self.get(conn, row[0])
        assert play is not None
        return play

    async def answer(self, conn: Connection, play: PuzzlePlay, named: Code, solved: bool,
                     now: float, action_id: int | None) -> bool:
        """Record the one try; False if the play was answered meanwhile."""
        await locks.hold(conn, locks.puzzles(play.user_id))
        async with conn.execute(
            "UPDATE puzzle_plays SET status = ?, named = ?, answered_at = ?,"
            " answer_interaction_id = ? WHERE id = ? AND status = ?",
            ((PuzzleStatus.SOLVED if solved else PuzzleStatus.MISSED).value,
             format_code(named), now, action_id, play.id, PuzzleStatus.OPEN.value),
        ) as cur:
            return cur.rowcount == 1

    async def daily_days(self, conn: Connection, user_id: int) -> list[tuple[str, bool]]:
        """(day, solved) of every daily puzzle the player answered."""
        rows = await fetch_all(
            conn, "SELECT day, status FROM puzzle_plays WHERE kind = ? AND user_id = ?"
            " AND status != ? ORDER BY day",
            (PuzzleKind.DAILY.value, user_id, PuzzleStatus.OPEN.value))
        return [(row[0], row[1] == PuzzleStatus.SOLVED) for row in rows]

    async def day_tally(self, conn: Connection, day: str) -> tuple[int, int]:
        """(answered, solved) of a day's puzzle, everywhere."""
        row = await fetch_one(
            conn, "SELECT COUNT(*), COALESCE(SUM(CASE WHEN status = ? THEN 1 ELSE 0 END), 0)"
            " FROM puzzle_plays WHERE kind = ? AND day = ? AND status != ?",
            (PuzzleStatus.SOLVED.value, PuzzleKind.DAILY.value, day,
             PuzzleStatus.OPEN.value))
        assert row is not None
        return int(row[0]), int(row[1])

    async def forget(self, conn: Connection, user_id: int) -> int:
        """Delete a player's puzzles; how many there were."""
        async with conn.execute("DELETE FROM puzzle_plays WHERE user_id = ?", (user_id,)) as cur:
            return cur.rowcount
