"""PostgreSQL through asyncpg, for bots that run several processes on one database.

Reads take any connection of a small pool. Writes keep SQLite's promise, one write
transaction at a time, across every process: each write transaction first takes one
transaction-scoped advisory lock, so a read-check-write (the next turn, a board swap, a
running total) is never interleaved with another process's. The unique keys that refuse a
second game in a channel or a second delivery of an interaction hold in the database too.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from ..core.config import describe_database
from ..core.errors import StorageUnavailable
from .connection import CONNECTION_ERRORS, PgConnection, acquire, numeric
from .db import (
    PG_MIGRATIONS_DIR,
    QUICK,
    Database,
    DatabaseUnusable,
    committed,
    waiting,
)

#: The advisory lock every write transaction holds until it commits ("mmbot").
WRITE_LOCK = 0x6D6D626F74
#: What a failed connect raises: out of reach, or refused by the server.
_OPEN_ERRORS: tuple[type[Exception], ...] = (*CONNECTION_ERRORS, asyncpg.PostgresError)
#: A process that hangs, or a machine that vanishes, inside a write transaction would hold
#: the writers' lock: the server ends such a session after a minute idle in its
#: transaction, and probes a silent client's socket after 30 s. A commit does not wait for
#: the disk, as SQLite's ``synchronous = NORMAL`` does not: a crash of the bot loses
#: nothing, one of the database's machine at most the last fraction of a second, never
#: consistency (the commit wait held the writers' lock 1.5 ms of every 6).
SESSION_SETTINGS = {"synchronous_commit": "off",
                    "idle_in_transaction_session_timeout": "60000",
                    "tcp_keepalives_idle": "30", "tcp_keepalives_interval": "10",
                    "tcp_keepalives_count": "3"}
#: Connections per process: one writer at a time, the rest for reads.
POOL_SIZE = 6


async def prepare(connection: asyncpg.Connection) -> None:
    """Read ``numeric`` as SQLite would answer (int or float), never as a Decimal."""
    await connection.set_type_codec("numeric", encoder=str, decoder=numeric,
                                    schema="pg_catalog", format="text")


def _why_unusable(error: BaseException) -> str:
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        return f"refused the login ({error}): check the user and password in DATABASE_URL"
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return f"does not exist ({error}): create it first (createdb)"
    if isinstance(error, OSError | asyncpg.CannotConnectNowError | TimeoutError):
        return f"can't be reached ({error or type(error).__name__}): is the server running?"
    return f"can't be used ({error})"


class PostgresDatabase(Database):
    """The bot's PostgreSQL database."""

    kind = "postgresql"
    migrations = PG_MIGRATIONS_DIR
    #: ``BEGIN`` and the writers' lock in one round trip (``{wait}``: the lock_timeout, ms).
    begin_sql = ("BEGIN; SET LOCAL lock_timeout = {wait};"
                 f" SELECT pg_advisory_xact_lock({WRITE_LOCK})")
    _MIGRATIONS_TABLE = ("CREATE TABLE IF NOT EXISTS schema_migrations ("
                         " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                         " applied_at DOUBLE PRECISION NOT NULL)")

    def __init__(self, pool: asyncpg.Pool, url: str):
        self.pool = pool
        self.url = url
        self._reads = PgConnection(pool)
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open_at(cls, url: str, migrations: Path | None = None) -> PostgresDatabase:
        """Connect and bring the schema up to date (waiting, like any write, for another
        process migrating the same database)."""
        name = describe_database(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE,
                                             init=prepare, timeout=10,
                                             server_settings=SESSION_SETTINGS)
        except _OPEN_ERRORS as exc:
            raise DatabaseUnusable(f"the database {name} {_why_unusable(exc)}") from exc
        except ValueError as exc:  # asyncpg's answer to a malformed URL
            raise DatabaseUnusable(f"the database URL {name} is malformed ({exc})") from exc
        db = cls(pool, url)
        try:
            await db.migrate(migrations)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, StorageUnavailable):
                raise DatabaseUnusable(
                    f"the database {name} {_why_unusable(exc.__cause__ or exc)}") from exc
            raise
        return db

    async def reader(self) -> PgConnection:
        return self._reads

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.patience
        waited = await self._take_turn(deadline)
        try:
            async with self._connection(deadline, waited) as conn:
                try:
                    yield PgConnection(conn)
                except BaseException:
                    with contextlib.suppress(*CONNECTION_ERRORS, asyncpg.PostgresError):
                        await conn.execute("ROLLBACK")
                    raise
                await conn.execute("COMMIT")
            committed.set(True)
        except CONNECTION_ERRORS as exc:
            # Lost before COMMIT was acknowledged: PostgreSQL rolls back a transaction whose
            # connection dropped, unless the COMMIT itself was already applied (rare).
            raise StorageUnavailable("unreachable") from exc
        finally:
            self._write_lock.release()

    @asynccontextmanager
    async def _connection(self, deadline: float, waited: bool
                          ) -> AsyncIterator[PoolConnectionProxy]:
        """A pooled connection in a transaction holding the write lock. A connection the
        server dropped since it was last used (a restart, a failover) fails on ``BEGIN``,
        before anything was written: then the pool replaces all of its connections and
        the transaction starts once more."""
        for attempt in range(2):
            conn = await acquire(self.pool)
            try:
                try:
                    await self._begin(conn, deadline, waited)
                except CONNECTION_ERRORS:
                    if attempt:
                        raise
                    await self.pool.expire_connections()
                    continue
                yield conn
                return
            finally:
                await self.pool.release(conn)

    async def _begin(self, conn: PoolConnectionProxy, deadline: float, waited: bool) -> None:
        """``BEGIN`` and take the write lock, in one round trip; the first wait is
        :data:`QUICK` (then the hook runs), the whole wait at most :attr:`patience`."""
        loop = asyncio.get_running_loop()
        wait = QUICK
        while True:
            try:
                await conn.execute(self.begin_sql.format(wait=max(1, int(wait * 1000))))
                return
            except asyncpg.LockNotAvailableError:
                await conn.execute("ROLLBACK")
            wait = deadline - loop.time()
            if wait <= 0:
                raise StorageUnavailable("busy")
            waited = await waiting(waited)

