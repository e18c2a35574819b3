"""``python -m bot`` with the store timed, for ``scale_bench.py --profile``: bench only
(run with the repository on ``PYTHONPATH``).

Wraps the store's write transaction and every PostgreSQL statement (nothing in bot/ is
changed) and, at exit, writes to ``$BENCH_PROFILE`` (JSON) where each write transaction's
time went: entering it (SQLite: this process's previous write and ``BEGIN IMMEDIATE``;
PostgreSQL: nothing, the transaction begins at its first statement), ``BEGIN`` with its locks
(PostgreSQL: a pool connection, then the channel's or player's advisory lock, or the whole
database's), the statements inside, ``COMMIT``; and how many statements (round trips) each
write and the reads made.
With ``BENCH_CPROFILE=path`` the whole process also runs under cProfile (slower).

It also records what holds the event loop from the first interaction on: how late a 10 ms
timer fires (the loop's lag), each callback that runs 5 ms or more (by the task or
function it ran), each garbage collection's pause by generation; and the process's user
and system CPU seconds.

``BENCH_VARIANT`` tries a change to the PostgreSQL store without editing it, to compare
designs in one run: ``global-lock`` (every write transaction holds the whole database, as
before per-channel locks), ``old-swap`` (the live board's swap as a read-then-write
transaction of its own, as before migration 014; with ``global-lock`` it holds the whole
database too). ``global-lock,old-swap`` is the design this bench measured at 132
interactions a second. ``lazy-pool``: the pools open one connection at start and the rest
as writes need them (as before they opened at full size). ``reset-query``: a connection
goes back to its pool after asyncpg's reset query, one more round trip (as before).
``unfrozen``: start-up's objects stay in the garbage collector's reach (as before).
Any other name (``timed``) changes nothing: the same bot, timed, to compare against.
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import gc
import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.store import connection as pg_connection
from bot.store.games import GameStore
from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import SqliteDatabase
from bot.store.transaction import PgTransaction

#: Seconds per phase, one entry per write transaction or statement.
phases: dict[str, list[float]] = defaultdict(list)
_in_write: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "in_write", default=None)


def _wrap_transaction(cls: Any) -> None:
    original = cls.transaction
    take_turn = cls._take_turn

    async def timed_turn(self: Any, deadline: float) -> bool:
        begin = time.perf_counter()
        try:
            return await take_turn(self, deadline)
        finally:
            phases["write: wait for this process's previous write"].append(
                time.perf_counter() - begin)

    @asynccontextmanager
    async def transaction(self: Any) -> AsyncIterator[Any]:
        t0 = time.perf_counter()
        statements = [0]
        token = _in_write.set(statements)
        try:
            async with original(self) as conn:
                t1 = time.perf_counter()
                try:
                    yield conn
                finally:
                    t2 = time.perf_counter()
            t3 = time.perf_counter()
        finally:
            _in_write.reset(token)
        phases["write: enter (SQLite: own turn + BEGIN)"].append(t1 - t0)
        phases["write: statements inside"].append(t2 - t1)
        phases["write: COMMIT (and release)"].append(t3 - t2)
        phases["write: whole transaction"].append(t3 - t0)
        phases["write: statements per transaction"].append(statements[0])

    cls.transaction = transaction
    cls._take_turn = timed_turn


def _wrap_statements() -> None:
    run = pg_connection.PgConnection._run
    begin_write = PgTransaction._begin

    async def timed_run(self: Any, sql: str, params: Any) -> Any:
        begin = time.perf_counter()
        try:
            return await run(self, sql, params)
        finally:
            spent = time.perf_counter() - begin
            counter = _in_write.get()
            if counter is not None and isinstance(self, PgTransaction):
                counter[0] += 1
                phases["statement in a write"].append(spent)
            else:
                phases["statement on the read pool (acquire + run)"].append(spent)

    async def timed_begin(self: Any, keys: Any) -> None:
        begin = time.perf_counter()
        try:
            await begin_write(self, keys)
        finally:
            name = "whole database" if keys is None else "keys"
            phases[f"write: pool + BEGIN + locks ({name})"].append(time.perf_counter() - begin)

    take = PgTransaction._acquire

    async def timed_acquire(self: Any) -> Any:
        begin = time.perf_counter()
        try:
            return await take(self)
        finally:
            phases["write: a connection of the write pool"].append(time.perf_counter() - begin)

    PgTransaction._acquire = timed_acquire  # type: ignore[method-assign]
    pg_connection.PgConnection._run = timed_run  # type: ignore[method-assign]
    PgTransaction._begin = timed_begin  # type: ignore[method-assign]


def _variant(names: set[str]) -> None:
    """Apply ``BENCH_VARIANT``'s changes to the PostgreSQL store."""
    if "global-lock" in names:
        PgTransaction.per_key = False
    if "old-swap" in names:
        GameStore.swap_board = _old_swap  # type: ignore[method-assign]
    if "reset-query" in names:  # asyncpg's reset query on every release, as before
        import asyncpg

        without_round_trip = asyncpg.create_pool

        def resetting_pool(*args: Any, **kwargs: Any) -> Any:
            kwargs.pop("reset", None)
            return without_round_trip(*args, **kwargs)

        asyncpg.create_pool = resetting_pool
    if "unfrozen" in names:  # start-up's objects left to every full collection, as before
        from bot import app

        app.freeze = lambda **_: 0
    if "lazy-pool" in names:
        import asyncpg

        opened_at_start = asyncpg.create_pool

        def lazy_pool(*args: Any, **kwargs: Any) -> Any:
            return opened_at_start(*args, **{**kwargs, "min_size": 1})

        asyncpg.create_pool = lazy_pool


async def _old_swap(self: GameStore, conn: Any, game_id: int, message_id: int, turn: int
                    ) -> tuple[int, int] | None:
    """The board swap as it was before migration 014: a transaction of its own that reads
    the live board, then writes the new one (on PostgreSQL: BEGIN with the whole
    database's lock, SELECT, UPDATE, COMMIT)."""
    async with conn.execute(
        "SELECT board_message_id, board_turn FROM games WHERE id = ?", (game_id,)
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return None
    previous, shown = row["board_message_id"], row["board_turn"]
    if previous is not None and shown is not None and shown > turn:
        return message_id, turn
    await conn.execute("UPDATE games SET board_message_id = ?, board_turn = ? WHERE id = ?",
                       (message_id, turn, game_id))
    if previous is None or previous == message_id:
        return None
    return previous, shown if shown is not None else turn


#: When each REST request the global limit counts left this process (time.monotonic: one
#: clock for every process on the machine, the fake Discord's too).
SENT = "rest: sent at"


def _time_sends() -> None:
    """Record when the bot sends what Discord's global limit counts (before bot.app is
    imported, so the bot's trace is this one)."""
    from bot.ui import rest_budget

    make = rest_budget.trace

    def trace(counts: Any) -> Any:
        config = make(counts)

        async def sent(session: Any, context: Any, params: Any) -> None:
            path = params.url.path
            if "/interactions/" in path:  # /interactions/{id}/{token}/callback: its answer
                answered.setdefault(path.split("/interactions/")[1].split("/")[0],
                                    time.monotonic())
            elif "/webhooks/" not in path:
                phases[SENT].append(time.monotonic())

        config.on_request_start.append(sent)
        return config

    rest_budget.trace = trace  # type: ignore[assignment]


#: A callback running this long or longer is recorded by name (it holds every other reply).
SLOW_CALLBACK = 0.005
#: Seconds between two lag probes.
LAG_PERIOD = 0.01


def _callback_name(handle: Any) -> str:
    callback = handle._callback
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        return f"task {task.get_name().split('-')[0]}: {getattr(coro, '__qualname__', coro)}"
    return getattr(callback, "__qualname__", repr(callback))


def _time_callbacks() -> None:
    """Record every callback of the loop that runs :data:`SLOW_CALLBACK` or longer."""
    run = asyncio.events.Handle._run

    def timed_run(self: Any) -> None:
        begin = time.perf_counter()
        run(self)
        spent = time.perf_counter() - begin
        if spent >= SLOW_CALLBACK:
            phases[f"loop: slow callback {_callback_name(self)}"[:110]].append(spent)
            phases["loop: every slow callback"].append(spent)

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]


def _time_collections() -> None:
    """Record each garbage collection's pause, by generation."""
    began: list[float] = [0.0]

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            phases[f"gc: generation {info['generation']} pause"].append(
                time.perf_counter() - began[0])
            if info["generation"] == 2:  # what it walked: everything but the frozen
                phases["gc: objects a full collection kept, per collection"].append(
                    len(gc.get_objects()))
                phases["gc: objects frozen then, per collection"].append(
                    gc.get_freeze_count())

    gc.callbacks.append(collected)


def _probe_lag(loop: asyncio.AbstractEventLoop) -> None:
    """Every :data:`LAG_PERIOD`, how late the loop ran a timer (what any ready callback
    waits at that moment)."""
    due = loop.time() + LAG_PERIOD

    def tick() -> None:
        nonlocal due
        now = loop.time()
        phases["loop: lag of a 10 ms timer"].append(max(0.0, now - due))
        due = now + LAG_PERIOD
        loop.call_at(due, tick)

    loop.call_at(due, tick)


def _start_probes() -> None:
    """Start the lag probe once the bot's loop runs (its setup hook is wrapped)."""
    from bot.app import MastermindBot

    setup = MastermindBot.setup_hook

    async def setup_hook(self: Any) -> None:
        await setup(self)
        _probe_lag(asyncio.get_running_loop())

    MastermindBot.setup_hook = setup_hook  # type: ignore[method-assign]


#: time.monotonic() (one clock for every process on the machine) when each interaction's
#: gateway event was handed to discord.py, and when its first answer (a reply or a defer)
#: began to be sent, by interaction id: the driver splits its reply time with them.
received: dict[str, float] = {}
answered: dict[str, float] = {}


def _time_interactions() -> None:
    from discord.state import ConnectionState

    parse = ConnectionState.parse_interaction_create

    def parse_interaction_create(self: Any, data: Any) -> None:
        if not received:  # the run begins: what start-up did is not its
            for name in [n for n in phases if n.startswith(("gc:", "loop:"))]:
                del phases[name]
        received[str(data["id"])] = time.monotonic()
        parse(self, data)

    ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore


def _dump() -> None:
    cpu = os.times()
    phases["cpu: user s per process"].append(cpu.user)
    phases["cpu: system s per process"].append(cpu.system)
    target = os.environ.get("BENCH_PROFILE")
    if target:
        Path(target).write_text(json.dumps(
            {**phases, "received": received, "answered": answered}))


def main() -> int:
    _wrap_transaction(PostgresDatabase)
    _wrap_transaction(SqliteDatabase)
    _wrap_statements()
    _time_sends()  # before anything imports bot.app
    variant = {v.strip() for v in os.environ.get("BENCH_VARIANT", "").split(",") if v.strip()}
    if variant:
        _variant(variant)
    _time_callbacks()
    _time_interactions()
    _time_collections()
    _start_probes()
    atexit.register(_dump)
    from bot.__main__ import main as bot_main

    profile = os.environ.get("BENCH_CPROFILE")
    if not profile:
        return bot_main()
    import cProfile

    profiler = cProfile.Profile()
    try:
        return profiler.runcall(bot_main)
    finally:
        profiler.dump_stats(profile)


if __name__ == "__main__":
    sys.exit(main())
