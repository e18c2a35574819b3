"""SQL for ``results`` and ``standings``: written as games end, read by the stats feature.

``record`` runs inside the transaction that ends a game and derives everything from the
game itself through :func:`~bot.core.results.results_for`, the same function ``rebuild``
uses to recompute every table from scratch.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.enums import CRACK_MODES, Mode, Period
from ..core.matches import MatchRecord
from ..core.records import FORGOTTEN, GameRecord, Standing
from ..core.results import MIN_CHALLENGES, Result, period_key, results_for, results_for_match
from .connection import Connection, fetch_all, fetch_one
from .games import GameStore
from .matches import MatchStore

#: Match results live in ``match_results`` (their id is a match's, not a game's); their
#: ``guesses`` are points, so the standings' average is points per match.
MATCH_MODES = (Mode.MATCH_BOT, Mode.MATCH_PEOPLE)

_UPSERT = """
INSERT INTO standings (mode, size, scope, period, user_id, played, won, guesses, average)
VALUES (:mode, :size, :scope, :period, :user, 1, :won, :guesses, :average)
ON CONFLICT (mode, size, scope, period, user_id) DO UPDATE SET
    played = standings.played + 1,
    won = standings.won + excluded.won,
    guesses = standings.guesses + excluded.guesses,
    average = CASE
        WHEN standings.mode IN ('breaker', 'private') THEN
            CASE WHEN standings.won + excluded.won > 0
                 THEN (standings.guesses + excluded.guesses) * 1.0
                      / (standings.won + excluded.won) END
        ELSE (standings.guesses + excluded.guesses) * 1.0 / (standings.played + 1)
    END
"""


def _standing_key(row: dict) -> tuple:
    return row["mode"], row["size"], row["scope"], row["period"], row["user"]


@dataclass(frozen=True)
class Board:
    """Which leaderboard: ``scope`` is a server id, or 0 for all servers."""

    mode: Mode
    size: str
    scope: int
    period_key: str

    def params(self) -> dict:
        return {"size": self.size, "scope": self.scope, "period": self.period_key}


def _where(mode: Mode) -> str:
    """The rows of one leaderboard (named parameters :size, :scope, :period)."""
    board = "size = :size AND scope = :scope AND period = :period"
    if mode in CRACK_MODES:
        return f"mode = '{mode.value}' AND won > 0 AND {board}"
    if mode in MATCH_MODES:
        return f"mode = '{mode.value}' AND {board}"
    return f"mode = 'challenge' AND {board} AND played >= {MIN_CHALLENGES}"


def _order(mode: Mode) -> str:
    if mode in MATCH_MODES:
        return "won DESC, average DESC, user_id"
    return "won DESC, average ASC, user_id" if mode in CRACK_MODES else "average DESC, user_id"


def _ahead(mode: Mode) -> tuple[str, ...]:
    """Rows strictly ahead of one with the given (won, average), as disjoint conditions,
    each a range of the board's rank index (one OR of them would scan the whole board)."""
    if mode in CRACK_MODES:
        return "won > :won", "won = :won AND average < :average"
    if mode in MATCH_MODES:  # more wins, then more points per match
        return "won > :won", "won = :won AND average > :average"
    return ("average > :average",)


_STANDING = (
    "SELECT s.user_id, COALESCE(p.display_name, 'deleted user'), s.played, s.won, s.average"
    " FROM standings s LEFT JOIN players p USING (user_id)"
)


class StatsStore:
    # ---- writes ---------------------------------------------------------------------------
    async def record(self, conn: Connection, game: GameRecord) -> list[Result]:
        """Count a game that has just ended (call inside the transaction that ends it)."""
        results = results_for(game)
        await self._store(conn, results)
        return results

    async def record_match(self, conn: Connection, match: MatchRecord
                           ) -> list[Result]:
        """Count a match that has just ended (inside the transaction that ends it)."""
        results = results_for_match(match)
        await self._store(conn, results)
        return results

    async def _store(self, conn: Connection, results: Iterable[Result]) -> None:
        """Insert the results and add them to every leaderboard they count on, in three
        batched statements (one round trip each, however many results: a rebuild sends
        all of them at once)."""
        rows: dict[str, list[tuple]] = {"results": [], "match_results": []}
        hinted: list[tuple[int, int]] = []
        standings: list[dict] = []
        for r in results:
            table = "match_results" if r.mode in MATCH_MODES else "results"
            rows[table].append((r.game_id, r.user_id, r.guild_id, r.mode.value, r.size,
                                int(r.won), r.guesses, r.ended_at, r.day))
            if r.hinted:  # counted in /stats as hinted, kept off every leaderboard
                hinted.append((r.game_id, r.user_id))
                continue
            counted = r.guesses if (r.won or r.mode not in CRACK_MODES) else 0
            if r.mode in CRACK_MODES:
                average = float(r.guesses) if r.won else None
            else:
                average = float(r.guesses)
            standings.extend({
                "mode": r.mode.value, "size": r.size, "scope": scope,
                "period": period_key(period, r.ended_at), "user": r.user_id,
                "won": int(r.won), "guesses": counted, "average": average,
            } for scope in sorted({r.guild_id or 0, 0}) for period in Period)
        for table, values in rows.items():
            key = "match_id" if table == "match_results" else "game_id"
            if values:
                await conn.executemany(
                    f"INSERT INTO {table} ({key}, user_id, guild_id, mode, size, won, guesses,"
                    " ended_at, day) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
        if hinted:
            await conn.executemany(
                "UPDATE results SET hinted = 1 WHERE game_id = ? AND user_id = ?", hinted)
        if standings:  # in key order: two games ending at once never wait for each other
            standings.sort(key=_standing_key)
            await conn.executemany(_UPSERT, standings)

    async def rebuild(self, conn: Connection, *, batch: int = 2000) -> None:
        """Recompute ``results`` and ``standings`` from every finished game and match, in
        the caller's transaction, ``batch`` games at a time (memory stays bounded)."""
        await conn.execute("DELETE FROM results")
        await conn.execute("DELETE FROM match_results")
        await conn.execute("DELETE FROM standings")
        games, last = GameStore(), 0
        while chunk := await games.finished_after(conn, last, batch):
            await self._store(conn, [r for game in chunk for r in results_for(game)])
            last = chunk[-1].id
        matches = MatchStore()
        for match_id in await matches.finished_ids(conn):
            match = await matches.get(conn, match_id)
            if match is not None:
                await self._store(conn, results_for_match(match))

    async def forget(self, conn: Connection, user_id: int) -> dict[str, int]:
        """Delete a user's stats and attributions; their games stay, unattributed."""
        counts = {}
        for table, sql in (
            ("results", "DELETE FROM results WHERE user_id = ?"),
            ("match_results", "DELETE FROM match_results WHERE user_id = ?"),
            ("standings", "DELETE FROM standings WHERE user_id = ?"),
            ("players", "DELETE FROM players WHERE user_id = ?"),
            ("guesses", f"UPDATE guesses SET player_id = {FORGOTTEN} WHERE player_id = ?"),
            ("replies",
             f"UPDATE challenge_replies SET player_id = {FORGOTTEN} WHERE player_id = ?"),
            ("wins", f"UPDATE games SET winner_id = {FORGOTTEN} WHERE winner_id = ?"),
            ("games", f"UPDATE games SET started_by = {FORGOTTEN}"
                      " WHERE started_by = ? AND status != 'active'"),
            ("setters", f"UPDATE games SET setter_id = {FORGOTTEN}"
                        " WHERE setter_id = ? AND status != 'active'"),
            ("match_a", f"UPDATE matches SET player_a = {FORGOTTEN}"
                        " WHERE player_a = ? AND status NOT IN ('invited', 'active')"),
            ("match_b", f"UPDATE matches SET player_b = {FORGOTTEN}"
                        " WHERE player_b = ? AND status NOT IN ('invited', 'active')"),
            ("racers", "DELETE FROM racers WHERE user_id = ? AND race_id IN"
                       " (SELECT id FROM races WHERE status IN ('finished', 'cancelled'))"),
        ):
            cur = await conn.execute(sql, (user_id,))
            counts[table] = cur.rowcount
        return counts

    # ---- reads (on the read connection) ---------------------------------------------------
    async def count(self, conn: Connection, board: Board) -> int:
        sql = f"SELECT COUNT(*) FROM standings WHERE {_where(board.mode)}"
        row = await fetch_one(conn, sql, board.params())
        return row[0] if row else 0

    async def page(
        self, conn: Connection, board: Board, *, offset: int, limit: int
    ) -> list[Standing]:
        """One page, picked in the rank index before the names are joined (a deep page
        then looks up ``limit`` names, not one for every row it skips)."""
        order = _order(board.mode)
        rows = await fetch_all(
            conn, "SELECT s.user_id, COALESCE(p.display_name, 'deleted user'), s.played, s.won,"
            " s.average FROM (SELECT user_id, played, won, average FROM standings"
            f" WHERE {_where(board.mode)} ORDER BY {order}"
            f" LIMIT {int(limit)} OFFSET {int(offset)}) AS s"
            f" LEFT JOIN players p USING (user_id) ORDER BY {order}",
            board.params(),
        )
        return [Standing(*row) for row in rows]

    async def rank(self, conn: Connection, board: Board, row: Standing) -> int:
        """Competition rank: one more than the number of players strictly ahead."""
        where = _where(board.mode)
        counts = " + ".join(f"(SELECT COUNT(*) FROM standings WHERE {where} AND {ahead})"
                            for ahead in _ahead(board.mode))
        found = await fetch_one(conn, f"SELECT {counts}", {**board.params(), "won": row.won,
                                                     "average": row.average})
        return (found[0] if found else 0) + 1

    async def standing_of(
        self, conn: Connection, board: Board, user_id: int
    ) -> Standing | None:
        row = await fetch_one(
            conn, f"{_STANDING} WHERE {_where(board.mode)} AND s.user_id = :user",
            {**board.params(), "user": user_id},
        )
        return Standing(*row) if row else None

    async def sizes(self, conn: Connection) -> list[str]:
        """Rule sizes that have standings, for autocomplete (answered within 3 s).

        A plain DISTINCT scans every standing (~125 ms at 100,000 games); stepping through
        the (mode, size) primary key costs one index seek per size instead."""
        found: set[str] = set()
        for mode in Mode:
            size = ""
            while True:
                row = await fetch_one(
                    conn, "SELECT size FROM standings WHERE mode = ? AND size > ?"
                    " ORDER BY size LIMIT 1",
                    (mode.value, size),
                )
                if row is None:
                    break
                size = row[0]
                found.add(size)
        return sorted(found)

    async def results_of(
        self, conn: Connection, user_id: int, size: str
    ) -> list[tuple]:
        """``(mode, won, guesses, game_id)`` of a player's results at a size, oldest first."""
        rows = await fetch_all(
            conn, "SELECT mode, won, guesses, game_id FROM results"
            " WHERE user_id = ? AND size = ? ORDER BY ended_at",
            (user_id, size),
        )
        return [tuple(row) for row in rows]

    async def team_wins(self, conn: Connection, user_id: int, size: str) -> int:
        """Breaker games a player took part in that someone else cracked."""
        row = await fetch_one(
            conn, "SELECT COUNT(*) FROM results r JOIN games g ON g.id = r.game_id"
            " WHERE r.user_id = ? AND r.size = ? AND r.mode = 'breaker' AND r.won = 0"
            " AND g.status = 'won'",
            (user_id, size),
        )
        return row[0] if row else 0

    async def hinted_count(self, conn: Connection, user_id: int, size: str) -> int:
        """How many of a player's results at a size were played with hints."""
        row = await fetch_one(
            conn, "SELECT COUNT(*) FROM results WHERE user_id = ? AND size = ? AND hinted = 1",
            (user_id, size),
        )
        return row[0] if row else 0

    async def other_sizes(
        self, conn: Connection, user_id: int, size: str
    ) -> dict[str, int]:
        rows = await fetch_all(
            conn, "SELECT size, COUNT(*) FROM results WHERE user_id = ? AND size != ?"
            " GROUP BY size ORDER BY COUNT(*) DESC",
            (user_id, size),
        )
        return {s: n for s, n in rows}
