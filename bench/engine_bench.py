"""Engine benchmark: run by hand, prints figures (medians, worst cases and ratios).

    .venv/bin/python bench/engine_bench.py            # everything (~10 minutes)
    .venv/bin/python bench/engine_bench.py --quick    # fewer repeats and secrets
    .venv/bin/python bench/engine_bench.py sweep moves

Sections: ``sweep`` (Knuth 4x6 over all 1296 secrets vs building the feedback table),
``strategies`` (every strategy at 4x6 and 4x5), ``moves`` (think time per move at 4x6 and
5x8), ``large`` (bounded-work mode at 6x9, 8x9 and 8x9 without repeats over random secrets).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from engine import STRATEGIES, Rules, SolverSession, evaluate, memory, score_codes
from engine.space import CodeSpace, space_for


def _cold() -> None:
    """Forget every cached space and decision so a run pays for its own tables."""
    memory.clear()


def bench_sweep(repeats: int) -> None:
    print("== Knuth 4x6 sweep (all 1296 secrets) ==")
    table_times, sweep_times, warm_times = [], [], []
    for _ in range(repeats):
        start = time.perf_counter()
        CodeSpace(Rules()).full_table  # noqa: B018 - building it is the point
        table_times.append(time.perf_counter() - start)
        _cold()
        start = time.perf_counter()
        result = evaluate(Rules(), "knuth")
        sweep_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        evaluate(Rules(), "knuth")
        warm_times.append(time.perf_counter() - start)
    table, sweep, warm = (statistics.median(t) for t in (table_times, sweep_times, warm_times))
    dist = dict(sorted(result.distribution.items()))
    print(f"result: total {result.total}, max {result.max}, distribution {dist}")
    print(f"1296x1296 feedback table: median {table * 1e3:.1f} ms over {repeats} runs")
    print(f"sweep, cold (builds its own table): median {sweep * 1e3:.1f} ms")
    print(f"sweep, warm (table cached):         median {warm * 1e3:.1f} ms")
    print(f"ratio cold sweep / table build: {sweep / table:.1f}x (target < 10x)")


def bench_strategies() -> None:
    print("== Every strategy, every secret ==")
    print(f"{'strategy':<18} {'rules':<6} {'total':>6} {'average':>8} {'max':>4} {'seconds':>8}")
    for name in STRATEGIES:
        for rules in (Rules(4, 6), Rules(4, 5)):
            r = evaluate(rules, name)
            print(
                f"{name:<18} {rules.size_label:<6} {r.total:>6} {r.average:>8.4f} "
                f"{r.max:>4} {r.seconds:>8.3f}"
            )


def _play(rules: Rules, strategy: str, secret, seed: int = 0) -> tuple[int, list[float]]:
    """One game; returns guesses used and the think time of every move (guess + reply)."""
    session = SolverSession(rules, strategy, seed=seed)
    times = []
    while not session.solved:
        start = time.perf_counter()
        guess = session.next_guess()
        session.tell(score_codes(secret, guess))
        times.append(time.perf_counter() - start)
    return len(session.turns), times


def _play_many(rules: Rules, strategy: str, picks) -> tuple[list[int], list[float]]:
    """Play one game per picked secret index: guesses per game, think time per move."""
    space = space_for(rules)
    games, times = [], []
    for index in picks:
        n, t = _play(rules, strategy, space.code(int(index)))
        games.append(n)
        times.extend(t)
    return games, times


def _report(label: str, games: list[int], times: list[float], exact_note: str = "") -> None:
    print(
        f"{label:<34} games {len(games):>4}  avg guesses {statistics.mean(games):5.2f}  "
        f"max {max(games):>2}  move median {statistics.median(times) * 1e3:7.1f} ms  "
        f"worst {max(times) * 1e3:7.1f} ms{exact_note}"
    )


def bench_moves(secrets: int) -> None:
    print("== Think time per move (reply + next guess), exact mode ==")
    rng = np.random.default_rng(2026)
    for rules in (Rules(4, 6), Rules(4, 6, repeats=False), Rules(5, 8)):
        space = space_for(rules)
        picks = rng.choice(space.size, size=min(secrets, space.size), replace=False)
        for name in STRATEGIES:
            _cold()
            _report(f"{rules.size_label} {name}", *_play_many(rules, name, picks))


def bench_large(secrets: int, strategies: list[str]) -> None:
    print("== Bounded-work mode (sampled secrets and candidates) ==")
    rng = np.random.default_rng(7)
    for rules in (Rules(6, 9, 20), Rules(8, 9, 20), Rules(8, 9, 20, repeats=False)):
        space = space_for(rules)
        picks = rng.choice(space.size, size=secrets, replace=False)
        for name in strategies:
            _report(f"{rules.size_label} {name}", *_play_many(rules, name, picks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", default=["sweep", "strategies", "moves", "large"])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and secrets")
    parser.add_argument("--large-secrets", type=int, default=None)
    parser.add_argument("--large-strategies", default="knuth")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    if "sweep" in args.sections:
        bench_sweep(5 if args.quick else 21)
    if "strategies" in args.sections:
        bench_strategies()
    if "moves" in args.sections:
        bench_moves(10 if args.quick else 50)
    if "large" in args.sections:
        count = args.large_secrets or (20 if args.quick else 200)
        bench_large(count, args.large_strategies.split(","))


if __name__ == "__main__":
    main()
