"""What a move costs in round trips to PostgreSQL, each one a wait for the server and a
turn of the event loop on the way to the answer (bench/scale_bench.py --profile).

A pooled connection goes back to its pool without a round trip (asyncpg's reset query is
not sent), and what that query would undo is never left on it: after reads, writes, a
board swap and a failed write, the server holds no advisory lock and no transaction of the
bot, and the next write takes the same keys at once. A guess that may mean the player's
private game or the channel's takes both keys with its ``BEGIN``."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from service_kit import action

import bot.features.breaker.render  # noqa: F401 (registers the breaker's words)
from bot.store import Database, GameStore, locks
from engine import Rules

pytestmark = [pytest.mark.postgresql_only]

#: What asyncpg's default reset query holds (its statements, as the server receives them).
RESET_WORDS = ("pg_advisory_unlock_all", "CLOSE ALL", "UNLISTEN", "RESET ALL")


async def _log_every_connection(pool: asyncpg.Pool, seen: list[str]) -> None:
    """Every connection of ``pool`` reports each statement it sends from now on (taking
    them all at once, so none is missed; their release is logged as well)."""
    held = [await pool.acquire() for _ in range(pool.get_size())]
    for conn in held:
        conn.add_query_logger(lambda record: seen.append(record.query))
    for conn in held:
        await pool.release(conn)


async def _insert_game(db: Database, channel_id: int) -> int:
    async with db.transaction() as conn:
        await locks.hold(conn, locks.channel(channel_id))
        async with conn.execute(
            "INSERT INTO games (channel_id, pegs, colors, max_guesses, repeats, secret,"
            " started_by, created_at, updated_at) VALUES (?, 4, 6, 10, 1, '1234', 1, 0, 0)"
            " RETURNING id", (channel_id,)) as cur:
            row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def test_a_connection_goes_back_to_its_pool_without_a_reset_query(db: Database):
    seen: list[str] = []
    await _log_every_connection(db.pool, seen)
    await _log_every_connection(db.writes, seen)
    assert not [q for q in seen if any(word in q for word in RESET_WORDS)]
    seen.clear()

    game_id = await _insert_game(db, 7)
    assert await GameStore().active_in_channel(await db.reader(), 7) is not None
    async with db.transaction() as conn:  # a board swap: one statement run alone
        await GameStore().swap_board(conn, game_id, 555, 0)
    with pytest.raises(RuntimeError):  # a write that fails after it took its key
        async with db.transaction() as conn:
            await locks.hold(conn, locks.channel(7))
            await conn.execute("UPDATE games SET updated_at = 1 WHERE id = ?", (game_id,))
            raise RuntimeError("the service refused the move")

    assert any(q.startswith("BEGIN") for q in seen) and "COMMIT" in seen  # logged
    assert "ROLLBACK" in seen  # the failed write's, before its connection went back
    assert not [q for q in seen if any(word in q for word in RESET_WORDS)]

    async with db.pool.acquire() as admin:  # what a reset would have cleaned: nothing
        left = await admin.fetchrow(
            "SELECT (SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
            "         WHERE l.locktype = 'advisory' AND a.datname = current_database())"
            "         AS locks,"
            "       (SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
            "         AND state LIKE 'idle in transaction%') AS open")
    assert (left["locks"], left["open"]) == (0, 0)
    async with asyncio.timeout(2):  # the channel's key is free for the next move
        async with db.transaction() as conn:
            await locks.hold(conn, locks.channel(7))
            await conn.execute("UPDATE games SET updated_at = 2 WHERE id = ?", (game_id,))


async def test_a_guess_takes_the_channel_and_the_player_with_its_begin(services):
    await services.breaker.new_game(guild_id=7, channel_id=100, user_id=1, user_name="alice",
                                    rules=Rules(4, 6, 10, True), action_id=action())
    seen: list[str] = []
    await _log_every_connection(services.db.writes, seen)
    await services.breaker.guess(channel_id=100, user_id=2, user_name="bob", text="1122",
                                 action_id=action())
    locking = [q for q in seen if "pg_advisory_xact_lock(" in q]
    assert len(locking) == 1 and locking[0].startswith("BEGIN")  # no round trip of its own
    assert "mastermind:private:' || (2)" in locking[0]
    assert "mastermind:channel:' || (100)" in locking[0]
