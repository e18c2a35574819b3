"""One aiosqlite connection per bot: WAL, foreign keys, numbered migrations, transactions."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from ..core.errors import AlreadyDone

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent.parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


class MigrationError(RuntimeError):
    """A migration file is misnamed or failed to apply (the database is left as it was)."""


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


class Database:
    """The bot's SQLite database. Writes go through :meth:`transaction`."""

    def __init__(self, connection: aiosqlite.Connection, path: Path):
        self.connection = connection
        self.path = path
        self._write_lock = asyncio.Lock()
        self._reader: aiosqlite.Connection | None = None

    @classmethod
    async def open(cls, path: str | Path, migrations: Path = MIGRATIONS_DIR) -> Database:
        path = Path(path)
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        db = cls(connection, path)
        try:
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA busy_timeout = 5000")
            await connection.execute("PRAGMA synchronous = NORMAL")
            await db.migrate(migrations)
        except BaseException:
            await connection.close()
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
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on any error), one at a time."""
        async with self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            else:
                await self.connection.execute("COMMIT")


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (our files hold no semicolons inside strings)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


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
