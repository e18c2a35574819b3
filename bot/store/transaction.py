"""One write transaction on PostgreSQL, begun at its first statement together with the locks
it names (bot/store/locks.py), in one round trip.

Writes of different channels and players run at once, in every process: each holds what it
touches (an advisory lock per channel or player, taken while it still holds nothing else)
and a shared hold on the whole database. A transaction that names nothing before its first
statement takes the whole database exclusively instead (migrations, ``copy-db``, the stats
rebuild), so it waits for every write in progress and every write waits for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from ..core.errors import StorageUnavailable
from .connection import (
    CONNECTION_ERRORS,
    Params,
    PgConnection,
    PgCursor,
    acquire,
    arguments,
    run_statement,
    to_postgres,
)
from .db import QUICK, waiting

if TYPE_CHECKING:
    from .locks import Key

log = logging.getLogger(__name__)

#: The whole database ("mmbot"): shared by keyed writes, exclusive for the others.
WRITE_LOCK = 0x6D6D626F74
#: Lock waits that end a transaction which can't be re-run from here: the caller is told
#: nothing was stored (a deadlock the server broke, or a lock held past the patience).
LOCK_FAILURES: tuple[type[Exception], ...] = (asyncpg.LockNotAvailableError,
                                              asyncpg.DeadlockDetectedError)


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))


class PgTransaction(PgConnection):
    """The store's connection shape over one write transaction (see the module's doc)."""

    #: False: every write holds the whole database exclusively, as before per-key locks
    #: (``bench/timed_bot.py``'s ``global-lock`` variant measures that design).
    per_key: ClassVar[bool] = True

    def __init__(self, pool: asyncpg.Pool, deadline: float,
                 waited: Callable[[float], None] = lambda seconds: None) -> None:
        super().__init__(pool)
        self._report_wait = waited
        self._pool = pool
        self._deadline = deadline
        self._began_at = asyncio.get_running_loop().time()
        self._conn: PoolConnectionProxy | None = None
        self._waited = False
        #: Names of the keys held (see locks.Key), and whether the whole database is.
        self.held: set[str] = set()
        self._rank = -1  # the highest rank of a key taken
        self.whole = False
        #: One statement on its own (``alone``): pending, then done (committed by itself).
        self._alone: str | None = None

    # ---- what the store calls ---------------------------------------------------------------
    async def hold(self, *keys: Key) -> None:
        """Lock ``keys`` until the transaction ends; before the first statement this rides
        on its ``BEGIN``, after it one more round trip (keys in sorted order either way, and
        never ranked at or below a key held already: see bot/store/locks.py)."""
        if self.whole:
            return
        new = self._not_held(keys)
        if not new:
            return
        self._check_order(new)
        if self._conn is None:
            await self._begin(new if self.per_key else None)
        else:
            await self._conn.execute("; ".join(
                f"SELECT pg_advisory_xact_lock({key.sql})" for key in new))
        self._count_held(new)

    @property
    def began(self) -> bool:
        return self._conn is not None

    def taking(self, *keys: Key) -> list[Key]:
        """Keys a statement of the caller's takes itself, after the ``BEGIN`` (see
        locks.in_statement): checked and counted as held as :meth:`hold` does; those not
        held yet, in the order to take them."""
        assert self.began, "in_statement() comes after the transaction's first statement"
        if self.whole:
            return []
        new = self._not_held(keys)
        if new:
            self._check_order(new)
            self._count_held(new)
        return new

    def _not_held(self, keys: Sequence[Key]) -> list[Key]:
        """``keys`` not held yet, in order; a key held under another name learns its names."""
        new = sorted({k for k in keys if not self.holds(k)})
        for key in set(keys) - set(new):
            self.held.update(key.names)
        return new

    def _count_held(self, new: Sequence[Key]) -> None:
        self.held.update(name for key in new for name in key.names)
        self._rank = max(self._rank, new[-1].rank)

    def _check_order(self, new: Sequence[Key]) -> None:
        """Report keys that could make two transactions wait for each other (a bug)."""
        names = [k.name for k in new]
        if self.held and min(k.lowest for k in new) <= self._rank:
            self.out_of_order(f"{names} taken after {sorted(self.held)}")
        elif len(new) > 1 and any(k.lookup for k in new):
            self.out_of_order(f"a lookup taken with other keys: {names}")

    @staticmethod
    def out_of_order(problem: str) -> None:
        """Logged here; the tests make it fail (an order that could deadlock is a bug)."""
        log.error("write locks out of order: %s", problem)

    def holds(self, key: Key) -> bool:
        return self.whole or not self.held.isdisjoint(key.names)

    def alone(self) -> None:
        """The next statement is the whole transaction, atomic by itself: it runs with no
        ``BEGIN``, key or ``COMMIT`` (one round trip), and nothing may follow it."""
        assert self._conn is None and not self.held, "alone() comes before anything else"
        self._alone = "pending"

    async def _run_alone(self, sql: str, params: Params) -> PgCursor:
        self._alone = "done"
        text, names = to_postgres(sql)
        conn = await self._acquire()
        try:
            return await run_statement(conn, text, arguments(names, params))
        except CONNECTION_ERRORS as exc:  # maybe applied, maybe not: never run twice
            raise StorageUnavailable("unreachable") from exc
        finally:
            await self._pool.release(conn)

    async def started(self) -> PoolConnectionProxy:
        """The transaction's asyncpg connection, begun (for COPY and cursors)."""
        if self._conn is None:
            await self._begin(None)
        assert self._conn is not None
        return self._conn

    async def _run(self, sql: str, params: Params) -> PgCursor:
        if self._alone == "pending":
            return await self._run_alone(sql, params)
        assert self._alone is None, "nothing follows a statement run alone()"
        await self.started()
        return await super()._run(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self.started()
        await super().executemany(sql, rows)

    # ---- the end ----------------------------------------------------------------------------
    async def commit(self) -> bool:
        """COMMIT what was written; False when nothing was (no statement ran)."""
        if self._conn is None:
            return self._alone == "done"
        await self._conn.execute("COMMIT")
        return True

    async def rollback(self) -> None:
        if self._conn is not None:
            await _roll_back(self._conn)

    async def release(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await self._pool.release(conn)

    # ---- BEGIN ------------------------------------------------------------------------------
    async def _begin(self, keys: Sequence[Key] | None) -> None:
        """A pooled connection in a transaction holding ``keys`` (None: the whole database).
        A connection the server dropped since it was last used (a restart, a failover)
        fails here, before anything was written: the pool then replaces its connections
        and the transaction begins once more."""
        for attempt in range(2):
            conn = await self._acquire()
            try:
                await self._lock(conn, keys)
            except CONNECTION_ERRORS as exc:
                await self._pool.release(conn)
                if attempt:
                    raise StorageUnavailable("unreachable") from exc
                await self._pool.expire_connections()
                continue
            except BaseException:
                # Cancelled while BEGIN waited for a lock: whether it began is not known yet
                # (asyncpg would find out at release and log "Resetting connection with an
                # active transaction"), so the connection is closed; the pool opens another.
                conn.terminate()
                await self._pool.release(conn)
                raise
            self._conn = conn
            self._target = conn
            self.whole = keys is None
            self._report_wait(asyncio.get_running_loop().time() - self._began_at)
            return

    async def _acquire(self) -> PoolConnectionProxy:
        """A connection of the write pool: the first wait is :data:`QUICK` (then the
        interaction is deferred), the whole wait at most the patience."""
        loop = asyncio.get_running_loop()
        try:
            return await acquire(self._pool, max(0.001, self._began_at + QUICK - loop.time()))
        except TimeoutError:
            self._waited = await waiting(self._waited)
        try:
            return await acquire(self._pool, max(0.001, self._deadline - loop.time()))
        except TimeoutError:
            raise StorageUnavailable("busy") from None

    async def _lock(self, conn: PoolConnectionProxy, keys: Sequence[Key] | None) -> None:
        """``BEGIN`` and the locks in one round trip, waiting as :meth:`_acquire` does; then
        the statements inside may wait (for a row) as long as the patience has left."""
        loop = asyncio.get_running_loop()
        wait = self._began_at + QUICK - loop.time() if not self._waited else (
            self._deadline - loop.time())
        while True:
            rest = self._deadline - loop.time()
            try:
                await conn.execute(_begin_sql(keys, _ms(wait), _ms(rest)))
                return
            except LOCK_FAILURES:  # nothing was done yet: safe to try again
                await conn.execute("ROLLBACK")
            wait = self._deadline - loop.time()
            if wait <= 0:
                raise StorageUnavailable("busy")
            self._waited = await waiting(self._waited)


_ROLLBACK_FAILURES: tuple[type[Exception], ...] = (
    *CONNECTION_ERRORS, asyncpg.PostgresError, asyncpg.InterfaceError)


async def _roll_back(conn: PoolConnectionProxy) -> None:
    """End whatever transaction ``conn`` is in before it goes back to the pool (asyncpg
    would log "Resetting connection with an active transaction"); a connection that cannot
    roll back (dropped, or its statement cancelled mid-way) is closed, and the pool opens
    a new one."""
    if conn.is_closed() or not conn.is_in_transaction():
        return
    try:
        await conn.execute("ROLLBACK")
    except _ROLLBACK_FAILURES:
        conn.terminate()


def _begin_sql(keys: Sequence[Key] | None, wait_ms: int, rest_ms: int) -> str:
    if keys is None:
        locks = f"SELECT pg_advisory_xact_lock({WRITE_LOCK})"
    else:
        locks = "; ".join((f"SELECT pg_advisory_xact_lock_shared({WRITE_LOCK})",
                           *(f"SELECT pg_advisory_xact_lock({key.sql})" for key in keys)))
    return (f"BEGIN; SET LOCAL lock_timeout = {wait_ms}; {locks};"
            f" SET LOCAL lock_timeout = {rest_ms}")
