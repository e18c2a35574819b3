"""SQL for the daily code: the bot's secret seed, each player's play of a day and its
guesses, and the day's leaderboards (per server and global)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Code, Feedback, code_from_digits, format_code

from ..core.enums import DailyStatus
from ..core.records import DailyPlay, GuessRecord
from . import locks
from .connection import Connection, fetch_all, fetch_one
from .games import StaleWrite


@dataclass(frozen=True)
class DailyRow:
    """One line of a day's leaderboard."""

    user_id: int
    name: str
    solved: bool
    guesses: int
    ended_at: float


_FINISHED = "day = :day AND status != 'active'"
_SCOPE = " AND guild_id = :guild"
_ORDER = "solved DESC, guesses, ended_at, user_id"
#: Plays tied on (solved, guesses) that finished earlier: a range of one index bucket.
_TIED_EARLIER = ("solved = :solved AND guesses = :guesses AND (ended_at < :ended_at OR"
                 " (ended_at = :ended_at AND user_id < :user))")

class DailyStore:
    # ---- the seed -------------------------------------------------------------------------
    async def seed(self, conn: Connection, fresh: str, today: str) -> tuple[str, str]:
        """The stored daily seed and the first day of the daily; at the very first start,
        ``fresh`` and ``today`` are stored first (a database from before the first day was
        kept takes the day of its first play)."""
        await conn.execute("INSERT INTO bot_settings (name, value)"
                           " VALUES ('daily_seed', ?) ON CONFLICT DO NOTHING", (fresh,))
        await conn.execute("INSERT INTO bot_settings (name, value) SELECT 'daily_since',"
                           " COALESCE(MIN(day), ?) FROM daily_plays WHERE true"
                           " ON CONFLICT DO NOTHING", (today,))
        rows = await fetch_all(
                conn, "SELECT name, value FROM bot_settings WHERE name IN ('daily_seed',"
                " 'daily_since')")
        found = {row[0]: str(row[1]) for row in rows}
        return found["daily_seed"], found["daily_since"]

    # ---- one player's play ----------------------------------------------------------------
    async def play(self, conn: Connection, day: str, user_id: int
                   ) -> DailyPlay | None:
        await locks.hold(conn, locks.daily(user_id))
        row = await fetch_one(
            conn, "SELECT day, user_id, guild_id, status, started_at, ended_at FROM daily_plays"
            " WHERE day = ? AND user_id = ?", (day, user_id),
        )
        if row is None:
            return None
        rows = await fetch_all(
            conn, "SELECT turn, user_id, code, black, white, created_at FROM daily_guesses"
            " WHERE day = ? AND user_id = ? ORDER BY turn", (day, user_id),
        )
        guesses = tuple(
            GuessRecord(r[0], r[1], code_from_digits(r[2]), Feedback(r[3], r[4]), r[5])
            for r in rows)
        return DailyPlay(row[0], row[1], row[2], DailyStatus(row[3]), row[4], row[5], guesses)

    async def add_guess(self, conn: Connection, play: DailyPlay | None, *, day: str,
                        user_id: int, guild_id: int | None, code: Code, feedback: Feedback,
                        finish: DailyStatus | None, now: float, action_id: int | None
                        ) -> DailyPlay:
        """Store the next guess (starting the play with the first one), and the end of the
        play when ``finish`` is won or lost. The (day, user, turn) key refuses a turn
        stored twice; :class:`StaleWrite` when the play ended meanwhile."""
        await locks.hold(conn, locks.daily(user_id))
        if play is None:
            await conn.execute(
                "INSERT INTO daily_plays (day, user_id, guild_id, status, started_at)"
                " VALUES (?, ?, ?, 'active', ?)", (day, user_id, guild_id, now))
            play = DailyPlay(day, user_id, guild_id, DailyStatus.ACTIVE, now, None)
        turn = len(play.guesses) + 1
        await conn.execute(
            "INSERT INTO daily_guesses (day, user_id, turn, code, black, white, created_at,"
            " interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (day, user_id, turn, format_code(code), feedback.black, feedback.white, now,
             action_id))
        cur = await conn.execute(
            "UPDATE daily_plays SET guesses = ?, status = COALESCE(?, status),"
            " solved = ?, ended_at = ? WHERE day = ? AND user_id = ? AND status = 'active'",
            (turn, finish and finish.value, int(finish is DailyStatus.WON),
             now if finish else None, day, user_id))
        if cur.rowcount != 1:
            raise StaleWrite()
        if finish is not None:
            for scope in sorted({play.guild_id or 0, 0}):  # rows locked in key order
                await conn.execute(
                    "INSERT INTO daily_tally (day, scope, solved, guesses, plays)"
                    " VALUES (?, ?, ?, ?, 1) ON CONFLICT (day, scope, solved, guesses)"
                    " DO UPDATE SET plays = daily_tally.plays + 1",
                    (day, scope, int(finish is DailyStatus.WON), turn))
        record = GuessRecord(turn, user_id, code, feedback, now)
        return DailyPlay(day, user_id, play.guild_id, finish or DailyStatus.ACTIVE,
                         play.started_at,
                         now if finish else None, (*play.guesses, record))

    async def forget(self, conn: Connection, user_id: int) -> int:
        """Delete a player's daily plays (their guesses go with them) and take their
        finished ones off the day's tally; returns how many plays were deleted."""
        finished = await fetch_all(
            conn, "SELECT day, guild_id, solved, guesses FROM daily_plays"
            " WHERE user_id = ? AND status != 'active'", (user_id,),
        )
        for day, guild_id, solved, guesses in finished:
            for scope in {guild_id or 0, 0}:
                await conn.execute(
                    "UPDATE daily_tally SET plays = plays - 1 WHERE day = ? AND scope = ?"
                    " AND solved = ? AND guesses = ?", (day, scope, solved, guesses))
        await conn.execute("DELETE FROM daily_guesses WHERE user_id = ?", (user_id,))
        cur = await conn.execute("DELETE FROM daily_plays WHERE user_id = ?", (user_id,))
        return cur.rowcount

    async def finished_days(self, conn: Connection, user_id: int
                            ) -> list[tuple[str, bool]]:
        """``(day, solved)`` of every daily a player finished, oldest first."""
        rows = await fetch_all(
            conn, "SELECT day, solved FROM daily_plays WHERE user_id = ? AND status != 'active'"
            " ORDER BY day", (user_id,),
        )
        return [(r[0], bool(r[1])) for r in rows]

    # ---- the day's leaderboards -----------------------------------------------------------
    @staticmethod
    def _where(guild_id: int | None) -> str:
        return _FINISHED + (_SCOPE if guild_id is not None else "")

    async def top(self, conn: Connection, day: str, guild_id: int | None,
                  limit: int) -> list[DailyRow]:
        rows = await fetch_all(
            conn, "SELECT d.user_id, COALESCE(p.display_name, 'deleted user'), d.solved, d.guesses,"
            " d.ended_at FROM daily_plays d LEFT JOIN players p USING (user_id)"
            f" WHERE {self._where(guild_id)} ORDER BY {_ORDER} LIMIT {int(limit)}",
            {"day": day, "guild": guild_id},
        )
        return [DailyRow(r[0], r[1], bool(r[2]), r[3], r[4]) for r in rows]

    async def count(self, conn: Connection, day: str, guild_id: int | None
                    ) -> tuple[int, int]:
        """(finished, solved) on that day, here or everywhere (from the tally)."""
        row = await fetch_one(
            conn,
            "SELECT COALESCE(SUM(plays), 0), COALESCE(SUM(plays * solved), 0) FROM daily_tally"
            " WHERE day = ? AND scope = ?", (day, guild_id or 0),
        )
        return (row[0], row[1]) if row else (0, 0)

    async def rank(self, conn: Connection, day: str, guild_id: int | None,
                   play: DailyPlay) -> int:
        """1 + the finished plays strictly ahead of this one: the tally's better buckets,
        then the ties that finished earlier."""
        solved, guesses = int(play.solved), len(play.guesses)
        better = await fetch_one(
            conn, "SELECT COALESCE(SUM(plays), 0) FROM daily_tally WHERE day = ? AND scope = ?"
            " AND (solved > ? OR (solved = ? AND guesses < ?))",
            (day, guild_id or 0, solved, solved, guesses),
        )
        tied = await fetch_one(
            conn,
            f"SELECT COUNT(*) FROM daily_plays WHERE {self._where(guild_id)} AND {_TIED_EARLIER}",
            {"day": day, "guild": guild_id, "solved": solved, "guesses": guesses,
             "ended_at": play.ended_at, "user": play.user_id},
        )
        return (better[0] if better else 0) + (tied[0] if tied else 0) + 1

__all__ = ["DailyRow", "DailyStore", "StaleWrite"]
