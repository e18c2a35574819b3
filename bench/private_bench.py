"""What private games cost a ``/guess``: run by hand.

    .venv/bin/python bench/private_bench.py [--channels 200] [--guesses 8] [--rounds 3]

A ``/guess`` first asks, in its write transaction, whether the player has a private game it
means (one indexed look-up, nothing found for most players). This times the service's whole
guess transaction (no Discord) on a fresh SQLite file, the same guesses made with
``game:channel`` (which skips that look-up: the path every guess took before private games)
and without it, interleaved round by round; and a guess at a private game. Medians in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.enums import Which
from bot.features.breaker.service import BreakerService
from bot.services.games import GameService
from bot.store import Database
from engine import Rules

RULES = Rules(4, 6, 20, True)


def misses(secret: str, count: int) -> list[str]:
    """``count`` distinct codes that are not ``secret``."""
    out = []
    for n in range(1296):
        code = "".join(str(n // 6 ** k % 6 + 1) for k in range(4))
        if code != secret:
            out.append(code)
        if len(out) == count:
            return out
    return out


async def timed_round(breaker: BreakerService, channels: range, guesses: int, which: Which,
                      base: int, private: bool = False) -> list[float]:
    times = []
    for channel in channels:
        started = await breaker.new_game(guild_id=1, channel_id=base + channel,
                                         user_id=base + channel, user_name="p", rules=RULES,
                                         private=private)
        assert started.game.secret is not None
        secret = "".join(map(str, started.game.secret))
        for code in misses(secret, guesses):
            began = time.perf_counter()
            await breaker.guess(channel_id=base + channel, user_id=base + channel,
                                user_name="p", text=code, which=which)
            times.append((time.perf_counter() - began) * 1000)
        if private:
            await breaker.games.quit_private(user_id=base + channel)
        else:
            await breaker.games.quit(channel_id=base + channel, user_id=base + channel,
                                     can_manage=True)
    return times


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        breaker = BreakerService(GameService(db))
        found: dict[str, list[float]] = {"game:channel (no look-up)": [],
                                         "auto (looks for a private game)": [],
                                         "a private game": []}
        channels = range(args.channels)
        for round_ in range(args.rounds):
            base = 10**6 * (round_ + 1)
            found["game:channel (no look-up)"] += await timed_round(
                breaker, channels, args.guesses, Which.CHANNEL, base)
            found["auto (looks for a private game)"] += await timed_round(
                breaker, channels, args.guesses, Which.AUTO, base + 10**5)
            found["a private game"] += await timed_round(
                breaker, channels, args.guesses, Which.AUTO, base + 2 * 10**5, private=True)
        await db.close()
    base_median = statistics.median(found["game:channel (no look-up)"])
    print(f"{args.channels} channels x {args.guesses} guesses x {args.rounds} rounds, SQLite")
    for name, times in found.items():
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(f"{name:34} median {median:6.3f} ms  p90 {p90:6.3f} ms  "
              f"x{median / base_median:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--guesses", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
