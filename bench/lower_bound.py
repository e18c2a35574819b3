"""A proven lower bound on the optimal total of a size too large to solve (5x8): run by hand.

    .venv/bin/python bench/lower_bound.py 5x8        # a few seconds of CPU
    .venv/bin/python bench/lower_bound.py 4x7 4x6    # checks: below the known optimum

The relaxation: the first two guesses are chosen exactly (every first guess up to
symmetry, then for each of its replies every second guess up to renaming colours never
played), and from the third guess on each class of ``m`` codes is charged only the
counting bound of :mod:`engine.optimal` (at most 1 code solved by the next guess, ``R``
by the one after, ``R**2`` by the one after that ..., ``R`` the non-winning replies). Any
strategy's tree makes two such choices, so its total is at least the bound.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from engine import Rules
from engine.candidates import canonical_guesses, first_move_candidates
from engine.counting import scored_chunks
from engine.optimal import UNLIMITED, ExactSolver, split
from engine.space import space_for


def lower_bound(rules: Rules) -> tuple[int, int]:
    """(bound on the optimal total, the first guess that attains it)."""
    space = space_for(rules)
    counting = ExactSolver(rules)._row(UNLIMITED)  # least total of m codes, m = 0, 1, ...
    best, best_first = 1 << 62, -1
    for first in first_move_candidates(space):
        first = int(first)
        played = frozenset(int(d) for d in space.digits(np.array([first]))[0])
        seconds = canonical_guesses(space, played)
        total = space.size
        for part in split(space, space.all_indices(), first):
            total += len(part) + _best_second(space, part, seconds, counting)
        print(f"  first guess {space.code(first)}: at least {total:,} "
              f"({total / space.size:.4f})", flush=True)
        if total < best:
            best, best_first = total, first
    return best, best_first


def _best_second(space, part: np.ndarray, guesses: np.ndarray, counting: np.ndarray) -> int:
    """Least counting bound of what any second guess leaves of ``part``."""
    if len(part) <= 2:
        return 0 if len(part) == 1 else 1  # with 2 codes: guess one, then the other

    def bounds(counts: np.ndarray) -> int:
        counts[:, space.win] = 0
        return int(counting[counts].sum(axis=1).min())

    # The look-up's int64 row per guess, beside the counts scored_chunks itself holds.
    chunks = scored_chunks(space, bounds, guesses, part, 8 * space.n_feedback + 8)
    return min(low for _, low in chunks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sizes", nargs="*", default=["5x8"])
    args = parser.parse_args()
    for size in args.sizes:
        pegs, colors = (int(x) for x in size.split("x"))
        rules = Rules(pegs, colors)
        start = time.process_time()
        print(f"== {size}: lower bound on the optimal total ==", flush=True)
        bound, first = lower_bound(rules)
        codes = rules.code_count
        print(f"{size}: at least {bound:,} guesses over {codes:,} codes ({bound / codes:.4f}), "
              f"first guess {space_for(rules).code(first)}; "
              f"{time.process_time() - start:.0f} s CPU", flush=True)


if __name__ == "__main__":
    main()
