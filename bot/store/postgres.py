"""PostgreSQL through asyncpg, for bots that run several processes on one database.

Reads take a connection of a pool of their own, so they never wait behind writes. Writes
take the write pool's connections, as many at once as it has: each write transaction holds
what it touches (its channel, or the player's daily play; bot/store/locks.py), so a
read-check-write (the next turn, a board swap, ending a game) is never interleaved with
another one on the same thing, in any process, while writes elsewhere go on. What spans
channels holds by constraints: the unique keys that refuse a second game in a channel or a
second delivery of an interaction, and upserts for running totals.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import ClassVar

import asyncpg

from ..core.config import describe_database
from ..core.errors import StorageUnavailable
from .connection import CONNECTION_ERRORS, PgConnection, numeric
from .db import (
    PATIENCE,
    PG_MIGRATIONS_DIR,
    Database,
    DatabaseUnusable,
    committed,
    ignore_wait,
)
from .transaction import LOCK_FAILURES, WRITE_LOCK, PgTransaction

__all__ = ["WRITE_LOCK", "PostgresDatabase"]

#: What a failed connect raises: out of reach, or refused by the server; or a malformed URL.
_OPEN_ERRORS: tuple[type[Exception], ...] = (*CONNECTION_ERRORS, asyncpg.PostgresError,
                                             ValueError)
#: A process that hangs, or a machine that vanishes, inside a write transaction would hold
#: its locks: the server ends such a session after a minute idle in its
#: transaction, and probes a silent client's socket after 30 s. A commit does not wait for
#: the disk, as SQLite's ``synchronous = NORMAL`` does not: a crash of the bot loses
#: nothing, one of the database's machine at most the last fraction of a second, never
#: consistency (the commit wait held the locks 1.5 ms of every 6 a write took). A statement
#: run alone (a board swap) waits for a row at most the patience.
SESSION_SETTINGS = {"synchronous_commit": "off", "lock_timeout": str(int(PATIENCE * 1000)),
                    "idle_in_transaction_session_timeout": "60000",
                    "tcp_keepalives_idle": "30", "tcp_keepalives_interval": "10",
                    "tcp_keepalives_count": "3"}
#: Connections per process for reads, and for write transactions (that many at once).
READ_POOL_SIZE = 4
WRITE_POOL_SIZE = 8


async def prepare(connection: asyncpg.Connection) -> None:
    """Read ``numeric`` as SQLite would answer (int or float), never as a Decimal."""
    await connection.set_type_codec("numeric", encoder=str, decoder=numeric,
                                    schema="pg_catalog", format="text")


async def keep_session(connection: asyncpg.Connection) -> None:
    """A connection goes back to its pool as it is, with no round trip: asyncpg's default
    reset query (``pg_advisory_unlock_all``, ``CLOSE ALL``, ``UNLISTEN *``, ``RESET ALL``)
    undoes what the bot never leaves on a pooled connection (its locks end with their
    transaction, it sets nothing for the session, listens on a connection of its own), and
    a move waited for it three times on its way to the answer. asyncpg still rolls back a
    transaction left open, before this is called."""


def _why_unusable(error: BaseException) -> str:
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        return f"refused the login ({error}): check the user and password in DATABASE_URL"
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return f"does not exist ({error}): create it first (createdb)"
    if isinstance(error, OSError | asyncpg.CannotConnectNowError | TimeoutError):
        return f"can't be reached ({error or type(error).__name__}): is the server running?"
    return f"can't be used ({error})"


class DroppableConnection(asyncpg.Connection):
    """A pooled connection whose graceful close meets a socket the server already dropped
    (after ``expire_connections``, asyncpg closes old connections in a task of its own,
    where the broken pipe would surface as a task error): it is aborted instead."""

    async def close(self, *, timeout: float | None = None) -> None:
        # close() has aborted and cleaned up the connection before raising
        with contextlib.suppress(*CONNECTION_ERRORS):
            await super().close(timeout=timeout)


class PostgresDatabase(Database):
    """The bot's PostgreSQL database."""

    #: Every pooled connection opened at once (a connection opened mid-burst costs a move
    #: 50+ ms). The test suite opens them as they are needed instead, up to the same sizes:
    #: its 500-odd databases opened 12 connections each, about 80 ms of CPU a test.
    open_all_at_start: ClassVar[bool] = True

    kind = "postgresql"
    migrations = PG_MIGRATIONS_DIR
    _MIGRATIONS_TABLE = ("CREATE TABLE IF NOT EXISTS schema_migrations ("
                         " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                         " applied_at DOUBLE PRECISION NOT NULL)")

    def __init__(self, pool: asyncpg.Pool, writes: asyncpg.Pool, url: str,
                 lock_waited: Callable[[float], None] = ignore_wait):
        self.pool = pool
        self.writes = writes
        self.url = url
        self.lock_waited = lock_waited
        self._reads = PgConnection(pool)

    @classmethod
    async def open_at(cls, url: str, migrations: Path | None = None,
                      lock_waited: Callable[[float], None] | None = None
                      ) -> PostgresDatabase:
        """Connect and bring the schema up to date (waiting, like any write, for another
        process migrating the same database)."""
        name = describe_database(url)
        pools: list[asyncpg.Pool] = []
        try:
            for size in (READ_POOL_SIZE, WRITE_POOL_SIZE):
                pools.append(await asyncpg.create_pool(
                    url, min_size=size if cls.open_all_at_start else 1, max_size=size,
                    init=prepare, timeout=10, server_settings=SESSION_SETTINGS,
                    reset=keep_session, connection_class=DroppableConnection))
        except _OPEN_ERRORS as exc:
            for pool in pools:
                await pool.close()
            if isinstance(exc, ValueError):  # asyncpg's answer to a malformed URL
                raise DatabaseUnusable(
                    f"the database URL {name} is malformed ({exc})") from exc
            raise DatabaseUnusable(f"the database {name} {_why_unusable(exc)}") from exc
        db = cls(pools[0], pools[1], url, lock_waited or ignore_wait)
        try:
            await db.migrate(migrations)
        except BaseException as exc:
            await db.close()
            if isinstance(exc, StorageUnavailable):
                raise DatabaseUnusable(
                    f"the database {name} {_why_unusable(exc.__cause__ or exc)}") from exc
            raise
        return db

    async def reader(self) -> PgConnection:
        return self._reads

    async def close(self) -> None:
        await self.writes.close()
        await self.pool.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgTransaction]:
        """A write transaction (:class:`~bot.store.transaction.PgTransaction`): it begins at
        its first statement, holding what the store names (or else the whole database)."""
        loop = asyncio.get_running_loop()
        tx = PgTransaction(self.writes, loop.time() + self.patience, self.lock_waited)
        try:
            try:
                yield tx
            except BaseException:
                await tx.rollback()
                raise
            wrote = await tx.commit()
        except CONNECTION_ERRORS as exc:
            # Lost before COMMIT was acknowledged: PostgreSQL rolls back a transaction whose
            # connection dropped, unless the COMMIT itself was already applied (rare).
            raise StorageUnavailable("unreachable") from exc
        except LOCK_FAILURES as exc:  # rolled back: nothing was stored
            raise StorageUnavailable("busy") from exc
        finally:
            await tx.release()
        if wrote:
            committed.set(True)
