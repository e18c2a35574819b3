"""Looking at a database without changing it: can the bot use it, and which migrations
would opening it apply? For ``mastermind-bot --check``, and for the check the bot makes
before it logs in to Discord (so a bad ``DATABASE_URL`` is reported as such offline).

Nothing is created or written: a SQLite file that does not exist yet is judged by its
folder, and an existing one is read through a read-only connection (``immutable`` when
no other connection has its write-ahead log open, so none is left behind)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from ..core.config import describe_database
from .db import MIGRATIONS_DIR, PG_MIGRATIONS_DIR, DatabaseUnusable, is_postgres, migration_files
from .postgres import _OPEN_ERRORS
from .postgres import _why_unusable as _why_postgres_unusable
from .sqlite import _file_in_the_way, _why_unusable

#: Seconds to wait for a PostgreSQL server to answer (as the bot's own pool does).
CONNECT_TIMEOUT = 10.0


@dataclass(frozen=True)
class Probe:
    """What a look at the database found."""

    #: The database as log lines name it (a password masked).
    name: str
    #: Why the bot can't use it, naming it; None when it can.
    problem: str | None = None
    #: False for a SQLite file the bot will create.
    exists: bool = True
    #: Migrations recorded as applied, and the ones this version of the bot has.
    applied: frozenset[int] = frozenset()
    known: tuple[int, ...] = field(default=())

    @property
    def pending(self) -> list[int]:
        """Migrations opening it would apply."""
        return [v for v in self.known if v not in self.applied]

    @property
    def unknown(self) -> list[int]:
        """Migrations applied by a newer version of the bot."""
        return sorted(self.applied - set(self.known))


async def probe(target: str | Path) -> Probe:
    """Look at the database ``target`` names (see :meth:`Database.open`), changing nothing."""
    if is_postgres(target):
        return await _probe_postgres(str(target))
    from .db import sqlite_path

    return await asyncio.to_thread(_probe_sqlite, sqlite_path(target))


async def check_usable(target: str | Path) -> None:
    """Raise :class:`DatabaseUnusable` when :func:`probe` finds the database unusable."""
    found = await probe(target)
    if found.problem is not None:
        raise DatabaseUnusable(found.problem)


def _known(directory: Path) -> tuple[int, ...]:
    return tuple(version for version, _, _ in migration_files(directory))


def _probe_sqlite(path: Path) -> Probe:
    known = _known(MIGRATIONS_DIR)
    unusable = Probe(str(path), known=known)
    if path.is_dir() or _file_in_the_way(path) is not None:
        return _with_problem(unusable, path, OSError())
    if not path.exists():
        folder = next(p for p in path.absolute().parents if p.exists())
        if not os.access(folder, os.W_OK | os.X_OK):
            return Probe(str(path), f"the database {path} can't be created: the folder "
                                    f"{folder} is not writable", exists=False, known=known)
        return Probe(str(path), exists=False, known=known)
    folder = path.absolute().parent
    if not os.access(path, os.R_OK | os.W_OK) or not os.access(folder, os.W_OK | os.X_OK):
        return _with_problem(unusable, path, PermissionError())
    try:
        applied = _applied_sqlite(path)
    except (sqlite3.Error, OSError) as exc:
        return _with_problem(unusable, path, exc)
    return Probe(str(path), applied=applied, known=known)


def _with_problem(probe: Probe, path: Path, error: BaseException) -> Probe:
    return Probe(probe.name, f"the database {path} {_why_unusable(path, error)}",
                 known=probe.known)


def _applied_sqlite(path: Path) -> frozenset[int]:
    """Versions recorded in ``schema_migrations``, read without writing anything."""
    live_log = Path(f"{path}-wal").exists()  # another connection may have commits there
    uri = f"{path.absolute().as_uri()}?mode=ro{'' if live_log else '&immutable=1'}"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as conn:
        found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'"
                             " AND name = 'schema_migrations'").fetchone()
        if found is None:
            return frozenset()
        return frozenset(row[0] for row in conn.execute("SELECT version FROM"
                                                        " schema_migrations"))


async def _probe_postgres(url: str) -> Probe:
    name = describe_database(url)
    known = _known(PG_MIGRATIONS_DIR)
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except _OPEN_ERRORS as exc:
        return Probe(name, f"the database {name} {_why_postgres_unusable(exc)}", known=known)
    except ValueError as exc:  # asyncpg's answer to a malformed URL
        return Probe(name, f"the database URL {name} is malformed ({exc})", known=known)
    try:
        applied: frozenset[int] = frozenset()
        if await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
            applied = frozenset(r[0] for r in await conn.fetch(
                "SELECT version FROM schema_migrations"))
        found = Probe(name, applied=applied, known=known)
        if found.pending and not await conn.fetchval(
                "SELECT COALESCE(has_schema_privilege(current_schema(), 'CREATE'), false)"):
            return Probe(name, f"the database {name} can't be migrated: its user may not "
                               f"create tables in it (GRANT CREATE ON SCHEMA)", known=known,
                         applied=applied)
        return found
    except _OPEN_ERRORS as exc:
        return Probe(name, f"the database {name} {_why_postgres_unusable(exc)}", known=known)
    finally:
        await conn.close()
