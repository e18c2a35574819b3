"""Puzzle generation: time per certified puzzle, clues and spread, by size and level.

    python bench/puzzle_bench.py [--count 50]

Each puzzle is also verified (not timed), so every figure is of a checked certificate.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine import Rules
from engine.puzzle import Level, generate, verify

SIZES = (Rules(4, 6), Rules(5, 8))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=50, help="puzzles per size and level")
    args = parser.parse_args()
    print(f"{'size':<5} {'level':<7} {'median ms':>9} {'p90 ms':>7} {'max ms':>7} "
          f"{'clues':>5} {'spread':>6}")
    for rules in SIZES:
        generate(rules, Level.EASY, seed=-1 % 2**32)  # warm the code space
        for level in Level:
            times, clues, spreads = [], [], []
            for seed in range(args.count):
                start = time.perf_counter()
                puzzle = generate(rules, level, seed=seed)
                times.append((time.perf_counter() - start) * 1000)
                verify(puzzle)
                clues.append(len(puzzle.clues))
                spreads.append(puzzle.spread)
            times.sort()
            print(f"{rules.pegs}x{rules.colors:<3} {level.value:<7} "
                  f"{statistics.median(times):>9.1f} {times[int(0.9 * len(times))]:>7.1f} "
                  f"{times[-1]:>7.0f} {statistics.mean(clues):>5.1f} "
                  f"{statistics.median(spreads):>6.0f}")


if __name__ == "__main__":
    main()
