"""6x9 measured without sampling the secrets: every code of a few third-guess positions.

    .venv/bin/python bench/positions69.py --positions 40 --seed 1   # ~40 min of CPU
    .venv/bin/python bench/positions69.py --all     # the live player over every secret

A benchmark over 1,000 random secrets (``optimal_bench.py sample69``) meets only a few
secrets in each position after the opening book, so any change of play moves its average
by about 0.02 whichever way, better play or not. Here positions after the book's two
guesses are drawn with chances proportional to their sizes (so their mean is an unbiased
estimate of the average game), and *every* code of each is played out, by the live
lookahead with its neighbour search and without it (``search_rounds=0``). The difference
is paired position by position, so what is left of the noise is which positions were
drawn: the printed "+-" is its standard error. The 6x9 book holds the third guesses too,
so both ways play the book's third guess and differ from the fourth guess on. ``--all``
plays every position once, with the live lookahead only: its exact average over all
531,441 secrets.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import resource
import time

import numpy as np
from optimal_bench import sample_sweep

from engine import Rules
from engine.decision import history_key
from engine.filtering import filter_possible
from engine.lookahead import DEFAULT_LOOKAHEAD, book_for
from engine.space import space_for

RULES = Rules(6, 9)
Position = tuple[tuple[int, int], tuple[int, int], int]


def third_guess_positions() -> list[Position]:
    """Every position after the book's first two guesses: both (guess, reply), and size."""
    space = space_for(RULES)
    book, every = book_for(RULES), space.all_indices()
    first = book[b""]
    replies = space.feedback_one(first, every)
    out = []
    for one in np.unique(replies):
        if one == space.win:
            continue
        after_one = every[replies == one]
        second = book[history_key(space, ((first, int(one)),))]
        seconds = space.feedback_one(second, after_one)
        out += [((first, int(one)), (second, int(two)), int((seconds == two).sum()))
                for two in np.unique(seconds) if two != space.win]
    return out


def position_codes(position: Position) -> np.ndarray:
    """Every code still possible in the position."""
    space = space_for(RULES)
    (g1, r1), (g2, r2), _ = position
    return filter_possible(space, filter_possible(space, None, g1, r1), g2, r2)


def play_out(job: tuple[Position, bool]) -> float:
    """Average guesses over every code of the position, played from the first guess as
    ``sample69`` plays (the book leads every one of them there), the live lookahead with
    or without its search. Each pool is a fresh process: its remembered decisions are this
    mode's only."""
    position = job[0]
    distribution = play_out_distribution(job)
    return sum(turns * games for turns, games in distribution.items()) / position[2]


def play_out_distribution(job: tuple[Position, bool]) -> dict[int, int]:
    """Games by guesses over every code of the position (see :func:`play_out`)."""
    position, search = job
    import engine.strongest as strongest  # the strategy's way in: patched per process
    from engine.lookahead import lookahead_decision

    budget = DEFAULT_LOOKAHEAD if search else dataclasses.replace(DEFAULT_LOOKAHEAD,
                                                                  search_rounds=0)
    strongest.lookahead_decision = (  # type: ignore[assignment]
        lambda *args, **kwargs: lookahead_decision(*args, budget=budget, **kwargs))
    return sample_sweep(RULES, "lookahead", position_codes(position))


def every_secret(processes: int) -> None:
    """The live lookahead over all 531,441 secrets: every position played out once, and
    the few codes the book's first two guesses win."""
    positions = sorted(third_guess_positions(), key=lambda p: -p[2])  # big ones first
    space = space_for(RULES)
    in_positions = sum(size for *_, size in positions)
    won_early = np.setdiff1d(space.all_indices(),
                             np.concatenate([position_codes(p) for p in positions]))
    print(f"== 6x9: the live lookahead over all {space.size:,} secrets ({len(positions)} "
          f"positions after the book's two guesses, {in_positions:,} codes; "
          f"{len(won_early)} won by them) ==", flush=True)
    start = time.time()
    pool = multiprocessing.get_context("fork").Pool(processes)
    parts = pool.map(play_out_distribution, [(p, True) for p in positions], chunksize=1)
    pool.close()
    pool.join()  # reaped: the workers' CPU time is counted below
    total: dict[int, int] = dict(sample_sweep(RULES, "lookahead", won_early))
    for part in parts:
        for turns, games in part.items():
            total[turns] = total.get(turns, 0) + games
    games = sum(total.values())
    guesses = sum(turns * n for turns, n in total.items())
    assert games == space.size
    print(f"total {guesses:,} guesses, average {guesses / games:.4f}, max {max(total)}, "
          f"{dict(sorted(total.items()))} ({time.time() - start:.0f} s wall, "
          f"{_cpu_seconds():.0f} s of CPU)")


def _cpu_seconds() -> float:
    """CPU time of this process and of its reaped workers."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--all", action="store_true",
                        help="the live lookahead alone over every secret (~25 min of CPU)")
    args = parser.parse_args()
    if args.all:
        every_secret(args.processes)
        return
    positions = third_guess_positions()
    sizes = np.array([size for *_, size in positions], dtype=np.float64)
    picks = np.random.default_rng(args.seed).choice(len(positions), size=args.positions,
                                                    replace=True, p=sizes / sizes.sum())
    drawn = [positions[i] for i in picks]
    print(f"== 6x9: every code of {len(drawn)} of the {len(positions)} third-guess positions "
          f"(seed {args.seed}; {sum(p[2] for p in drawn):,} games) ==")
    averages = {}
    for search in (False, True):
        start = time.time()
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            averages[search] = np.array(pool.map(play_out, [(p, search) for p in drawn],
                                                 chunksize=1))
        print(f"{'with' if search else 'without'} the neighbour search: "
              f"{averages[search].mean():.4f} guesses per game "
              f"({time.time() - start:.0f} s wall)", flush=True)
    diff = averages[True] - averages[False]
    print(f"difference: {diff.mean():+.4f} +- {diff.std(ddof=1) / np.sqrt(len(diff)):.4f} "
          f"per game; better in {(diff < 0).sum()} positions, worse in {(diff > 0).sum()}")


if __name__ == "__main__":
    main()
