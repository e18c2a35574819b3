"""Rows of the ``games`` and ``guesses`` tables, and the SQL that reads and writes them.

Every method takes the connection of an open transaction (see ``Database.transaction``),
so a service can read, check and write one game atomically.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import aiosqlite

from engine import Code, Feedback, Rules

_GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, pegs, colors, max_guesses, repeats, secret, status, "
    "started_by, winner_id, created_at, updated_at, ended_at, board_message_id, strategy, seed"
)


@dataclass(frozen=True)
class GuessRecord:
    turn: int
    player_id: int
    code: Code
    feedback: Feedback
    created_at: float


@dataclass
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    kind: str
    rules: Rules
    secret: Code | None
    status: str
    started_by: int
    winner_id: int | None
    created_at: float
    updated_at: float
    ended_at: float | None
    board_message_id: int | None
    strategy: str | None = None
    seed: int = 0
    guesses: list[GuessRecord] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def turns_used(self) -> int:
        return len(self.guesses)

    @property
    def guesses_left(self) -> int:
        return self.rules.max_guesses - len(self.guesses)

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> GameRecord:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            kind=row["kind"],
            rules=Rules(row["pegs"], row["colors"], row["max_guesses"], bool(row["repeats"])),
            secret=tuple(int(d) for d in row["secret"]) if row["secret"] else None,
            status=row["status"],
            started_by=row["started_by"],
            winner_id=row["winner_id"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            ended_at=row["ended_at"],
            board_message_id=row["board_message_id"],
            strategy=row["strategy"],
            seed=row["seed"],
        )


def _digits(code: Code) -> str:
    return "".join(str(d) for d in code)


class GameStore:
    """SQL for games; stateless, so one instance serves every connection."""

    async def active_in_channel(
        self, conn: aiosqlite.Connection, channel_id: int
    ) -> GameRecord | None:
        async with conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'active'",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return await self._with_guesses(conn, row)

    async def get(self, conn: aiosqlite.Connection, game_id: int) -> GameRecord | None:
        async with conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ) as cur:
            row = await cur.fetchone()
        return await self._with_guesses(conn, row)

    async def latest_in_channel(
        self, conn: aiosqlite.Connection, channel_id: int
    ) -> GameRecord | None:
        async with conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return await self._with_guesses(conn, row)

    async def _with_guesses(
        self, conn: aiosqlite.Connection, row: aiosqlite.Row | None
    ) -> GameRecord | None:
        if row is None:
            return None
        game = GameRecord.from_row(row)
        async with conn.execute(
            "SELECT turn, player_id, code, black, white, created_at FROM guesses "
            "WHERE game_id = ? ORDER BY turn",
            (game.id,),
        ) as cur:
            game.guesses = [
                GuessRecord(
                    r["turn"], r["player_id"], tuple(int(d) for d in r["code"]),
                    Feedback(r["black"], r["white"]), r["created_at"],
                )
                for r in await cur.fetchall()
            ]
        return game

    async def create(
        self,
        conn: aiosqlite.Connection,
        *,
        guild_id: int | None,
        channel_id: int,
        kind: str,
        rules: Rules,
        secret: Code | None,
        started_by: int,
        now: float,
        strategy: str | None = None,
        seed: int = 0,
    ) -> GameRecord:
        cur = await conn.execute(
            "INSERT INTO games (guild_id, channel_id, kind, pegs, colors, max_guesses, repeats,"
            " secret, status, started_by, created_at, updated_at, strategy, seed)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)",
            (
                guild_id, channel_id, kind, rules.pegs, rules.colors, rules.max_guesses,
                int(rules.repeats), _digits(secret) if secret else None, started_by, now, now,
                strategy, seed,
            ),
        )
        game = await self.get(conn, cur.lastrowid)
        assert game is not None
        return game

    async def add_guess(
        self,
        conn: aiosqlite.Connection,
        game: GameRecord,
        *,
        player_id: int,
        code: Code,
        feedback: Feedback,
        now: float,
    ) -> GuessRecord:
        """Append the next turn; the (game, turn) primary key refuses a duplicate turn."""
        record = GuessRecord(len(game.guesses) + 1, player_id, code, feedback, now)
        await conn.execute(
            "INSERT INTO guesses (game_id, turn, player_id, code, black, white, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game.id, record.turn, player_id, _digits(code), feedback.black, feedback.white, now),
        )
        await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game.id))
        game.guesses.append(record)
        game.updated_at = now
        return record

    async def finish(
        self,
        conn: aiosqlite.Connection,
        game: GameRecord,
        *,
        status: str,
        now: float,
        winner_id: int | None = None,
        secret: Code | None = None,
    ) -> None:
        await conn.execute(
            "UPDATE games SET status = ?, winner_id = ?, ended_at = ?, updated_at = ?,"
            " secret = COALESCE(?, secret) WHERE id = ? AND status = 'active'",
            (status, winner_id, now, now, _digits(secret) if secret else None, game.id),
        )
        game.status, game.winner_id, game.ended_at, game.updated_at = status, winner_id, now, now
        if secret:
            game.secret = secret

    async def set_board_message(
        self, conn: aiosqlite.Connection, game_id: int, message_id: int
    ) -> None:
        await conn.execute(
            "UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id)
        )

    async def remember_player(
        self, conn: aiosqlite.Connection, user_id: int, display_name: str, now: float
    ) -> None:
        await conn.execute(
            "INSERT INTO players (user_id, display_name, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,"
            " updated_at = excluded.updated_at",
            (user_id, display_name[:100], now),
        )
