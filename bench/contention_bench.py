"""Contention: two ``python -m bot`` processes play the same channels at once: run by hand.

    .venv/bin/python bench/contention_bench.py                  # PostgreSQL, 200 channels
    .venv/bin/python bench/contention_bench.py --sqlite --channels 50

The layout of ``scale_bench.py --layout pg-two`` (two processes, shards 0,1 and 2,3, one
database). Every channel has a game and two players who guess at the same moment, and
every guess is delivered to BOTH processes (as Discord may during a deploy, when two
processes hold the same shard): so each channel's writes come from both processes at once,
each move twice. Discord takes one answer per interaction (the fake refuses the second with
40060). Then every interaction's answer is compared with the database:

* lost: the player was shown the move on the board, and it is not stored;
* doubled: an interaction stored more than once, or a code stored twice in one game;
* turns: each game's stored turns must run 1, 2, 3, ... with no gap;
* the answers are counted by what the player saw and whether the move is stored: the
  board (stored); "already on the board" or "already done" (stored by the other process,
  whose board answer came second to Discord; or a code the other player had just played,
  not stored); another refusal.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from dbtools import connect  # noqa: E402
from fake_discord.harness import InteractionResult  # noqa: E402
from fake_discord.server import FakeDiscordServer  # noqa: E402
from scale_bench import GUILDS_PER_SHARD, SHARDS, CpuMeter, ready, start  # noqa: E402

CODES = [f"{a}{b}{c}{d}" for a in "123456" for b in "123456" for c in "12" for d in "12"]


async def both(server: FakeDiscordServer, rec, sessions) -> None:
    """Deliver one interaction to a session of each process and wait for both answers."""
    for session in sessions:
        await server.send_interaction(rec, session=session, expect_response=False)
    await server.wait_until(lambda: rec.callback_attempts >= 2, timeout=60,
                            what="both processes to answer")
    if rec.callback is not None and rec.callback.type == 5:  # "thinking...", then the answer
        await server.wait_until(
            lambda: rec.followup_ids or not server.state.messages[rec.original_message_id].loading
            or server.state.messages[rec.original_message_id].deleted,
            timeout=60, what="the deferred answer")


async def player(server, user, guild, channel, sessions, guesses: int, rng: random.Random,
                 recs: list) -> None:
    for _ in range(guesses):
        rec = server.state.new_command_interaction(
            "guess", user=user, channel=channel, guild=guild,
            options={"code": rng.choice(CODES)}, context_keywords=["user", "channel", "guild"])
        recs.append(rec)
        await both(server, rec, sessions)


def told(state, rec) -> str:
    """What the player saw last: after a "thinking..." defer, an error deletes the public
    placeholder and follows up privately, so the last message is the one that counts."""
    if rec.callback is None:
        return "no answer"
    message = InteractionResult(state, rec).message
    if message is None or message.deleted:
        return "nothing"
    if not message.ephemeral and not message.loading:
        return "the board"
    title = (message.embeds[0] if message.embeds else {}).get("title", "")
    return f"refused: {title}"


async def contend(db: str, args: argparse.Namespace, postgres_pid: int | None) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="contention-bench-"))
    async with FakeDiscordServer() as server:
        state = server.state
        per_guild = max(1, args.channels // (SHARDS * GUILDS_PER_SHARD))
        guilds = [state.create_guild(f"G{k}", shard=(k % SHARDS, SHARDS),
                                     channels=[f"c{i}" for i in range(per_guild)])
                  for k in range(SHARDS * GUILDS_PER_SHARD)]
        places = [(g, c) for g in guilds for c in g.channels.values()][:args.channels]
        procs = [await start(server, db, "0,1", tmp)]
        await procs[0].wait_for_log("serving shards", timeout=30)
        procs.append(await start(server, db, "2,3", tmp))
        meter = CpuMeter(postgres_pid)
        try:
            await ready(server, SHARDS, procs)
            pair = [next(s for s in server.sessions if s.shard[0] in shards)
                    for shards in ((0, 1), (2, 3))]
            await asyncio.gather(*(server.slash("mastermind new", user=state.create_user(
                f"host{n}"), guild=g, channel=c) for n, (g, c) in enumerate(places)))
            rng = random.Random(11)
            recs: list = []
            meter.start([p.proc.pid for p in procs])
            began = time.perf_counter()
            await asyncio.gather(*(
                player(server, state.create_user(f"p{n}-{k}"), g, c, pair, args.guesses,
                       random.Random(rng.random()), recs)
                for n, (g, c) in enumerate(places) for k in range(2)))
            wall = time.perf_counter() - began
            print(f"{len(recs)} guesses, each delivered to both processes, in {wall:.1f} s; "
                  f"{meter.report()}")
        finally:
            for proc in procs:
                proc.proc.send_signal(signal.SIGTERM)
            for proc in procs:
                await proc.finish(timeout=30)
        with connect(db) as conn:
            stored = conn.execute("SELECT interaction_id, game_id, turn, code FROM guesses"
                                  " WHERE interaction_id IS NOT NULL").fetchall()
        seen = {rec.id: told(state, rec) for rec in recs}
    by_interaction = Counter(row[0] for row in stored)
    answers = Counter((what, rec_id in by_interaction) for rec_id, what in seen.items())
    games: dict[int, list[tuple[int, str]]] = {}
    for _, game, turn, code in stored:
        games.setdefault(game, []).append((turn, code))
    lost = [rec_id for rec_id, what in seen.items()
            if what == "the board" and rec_id not in by_interaction]
    doubled = sum(n - 1 for n in by_interaction.values() if n > 1) + sum(
        len(moves) - len({code for _, code in moves}) for moves in games.values())
    gaps = sum(sorted(t for t, _ in moves) != list(range(1, len(moves) + 1))
               for moves in games.values())
    print(f"stored {len(stored)} moves in {len(games)} games; lost {len(lost)}, doubled "
          f"{doubled}, games with a gap in their turns {gaps}")
    print("what the players saw: " + "; ".join(
        f"{what}, {'stored' if kept else 'not stored'}: {n}"
        for (what, kept), n in answers.most_common()))
    for proc in procs:
        if "Traceback" in proc.output:
            print("a bot logged a traceback:\n" + proc.output[-3000:])
            return 1
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if lost or doubled or gaps else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--guesses", type=int, default=3, help="per player (two a channel)")
    parser.add_argument("--sqlite", action="store_true", help="one SQLite file instead")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="contention-bench-"))
    postgres = None
    try:
        if args.sqlite:
            db, pid = str(folder / "bench.sqlite3"), None
        else:
            from dbtools import PostgresServer

            postgres = PostgresServer(folder / "postgres")
            db, pid = postgres.new_database(), postgres._server.get_pid()
        return asyncio.run(contend(db, args, pid))
    finally:
        if postgres is not None:
            postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
