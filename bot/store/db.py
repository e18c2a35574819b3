"""The database, whichever it is: ``DATABASE_URL`` picks SQLite (a file, the default) or
PostgreSQL (``postgresql://``). Both keep the same promises: numbered migrations applied once
each in their own transaction, no read-check-write interleaved with another on the same
game, match or daily play (SQLite: one write at a time; PostgreSQL: locks on what each
write touches, bot/store/locks.py), the same waiting rules (:data:`QUICK`, :data:`PATIENCE`),
a read connection that sees committed data only, and unique keys that refuse a second
delivery of an interaction (:func:`once`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from pathlib import Path

import asyncpg

from ..core.errors import AlreadyDone, StorageUnavailable
from .connection import Connection

log = logging.getLogger(__name__)

#: Seconds a write may wait for the database before its interaction is deferred (Discord
#: drops an interaction not answered within 3 s)...
QUICK = 0.5
#: ...and how long a deferred write keeps trying before it says nothing was stored.
PATIENCE = 30.0

#: Set in an interaction's task once one of its writes committed, so an error after that
#: is reported truthfully ("your move was saved").
committed: ContextVar[bool] = ContextVar("committed", default=False)

#: Called once when a write has to wait; the Discord layer sets it per interaction (to
#: defer it). Services never see it.
on_write_wait: ContextVar[Callable[[], Awaitable[None]] | None] = ContextVar(
    "on_write_wait", default=None)

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent.parent / "migrations"
#: PostgreSQL's migrations: the same numbers and tables, in its dialect.
PG_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgresql"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
_PG_SCHEMES = ("postgresql://", "postgres://")

#: What either driver raises when a unique key or another constraint refuses a write.
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


class MigrationError(RuntimeError):
    """A migration file is misnamed or failed to apply (the database is left as it was)."""


class DatabaseUnusable(RuntimeError):
    """The database can't be used at all; the message names it and says why."""


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(_PG_SCHEMES)


def sqlite_path(target: str | Path) -> Path:
    """A file path, or ``sqlite:///relative`` / ``sqlite:////absolute``, as a path."""
    text = str(target)
    return Path(text[len("sqlite:///"):]) if text.startswith("sqlite:///") else Path(text)


def migration_files(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, str, Path]]:
    """``(version, name, path)`` of every ``NNN_name.sql``, in order; numbers must not repeat."""
    found = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file {path.name!r} is not named NNN_name.sql")
        found.append((int(match.group(1)), path.stem, path))
    versions = [v for v, _, _ in found]
    if len(set(versions)) != len(versions):
        raise MigrationError(f"two migrations share a number in {directory}")
    return found


def ignore_wait(seconds: float) -> None:
    """The default ``lock_waited``: nobody counts the waits."""


class Database(ABC):
    """The bot's database. Writes go through :meth:`transaction`, reads through
    :meth:`reader`; SQL lives in the store's modules, written once for both backends."""

    #: ``"sqlite"`` or ``"postgresql"``.
    kind: str
    #: Seconds a deferred write keeps trying (see :data:`PATIENCE`).
    patience: float = PATIENCE
    #: Told how long each write transaction waited before it held what it writes (the
    #: bot's metrics, given to :meth:`open`).
    lock_waited: Callable[[float], None]
    #: Where applied migrations are recorded (created before the first one).
    _MIGRATIONS_TABLE = ("CREATE TABLE IF NOT EXISTS schema_migrations ("
                         " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                         " applied_at REAL NOT NULL)")

    @staticmethod
    async def open(target: str | Path, migrations: Path | None = None, *,
                   lock_waited: Callable[[float], None] | None = None) -> Database:
        """Open (or create) the database ``target`` names and bring its schema up to date:
        a ``postgresql://`` URL, or a SQLite file (a path or ``sqlite:///path``).
        ``lock_waited`` is told how long each write waited for its turn (the metrics).

        Raises :class:`DatabaseUnusable` naming it (never its password) and the problem
        when it can't be used, leaving it untouched."""
        if is_postgres(target):
            from .postgres import PostgresDatabase
            return await PostgresDatabase.open_at(str(target), migrations, lock_waited)
        from .sqlite import SqliteDatabase
        return await SqliteDatabase.open_at(sqlite_path(target), migrations, lock_waited)

    @abstractmethod
    async def reader(self) -> Connection:
        """The read connection: committed data only, never waiting for a writer."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction, committed at the end of the block, rolled back on any error:
        one at a time on SQLite (across processes too); on PostgreSQL holding what the store
        names before its first statement (else the whole database). A write that cannot
        start within
        :data:`QUICK` seconds calls the ``on_write_wait`` hook once (the interaction is
        deferred in time), then keeps trying up to :attr:`patience` seconds before
        :class:`~bot.core.errors.StorageUnavailable` says nothing was stored."""

    @abstractmethod
    async def close(self) -> None: ...

    _write_lock: asyncio.Lock

    async def _take_turn(self, deadline: float) -> bool:
        """Wait for this process's previous write (whose transaction holds the connection):
        the hook runs if that takes over :data:`QUICK` seconds. Returns whether it ran."""
        try:
            await asyncio.wait_for(self._write_lock.acquire(), QUICK)
            return False
        except TimeoutError:
            await waiting(False)
        try:
            await asyncio.wait_for(self._write_lock.acquire(),
                                   deadline - asyncio.get_running_loop().time())
        except TimeoutError:
            raise StorageUnavailable("busy") from None
        return True

    #: The migrations in this backend's dialect.
    migrations: Path = MIGRATIONS_DIR

    async def migrate(self, directory: Path | None = None) -> list[int]:
        """Apply every migration not yet recorded, each in its own transaction."""
        directory = directory or self.migrations
        async with self.transaction() as conn:
            await conn.execute(self._MIGRATIONS_TABLE)
            async with conn.execute("SELECT version FROM schema_migrations") as cur:
                done = {row[0] for row in await cur.fetchall()}
        applied = []
        for version, name, path in migration_files(directory):
            if version in done:
                continue
            statements = path.read_text(encoding="utf-8")
            async with self.transaction() as conn:
                # Read under the write lock: another process starting at the same moment
                # may have applied it since (each version is applied exactly once).
                async with conn.execute(
                    "SELECT 1 FROM schema_migrations WHERE version = ?", (version,)
                ) as cur:
                    if await cur.fetchone() is not None:
                        continue
                try:
                    for statement in _split_sql(statements):
                        await conn.execute(statement)
                except Exception as exc:
                    raise MigrationError(f"migration {path.name} failed: {exc}") from exc
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, time.time()),
                )
            log.info("applied migration %s", path.name)
            applied.append(version)
        return applied

    async def schema_version(self) -> int:
        async with (await self.reader()).execute(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
        ) as cur:
            row = await cur.fetchone()
        return row[0] if row else 0


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements: at semicolons, except inside a function's body
    between ``$$`` marks (our files hold no semicolons inside strings)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    statements, current = [], ""
    for i, part in enumerate("\n".join(lines).split("$$")):
        if i % 2:  # a body: kept whole
            current += f"$${part}$$"
            continue
        first, *rest = part.split(";")
        if rest:
            statements.append(current + first)
            *ended, current = rest
            statements += ended
        else:
            current += first
    return [s.strip() for s in (*statements, current) if s.strip()]


async def waiting(already: bool) -> bool:
    """Run the ``on_write_wait`` hook the first time a write has to wait."""
    hook = on_write_wait.get()
    if not already and hook is not None:
        await hook()
    return True


def is_duplicate_action(error: Exception) -> bool:
    """Did a unique key on an interaction id refuse this write (a second delivery)? Every
    such index is named ``*_once``; SQLite names the column instead."""
    if isinstance(error, asyncpg.UniqueViolationError):
        return (error.constraint_name or "").endswith("_once")
    text = str(error)
    return "interaction" in text or "taken_back_by" in text


@asynccontextmanager
async def once() -> AsyncIterator[None]:
    """Wrap a write transaction: a second delivery of the same interaction, refused by the
    database's unique keys, becomes :class:`~bot.core.errors.AlreadyDone`."""
    try:
        yield
    except INTEGRITY_ERRORS as exc:
        if is_duplicate_action(exc):
            raise AlreadyDone() from None
        raise
