"""Results of finished games and the leaderboard totals kept beside them.

``record`` runs inside the transaction that ends a game and derives everything from the
game's stored guesses (or a challenge's standing replies) through :func:`results_for`, the
same function :func:`rebuild` uses to recompute every table from scratch.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

import aiosqlite

from .challenges import ChallengeStore, ReplyRecord
from .games import GameRecord

#: Fewest finished challenges before a player appears on the challenge leaderboard.
MIN_CHALLENGES = 3
#: The user id that attributions are rewritten to by ``/mastermind forget-me``.
FORGOTTEN = 0
PERIODS = ("all", "month", "week")


@dataclass(frozen=True)
class Result:
    game_id: int
    user_id: int
    guild_id: int | None
    mode: str
    size: str
    won: bool
    guesses: int
    ended_at: float

    @property
    def day(self) -> str:
        return utc(self.ended_at).date().isoformat()


def utc(ts: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(ts, tz=dt.UTC)


def period_key(period: str, ts: float) -> str:
    """``all``, ``M2026-11`` (calendar month) or ``W2026-47`` (ISO week), in UTC."""
    when = utc(ts)
    if period == "all":
        return "all"
    if period == "month":
        return f"M{when:%Y-%m}"
    if period == "week":
        year, week, _ = when.isocalendar()
        return f"W{year}-{week:02d}"
    raise ValueError(f"unknown period {period!r}")


def results_for(game: GameRecord, replies: list[ReplyRecord] | None = None) -> list[Result]:
    """What a finished game counts for, per player. Pure: the single source of the stats."""
    if game.active or game.ended_at is None:
        return []
    size = game.rules.size_label
    if game.kind == "breaker":
        players: list[int] = []
        for guess in game.guesses:
            if guess.player_id != FORGOTTEN and guess.player_id not in players:
                players.append(guess.player_id)
        turns = len(game.guesses)
        return [
            Result(game.id, user, game.guild_id, "breaker", size,
                   game.status == "won" and user == game.winner_id, turns, game.ended_at)
            for user in players
        ]
    if game.status not in ("won", "lost") or game.started_by == FORGOTTEN:
        return []
    solved = game.status == "won"
    guesses = len(replies or []) if solved else game.rules.max_guesses + 1
    return [Result(game.id, game.started_by, game.guild_id, "challenge", size, solved,
                   guesses, game.ended_at)]


_UPSERT = """
INSERT INTO standings (mode, size, scope, period, user_id, played, won, guesses, average)
VALUES (:mode, :size, :scope, :period, :user, 1, :won, :guesses, :average)
ON CONFLICT (mode, size, scope, period, user_id) DO UPDATE SET
    played = played + 1,
    won = won + excluded.won,
    guesses = guesses + excluded.guesses,
    average = CASE
        WHEN mode = 'breaker' THEN
            CASE WHEN won + excluded.won > 0
                 THEN (guesses + excluded.guesses) * 1.0 / (won + excluded.won) END
        ELSE (guesses + excluded.guesses) * 1.0 / (played + 1)
    END
"""


class StatsStore:
    def __init__(self) -> None:
        self.challenges = ChallengeStore()

    async def record(self, conn: aiosqlite.Connection, game: GameRecord) -> list[Result]:
        """Count a game that has just ended (call inside the transaction that ends it)."""
        replies = None
        if game.kind == "challenge":
            replies = await self.challenges.replies(conn, game.id)
        results = results_for(game, replies)
        await self._store(conn, results)
        return results

    async def _store(self, conn: aiosqlite.Connection, results: Iterable[Result]) -> None:
        for r in results:
            await conn.execute(
                "INSERT INTO results (game_id, user_id, guild_id, mode, size, won, guesses,"
                " ended_at, day) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (r.game_id, r.user_id, r.guild_id, r.mode, r.size, int(r.won), r.guesses,
                 r.ended_at, r.day),
            )
            counted = r.guesses if (r.won or r.mode == "challenge") else 0
            if r.mode == "breaker":
                average = float(r.guesses) if r.won else None
            else:
                average = float(r.guesses)
            for scope in {r.guild_id or 0, 0}:
                for period in PERIODS:
                    await conn.execute(_UPSERT, {
                        "mode": r.mode, "size": r.size, "scope": scope,
                        "period": period_key(period, r.ended_at), "user": r.user_id,
                        "won": int(r.won), "guesses": counted, "average": average,
                    })

    async def rebuild(self, conn: aiosqlite.Connection, games: Iterable[GameRecord]) -> None:
        """Recompute ``results`` and ``standings`` from the stored games and guesses."""
        await conn.execute("DELETE FROM results")
        await conn.execute("DELETE FROM standings")
        for game in games:
            await self.record(conn, game)

    async def forget(self, conn: aiosqlite.Connection, user_id: int) -> dict[str, int]:
        """Delete a user's stats and attributions; their games stay, unattributed."""
        counts = {}
        for table, sql in (
            ("results", "DELETE FROM results WHERE user_id = ?"),
            ("standings", "DELETE FROM standings WHERE user_id = ?"),
            ("players", "DELETE FROM players WHERE user_id = ?"),
            ("guesses", f"UPDATE guesses SET player_id = {FORGOTTEN} WHERE player_id = ?"),
            ("replies",
             f"UPDATE challenge_replies SET player_id = {FORGOTTEN} WHERE player_id = ?"),
            ("wins", f"UPDATE games SET winner_id = {FORGOTTEN} WHERE winner_id = ?"),
            ("games", f"UPDATE games SET started_by = {FORGOTTEN}"
                      " WHERE started_by = ? AND status != 'active'"),
        ):
            cur = await conn.execute(sql, (user_id,))
            counts[table] = cur.rowcount
        return counts
