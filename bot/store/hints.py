"""SQL for ``hints``: each hint a game was given, and the game's count of them."""

from __future__ import annotations

from ..core.records import FORGOTTEN, GameRecord
from . import locks
from .connection import Connection, fetch_all
from .games import StaleWrite


class HintStore:
    async def add(self, conn: Connection, game: GameRecord, *, level: int,
                  user_id: int, text: str, now: float, action_id: int | None) -> GameRecord:
        """Record hint ``level`` (the game's next) in the caller's transaction.

        Raises :class:`StaleWrite` unless the game still runs with the guesses and hints it
        was read with (the hint was worked out from that board)."""
        await locks.hold(conn, locks.of_game(game))
        cur = await conn.execute(
            "UPDATE games SET hints = ?, updated_at = ? WHERE id = ? AND status = 'active'"
            " AND hints = ? AND (SELECT COUNT(*) FROM guesses WHERE game_id = ?) = ?",
            (level, now, game.id, level - 1, game.id, len(game.guesses)),
        )
        if cur.rowcount != 1:
            raise StaleWrite()
        await conn.execute(
            "INSERT INTO hints (game_id, level, user_id, text, created_at, interaction_id)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game.id, level, user_id, text, now, action_id),
        )
        return game.with_changes(hints=level, updated_at=now)

    async def forget(self, conn: Connection, user_id: int) -> int:
        """Unlink a user from the hints they asked for (the hints stay with their games)."""
        cur = await conn.execute(
            f"UPDATE hints SET user_id = {FORGOTTEN} WHERE user_id = ?", (user_id,))
        return cur.rowcount

    async def of_game(self, conn: Connection, game_id: int
                      ) -> list[tuple[int, int, str]]:
        """``(level, user_id, text)`` of every hint a game was given, in order."""
        rows = await fetch_all(
            conn, "SELECT level, user_id, text FROM hints WHERE game_id = ? ORDER BY level",
            (game_id,),
        )
        return [(r[0], r[1], r[2]) for r in rows]
