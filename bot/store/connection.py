"""The one connection shape the store's SQL is written against, on either backend.

The SQL modules use the small part of aiosqlite's API they need: ``await conn.execute(sql,
params)`` (then ``cur.rowcount``), and :func:`fetch_all` or :func:`fetch_one` for the rows a
statement answers with (``async with conn.execute(...) as cur`` where a cursor is needed);
parameters are ``?`` (a sequence) or ``:name`` (a mapping). On SQLite that is aiosqlite
itself. :class:`PgConnection` gives asyncpg the same
shape, rewriting placeholders to ``$n`` and reading row counts from the command status, so
each statement is written once for both databases.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Generator, Iterable, Mapping, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any, TypeAlias

import aiosqlite
import asyncpg
from asyncpg.pool import PoolConnectionProxy

from ..core.errors import StorageUnavailable

Params: TypeAlias = Sequence[Any] | Mapping[str, Any]

#: Skips quoted text, finds ``?`` and ``:name`` (not ``::``, which no shared SQL uses).
_TOKEN = re.compile(r"'(?:[^']|'')*'|\?|(?<!:):([A-Za-z_]\w*)")
#: Statements that answer with rows (the rest answer with a command status).
_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)

#: What a lost or refused connection raises in asyncpg: the database is out of reach.
CONNECTION_ERRORS: tuple[type[Exception], ...] = (
    OSError, asyncpg.PostgresConnectionError, asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError, asyncpg.CrashShutdownError,
    # what a connection the server dropped while it sat in the pool may raise on its next use
    asyncpg.exceptions._base.InternalClientError,
)


#: What opening a new connection raises when the server refuses it.
_ACQUIRE_ERRORS: tuple[type[Exception], ...] = (*CONNECTION_ERRORS, asyncpg.PostgresError)


@lru_cache(maxsize=1024)
def to_postgres(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """``?`` -> ``$1, $2, ...``; ``:name`` -> ``$k`` (the names in order, to pick from a
    mapping; None when the statement uses ``?``)."""
    names: list[str] = []
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        text = match.group(0)
        if text.startswith("'"):
            return text
        if text == "?":
            count += 1
            return f"${count}"
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    converted = _TOKEN.sub(replace, sql)
    if names and count:
        raise ValueError("a statement mixes ? and :name parameters")
    return converted, tuple(names) if names else None


def arguments(names: tuple[str, ...] | None, params: Params) -> list[Any]:
    if names is None:
        return list(params.values()) if isinstance(params, Mapping) else list(params)
    assert isinstance(params, Mapping), "named parameters need a mapping"
    return [params[name] for name in names]


def _rowcount(status: str) -> int:
    """``UPDATE 3`` / ``INSERT 0 1`` / ``DELETE 0`` -> the number of rows changed."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


def numeric(text: str) -> int | float:
    """PostgreSQL's ``numeric`` (what ``SUM`` of integers and ``* 1.0`` give) read the way
    SQLite answers: an int when whole, else a float, never a ``Decimal``."""
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() and "." not in text else float(value)


class PgCursor:
    """The rows (or the row count) of one finished statement."""

    def __init__(self, rows: list[asyncpg.Record], rowcount: int):
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    async def fetchone(self) -> asyncpg.Record | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[asyncpg.Record]:
        rows, self._next = self._rows[self._next:], len(self._rows)
        return rows


class _Statement:
    """Awaitable, or used as ``async with``, like aiosqlite's ``execute``."""

    def __init__(self, run: Callable[[], Awaitable[PgCursor]]):
        self._run = run

    def __await__(self) -> Generator[Any, None, PgCursor]:
        return self._run().__await__()

    async def __aenter__(self) -> PgCursor:
        return await self._run()

    async def __aexit__(self, *exc: object) -> None:
        return None


class PgConnection:
    """An asyncpg connection (a write transaction's) or pool (reads, one statement at a time)
    behind the store's connection shape."""

    def __init__(self, target: asyncpg.Connection | asyncpg.Pool | PoolConnectionProxy):
        self._target = target

    @property
    def driver(self) -> asyncpg.Connection | asyncpg.Pool | PoolConnectionProxy:
        """asyncpg itself, for what has no place in the shared shape (``COPY``, cursors)."""
        return self._target

    def execute(self, sql: str, params: Params = ()) -> _Statement:
        return _Statement(lambda: self._run(sql, params))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """One statement for many rows, sent in one pipeline (like aiosqlite's)."""
        text, names = to_postgres(sql)
        try:
            await self._target.executemany(text, [arguments(names, row) for row in rows])
        except CONNECTION_ERRORS as exc:
            raise StorageUnavailable("unreachable") from exc

    async def _run(self, sql: str, params: Params) -> PgCursor:
        text, names = to_postgres(sql)
        args = arguments(names, params)
        pool = self._target
        if not isinstance(pool, asyncpg.Pool):  # inside a transaction: no retry
            try:
                return await run_statement(pool, text, args)
            except CONNECTION_ERRORS as exc:
                raise StorageUnavailable("unreachable") from exc
        # A read on the pool may meet a connection the server dropped (a restart, a
        # failover): the pool then replaces all of its connections, and the read runs once
        # more.
        for attempt in range(2):
            conn = await acquire(pool)
            try:
                return await run_statement(conn, text, args)
            except CONNECTION_ERRORS as exc:
                if attempt:
                    raise StorageUnavailable("unreachable") from exc
                await pool.expire_connections()
            finally:
                await pool.release(conn)
        raise AssertionError("unreachable")


@lru_cache(maxsize=1024)
def _answers_rows(text: str) -> bool:
    """Searched once per statement text (the search over a long SELECT's text cost 3% of a
    move's CPU when run at every statement)."""
    return _ROWS.search(text) is not None


async def run_statement(conn: asyncpg.Connection | PoolConnectionProxy, text: str,
                     args: list[Any]) -> PgCursor:
    if _answers_rows(text):
        rows = await conn.fetch(text, *args)
        return PgCursor(rows, len(rows))
    return PgCursor([], _rowcount(await conn.execute(text, *args)))


async def acquire(pool: asyncpg.Pool, timeout: float | None = None) -> PoolConnectionProxy:
    """A connection from the pool (TimeoutError after ``timeout`` seconds with none free); a
    server that refuses new ones (down, starting, the database closed to connections) makes
    the database unreachable, not a bug."""
    try:
        return await pool.acquire(timeout=timeout)
    except TimeoutError:
        if timeout is None:
            raise StorageUnavailable("unreachable") from None
        raise  # every connection busy, or the server slow to accept: the caller decides
    except _ACQUIRE_ERRORS as exc:
        raise StorageUnavailable("unreachable") from exc


#: A connection as the SQL modules see it, on either backend, and one row it reads
#: (columns by name or position).
Connection: TypeAlias = aiosqlite.Connection | PgConnection
Row: TypeAlias = aiosqlite.Row | asyncpg.Record


async def fetch_all(conn: Connection, sql: str, params: Params = ()) -> list[Row]:
    """The rows of one statement (a read, or a write's ``RETURNING``). On SQLite in one
    trip to aiosqlite's thread, where ``async with conn.execute(...)`` then ``fetchall()``
    takes three (the cursor's close is the third): about 0.09 ms each on a quiet 2-core
    machine."""
    if isinstance(conn, aiosqlite.Connection):
        return list(await conn.execute_fetchall(sql, params))
    async with conn.execute(sql, params) as cur:
        return list(await cur.fetchall())


async def fetch_one(conn: Connection, sql: str, params: Params = ()) -> Row | None:
    """The row of a statement that answers at most one (a key, ``LIMIT 1``, ``RETURNING``
    of one row), as :func:`fetch_all` reads it."""
    rows = await fetch_all(conn, sql, params)
    return rows[0] if rows else None
