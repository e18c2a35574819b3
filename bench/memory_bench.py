"""Peak memory of the process per MEMORY_BUDGET_MB, strategy and size: run by hand, prints
a table (the README's Memory section shows it).

    .venv/bin/python bench/memory_bench.py                  # the README's table (~1 h)
    .venv/bin/python bench/memory_bench.py --budgets 64 --strategies knuth --games 6
    .venv/bin/python bench/memory_bench.py --one --budget-mb 64 --strategy knuth  # one run

Every configuration runs in a fresh subprocess, so each peak (the kernel's high-water mark
of resident memory, ``VmHWM``) is its own. The subprocess loads the bot's code (its
imports are part of the process) and splits the budget the way the bot does: half to the
engine (``engine.memory``: caches, and the work slice of temporaries), half to the
challenge solver sessions (``SolverCache``). It then plays random secrets as
``/challenge`` does, one solver session per game kept in the session cache while the game
runs. "growth" is the resident memory after the last game less that after game 5 (runs
of 20 games); "think" is the CPU time of a move (the reply filtered, the next guess
chosen), which the other jobs of a shared machine disturb less than the wall clock.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MIB = 2**20
BUDGETS = (64, 128, 256, 512, 1024)
#: Over the budget, what the process may hold besides (interpreter, libraries, the bot).
ALLOWANCE_MB = 128
GROWTH_FROM = 5


def status_mib(field: str) -> float:
    """``VmRSS`` (resident now) or ``VmHWM`` (the peak so far) of this process, in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise KeyError(field)


def run_one(budget_mb: int, strategy: str, pegs: int, colors: int, games: int,
            seed: int) -> dict[str, object]:
    """Play ``games`` challenges in this process; returns the figures as a dict."""
    import bot.app  # noqa: F401  (the bot's code is part of the process it bounds)
    from bot.features.challenge.solvers import SolverCache
    from engine import Rules, SolverSession, memory, score_codes

    budget = budget_mb * MIB
    memory.set_budget(budget - budget // 2)  # as the bot's setup_hook does
    sessions = SolverCache(max_bytes=budget // 2)
    rules = Rules(pegs, colors, 20)
    rng = random.Random(seed)
    rss, think, turns, held = [], [], [], []
    for game in range(1, games + 1):
        secret = tuple(rng.randint(1, colors) for _ in range(pegs))
        session = SolverSession(rules, strategy)
        sessions.keep(game, session, 0)
        while True:  # a move: the reply told, the next guess chosen
            start = time.process_time()
            reply = score_codes(secret, session.next_guess())
            session.tell(reply)
            think.append(time.process_time() - start)
            if reply.is_win(pegs) or len(session.turns) >= rules.max_guesses:
                break
        sessions.drop(game)
        turns.append(len(session.turns))
        held.append(memory.nbytes() / MIB)
        rss.append(status_mib("VmRSS"))
    growth = rss[-1] - rss[GROWTH_FROM - 1] if games >= 2 * GROWTH_FROM else None
    return {
        "budget_mb": budget_mb, "strategy": strategy, "size": f"{pegs}x{colors}",
        "games": games, "peak_mib": status_mib("VmHWM"), "rss_mib": rss[-1],
        "growth_mib": growth, "caches_max_mib": max(held),
        "work_mib": memory.work_budget() / MIB, "guesses": statistics.mean(turns),
        "think_median_ms": statistics.median(think) * 1e3, "think_worst_ms": max(think) * 1e3,
    }


def in_subprocess(budget_mb: int, strategy: str, pegs: int, colors: int, games: int,
                  seed: int) -> dict[str, object]:
    command = [sys.executable, __file__, "--one", "--budget-mb", str(budget_mb),
               "--strategy", strategy, "--pegs", str(pegs), "--colors", str(colors),
               "--games", str(games), "--seed", str(seed)]
    done = subprocess.run(command, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def table(results: list[dict[str, object]], budgets: list[int]) -> str:
    """Peak RSS per size and strategy (rows) and budget (columns), then growth and speed."""
    head = "| size | strategy | " + " | ".join(f"{b}" for b in budgets) + \
        " | growth (worst) | think median / worst at 256 (CPU) |"
    lines = [head, "|" + "---|" * (len(budgets) + 4)]
    lines.append("| | allowed (budget + 128) | " + " | ".join(
        f"{b + ALLOWANCE_MB}" for b in budgets) + " | 40 | |")
    rows = sorted({(str(r["size"]), str(r["strategy"])) for r in results},
                  key=lambda k: (k[0], k[1]))
    for size, strategy in rows:
        mine = {int(str(r["budget_mb"])): r for r in results
                if (r["size"], r["strategy"]) == (size, strategy)}
        peaks = " | ".join(f"{float(str(mine[b]['peak_mib'])):.0f}" if b in mine else "-"
                           for b in budgets)
        grown = [float(str(r["growth_mib"])) for r in mine.values() if r["growth_mib"] is not None]
        growth = f"{max(grown):+.0f}" if grown else "-"
        at = mine.get(256) or next(iter(mine.values()))
        speed = (f"{float(str(at['think_median_ms'])):.0f} / "
                 f"{float(str(at['think_worst_ms'])):.0f} ms")
        games = int(str(at["games"]))
        lines.append(f"| {size}, {games} games | {strategy} | {peaks} | {growth} | {speed} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", action="store_true", help="one configuration, in this process")
    parser.add_argument("--budget-mb", type=int, default=256)
    parser.add_argument("--strategy", default="knuth")
    parser.add_argument("--pegs", type=int, default=7)
    parser.add_argument("--colors", type=int, default=8)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--large-games", type=int, default=6, help="8x9 games per run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    parser.add_argument("--strategies", default="", help="comma-separated (default: all)")
    parser.add_argument("--sizes", default="7x8,8x9")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.budget_mb, args.strategy, args.pegs, args.colors,
                                 args.games, args.seed)))
        return

    from engine import STRATEGIES

    budgets = [int(b) for b in args.budgets.split(",")]
    strategies = args.strategies.split(",") if args.strategies else list(STRATEGIES)
    results = []
    print("size strategy budget: peak RSS, RSS at the end, growth from game "
          f"{GROWTH_FROM}, engine caches at most, move think median / worst", flush=True)
    for size in args.sizes.split(","):
        pegs, colors = (int(x) for x in size.split("x"))
        games = args.games if (pegs, colors) != (8, 9) else args.large_games
        for strategy in strategies:
            for budget in budgets:
                r = in_subprocess(budget, strategy, pegs, colors, games, args.seed)
                results.append(r)
                over = "" if float(str(r["peak_mib"])) <= budget + ALLOWANCE_MB else "  OVER"
                growth = "-" if r["growth_mib"] is None else f"{r['growth_mib']:+.0f}"
                print(f"{size} {strategy:<18} {budget:>5} MiB: peak {r['peak_mib']:.0f}, "
                      f"end {r['rss_mib']:.0f}, growth {growth}, caches "
                      f"{r['caches_max_mib']:.0f}, think {r['think_median_ms']:.0f} / "
                      f"{r['think_worst_ms']:.0f} ms, {r['guesses']:.2f} guesses{over}",
                      flush=True)
    print()
    print(table(results, budgets))


if __name__ == "__main__":
    main()
