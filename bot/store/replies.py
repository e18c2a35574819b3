"""SQL for ``challenge_replies``: the bot's guesses and the challenger's black/white replies.

A take-back marks a reply, never deletes it; at most one standing reply per turn (a unique
index), so a double click or a stale button can never store a turn twice.
"""

from __future__ import annotations

from engine import Code, Feedback, code_from_digits, format_code

from ..core.records import GameRecord, ReplyRecord
from . import locks
from .connection import Connection, Row, fetch_all, fetch_one

_COLUMNS = "id, turn, guess, black, white, player_id, created_at"


def _reply(r: Row) -> ReplyRecord:
    return ReplyRecord(r["id"], r["turn"], code_from_digits(r["guess"]),
                       Feedback(r["black"], r["white"]), r["player_id"], r["created_at"])


class ReplyStore:
    async def standing(self, conn: Connection, game_id: int) -> list[ReplyRecord]:
        """The replies not taken back, in turn order."""
        rows = await fetch_all(
            conn, f"SELECT {_COLUMNS} FROM challenge_replies"
            " WHERE game_id = ? AND taken_back_at IS NULL ORDER BY turn", (game_id,))
        return [_reply(r) for r in rows]

    async def standing_between(self, conn: Connection, low: int, high: int
                               ) -> dict[int, list[ReplyRecord]]:
        """The standing replies of the games with ids from ``low`` to ``high``, per game."""
        found: dict[int, list[ReplyRecord]] = {}
        for r in await fetch_all(
                conn, f"SELECT game_id, {_COLUMNS} FROM challenge_replies"
                " WHERE game_id BETWEEN ? AND ? AND taken_back_at IS NULL"
                " ORDER BY game_id, turn", (low, high)):
            found.setdefault(r["game_id"], []).append(_reply(r))
        return found

    async def add(
        self,
        conn: Connection,
        game_id: int,
        *,
        turn: int,
        guess: Code,
        feedback: Feedback,
        player_id: int,
        now: float,
        action_id: int | None = None,
    ) -> ReplyRecord:
        """Raises one of ``INTEGRITY_ERRORS`` when that turn already has a standing reply,
        or the interaction was already stored."""
        await locks.hold(conn, locks.game(game_id))
        row = await fetch_one(
            conn,
            "INSERT INTO challenge_replies (game_id, turn, guess, black, white, player_id,"
            " created_at, interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (game_id, turn, format_code(guess), feedback.black, feedback.white, player_id, now,
             action_id),
        )
        assert row is not None
        return ReplyRecord(row[0], turn, guess, feedback, player_id, now)

    async def take_back(self, conn: Connection, game: GameRecord, reply: ReplyRecord,
                        now: float, action_id: int | None = None) -> bool:
        """Mark a standing reply of ``game`` taken back; False when it already was (a
        repeated click)."""
        await locks.hold(conn, locks.of_game(game))
        cur = await conn.execute(
            "UPDATE challenge_replies SET taken_back_at = ?, taken_back_by = ?"
            " WHERE id = ? AND taken_back_at IS NULL",
            (now, action_id, reply.id),
        )
        return cur.rowcount == 1
