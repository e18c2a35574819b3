"""One aiosqlite connection per bot: WAL, foreign keys, numbered migrations, transactions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path

import aiosqlite

from ..core.errors import AlreadyDone, StorageUnavailable

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
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


class MigrationError(RuntimeError):
    """A migration file is misnamed or failed to apply (the database is left as it was)."""


class DatabaseUnusable(RuntimeError):
    """The database file can't be used at all; the message names it and says why."""


def _why_unusable(path: Path, error: BaseException) -> str:
    text = str(error).lower()
    if path.is_dir():
        return "is a directory, not a database file"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "is not an SQLite database, or is damaged: restore it from a backup or move it"
    if "readonly" in text or "read-only" in text or isinstance(error, PermissionError):
        return "is read-only: the bot needs to write to it (check its permissions)"
    if "full" in text:
        return "can't grow: the disk is full"
    return f"can't be opened ({error})"


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


async def _enter_wal(connection: aiosqlite.Connection) -> None:
    """Switch to WAL. SQLite answers "locked" at once, without waiting, while another
    process is switching the same new file: try again for as long as start-up may wait."""
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            await connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)


class Database:
    """The bot's SQLite database. Writes go through :meth:`transaction`."""

    def __init__(self, connection: aiosqlite.Connection, path: Path):
        self.connection = connection
        self.path = path
        self._write_lock = asyncio.Lock()
        #: Seconds a deferred write keeps trying (see :data:`PATIENCE`).
        self.patience = PATIENCE
        self._reader: aiosqlite.Connection | None = None

    @classmethod
    async def open(cls, path: str | Path, migrations: Path = MIGRATIONS_DIR) -> Database:
        """Open (or create) the database and bring its schema up to date.

        Raises :class:`DatabaseUnusable` naming the file and the problem when it can't be
        used (not a database, a directory, read-only, disk full), leaving it untouched."""
        path = Path(path)
        if path.is_dir():  # checked first: aiosqlite's thread outlives a failed connect
            raise DatabaseUnusable(f"the database {path} {_why_unusable(path, OSError())}")
        try:
            if path.parent and not path.parent.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
            connection = await aiosqlite.connect(path, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise DatabaseUnusable(f"the database {path} {_why_unusable(path, exc)}") from exc
        connection.row_factory = aiosqlite.Row
        db = cls(connection, path)
        try:
            # Start-up has no 3 s window: wait as long as a deferred write would for another
            # process that is creating or migrating the same file.
            await connection.execute(f"PRAGMA busy_timeout = {int(PATIENCE * 1000)}")
            await _enter_wal(connection)
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA synchronous = NORMAL")
            await db.migrate(migrations)
            await connection.execute(f"PRAGMA busy_timeout = {int(QUICK * 1000)}")
        except BaseException as exc:
            await connection.close()
            if isinstance(exc, sqlite3.Error | OSError | StorageUnavailable):
                raise DatabaseUnusable(f"the database {path} {_why_unusable(path, exc)}") from exc
            cause = exc.__cause__
            if isinstance(exc, MigrationError) and isinstance(cause, sqlite3.Error) and (
                not _why_unusable(path, cause).startswith("can't be opened")
            ):  # the file's fault (read-only, full, damaged), not the migration's
                raise DatabaseUnusable(
                    f"the database {path} {_why_unusable(path, cause)}") from exc
            raise
        return db

    async def reader(self) -> aiosqlite.Connection:
        """A second, read-only connection: sees committed data only, never waits for writers
        (WAL), so reports don't read a half-finished game."""
        if self._reader is None:
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            self._reader = await aiosqlite.connect(uri, uri=True)
            self._reader.row_factory = aiosqlite.Row
            await self._reader.execute("PRAGMA busy_timeout = 5000")
        return self._reader

    async def close(self) -> None:
        if self._reader is not None:
            await self._reader.close()
            self._reader = None
        await self.connection.close()

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> list[int]:
        """Apply every migration not yet recorded, each in its own transaction."""
        await self.connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        async with self.connection.execute("SELECT version FROM schema_migrations") as cur:
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
        async with self.connection.execute(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
        ) as cur:
            row = await cur.fetchone()
        return row[0] if row else 0

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on any error), one at a time.

        A write that cannot start within :data:`QUICK` seconds (another of our writes, or
        another process holding the file) calls the ``on_write_wait`` hook once, so the
        interaction is deferred in time, then keeps trying up to :data:`PATIENCE` seconds
        before :class:`~bot.core.errors.StorageUnavailable` says nothing was stored."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.patience
        waited = False
        try:
            await asyncio.wait_for(self._write_lock.acquire(), QUICK)
        except TimeoutError:
            waited = await _waiting(waited)
            try:
                await asyncio.wait_for(self._write_lock.acquire(), deadline - loop.time())
            except TimeoutError:
                raise StorageUnavailable("busy") from None
        try:
            while True:
                try:
                    await self.connection.execute("BEGIN IMMEDIATE")
                    break
                except sqlite3.OperationalError as exc:
                    if not _is_locked(exc):
                        raise _unavailable(exc) from exc
                    if loop.time() >= deadline:
                        raise StorageUnavailable("busy") from None
                    waited = await _waiting(waited)
            try:
                yield self.connection
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    await self.connection.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError):
                    raise _unavailable(exc) from exc
                raise
            try:
                await self.connection.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                with contextlib.suppress(sqlite3.Error):
                    await self.connection.execute("ROLLBACK")
                raise _unavailable(exc) from exc
            committed.set(True)
        finally:
            self._write_lock.release()


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (our files hold no semicolons inside strings)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


async def _waiting(already: bool) -> bool:
    """Run the ``on_write_wait`` hook the first time a write has to wait."""
    hook = on_write_wait.get()
    if not already and hook is not None:
        await hook()
    return True


def _is_locked(error: sqlite3.OperationalError) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def _unavailable(error: sqlite3.OperationalError) -> Exception:
    """A write the disk refused: say why, in words an admin can act on."""
    text = str(error).lower()
    if "full" in text:
        return StorageUnavailable("disk full")
    if "readonly" in text or "read-only" in text:
        return StorageUnavailable("read-only")
    if "i/o" in text:
        return StorageUnavailable("disk error")
    if _is_locked(error):
        return StorageUnavailable("busy")
    return error


def is_duplicate_action(error: sqlite3.IntegrityError) -> bool:
    """Did a unique key on an interaction id refuse this write (a second delivery)?"""
    text = str(error)
    return "interaction" in text or "taken_back_by" in text


@asynccontextmanager
async def once() -> AsyncIterator[None]:
    """Wrap a write transaction: a second delivery of the same interaction, refused by the
    database's unique keys, becomes :class:`~bot.core.errors.AlreadyDone`."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        if is_duplicate_action(exc):
            raise AlreadyDone() from None
        raise
