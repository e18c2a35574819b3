"""Post-game analysis and daily leaderboard times: run by hand, prints medians.

    .venv/bin/python bench/analysis_bench.py [--games 20] [--big 3] [--dailies 100000]

Analysis: games played by a "person" (each guess a random code that fits every reply, the
random-consistent strategy) are analysed with ``engine.analysis.analyse`` (every move
against the solver, plus the solver's own game against the same secret), warm, as the
Analyse button runs it. The daily: a database built with the real migrations holding
``--dailies`` finished plays of one day over 50 servers, queried with the bot's own
``DailyService.standing`` (top 10, counts, the viewer's rank), per server and global.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bot.features.analysis.service import Source, build_report
from bot.features.daily.service import DailyService
from bot.services.games import GameService
from bot.store import Database
from engine import Rules, SolverSession, draw_secret, score_codes
from engine.analysis import analyse

DAY = "2026-11-24"


def person_game(rules: Rules, seed: int) -> tuple[tuple, list]:
    secret = draw_secret(rules, seed)
    session = SolverSession(rules, "random-consistent", seed=seed)
    turns = []
    while not session.solved and len(turns) < rules.max_guesses:
        guess = session.next_guess()
        turns.append((guess, score_codes(secret, guess)))
        session.tell(turns[-1][1])
    return secret, turns


def time_analysis(rules: Rules, games: int) -> list[float]:
    played = [person_game(rules, seed) for seed in range(games + 1)]
    analyse(rules, played[0][1], secret=played[0][0])  # warm: tables and the first move
    times = []
    for secret, turns in played[1:]:
        start = time.perf_counter()
        analyse(rules, turns, secret=secret)
        times.append(time.perf_counter() - start)
    return times


def time_report(games: int) -> list[float]:
    """What the Analyse button does in its worker thread: the analysis and the chart."""
    times = []
    for seed in range(games):
        secret, turns = person_game(Rules(), seed)
        source = Source("bench", Rules(), tuple(turns), secret, "you")
        start = time.perf_counter()
        build_report(source)
        times.append(time.perf_counter() - start)
    return times[1:]


def fill_dailies(path: Path, n: int) -> None:
    rng = random.Random(1)
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO daily_plays (day, user_id, guild_id, status, solved, guesses,"
            " started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(DAY, user, 1000 + rng.randrange(50), status, int(status == "won"),
              rng.randint(3, 10), 1e9, 1e9 + rng.random() * 86400)
             for user in range(1, n + 1)
             for status in [("won" if rng.random() < 0.9 else "lost")]])
        # The tally the bot keeps as plays finish (migration 011 builds it the same way).
        conn.execute("DELETE FROM daily_tally")
        for scope, by in (("0", ""), ("guild_id", " guild_id,")):
            conn.execute(f"INSERT INTO daily_tally SELECT day, {scope}, solved, guesses,"
                         f" COUNT(*) FROM daily_plays GROUP BY day,{by} solved, guesses")


async def time_daily(n: int, runs: int = 30) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        db = await Database.open(path)
        fill_dailies(path, n)
        service = DailyService(GameService(db))
        times: dict[str, list[float]] = {"global": [], "server": []}
        for run in range(runs):
            viewer = 1 + (run * 7919) % n
            for scope, guild in (("global", None), ("server", 1000 + run % 50)):
                start = time.perf_counter()
                await service.standing(DAY, guild, viewer)
                times[scope].append(time.perf_counter() - start)
        await db.close()
    return times


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--big", type=int, default=3)
    parser.add_argument("--dailies", type=int, default=100_000)
    args = parser.parse_args()
    print(f"analysis 4x6, {args.games} games: {ms(time_analysis(Rules(), args.games))}")
    print(f"Analyse button 4x6 (analysis + chart): {ms(time_report(args.games))}")
    print(f"analysis 8x9, {args.big} games: {ms(time_analysis(Rules(8, 9, 20), args.big))}")
    for scope, values in asyncio.run(time_daily(args.dailies)).items():
        print(f"daily leaderboard, {args.dailies:,} plays, {scope}: {ms(values)}")


if __name__ == "__main__":
    main()
