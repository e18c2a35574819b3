"""Replies while another process holds the database's write lock: run by hand, prints figures.

    .venv/bin/python bench/faults_bench.py            # a 10 s lock, 3 interactions at once

Another connection takes ``BEGIN EXCLUSIVE`` for ``--hold`` seconds; meanwhile a /guess in
channel A, a /guess in channel B and /mastermind board in A arrive. For each: the time to
Discord's first answer (a reply or a defer: must be under 3 s) and to the final answer,
and whether the guess was stored exactly once. In-process fake Discord, real SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fake_discord import FakeDiscord  # noqa: E402  (the test suite's fake Discord)

from bot.app import MastermindBot  # noqa: E402


async def run(hold: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        fake = FakeDiscord(timeout=hold + 60)
        bot = MastermindBot(database=db)
        await fake.login(bot)
        guild = fake.guild("Bench")
        alice = fake.member(guild, fake.user("alice"))
        a = next(iter(guild.channels.values()))
        b = fake.channel(guild, "b")
        for channel in (a, b):
            await fake.slash(bot, "mastermind new", user=alice, channel=channel, guild=guild)
        locker = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        locker.execute("BEGIN EXCLUSIVE")
        asyncio.get_running_loop().call_later(hold, locker.rollback)
        began = time.perf_counter()
        results = await asyncio.gather(
            fake.slash(bot, "guess", user=alice, channel=a, guild=guild, code="3333"),
            fake.slash(bot, "guess", user=alice, channel=b, guild=guild, code="3333"),
            fake.slash(bot, "mastermind board", user=alice, channel=a, guild=guild),
        )
        done = time.perf_counter() - began
        print(f"lock held {hold:.1f} s; all three answered in {done:.2f} s")
        for label, result in zip(("guess A", "guess B", "board A"), results, strict=True):
            first = result.response.at - result.record.created_at
            kind = result.response.type_name
            print(f"  {label:<8} first answer after {first:5.2f} s ({kind})")
        with sqlite3.connect(db) as conn:
            stored = conn.execute("SELECT COUNT(*) FROM guesses WHERE code = '3333'").fetchone()
        print(f"  guesses stored: {stored[0]} (one per channel)")
        print(f"  Discord rule violations: {len(fake.violations)}")
        locker.close()
        await fake.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hold", type=float, default=10.0, help="seconds the lock is held")
    asyncio.run(run(parser.parse_args().hold))


if __name__ == "__main__":
    main()
