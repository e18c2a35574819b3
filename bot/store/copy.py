"""SQL for ``mastermind-bot copy-db``: every table, whatever the migrations made, listed,
read and written generically on either backend (``bot/copy_db.py`` has the logic).

Tables and columns are read from each database's own catalog (``sqlite_master`` and
``pragma_*`` on SQLite, ``information_schema`` and ``pg_constraint`` on PostgreSQL), so a
new migration needs no change here. Rows are read in batches and written in batches:
``executemany`` on SQLite, ``COPY`` (asyncpg's ``copy_records_to_table``) on PostgreSQL.
Names come from the catalog and are quoted.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from typing import Any

import asyncpg

from .connection import Connection, PgConnection
from .transaction import PgTransaction

#: Applied migrations are each database's own record, never copied.
NOT_COPIED = "schema_migrations"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _column_list(columns: Sequence[str]) -> str:
    return ", ".join(_quote(c) for c in columns)


async def _driver(conn: PgConnection) -> asyncpg.Connection:
    """The asyncpg connection under a write transaction's :class:`PgConnection`, begun
    (COPY and server-side cursors have no place in the shared connection shape)."""
    if isinstance(conn, PgTransaction):
        return await conn.started()  # type: ignore[return-value]
    return conn.driver  # type: ignore[return-value]


async def _values(conn: Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    async with conn.execute(sql, params) as cur:
        return [row[0] for row in await cur.fetchall()]


class CopyStore:
    """Generic access to every table of one database, for copying it into another."""

    async def identity(self, conn: Connection) -> str:
        """What tells two databases apart: the file, or the server and database."""
        if isinstance(conn, PgConnection):
            async with conn.execute(
                "SELECT current_database(), CAST(pg_postmaster_start_time() AS TEXT),"
                " current_setting('port')"
            ) as cur:
                row = await cur.fetchone()
            return f"postgresql:{tuple(row) if row else ()}"
        found = await _values(conn, "SELECT file FROM pragma_database_list WHERE name = 'main'")
        return f"sqlite:{os.path.realpath(found[0]) if found else ''}"

    async def tables(self, conn: Connection) -> list[str]:
        """The bot's tables, by name (not ``schema_migrations``)."""
        if isinstance(conn, PgConnection):
            sql = ("SELECT table_name FROM information_schema.tables"
                   " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
                   " AND table_name != ? ORDER BY table_name")
        else:
            sql = ("SELECT name FROM sqlite_master WHERE type = 'table'"
                   " AND name NOT LIKE 'sqlite%' AND name != ? ORDER BY name")
        return [str(name) for name in await _values(conn, sql, (NOT_COPIED,))]

    async def columns(self, conn: Connection, table: str) -> list[str]:
        """A table's columns, in their order."""
        if isinstance(conn, PgConnection):
            sql = ("SELECT column_name FROM information_schema.columns"
                   " WHERE table_schema = current_schema() AND table_name = ?"
                   " ORDER BY ordinal_position")
        else:
            sql = "SELECT name FROM pragma_table_info(?) ORDER BY cid"
        return [str(name) for name in await _values(conn, sql, (table,))]

    async def references(self, conn: Connection, table: str) -> set[str]:
        """The tables a table's foreign keys point at."""
        if isinstance(conn, PgConnection):
            sql = ("SELECT DISTINCT c.relname FROM pg_constraint k"
                   " JOIN pg_class c ON c.oid = k.confrelid"
                   " WHERE k.contype = 'f' AND k.conrelid = to_regclass(?)")
            params = (_quote(table),)
        else:
            sql = 'SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)'
            params = (table,)
        return {str(name) for name in await _values(conn, sql, params)}

    async def count(self, conn: Connection, table: str) -> int:
        found = await _values(conn, f"SELECT COUNT(*) FROM {_quote(table)}")
        return int(found[0]) if found else 0

    async def rows(self, conn: Connection, table: str, columns: Sequence[str],
                   batch: int) -> AsyncIterator[list[tuple]]:
        """Every row of ``table`` (its ``columns`` in that order), ``batch`` rows at a time,
        without holding the whole table in memory. Inside a transaction on PostgreSQL."""
        sql = f"SELECT {_column_list(columns)} FROM {_quote(table)}"
        if isinstance(conn, PgConnection):
            cursor = await (await _driver(conn)).cursor(sql)
            while records := await cursor.fetch(batch):
                yield [tuple(record) for record in records]
            return
        async with conn.execute(sql) as cur:
            while chunk := await cur.fetchmany(batch):
                yield [tuple(row) for row in chunk]

    async def insert(self, conn: Connection, table: str, columns: Sequence[str],
                     rows: list[tuple]) -> None:
        """Write a batch of rows: ``COPY`` on PostgreSQL, ``executemany`` on SQLite."""
        if not rows:
            return
        if isinstance(conn, PgConnection):
            await (await _driver(conn)).copy_records_to_table(table, records=rows,
                                                      columns=list(columns))
            return
        marks = ", ".join("?" for _ in columns)
        await conn.executemany(
            f"INSERT INTO {_quote(table)} ({_column_list(columns)}) VALUES ({marks})", rows)

    async def clear(self, conn: Connection, tables: Sequence[str]) -> None:
        """Delete every row of ``tables`` (children before their parents), in the caller's
        transaction: one ``TRUNCATE`` on PostgreSQL (row by row, each deleted game would
        look for its replies), ``DELETE`` on SQLite."""
        if not tables:
            return
        if isinstance(conn, PgConnection):
            await conn.execute(f"TRUNCATE {', '.join(_quote(t) for t in tables)}")
            return
        for table in tables:
            await conn.execute(f"DELETE FROM {_quote(table)}")

    async def reset_identities(self, conn: Connection) -> list[str]:
        """PostgreSQL: move each identity column's sequence past the largest id copied in
        (explicit ids don't advance it), so new rows get fresh ids. SQLite needs nothing:
        a new rowid is one more than the largest. Returns the tables reset."""
        if not isinstance(conn, PgConnection):
            return []
        async with conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND is_identity = 'YES'"
            " ORDER BY table_name"
        ) as cur:
            found = [(str(t), str(c)) for t, c in await cur.fetchall()]
        for table, column in found:
            # is_called false on an empty table: the next id is 1.
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(MAX({_quote(column)}), 1),"
                f" MAX({_quote(column)}) IS NOT NULL) FROM {_quote(table)}",
                (_quote(table), column))
        return [table for table, _ in found]
