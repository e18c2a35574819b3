"""Leaderboard and stats query times on a big database: run by hand, prints figures.

    .venv/bin/python bench/stats_bench.py [--games 100000] [--players 5000]

Builds a database with the real migrations, fills it with finished games, their per-player
results and the leaderboard totals (aggregated exactly as the bot's incremental updates
would leave them), then times the bot's own StatsService queries: every leaderboard
(mode x scope x period, first page and a deep page, with the viewer's own rank) and
/stats for random players.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bot.core.enums import Mode, Period
from bot.core.results import Result, period_key
from bot.features.stats.service import StatsService
from bot.store import Database

NOW = 1_795_000_000.0  # a fixed "now" (2026-11-18 UTC) so periods hold data
SIZES = [("4x6", 4, 6, 1)] * 8 + [("5x8", 5, 8, 1), ("4x6 no-repeats", 4, 6, 0)]


def generate(path: Path, games: int, players: int, seed: int = 1) -> int:
    rng = random.Random(seed)
    guilds = [1000 + g for g in range(20)]
    home = {p: rng.choice(guilds) for p in range(1, players + 1)}
    game_rows, results = [], []
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
    standings: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in results:
        for scope in {r.guild_id, 0}:
            for period in Period:
                row = standings[(r.mode, r.size, scope, period_key(period, r.ended_at),
                                 r.user_id)]
                row[0] += 1
                row[1] += r.won
                row[2] += r.guesses if (r.won or r.mode == "challenge") else 0
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, kind, pegs, colors, max_guesses,"
            " repeats, status, started_by, winner_id, created_at, updated_at, ended_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", game_rows)
        conn.executemany(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(r.game_id, r.user_id, r.guild_id, r.mode, r.size, int(r.won), r.guesses,
              r.ended_at, r.day) for r in results])
        conn.executemany(
            "INSERT INTO standings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*key, played, won, g,
              (g / won if won else None) if key[0] == "breaker" else g / played)
             for key, (played, won, g) in standings.items()])
        conn.executemany("INSERT INTO players VALUES (?, ?, ?)",
                         [(p, f"player{p}", NOW) for p in range(1, players + 1)])
        conn.execute("ANALYZE")
    return len(results)


async def measure(path: Path, samples: int) -> None:
    db = await Database.open(path)
    service = StatsService(db, clock=lambda: NOW)
    rng = random.Random(2)
    timings: dict[str, list[float]] = defaultdict(list)
    for _ in range(samples):
        for mode in Mode:
            for scope in (1000 + rng.randrange(20), 0):
                for period in Period:
                    for page in (0, 7):
                        begin = time.perf_counter()
                        await service.leaderboard(mode=mode, scope=scope, period=period,
                                                  size="4x6", page=page,
                                                  viewer_id=rng.randint(1, 5000))
                        label = f"leaderboard {mode:<9} {'server' if scope else 'global'}"
                        timings[label].append(time.perf_counter() - begin)
        for _ in range(10):
            begin = time.perf_counter()
            await service.player(rng.randint(1, 5000), "4x6")
            timings["stats (one player)"].append(time.perf_counter() - begin)
    await db.close()
    for label, values in timings.items():
        print(f"{label:<32} median {statistics.median(values) * 1e3:6.2f} ms   "
              f"worst {max(values) * 1e3:6.2f} ms   ({len(values)} queries)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stats.sqlite3"
        asyncio.run(_migrate(path))
        begin = time.perf_counter()
        rows = generate(path, args.games, args.players)
        print(f"{args.games:,} finished games, {args.players:,} players, {rows:,} results "
              f"(built in {time.perf_counter() - begin:.1f} s)")
        asyncio.run(measure(path, args.samples))


async def _migrate(path: Path) -> None:
    db = await Database.open(path)
    await db.close()


if __name__ == "__main__":
    main()
