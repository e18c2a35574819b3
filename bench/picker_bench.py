"""The peg picker in numbers: taps per guess at every size, and how fast a tap is answered.

    .venv/bin/python bench/picker_bench.py taps          # the table, from the real views
    .venv/bin/python bench/picker_bench.py latency -n 500   # taps through ``python -m bot``
    .venv/bin/python bench/picker_bench.py                  # both

``taps``: for every size the bot plays (2-8 pegs x 2-9 colours), one guess played from the
board as a player plays it, through discord.py's real dispatch and the test suite's fake
Discord (in this process): press Guess, tap each colour, press Submit, counting the
clicks, and checking the guess was stored. Repeats off is the same count (a colour already
used is greyed out, never needed).

``latency``: a real ``python -m bot`` process (SQLite) against the loopback fake Discord
(tests/fake_discord/server.py), as ``bench/scale_bench.py`` drives it: one player opens a
picker and taps a colour, then delete, N times. A tap's time runs from the interaction
leaving the fake Discord's gateway to the bot's answer (the UPDATE_MESSAGE that redraws the
picker) arriving at its REST API. The driver and the fake Discord share one process, and
the machine's cores are shared with everything else running.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import discord  # noqa: E402
import psutil  # noqa: E402  (the dev extra)
from fake_discord import FakeClock, FakeDiscord  # noqa: E402
from fake_discord.server import FakeDiscordServer  # noqa: E402
from picking import button, play  # noqa: E402
from test_bot_process import BotProcess, bot_env, wait_ready  # noqa: E402

from bot.app import MastermindBot  # noqa: E402
from engine.rules import MAX_COLORS, MAX_PEGS, MIN_COLORS, MIN_PEGS  # noqa: E402


# ---- taps per guess --------------------------------------------------------------------------
async def count_taps() -> dict[tuple[int, int], int]:
    """Clicks from the board to a stored guess, for every size."""
    taps: dict[tuple[int, int], int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "taps.sqlite3"
        async with FakeDiscord(clock=FakeClock(), timeout=60) as fake:
            bot = MastermindBot(database=db)
            await fake.login(bot)
            guild = fake.guild("Taps")
            player = fake.member(guild, fake.user("player"))
            for pegs in range(MIN_PEGS, MAX_PEGS + 1):
                for colors in range(MIN_COLORS, MAX_COLORS + 1):
                    channel = fake.channel(guild, f"c{pegs}x{colors}")
                    started = await fake.slash(bot, "mastermind new", user=player,
                                               channel=channel, guild=guild, pegs=pegs,
                                               colors=colors)
                    code = "".join(str(colors - k % colors) for k in range(pegs))
                    _, _, clicks = await play(fake, bot, started.message, code, player)
                    taps[pegs, colors] = clicks
            with contextlib.closing(sqlite3.connect(db)) as conn:
                stored = conn.execute("SELECT COUNT(*) FROM guesses").fetchone()[0]
            assert stored == len(taps), "every guess was stored"
    return taps


def taps_table(taps: dict[tuple[int, int], int]) -> str:
    colours = range(MIN_COLORS, MAX_COLORS + 1)
    lines = ["| pegs \\ colours | " + " | ".join(map(str, colours)) + " |",
             "|---|" + "---|" * len(colours)]
    for pegs in range(MIN_PEGS, MAX_PEGS + 1):
        lines.append(f"| {pegs} | " + " | ".join(str(taps[pegs, c]) for c in colours) + " |")
    return "\n".join(lines)


# ---- a tap through the real process ----------------------------------------------------------
async def tap_latency(n: int, warmup: int = 20) -> tuple[list[float], float, float]:
    """Seconds from dispatch to the picker's redraw, for ``n`` taps (after ``warmup``); and
    the CPU seconds per tap of the bot process and of this one (the fake Discord)."""
    tmp = Path(tempfile.mkdtemp(prefix="picker-bench-"))
    async with FakeDiscordServer() as server:
        state = server.state
        guild = state.create_guild("Picker Bench")
        player = state.create_user("player")
        bot = await BotProcess.start(bot_env(server, tmp / "bench.sqlite3", guild), tmp)
        try:
            await wait_ready(server, bot, guild, syncs_before=0)
            started = await server.slash("mastermind new", user=player, guild=guild)
            board = started.message
            opened = await server.click(board, board.component(label="Guess")["custom_id"],
                                        user=player)
            picker = opened.message
            took: list[float] = []
            cpu = psutil.Process(bot.proc.pid)
            for k in range(n + warmup):
                if k == warmup:
                    bot_cpu, own_cpu = sum(cpu.cpu_times()[:2]), time.process_time()
                op = "1" if k % 2 == 0 else "x"  # a colour in, then out again
                rec = state.new_component_interaction(
                    picker, button(state.messages[picker.id], op)["custom_id"], user=player)
                began = time.perf_counter()
                await server.send_interaction(rec, expect_response=False)
                await asyncio.wait_for(rec.acknowledged.wait(), 10)
                if k >= warmup:
                    took.append(time.perf_counter() - began)
                assert rec.callback is not None and rec.callback.type == 7, rec.callback
            return (took, (sum(cpu.cpu_times()[:2]) - bot_cpu) / n,
                    (time.process_time() - own_cpu) / n)
        finally:
            await bot.stop()


def describe(took: list[float], bot_cpu: float, own_cpu: float) -> str:
    ms = sorted(t * 1000 for t in took)
    p99 = statistics.quantiles(ms, n=100)[98] if len(ms) > 1 else ms[0]
    load = ", ".join(f"{x:.1f}" for x in psutil.getloadavg())
    return (f"{len(ms)} taps: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, "
            f"min {ms[0]:.2f} ms, max {ms[-1]:.2f} ms\n"
            f"CPU per tap: the bot {bot_cpu * 1000:.2f} ms, the fake Discord and driver "
            f"{own_cpu * 1000:.2f} ms (machine load average {load}, {psutil.cpu_count()} "
            f"cores)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", choices=("taps", "latency", "both"), default="both")
    parser.add_argument("-n", type=int, default=500, help="taps to time (default 500)")
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    if args.what in ("taps", "both"):
        print("Taps per guess, from the board (Guess, a tap per peg, Submit):\n")
        print(taps_table(asyncio.run(count_taps())))
    if args.what in ("latency", "both"):
        print("\nA picker tap through `python -m bot` (SQLite):",
              describe(*asyncio.run(tap_latency(args.n))))


if __name__ == "__main__":
    main()
