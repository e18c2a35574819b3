"""Memory over many challenges of a large size: run by hand, prints figures.

    .venv/bin/python bench/memory_bench.py                 # 80 random 7x8 knuth games
    .venv/bin/python bench/memory_bench.py --games 20 --pegs 6 --colors 9 --budget-mb 64

Plays random secrets the way ``/challenge`` does (a solver session per game, each reply
told to it) and prints, every few games, what the engine's shared caches hold
(``engine.memory``) and the process's resident memory. The engine's budget is what the bot
gives it: half of ``MEMORY_BUDGET_MB`` (512 by default, so 256 MiB).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Rules, SolverSession, memory, score_codes

MIB = 2**20


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / MIB


def play(rules: Rules, strategy: str, secret: tuple[int, ...]) -> int:
    session = SolverSession(rules, strategy)
    while True:
        guess = session.next_guess()
        reply = score_codes(secret, guess)
        session.tell(reply)
        if reply.is_win(rules.pegs) or len(session.turns) >= rules.max_guesses:
            return len(session.turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--pegs", type=int, default=7)
    parser.add_argument("--colors", type=int, default=8)
    parser.add_argument("--strategy", default="knuth")
    parser.add_argument("--budget-mb", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules(args.pegs, args.colors, 20)
    memory.set_budget(args.budget_mb * MIB)
    rng = random.Random(args.seed)
    print(f"== {args.games} random {rules.describe()} games, {args.strategy}, engine budget "
          f"{args.budget_mb} MiB ==")
    print(f"start: engine caches {memory.nbytes() / MIB:.1f} MiB, RSS {rss_mib():.0f} MiB")
    held, rss, turns, seconds = [], [], [], []
    step = max(1, args.games // 8)
    for game in range(1, args.games + 1):
        secret = tuple(rng.randint(1, rules.colors) for _ in range(rules.pegs))
        start = time.perf_counter()
        turns.append(play(rules, args.strategy, secret))
        seconds.append(time.perf_counter() - start)
        held.append(memory.nbytes() / MIB)
        rss.append(rss_mib())
        if game % step == 0 or game == args.games:
            print(f"after {game:3d} games: engine caches {held[-1]:6.1f} MiB, "
                  f"RSS {rss[-1]:6.0f} MiB")
    half = len(held) // 2
    print(f"engine caches: max {max(held):.1f} MiB (budget {args.budget_mb}); "
          f"first half max {max(held[:half] or held):.1f}, second half max "
          f"{max(held[half:]):.1f}")
    print(f"RSS: max {max(rss):.0f} MiB; first half max {max(rss[:half] or rss):.0f}, "
          f"second half max {max(rss[half:]):.0f}")
    print("held now by cache: " + ", ".join(
        f"{name} {size / MIB:.1f} MiB" for name, size in memory.report().items() if size))
    print(f"guesses: average {statistics.mean(turns):.2f}, max {max(turns)}; "
          f"seconds per game: median {statistics.median(seconds):.2f}")


if __name__ == "__main__":
    main()
