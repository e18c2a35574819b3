"""Many channels playing at once against real ``python -m bot`` processes: run by hand.

    .venv/bin/python bench/scale_bench.py                        # 200 channels, both layouts
    .venv/bin/python bench/scale_bench.py --channels 50 --guesses 4 --layout two
    .venv/bin/python bench/scale_bench.py --pace 5     # each channel moves every 5 s

Layouts, each on a fresh SQLite file: ``one`` is one process as by default (no
SHARD_COUNT); ``two`` is two processes with two shards each (SHARD_COUNT=4, SHARD_IDS 0,1
and 2,3) sharing the file. The loopback fake Discord of the test suite (tests/fake_discord)
routes every interaction to the shard of its server, as Discord does. Every channel starts a
game and makes its guesses one after another, all channels at once. "reply" is the time
from the interaction leaving the fake Discord's gateway to the bot's answer arriving at its
REST API (after a "thinking..." defer: the answer that replaces it, polled every 10 ms):
what a player waits for. The fake Discord and this driver share one process, and the
machine's two cores are shared with the bots. (PostgreSQL is not built yet.)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fake_discord.models import FakeGuild, FakeUser  # noqa: E402
from fake_discord.server import FakeDiscordServer  # noqa: E402
from test_bot_process import BotProcess, clean_environ  # noqa: E402

SHARDS = 4
GUILDS_PER_SHARD = 2


async def timed(server: FakeDiscordServer, name: str, user: FakeUser, guild: FakeGuild,
                channel, replies: list[float], deferred: list[int], **options) -> None:
    rec = server.state.new_command_interaction(
        name, user=user, channel=channel, guild=guild, options=options,
        context_keywords=["user", "channel", "guild"])
    begin = time.perf_counter()
    await server.send_interaction(rec, expect_response=False)
    await asyncio.wait_for(rec.acknowledged.wait(), 30)
    if rec.callback is not None and rec.callback.type == 5:  # "thinking...": until the answer
        deferred.append(1)
        original = server.state.messages[rec.original_message_id]
        while original.loading and not original.deleted and not rec.followup_ids:
            await asyncio.sleep(0.01)
    replies.append(time.perf_counter() - begin)


async def play(server, user, guild, channel, guesses: int, pace: float, rng: random.Random,
               replies: list[float], deferred: list[int]) -> None:
    """One channel: a new game, then its guesses, each ``pace`` seconds after the last began
    (0: as soon as the last was answered). Channels start spread over one ``pace``."""
    await asyncio.sleep(rng.uniform(0, pace))
    loop = asyncio.get_running_loop()
    for turn in range(guesses + 1):
        began = loop.time()
        if turn == 0:
            await timed(server, "mastermind new", user, guild, channel, replies, deferred)
        else:
            code = "".join(rng.choice("123456") for _ in range(4))
            await timed(server, "guess", user, guild, channel, replies, deferred, code=code)
        await asyncio.sleep(max(0.0, began + pace - loop.time()))


async def start(server: FakeDiscordServer, db: Path, shard_ids: str | None, cwd: Path
                ) -> BotProcess:
    env = server.env(clean_environ())
    env.update(DISCORD_TOKEN=server.state.token, DATABASE_PATH=str(db), LOG_LEVEL="INFO")
    if shard_ids is not None:
        env.update(SHARD_COUNT=str(SHARDS), SHARD_IDS=shard_ids)
    return await BotProcess.start(env, cwd)


async def ready(server: FakeDiscordServer, sessions: int, procs: list[BotProcess]) -> None:
    def up() -> bool:
        if any(p.returncode is not None for p in procs):
            raise RuntimeError("a bot exited:\n" + "\n".join(p.output for p in procs))
        names = {c["name"] for c in server.state.global_commands}
        identified = [s for s in server.sessions if s.identified.is_set()]
        return len(identified) == sessions and {"mastermind", "guess"} <= names

    await server.wait_until(up, timeout=60, what="the bots to connect")
    await asyncio.sleep(1.0)  # READY handled, guilds cached


async def run(layout: str, channels: int, guesses: int, pace: float) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="scale-bench-"))
    db = tmp / "bench.sqlite3"
    async with FakeDiscordServer() as server:
        state = server.state
        per_guild = max(1, channels // (SHARDS * GUILDS_PER_SHARD))
        guilds = [state.create_guild(f"G{k}", shard=(k % SHARDS, SHARDS),
                                     channels=[f"c{i}" for i in range(per_guild)])
                  for k in range(SHARDS * GUILDS_PER_SHARD)]
        places = [(g, c) for g in guilds for c in g.channels.values()][:channels]
        users = [state.create_user(f"p{i}") for i in range(len(places))]
        procs = [await start(server, db, None if layout == "one" else "0,1", tmp)]
        if layout == "two":
            await procs[0].wait_for_log("serving shards", timeout=30)  # migrated the file
            procs.append(await start(server, db, "2,3", tmp))
        try:
            await ready(server, 1 if layout == "one" else SHARDS, procs)
            replies: list[float] = []
            deferred: list[int] = []
            rng = random.Random(7)
            began = time.perf_counter()
            await asyncio.gather(*(play(server, u, g, c, guesses, pace, rng, replies, deferred)
                                   for u, (g, c) in zip(users, places, strict=True)))
            wall = time.perf_counter() - began
        finally:
            for proc in procs:
                proc.proc.send_signal(signal.SIGTERM)
            for proc in procs:
                try:
                    await proc.finish(timeout=30)
                except TimeoutError:
                    print("a bot did not stop within 30 s:\n" + proc.output[-3000:])
                    await proc.kill()
    cuts = statistics.quantiles(replies, n=100)
    print(f"{layout:>3}: {len(places)} channels, pace {pace:g} s, {len(replies)} interactions in "
          f"{wall:.1f} s "
          f"= {len(replies) / wall:.0f}/s; reply median {statistics.median(replies) * 1000:.1f}"
          f" ms, p99 {cuts[98] * 1000:.1f} ms, max {max(replies) * 1000:.1f} ms; "
          f"{len(deferred)} deferred")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--guesses", type=int, default=6)
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds between one channel's moves (0: no pause)")
    parser.add_argument("--layout", choices=("one", "two", "both"), default="both")
    args = parser.parse_args()
    for layout in ("one", "two") if args.layout == "both" else (args.layout,):
        asyncio.run(run(layout, args.channels, args.guesses, args.pace))


if __name__ == "__main__":
    main()
