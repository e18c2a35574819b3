"""SQLite, the zero-setup default: one aiosqlite connection for writes (WAL, foreign keys,
``BEGIN IMMEDIATE``, which also serializes writers in other processes on the same file),
and a read-only one for reads."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from ..core.errors import StorageUnavailable
from .db import (
    PATIENCE,
    QUICK,
    Database,
    DatabaseUnusable,
    MigrationError,
    committed,
    ignore_wait,
    waiting,
)

log = logging.getLogger(__name__)

def _file_in_the_way(path: Path) -> Path | None:
    """The first folder on the way to ``path`` that is a file instead."""
    return next((p for p in reversed(path.parents) if p.exists() and not p.is_dir()), None)


def _why_unusable(path: Path, error: BaseException) -> str:
    text = str(error).lower()
    if path.is_dir():
        return "is a directory, not a database file"
    if (blocker := _file_in_the_way(path)) is not None:
        return f"can't be created: {blocker} is a file, not a folder"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "is not an SQLite database, or is damaged: restore it from a backup or move it"
    if "readonly" in text or "read-only" in text or isinstance(error, PermissionError):
        return "is read-only: the bot needs to write to it (check its permissions)"
    if "full" in text:
        return "can't grow: the disk is full"
    return f"can't be opened ({error})"


async def connect(target: Path | str, **options: Any) -> aiosqlite.Connection:
    """``aiosqlite.connect``, except that a failed connect waits for aiosqlite's worker
    thread to stop: left running, it reports to an event loop that may be closed by then
    (a traceback ending "Event loop is closed" after the one-line message)."""
    pending = aiosqlite.connect(target, **options)
    try:
        return await pending
    except BaseException:
        await asyncio.to_thread(pending._thread.join, PATIENCE)
        raise


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


class SqliteDatabase(Database):
    """The bot's SQLite database."""

    kind = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, path: Path,
                 lock_waited: Callable[[float], None] = ignore_wait):
        self.connection = connection
        self.path = path
        self.lock_waited = lock_waited
        self._write_lock = asyncio.Lock()
        self._reader: aiosqlite.Connection | None = None

    @classmethod
    async def open_at(cls, path: Path, migrations: Path | None = None,
                      lock_waited: Callable[[float], None] | None = None) -> SqliteDatabase:
        """Open (or create) the database and bring its schema up to date.

        Raises :class:`DatabaseUnusable` naming the file and the problem when it can't be
        used (not a database, a directory, read-only, disk full), leaving it untouched."""
        path = Path(path)
        if path.is_dir() or _file_in_the_way(path):  # nothing to try: say so at once
            raise DatabaseUnusable(f"the database {path} {_why_unusable(path, OSError())}")
        try:
            if path.parent and not path.parent.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
            connection = await connect(path, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise DatabaseUnusable(f"the database {path} {_why_unusable(path, exc)}") from exc
        connection.row_factory = aiosqlite.Row
        db = cls(connection, path, lock_waited or ignore_wait)
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
            self._reader = await connect(uri, uri=True)
            self._reader.row_factory = aiosqlite.Row
            await self._reader.execute("PRAGMA busy_timeout = 5000")
        return self._reader

    async def close(self) -> None:
        if self._reader is not None:
            await self._reader.close()
            self._reader = None
        await self.connection.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on any error), one at a time.

        A write that cannot start within :data:`QUICK` seconds (another of our writes, or
        another process holding the file) calls the ``on_write_wait`` hook once, so the
        interaction is deferred in time, then keeps trying up to :data:`PATIENCE` seconds
        before :class:`~bot.core.errors.StorageUnavailable` says nothing was stored."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        deadline = began + self.patience
        waited = await self._take_turn(deadline)
        try:
            while True:
                try:
                    await self.connection.execute("BEGIN IMMEDIATE")
                    self.lock_waited(loop.time() - began)
                    break
                except sqlite3.OperationalError as exc:
                    if not _is_locked(exc):
                        raise _unavailable(exc) from exc
                    if loop.time() >= deadline:
                        raise StorageUnavailable("busy") from None
                    waited = await waiting(waited)
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
