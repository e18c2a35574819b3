"""A race of 25 in numbers: how fast each racer's move is answered: run by hand.

    .venv/bin/python bench/race_bench.py [--racers 25] [--races 3] [--guesses 8] [--think 4]

One real MastermindBot (SQLite file) through discord.py's own dispatch and the test suite's
fake Discord, in this process: a player opens ``/race``, the others press Join, the starter
presses Start; then every racer types ``/guess``, move after move, thinking a random
0-2x ``--think`` seconds before each (a person racing; ``--think 0``: every racer's moves in
flight at once, the worst burst), until each has broken the code or used its ``--guesses``
guesses (the race's limit).
A move's time runs from the interaction's dispatch to the bot's answer as the fake Discord
got it (the racer's own board: ``answered_at``); the standings board's edits go through the
REST budget meanwhile, and the race's end (its ranking and the ratings, in the last move's
transaction) is in the last moves. Beside it, the time until the fake's ``slash`` returns,
which also waits for the REST budget to have sent every standings edit queued so far (the
figure this bench printed until 28 November, the answer and the edits together).
The fake Discord shares this process (and its event loop) with the bot, so the figures
include its own work; the machine's cores are shared with anything else running.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fake_discord import FakeDiscord  # noqa: E402
from fake_discord.state import InteractionRecord  # noqa: E402

from bot.app import MastermindBot  # noqa: E402


def codes(secret: str):
    """Every 4x6 code but the secret, in a fixed order; the secret last."""
    for n in range(1296):
        code = "".join(str(n // 6 ** k % 6 + 1) for k in range(4))
        if code != secret:
            yield code


def answered_in(record: InteractionRecord) -> float:
    """Milliseconds from the interaction's dispatch to the bot's answer as Discord got it
    (the racer's board; after a deferral, its first edit or follow-up)."""
    assert record.answered_at is not None, record
    return (record.answered_at - record.created_at) * 1000


async def one_race(fake: FakeDiscord, bot: MastermindBot, db: Path, racers: int,
                   guesses: int, number: int, think: float
                   ) -> tuple[list[float], list[float], float]:
    guild = fake.guild(f"Race {number}")
    channel = next(iter(guild.channels.values()))
    people = [fake.member(guild, fake.user(f"r{number}_{n}")) for n in range(racers)]
    opened = await fake.slash(bot, "race", user=people[0], channel=channel, guild=guild,
                              max_guesses=guesses)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        race_id, secret = conn.execute(
            "SELECT id, secret FROM races ORDER BY id DESC LIMIT 1").fetchone()
    for person in people[1:]:
        await fake.click(bot, opened.message, f"mmr:join:{race_id}", user=person)
    await fake.click(bot, opened.message, f"mmr:start:{race_id}", user=people[0])

    async def play(n: int, person) -> list[float]:
        times = []
        mine = codes(secret)
        pause = random.Random(n)
        for turn in range(guesses):
            await asyncio.sleep(pause.uniform(0, 2 * think))
            code = secret if turn == guesses - 1 and n % 2 == 0 else next(mine)
            began = time.perf_counter()
            moved = await fake.slash(bot, "guess", user=person, channel=channel, guild=guild,
                                     code=code)
            settled.append((time.perf_counter() - began) * 1000)
            times.append(answered_in(moved.record))
            ends.append((times[-1], time.perf_counter()))
            if code == secret:
                break
        return times

    ends: list[tuple[float, float]] = []
    settled: list[float] = []  # to the fake's return: the standings' edits done as well
    began = time.perf_counter()
    per_racer = await asyncio.gather(*(play(n, p) for n, p in enumerate(people)))
    wall = time.perf_counter() - began
    await bot.rest_budget.settled(30)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        status = conn.execute("SELECT status FROM races WHERE id = ?", (race_id,)).fetchone()
    assert status == ("finished",), status
    last = max(at for _, at in ends)
    slow = sorted(ends, reverse=True)[:4]
    print("  slowest: " + ", ".join(f"{ms:.0f} ms ({last - at:.2f} s before the end)"
                                    for ms, at in slow))
    return [t for times in per_racer for t in times], settled, wall


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "race.sqlite3"
        async with FakeDiscord(timeout=60) as fake:
            bot = MastermindBot(database=db)
            await fake.login(bot)
            await one_race(fake, bot, db, 4, 2, 0, 0)  # warm-up
            for number in range(1, args.races + 1):
                times, settled, wall = await one_race(fake, bot, db, args.racers,
                                                      args.guesses, number, args.think)
                cuts = statistics.quantiles(times, n=100)
                after = statistics.quantiles(settled, n=100)
                print(f"race {number}: {args.racers} racers, {len(times)} moves in {wall:.2f} s "
                      f"({len(times) / wall:.0f}/s): answer median {statistics.median(times):.1f}"
                      f" ms, p99 {cuts[98]:.1f} ms, max {max(times):.1f} ms; with the standings'"
                      f" edits settled median {statistics.median(settled):.1f} ms, p99"
                      f" {after[98]:.1f} ms")
            await bot.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racers", type=int, default=25)
    parser.add_argument("--races", type=int, default=3)
    parser.add_argument("--guesses", type=int, default=8)
    parser.add_argument("--think", type=float, default=4.0,
                        help="a racer's mean pause before a move, in seconds (0: a burst)")
    asyncio.run(main(parser.parse_args()))
