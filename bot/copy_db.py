"""``mastermind-bot copy-db FROM TO``: copy every table of one database into another, SQLite to
PostgreSQL or back (FROM and TO are each a SQLite path, ``sqlite:///path`` or a
``postgresql://`` URL), verified, in one transaction.

- Both are opened with :meth:`Database.open`, so both schemas are first migrated to this
  version; they must then be at the same version, with the same tables and columns.
- TO must hold no rows (a fresh database), or ``--replace`` deletes its rows first, in the
  same transaction as the copy. The whole copy is one transaction on TO: an error, a failed
  check or an interrupted run leaves TO as it was, so the command can simply be run again.
- FROM is read inside a write transaction of its own (which writes nothing), so no bot can
  change it half-way; stop the bots on both databases first all the same (a bot's writes
  wait for the copy, and give up after 30 s).
- Tables go in foreign-key order (``matches`` before ``games``, ``games`` before
  ``guesses``...), every column by name, in batches; PostgreSQL's identity sequences are then
  moved past the ids copied in.
- Checked before committing: every table's row count and contents (an order-free checksum
  of its rows) equal FROM's, and rebuilding ``results``, ``match_results`` and ``standings``
  from the copied games and matches gives back exactly the rows copied.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import asyncpg

from .core.config import describe_database
from .core.errors import StorageUnavailable
from .store import Connection, Database, DatabaseUnusable, StatsStore
from .store.copy import CopyStore
from .store.db import is_postgres, sqlite_path

#: Rows per batch, read and written.
BATCH = 5000
#: What the stats rebuild writes; it must give back exactly the rows copied.
STATS_TABLES = ("results", "match_results", "standings")


class CopyRefused(Exception):
    """The copy can't be done as asked; nothing was written."""


class VerificationFailed(Exception):
    """The copy didn't match FROM; it was rolled back."""


@dataclass
class TableCopy:
    name: str
    columns: list[str]
    rows: int = 0
    #: Sum of the rows' hashes (mod 2**64): equal for the same rows in any order.
    digest: int = 0


@dataclass
class CopyReport:
    source: str
    target: str
    version: int
    tables: list[TableCopy] = field(default_factory=list)
    #: Rows deleted from TO first (``--replace``).
    replaced: int = 0
    #: The whole transaction; of it, the checks of every table and the stats rebuild.
    seconds: float = 0.0
    check_seconds: float = 0.0
    rebuild_seconds: float = 0.0
    #: Whether the stats rebuild was checked (``--no-rebuild`` skips it).
    rebuilt: bool = True

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)


def digest(rows: Iterable[tuple], start: int = 0) -> int:
    """An order-free checksum of rows, in one process: the sum of their hashes mod 2**64
    (Python's tuple hash, seeded per process, so compare only within one run; a whole float
    hashes as its int, so 3.0 from one database equals 3 from the other)."""
    return (start + sum(map(hash, rows))) % 2**64


def fk_order(references: dict[str, set[str]]) -> list[str]:
    """Tables ordered so each comes after every table its foreign keys point at."""
    order: list[str] = []
    placed: set[str] = set()
    while len(order) < len(references):
        ready = sorted(t for t, refs in references.items()
                       if t not in placed and refs - {t} <= placed)
        if not ready:
            raise CopyRefused("the tables' foreign keys form a cycle: "
                              + ", ".join(sorted(set(references) - placed)))
        order.extend(ready)
        placed.update(ready)
    return order


class Copier:
    """One copy from ``src`` to ``dst`` (both open)."""

    def __init__(self, src: Database, dst: Database, *, batch: int = BATCH):
        self.src = src
        self.dst = dst
        self.batch = batch
        self.store = CopyStore()
        #: Seconds spent checking the tables, and rebuilding the stats (see :meth:`verify`).
        self.check_seconds = 0.0
        self.rebuild_seconds = 0.0

    async def check(self) -> tuple[int, list[TableCopy]]:
        """Refuse the same database twice, or two schemas; the tables in copy order."""
        src, dst = await self.src.reader(), await self.dst.reader()
        if await self.store.identity(src) == await self.store.identity(dst):
            raise CopyRefused("FROM and TO are the same database")
        versions = (await self.src.schema_version(), await self.dst.schema_version())
        if versions[0] != versions[1]:
            raise CopyRefused(f"FROM is at schema version {versions[0]} and TO at "
                              f"{versions[1]}: run the same version of the bot on both")
        return versions[0], await self._plan(src, dst)

    async def _plan(self, src: Connection, dst: Connection) -> list[TableCopy]:
        tables = await self.store.tables(src)
        if tables != await self.store.tables(dst):
            raise CopyRefused("FROM and TO have different tables: "
                              f"{tables} and {await self.store.tables(dst)}")
        columns, references = {}, {}
        for table in tables:
            columns[table] = await self.store.columns(src, table)
            if sorted(columns[table]) != sorted(await self.store.columns(dst, table)):
                raise CopyRefused(f"the table {table} has different columns in FROM and TO")
            references[table] = await self.store.references(src, table) & set(tables)
        return [TableCopy(t, columns[t]) for t in fk_order(references)]

    async def run(self, plan: list[TableCopy], *, replace: bool, rebuild: bool = True) -> int:
        """Copy every table in one transaction on TO, check it, commit. Returns the rows
        ``--replace`` deleted from TO."""
        async with self.dst.transaction() as dst:
            replaced = await self._make_room(dst, plan, replace)
            # FROM's transaction only while it is read (PostgreSQL ends a session idle in
            # a transaction for a minute, and the checks below can take longer).
            async with self.src.transaction() as src:
                for table in plan:
                    await self._copy_table(src, dst, table)
            await self.store.reset_identities(dst)
            await self.verify(dst, plan, rebuild=rebuild)
        return replaced

    async def _make_room(self, dst: Connection, plan: list[TableCopy], replace: bool) -> int:
        held = {t.name: n for t in plan if (n := await self.store.count(dst, t.name))}
        if held and not replace:
            listed = ", ".join(f"{name} ({count_rows(n)})" for name, n in held.items())
            raise CopyRefused(f"TO already holds data: {listed}. Nothing was changed. Copy into "
                              f"an empty database, or pass --replace to delete TO's rows first")
        if held:  # every table at once (children first), as TRUNCATE wants them together
            await self.store.clear(dst, [t.name for t in reversed(plan)])
        return sum(held.values())

    async def _copy_table(self, src: Connection, dst: Connection, table: TableCopy) -> None:
        async for rows in self.store.rows(src, table.name, table.columns, self.batch):
            await self.store.insert(dst, table.name, table.columns, rows)
            table.rows += len(rows)
            table.digest = digest(rows, table.digest)

    async def _read_back(self, dst: Connection, table: TableCopy) -> tuple[int, int]:
        count, total = 0, 0
        async for rows in self.store.rows(dst, table.name, table.columns, self.batch):
            count += len(rows)
            total = digest(rows, total)
        return count, total

    async def verify(self, dst: Connection, plan: list[TableCopy], *,
                     rebuild: bool = True) -> None:
        """Counts and contents of every table, then the stats rebuild, inside the copy's
        transaction: any difference raises :class:`VerificationFailed` (rolled back)."""
        started = time.perf_counter()
        for table in plan:
            rows, total = await self._read_back(dst, table)
            if (rows, total) != (table.rows, table.digest):
                raise VerificationFailed(
                    f"the table {table.name} differs after the copy ({count_rows(table.rows)} "
                    f"in FROM, {rows:,} in TO)")
        self.check_seconds = time.perf_counter() - started
        if not rebuild:
            return
        await StatsStore().rebuild(dst)
        for table in plan:
            if table.name in STATS_TABLES and \
                    await self._read_back(dst, table) != (table.rows, table.digest):
                raise VerificationFailed(
                    f"rebuilding the stats from the copied games changed {table.name}: FROM's "
                    f"leaderboards don't match its own games")
        self.rebuild_seconds = time.perf_counter() - started - self.check_seconds


async def copy_database(source: str, target: str, *, replace: bool = False,
                        rebuild: bool = True, batch: int = BATCH) -> CopyReport:
    """Copy FROM into TO, verified; raises :class:`CopyRefused` (nothing written),
    :class:`VerificationFailed` (rolled back) or :class:`DatabaseUnusable`."""
    if not is_postgres(source) and not sqlite_path(source).is_file():
        raise CopyRefused(f"FROM {source} is not a file: name an existing SQLite database")
    src = await Database.open(source)
    try:
        dst = await Database.open(target)
        try:
            copier = Copier(src, dst, batch=batch)
            version, plan = await copier.check()
            report = CopyReport(describe_database(source), describe_database(target), version)
            started = time.perf_counter()
            report.replaced = await copier.run(plan, replace=replace, rebuild=rebuild)
            report.rebuilt = rebuild
            report.seconds = time.perf_counter() - started
            report.check_seconds, report.rebuild_seconds = (copier.check_seconds,
                                                            copier.rebuild_seconds)
            report.tables = plan
            return report
        finally:
            await dst.close()
    finally:
        await src.close()


def count_rows(count: int, width: int = 0) -> str:
    """``1 row``, ``5,000 rows``; the number right-aligned in ``width`` for the report."""
    return f"{count:>{width},} row{'' if count == 1 else 's'}"


def format_report(report: CopyReport) -> str:
    copying = report.seconds - report.check_seconds - report.rebuild_seconds
    rate = report.rows / copying if copying > 0 else 0.0
    lines = [f"copied {report.source} -> {report.target} (schema version {report.version})"]
    if report.replaced:
        lines.append(f"  --replace: deleted the {count_rows(report.replaced)} TO held first")
    width = max([len(t.name) for t in report.tables] + [5])
    lines += [f"  {t.name:<{width}} {count_rows(t.rows, 10)}" for t in report.tables]
    lines.append(f"  {'all':<{width}} {count_rows(report.rows, 10)} in {copying:.2f} s "
                 f"({rate:,.0f} rows/s)")
    rebuilt = (f"rebuilding results and standings from the copied games gives the same rows "
               f"({report.rebuild_seconds:.2f} s)" if report.rebuilt else
               "the stats rebuild was skipped (--no-rebuild)")
    lines.append(f"verified: every table's row count and contents equal FROM's "
                 f"({report.check_seconds:.2f} s), and {rebuilt}; one transaction, "
                 f"{report.seconds:.2f} s in all")
    return "\n".join(lines)


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="mastermind-bot copy-db",
        description="Copy every table of the bot's database into another (SQLite <-> "
                    "PostgreSQL), verified, in one transaction. Stop the bots first.")
    parser.add_argument("source", metavar="FROM",
                        help="a SQLite file (path or sqlite:///path) or a postgresql:// URL")
    parser.add_argument("target", metavar="TO", help="likewise; created if it is a new file")
    parser.add_argument("--replace", action="store_true",
                        help="delete TO's rows first (same transaction); without it TO must "
                             "be empty")
    parser.add_argument("--no-rebuild", action="store_true",
                        help="skip rebuilding the stats from the copied games to check them "
                             "(slow past 100,000 games); counts and contents are still checked")
    parser.add_argument("--batch", type=int, default=BATCH, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    try:
        report = asyncio.run(copy_database(args.source, args.target, replace=args.replace,
                                           rebuild=not args.no_rebuild,
                                           batch=max(1, args.batch)))
    except CopyRefused as exc:
        return _fail(str(exc), 2)
    except DatabaseUnusable as exc:
        return _fail(f"{exc}. Nothing was copied.", 2)
    except VerificationFailed as exc:
        return _fail(f"{exc}. The copy was rolled back: TO is as it was.", 1)
    except StorageUnavailable as exc:
        hint = ": another process is writing to it, stop the bots first" if (
            exc.reason == "busy") else ""
        return _fail(f"a database could not be used ({exc.reason}{hint}). Nothing was "
                     f"changed.", 1)
    except (sqlite3.Error, asyncpg.PostgresError) as exc:
        return _fail(f"the copy failed ({type(exc).__name__}: {exc}). It was rolled back: "
                     f"TO is as it was.", 1)
    print(format_report(report))
    return 0


def _fail(message: str, code: int) -> int:
    print(f"mastermind-bot copy-db: {message}", file=sys.stderr)
    return code


