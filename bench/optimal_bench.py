"""Optimal trees and the lookahead strategy: run by hand, prints figures (medians, worst cases).

    .venv/bin/python bench/optimal_bench.py trees            # load + verify every shipped tree
    .venv/bin/python bench/optimal_bench.py trees --markdown # the README's table of trees
    .venv/bin/python bench/optimal_bench.py books            # opening books: moves, bytes
    .venv/bin/python bench/optimal_bench.py moves --games 200  # think time per move
    .venv/bin/python bench/optimal_bench.py sweep58          # 5x8, every secret (~10 min CPU)
    .venv/bin/python bench/optimal_bench.py sample69 --secrets 1000  # 6x9, seeded secrets

Sections: ``trees`` (every shipped tree: total, average, max, build time, load + verify
time), ``books`` (each opening book's moves, size and build time), ``moves`` (optimal at
4x6, lookahead at 5x8 and 6x9: median and worst think time per move over random games),
``sweep58`` (average guesses over all 32768 secrets of 5x8 for lookahead and the four
greedy strategies), ``sample69`` (the same over seeded random 6x9 secrets; every decision
still sees every possible code, only the secrets are sampled).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from importlib import resources

import numpy as np

from engine import Rules, SolverSession, evaluate, memory, score_codes
from engine.decision import history_key
from engine.filtering import filter_possible
from engine.lookahead import parse_book
from engine.space import space_for
from engine.strategies import choose_guess, get_strategy
from engine.trees import parse, shipped

GREEDY = ("knuth", "most-parts", "expected-size", "entropy")
#: Published averages over every 5x8 secret (Knuth, Kooi, Irving, entropy; see docs/engine.md).
PUBLISHED_5X8 = {"knuth": 5.6084, "most-parts": 5.549, "expected-size": 5.4997,
                 "entropy": 5.4854}


def bench_trees(repeats: int, markdown: bool = False) -> None:
    """Every shipped tree: its header's figures and the time to load (verify) it; with
    ``markdown``, the README's table of trees instead."""
    if markdown:
        print("| tree | codes | total | average | max | distribution (guesses: codes) "
              "| decision nodes | build (s CPU) |")
        print("|---|---|---|---|---|---|---|---|")
    else:
        print("== Shipped optimal trees (load = parse + replay over every code + check header) ==")
        print(f"{'tree':<14} {'codes':>6} {'total':>6} {'average':>8} {'max':>4} "
              f"{'at max':>6} {'nodes':>6} {'build s':>8} {'load ms':>8}")
    folder = resources.files("engine").joinpath("data/trees")
    for _, name in sorted(shipped().items(), key=lambda kv: (kv[0][0], kv[0][1], kv[1])):
        text = folder.joinpath(f"{name}.json").read_text("utf-8")
        header = json.loads(text)
        codes = header["codes"]
        if markdown:
            spread = ", ".join(f"{k}: {v:,}" for k, v in header["distribution"].items())
            print(f"| `{name}` | {codes:,} | {header['total']:,} | "
                  f"{header['total'] / codes:.4f} | {header['max']} | {spread} | "
                  f"{header['nodes']} | {header['build_seconds']:.1f} |")
            continue
        times = []
        parse(text)  # builds the code space's tables, which any game of the size needs anyway
        for _ in range(repeats):
            start = time.perf_counter()
            tree = parse(text)
            times.append(time.perf_counter() - start)
        at_max = tree.stats.distribution[tree.stats.max]
        print(f"{name:<14} {codes:>6} {tree.stats.total:>6} {tree.stats.total / codes:>8.4f} "
              f"{tree.stats.max:>4} {at_max:>6} {tree.nodes:>6} "
              f"{header['build_seconds']:>8.1f} {statistics.median(times) * 1e3:>8.2f}")


def _games(
    rules: Rules, strategy: str, games: int, seed: int
) -> tuple[list[int], list[float], list[float]]:
    """Guesses per game, and wall and CPU seconds per move (the machine is shared: a move
    that waited for a core shows a long wall time but not a long CPU time)."""
    space = space_for(rules)
    rng = np.random.default_rng(seed)
    used, wall, cpu = [], [], []
    for _ in range(games):
        secret = space.code(int(rng.integers(space.size)))
        session = SolverSession(rules, strategy)
        while not session.solved:
            start, start_cpu = time.perf_counter(), time.thread_time()
            guess = session.next_guess()
            session.tell(score_codes(secret, guess))
            wall.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - start_cpu)
        used.append(len(session.turns))
    return used, wall, cpu


def bench_moves(games: int, sizes: list[str]) -> None:
    print(f"== Think time per move (guess + reply), {games} random games each ==")
    print(f"{'size':<5} {'strategy':<10} {'average':>8} {'median ms':>10} {'worst ms':>9} "
          f"{'worst CPU ms':>13} {'cache MiB':>10}")
    plan = {"4x6": (Rules(4, 6), "optimal"), "5x8": (Rules(5, 8), "lookahead"),
            "6x9": (Rules(6, 9), "lookahead")}
    for size in sizes:
        rules, strategy = plan[size]
        _games(rules, strategy, 1, seed=99)  # first use builds the tables: not a live move
        used, wall, cpu = _games(rules, strategy, games, seed=1)
        print(f"{size:<5} {strategy:<10} {statistics.mean(used):>8.3f} "
              f"{statistics.median(wall) * 1e3:>10.1f} {max(wall) * 1e3:>9.1f} "
              f"{max(cpu) * 1e3:>13.1f} {memory.nbytes() / 2**20:>10.1f}", flush=True)


def bench_books() -> None:
    print("== Opening books (engine/data/books) ==")
    print(f"{'book':<6} {'moves':>6} {'bytes':>8} {'depth':>6} {'candidates':>12} "
          f"{'min set':>8} {'build s CPU':>12} {'load ms':>8}")
    folder = resources.files("engine").joinpath("data/books")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        text = entry.read_text("utf-8")
        data = json.loads(text)
        rules = Rules(data["pegs"], data["colors"])
        start = time.perf_counter()
        moves = parse_book(rules, text)
        load = time.perf_counter() - start
        print(f"{entry.name[:-5]:<6} {len(moves):>6} {len(text.encode()):>8} "
              f"{data['depth']:>6} {data.get('candidates', '')!s:>12} "
              f"{data.get('min_set', ''):>8} {data['build_seconds']:>12} {load * 1e3:>8.1f}")


def bench_sweep58(strategies: list[str]) -> None:
    print("== 5x8: average guesses over all 32768 secrets ==")
    for name in strategies:
        result = evaluate(Rules(5, 8), name)
        anchor = PUBLISHED_5X8.get(name)
        published = f"(published {anchor})" if anchor else ""
        mode = "exact" if result.exact else "sampled decisions"
        print(f"{name:<14} total {result.total}  average {result.average:.4f}  max {result.max}"
              f"  {result.seconds:7.0f} s  {mode} {published}  {result.distribution}",
              flush=True)


def sample_sweep(rules: Rules, strategy: str, secrets: np.ndarray, seed: int = 0) -> dict:
    """Play ``strategy`` against ``secrets`` only, sharing decisions between games.

    Decisions see every code still possible (as a live game would); the secrets only
    decide which branches are played.
    """
    space = space_for(rules)
    chosen = get_strategy(strategy)
    distribution: dict[int, int] = {}
    stack: list = [(None, frozenset(), 1, (), np.sort(secrets))]
    while stack:
        possible, played, depth, history, group = stack.pop()
        decision = choose_guess(space, chosen, possible, played,
                                history=history_key(space, history), seed=seed)
        guess = decision.index
        replies = space.feedback_one(guess, group)
        digits = space.digits(np.array([guess], dtype=np.int64))[0]
        now_played = played | {int(d) for d in digits}
        for value in np.unique(replies):
            members = group[replies == value]
            if value == space.win:
                distribution[depth] = distribution.get(depth, 0) + len(members)
                continue
            sub = filter_possible(space, possible, guess, int(value))
            stack.append((sub, now_played, depth + 1, (*history, (guess, int(value))), members))
    return dict(sorted(distribution.items()))


def bench_sample69(count: int, strategies: list[str]) -> None:
    rules = Rules(6, 9)
    space = space_for(rules)
    secrets = np.random.default_rng(2024).choice(space.size, size=count, replace=False)
    print(f"== 6x9: average guesses over {count} seeded random secrets (seed 2024) ==")
    for name in strategies:
        start = time.process_time()
        dist = sample_sweep(rules, name, secrets.astype(np.int64))
        total = sum(k * v for k, v in dist.items())
        print(f"{name:<14} average {total / count:.4f}  max {max(dist)}  "
              f"{time.process_time() - start:7.0f} s CPU  {dist}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sections", nargs="*",
                        default=["trees", "moves"], help="trees, moves, sweep58, sample69")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sizes", default="4x6,5x8,6x9")
    parser.add_argument("--secrets", type=int, default=1000)
    parser.add_argument("--strategies", default="lookahead," + ",".join(GREEDY))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--markdown", action="store_true",
                        help="trees: print the README's table instead of timing loads")
    args = parser.parse_args()
    strategies = args.strategies.split(",")
    for section in args.sections:
        if section == "trees":
            bench_trees(args.repeats, args.markdown)
        elif section == "books":
            bench_books()
        elif section == "moves":
            bench_moves(args.games, args.sizes.split(","))
        elif section == "sweep58":
            bench_sweep58(strategies)
        elif section == "sample69":
            bench_sample69(args.secrets, strategies)
        else:
            raise SystemExit(f"unknown section {section!r}")


if __name__ == "__main__":
    main()
