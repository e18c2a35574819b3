"""The pegs' application emoji at start-up: run by hand, prints figures.

    .venv/bin/python bench/emoji_bench.py            # 7 runs of each

One in-process fake Discord and SQLite file, started once to create the database; then, for
each run, a start after the app's emoji were all deleted (every peg is uploaded) and a
restart (the app holds them all: nothing is). Printed: uploads and emoji requests per start,
the whole start-up (``login``: database, command sync, pegs) and the pegs' part of it
(``install_pegs``), medians of the runs. Also the drawing alone, done once per process
(``peg_images`` is cached).

Through the fake, an upload costs what discord.py and the fake spend on it, not Discord's
network time or its emoji rate limits: the figures compare the bot's own work. ``--latency``
makes the fake take that many seconds over every emoji request, a model of Discord's round
trip (not a measurement of it).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import discord  # noqa: E402
from fake_discord import FakeDiscord  # noqa: E402  (the test suite's fake Discord)

from bot.app import MastermindBot  # noqa: E402
from bot.ui.peg_images import peg_images  # noqa: E402


class TimedBot(MastermindBot):
    """Notes how long its pegs took to install."""

    pegs_seconds = 0.0

    async def install_pegs(self) -> None:
        began = time.perf_counter()
        await super().install_pegs()
        self.pegs_seconds = time.perf_counter() - began


async def start(fake: FakeDiscord, db: Path) -> tuple[float, float, int, int]:
    """Start-up seconds, the pegs' seconds, uploads and emoji requests of one start."""
    before = len(fake.requests)
    bot = TimedBot(database=db)
    began = time.perf_counter()
    await fake.login(bot)
    took = time.perf_counter() - began
    await bot.close()
    emoji = [r for r in fake.requests[before:] if "/emojis" in r.path]
    uploads = sum(1 for r in emoji if r.method == "POST" and r.status == 201)
    return took, bot.pegs_seconds, uploads, len(emoji)


Start = tuple[float, float, int, int]


async def runs_of(runs: int, latency: float) -> list[tuple[Start, Start]]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        async with FakeDiscord(timeout=60) as fake:
            await start(fake, db)  # creates the database: not measured
            for method in ("GET", "POST") if latency else ():
                fake.state.slow_next(method, r"^/applications/\d+/emojis$", latency,
                                     times=10**9)
            results = []
            for _ in range(runs):
                fake.state.app_emoji.emoji.clear()
                results.append((await start(fake, db), await start(fake, db)))
    return results


def median(values: list[float]) -> float:
    return statistics.median(values) * 1000


async def run(runs: int, latency: float) -> None:
    drawing = []
    for _ in range(runs):
        peg_images.cache_clear()
        began = time.perf_counter()
        peg_images()
        drawing.append(time.perf_counter() - began)
    print(f"drawing the 9 pegs and the hole (once per process), median: "
          f"{median(drawing):.0f} ms")
    results = await runs_of(runs, latency)
    print(f"{runs} runs, medians" + (f", {latency * 1000:.0f} ms per emoji request:"
                                     if latency else ":"))
    print(f"{'':<34} {'uploads':>7} {'emoji requests':>14} {'start-up':>9} {'pegs part':>9}")
    for label, i in (("start, app holds no emoji", 0), ("restart, app holds them all", 1)):
        rows = [r[i] for r in results]
        uploads = statistics.median(r[2] for r in rows)
        requests = statistics.median(r[3] for r in rows)
        print(f"{label:<34} {uploads:>7.0f} {requests:>14.0f} "
              f"{median([r[0] for r in rows]):>6.0f} ms {median([r[1] for r in rows]):>6.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--latency", type=float, default=0.0,
                        help="seconds the fake takes over each emoji request")
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    asyncio.run(run(args.runs, args.latency))


if __name__ == "__main__":
    main()
