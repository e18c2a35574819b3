"""Rows of ``challenge_replies``: the bot's guesses and the challenger's black/white replies."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from engine import Code, Feedback


@dataclass(frozen=True)
class ReplyRecord:
    id: int
    turn: int
    guess: Code
    feedback: Feedback
    player_id: int
    created_at: float
    taken_back_at: float | None


def _code(text: str) -> Code:
    return tuple(int(d) for d in text)


class ChallengeStore:
    async def replies(
        self, conn: aiosqlite.Connection, game_id: int, *, include_taken_back: bool = False
    ) -> list[ReplyRecord]:
        """Replies in the order they were given (standing ones only, unless asked)."""
        where = "" if include_taken_back else " AND taken_back_at IS NULL"
        async with conn.execute(
            "SELECT id, turn, guess, black, white, player_id, created_at, taken_back_at"
            f" FROM challenge_replies WHERE game_id = ?{where} ORDER BY id",
            (game_id,),
        ) as cur:
            return [
                ReplyRecord(r[0], r[1], _code(r[2]), Feedback(r[3], r[4]), r[5], r[6], r[7])
                for r in await cur.fetchall()
            ]

    async def add(
        self,
        conn: aiosqlite.Connection,
        game_id: int,
        *,
        turn: int,
        guess: Code,
        feedback: Feedback,
        player_id: int,
        now: float,
    ) -> None:
        await conn.execute(
            "INSERT INTO challenge_replies (game_id, turn, guess, black, white, player_id,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, turn, "".join(map(str, guess)), feedback.black, feedback.white,
             player_id, now),
        )
        await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))

    async def take_back(
        self, conn: aiosqlite.Connection, reply: ReplyRecord, now: float
    ) -> None:
        await conn.execute(
            "UPDATE challenge_replies SET taken_back_at = ? WHERE id = ?", (now, reply.id)
        )
        await conn.execute(
            "UPDATE games SET updated_at = ? WHERE id = (SELECT game_id FROM challenge_replies"
            " WHERE id = ?)",
            (now, reply.id),
        )
