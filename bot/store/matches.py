"""SQL for ``matches``: the 1978 game of rounds, and which games are its half-rounds.

Every write names the state it was read in (status and half), so a second delivery or a
stale button changes nothing: the caller gets :class:`~bot.store.games.StaleWrite`.
"""

from __future__ import annotations

from engine import Rules

from ..core.matches import MatchRecord, MatchStatus
from ..core.records import GameRecord
from . import locks
from .connection import Connection, Row, fetch_all, fetch_one
from .games import GameStore, StaleWrite

_COLUMNS = (
    "id, guild_id, channel_id, pegs, colors, max_guesses, repeats, strategy, rounds, player_a,"
    " player_b, status, half, half_scores, winner, ended_by, created_at, updated_at, ended_at,"
    " board_message_id"
)


def _match(row: Row) -> MatchRecord:
    scores = row["half_scores"]
    return MatchRecord(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        rules=Rules(row["pegs"], row["colors"], row["max_guesses"], bool(row["repeats"])),
        strategy=row["strategy"], rounds=row["rounds"], player_a=row["player_a"],
        player_b=row["player_b"], status=MatchStatus(row["status"]), half=row["half"],
        half_scores=tuple(int(s) for s in scores.split(",")) if scores else (),
        winner=row["winner"], ended_by=row["ended_by"], created_at=row["created_at"],
        updated_at=row["updated_at"], ended_at=row["ended_at"],
        board_message_id=row["board_message_id"],
    )


class MatchStore:
    def __init__(self) -> None:
        self.games = GameStore()

    # ---- reads ----------------------------------------------------------------------------
    async def _one(self, conn: Connection, where: str, args: tuple
                   ) -> MatchRecord | None:
        row = await fetch_one(conn, f"SELECT {_COLUMNS} FROM matches WHERE {where}", args)
        return _match(row) if row else None

    async def get(self, conn: Connection, match_id: int) -> MatchRecord | None:
        key = locks.match(match_id)
        await locks.hold(conn, key)
        match = await self._one(conn, "id = ?", (match_id,))
        if match is not None:
            locks.found(conn, key, locks.of_match(match))
        return match

    async def running_in_channel(self, conn: Connection, channel_id: int
                                 ) -> MatchRecord | None:
        await locks.hold(conn, locks.channel(channel_id))
        return await self._one(conn, "channel_id = ? AND status IN ('invited', 'active')",
                               (channel_id,))

    async def half_game(self, conn: Connection, match_id: int, half: int
                        ) -> GameRecord | None:
        """The game of a half-round: the one being played, else the last one played."""
        await locks.hold(conn, locks.match(match_id))
        row = await fetch_one(
            conn, "SELECT id FROM games WHERE match_id = ? AND match_half = ?"
            " ORDER BY status = 'active' DESC, id DESC LIMIT 1", (match_id, half),
        )
        if row is None:
            return None
        locks.found(conn, locks.match(match_id), locks.game(row[0]))  # in the match's channel
        return await self.games.get(conn, row[0])

    async def finished_ids(self, conn: Connection) -> list[int]:
        rows = await fetch_all(
            conn, "SELECT id FROM matches WHERE status IN ('finished', 'forfeit')"
            " ORDER BY ended_at, id"
        )
        return [r[0] for r in rows]

    async def record_of(self, conn: Connection, user_id: int, size: str
                        ) -> dict[str, tuple[int, int, int]]:
        """``{mode: (won, lost, drawn)}`` of a player's counted matches at a size."""
        rows = await fetch_all(
            conn, "SELECT mode, SUM(won), SUM(CASE WHEN guesses = 0 THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN guesses = 1 THEN 1 ELSE 0 END) FROM match_results"
            " WHERE user_id = ? AND size = ? GROUP BY mode", (user_id, size),
        )
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    # ---- writes (inside a transaction) ----------------------------------------------------
    async def create(
        self, conn: Connection, *, guild_id: int | None, channel_id: int,
        rules: Rules, strategy: str | None, rounds: int, player_a: int, player_b: int | None,
        status: MatchStatus, now: float, action_id: int | None,
    ) -> MatchRecord:
        await locks.hold(conn, locks.channel(channel_id))
        row = await fetch_one(
            conn, "INSERT INTO matches (guild_id, channel_id, pegs, colors, max_guesses, repeats,"
            " strategy, rounds, player_a, player_b, status, created_at, updated_at,"
            " opened_by_interaction) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " RETURNING id",
            (guild_id, channel_id, rules.pegs, rules.colors, rules.max_guesses,
             int(rules.repeats), strategy, rounds, player_a, player_b, status.value, now, now,
             action_id),
        )
        assert row is not None
        return MatchRecord(row[0], guild_id, channel_id, rules, strategy, rounds,
                           player_a, player_b, status, 0, (), None, None, now, now, None, None)

    async def _update(self, conn: Connection, match: MatchRecord, sets: str,
                      args: tuple) -> None:
        """Apply ``sets`` only if the match is still as it was read (else StaleWrite)."""
        await locks.hold(conn, locks.of_match(match))
        cur = await conn.execute(
            f"UPDATE matches SET {sets} WHERE id = ? AND status = ? AND half = ?",
            (*args, match.id, match.status.value, match.half),
        )
        if cur.rowcount != 1:
            raise StaleWrite()

    async def accept(self, conn: Connection, match: MatchRecord, *, now: float,
                     action_id: int | None) -> MatchRecord:
        await self._update(conn, match, "status = 'active', updated_at = ?,"
                           " accepted_by_interaction = ?", (now, action_id))
        return match.with_changes(status=MatchStatus.ACTIVE, updated_at=now)

    async def advance(self, conn: Connection, match: MatchRecord, *,
                      half_scores: tuple[int, ...], now: float) -> MatchRecord:
        """Record a finished half-round and move to the next."""
        text = ",".join(map(str, half_scores))
        await self._update(conn, match, "half = ?, half_scores = ?, updated_at = ?",
                           (match.half + 1, text, now))
        return match.with_changes(half=match.half + 1, half_scores=half_scores, updated_at=now)

    async def touch(self, conn: Connection, match: MatchRecord, now: float
                    ) -> MatchRecord:
        await self._update(conn, match, "updated_at = ?", (now,))
        return match.with_changes(updated_at=now)

    async def finish(
        self, conn: Connection, match: MatchRecord, *, status: MatchStatus,
        winner: str | None, now: float, ended_by: int | None = None,
        action_id: int | None = None,
    ) -> MatchRecord:
        await self._update(conn, match, "status = ?, winner = ?, ended_by = ?, ended_at = ?,"
                           " updated_at = ?, ended_by_interaction = ?",
                           (status.value, winner, ended_by, now, now, action_id))
        return match.with_changes(status=status, winner=winner, ended_by=ended_by,
                                  ended_at=now, updated_at=now)

    async def set_board_message(self, conn: Connection, match_id: int,
                                message_id: int) -> None:
        await locks.alone(conn)
        await conn.execute("UPDATE matches SET board_message_id = ? WHERE id = ?",
                           (message_id, match_id))
