"""The Activity's client in numbers: what the browser loads (bytes as sent and gzipped, the
Embedded App SDK included), and the time from opening the Activity to a playable board in
headless Chromium (median of several cold loads, each in a new browser context: no cache).

    .venv/bin/python bench/activity_client_bench.py [--runs 9] [--no-reference]

The real bot (``python -m bot`` with ``ACTIVITY_PORT``) against the test suite's fake Discord
on loopback, the client inside the parent page that plays Discord's client
(tests/activity_browser.py): "open" is the parent page's navigation, "playable" the client's
``performance.mark("mastermind-playable")`` (signed in through the SDK, the words, the state
and the game loaded, the live connection asked for). A reference the machine's speed can be
read against: the 5x8 Knuth sweep (``mastermind evaluate``), timed in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from activity_browser import PHONE, Stack, missing_browser, running_activity  # noqa: E402

#: When (ms after the frame's navigation) the client's script ran (its first request), the
#: token exchange began (the SDK's READY and AUTHORIZE answered) and the state was asked for
#: (signed in): where the time to a playable board goes.
STEPS = """() => {
  const start = (part) => performance.getEntriesByType('resource')
    .find((e) => e.name.includes(part))?.startTime ?? NaN;
  return [start('/api/words'), start('/api/token'), start('/api/state')];
}"""
steps: list[list[float]] = []


def gzipped(body: bytes) -> int:
    return len(gzip.compress(body, compresslevel=9, mtime=0))


async def one_load(stack: Stack, channel: Any, runs: int) -> tuple[list[float], list[float],
                                                                   dict[str, bytes]]:
    """``runs`` cold loads of a board with a game running: (ms from opening to playable as
    the frame measures it, the same from the test's clock), and the files of the last."""
    frame_ms, wall_ms = [], []
    steps.clear()
    files: dict[str, bytes] = {}
    for run in range(runs):
        user = stack.user(f"runner{run}")
        instance = stack.server.state.start_activity(channel, user)
        page = await stack.discord.open(user, instance, viewport=PHONE, platform="mobile")
        await page.wait_playable(timeout=30_000)
        wall_ms.append((time.perf_counter() - page.opened_at) * 1000)
        frame_ms.append(await page.app.evaluate(
            "() => performance.getEntriesByName('mastermind-playable')[0].startTime"))
        steps.append(await page.app.evaluate(STEPS))
        if run == runs - 1:
            for response in page.responses:
                url = response.url
                if "/api/" not in url and "__discord_client__" not in url:
                    files[url.removeprefix(stack.origin)] = await response.body()
        await stack.discord.close(page, leave=False)
    return frame_ms, wall_ms, files


def knuth_reference() -> float:
    started = time.perf_counter()
    # The ``mastermind`` command itself: ``python -m cli.main`` only imports the module
    # (it has no ``__main__`` block), which timed 0.3 s of start-up instead of the sweep.
    subprocess.run([str(Path(sys.executable).with_name("mastermind")), "evaluate",
                    "--strategy", "knuth", "--pegs", "5", "--colors", "8"], cwd=ROOT,
                   check=True, capture_output=True)
    return time.perf_counter() - started


async def main(runs: int, reference: bool) -> None:
    with tempfile.TemporaryDirectory() as work:
        async with running_activity(Path(work)) as stack:
            channel = stack.channel("bench")
            host = stack.user("host")
            (page,) = await stack.open_game(channel, host)
            await page.new_game()
            await stack.discord.close(page, leave=False)
            # the first load warms the bot (its caches, the SQLite pages), not counted
            await one_load(stack, channel, 1)
            frame_ms, wall_ms, files = await one_load(stack, channel, runs)
    print("what the browser loads (a 4x6 game; files the page fetched, the peg PNGs it shows):")
    total_raw = total_gz = 0
    for url, body in sorted(files.items(), key=lambda kv: -len(kv[1])):
        raw, gz = len(body), gzipped(body)
        total_raw += raw
        total_gz += gz
        print(f"  {url.split('?')[0]:<48} {raw:>8,} B  gzip {gz:>7,} B")
    print(f"  {'total':<48} {total_raw:>8,} B  gzip {total_gz:>7,} B "
          f"({total_gz / 1024:.1f} KiB; aim <= 150 KB)")
    print(f"open -> playable board, {runs} cold loads (new context each, loopback):")
    print(f"  in the frame (navigation start -> playable): median {statistics.median(frame_ms):.0f}"
          f" ms, min {min(frame_ms):.0f}, max {max(frame_ms):.0f}")
    print(f"  whole (parent page opened -> playable):      median {statistics.median(wall_ms):.0f}"
          f" ms, min {min(wall_ms):.0f}, max {max(wall_ms):.0f}")
    script, token, state = (statistics.median(s[i] for s in steps) for i in range(3))
    print(f"  where it goes (medians, in the frame): script running {script:.0f} ms, SDK ready and "
          f"code given {token:.0f} ms, signed in {state:.0f} ms, playable "
          f"{statistics.median(frame_ms):.0f} ms")
    if reference:
        print(f"reference: 5x8 Knuth sweep (mastermind evaluate) {knuth_reference():.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--no-reference", action="store_true")
    args = parser.parse_args()
    if (why := missing_browser()) is not None:
        sys.exit(why)
    asyncio.run(main(args.runs, not args.no_reference))
