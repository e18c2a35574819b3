"""Discord's global REST limit, kept with room to spare whatever the move rate.

Discord allows a bot 50 requests a second across all its processes, interaction answers
excepted (they go to the interaction's own endpoints). Answers are never held here; every
other request (a board of the trail shrunk, a button taken off an old board, the command
sync at start) passes one process-wide token bucket, this process's share of
:data:`PER_SECOND`. Requests a player needs take tokens first; cosmetic edits (the board
trail) only spare ones, and wait per message: a newer edit of the same board replaces the
one still waiting (every board of a trail still shrinks, so a channel keeps one live board),
and one that waited :data:`STALE_AFTER` seconds is dropped. Waits and 429s are counted in
the metrics.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import aiohttp
import discord

log = logging.getLogger(__name__)

#: Requests a second this bot allows itself in all (Discord allows 50) ...
PER_SECOND = 15.0
#: ... plus a burst: at most PER_SECOND + BURST = 17 handed out in any one second. Requests
#: reach Discord bunched when a busy machine delays some and not others: on a machine
#: saturated by other work the bench saw up to 1.8 times the rate handed out arrive within
#: one second (40 with 22 handed out), so 17 keeps the arrivals under 40 with room.
BURST = 2.0
#: A cosmetic edit that waited this long is dropped: the trail has moved on.
STALE_AFTER = 30.0
#: Boards with an edit waiting, at most (the oldest is dropped beyond).
MAX_PENDING = 10_000
#: Name of the tasks that run cosmetic edits: shutdown waits for them like for interactions.
TASK_NAME = "mastermind-board-collapse"

#: Set in a cosmetic edit's task: its token is taken already.
_prepaid: contextvars.ContextVar[bool] = contextvars.ContextVar("rest_prepaid", default=False)
#: Seconds each HTTP attempt of the current request took (read by :func:`trace`).
_attempts: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar(
    "rest_attempts", default=None)


class Counts(Protocol):
    """What the budget reports (bot.core.metrics.Metrics)."""

    def rest_sent(self, kind: str) -> None: ...
    def rest_waited(self, reason: str, seconds: float) -> None: ...
    def rate_limited(self, scope: str, route: str) -> None: ...
    def cosmetic(self, outcome: str) -> None: ...


class _Nothing:
    def rest_sent(self, kind: str) -> None: ...
    def rest_waited(self, reason: str, seconds: float) -> None: ...
    def rate_limited(self, scope: str, route: str) -> None: ...
    def cosmetic(self, outcome: str) -> None: ...


def share(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> float:
    """This process's part of the bot's budget: its shards out of all (processes split the
    shards, so their shares add up to one without talking to each other)."""
    if not shard_count or shard_ids is None:
        return 1.0
    return max(1, len(shard_ids)) / shard_count


Job = Callable[[], Awaitable[bool]]


class RestBudget:
    """One process's token bucket for REST requests that Discord's global limit counts."""

    def __init__(self, part: float = 1.0, *, per_second: float = PER_SECOND,
                 burst: float = BURST, counts: Counts | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.rate = per_second * part
        self.burst = max(1.0, burst * part)
        self.counts: Counts = counts or _Nothing()
        self.clock = clock
        self.sleep = sleep  # with ``clock``: a test's virtual time, no wall-time guess
        self._tokens = self.burst
        self._stamp = clock()
        self._needed: deque[asyncio.Future[None]] = deque()
        #: board -> (when its latest edit was asked for, the edit), oldest board first
        self._pending: dict[int, tuple[float, Job]] = {}
        self._pump: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        #: Set when no edit waits or runs (made by the first :meth:`settled`).
        self._idle: asyncio.Event | None = None

    def retime(self, clock: Callable[[], float], sleep: Callable[[float], Awaitable[None]]
               ) -> None:
        """Keep time with ``clock`` and ``sleep`` from now on, the tokens as they are (a
        test's virtual time: the same order and merging, no real seconds waited)."""
        self._refill()
        self.clock, self.sleep = clock, sleep
        self._stamp = clock()

    # ---- tokens ------------------------------------------------------------------------------
    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def _take(self) -> bool:
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def _until_token(self) -> float:
        self._refill()
        return max(0.0, (1.0 - self._tokens) / self.rate)

    # ---- what callers ask for ----------------------------------------------------------------
    async def needed(self) -> None:
        """Wait for a token, ahead of every cosmetic edit (counted as a budget wait)."""
        started = self.clock()
        if not self._needed and self._take():
            self.counts.rest_waited("budget", 0.0)
            return
        waiter = asyncio.get_running_loop().create_future()
        self._needed.append(waiter)
        self._wake()
        try:
            await waiter
        finally:
            if not waiter.done():
                waiter.cancel()
        self.counts.rest_waited("budget", self.clock() - started)

    def cosmetic(self, message_id: int, job: Job) -> None:
        """Run ``job`` (returns whether Discord took the edit) when a token is spare; a
        newer edit of the same board replaces this one while it waits."""
        if message_id in self._pending:  # it keeps its place in the queue
            self.counts.cosmetic("merged")
        elif len(self._pending) >= MAX_PENDING:
            del self._pending[next(iter(self._pending))]
            self.counts.cosmetic("stale")
        self._pending[message_id] = (self.clock(), job)
        self._wake()

    async def settled(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until no edit waits or runs; whether it did.
        For tests and benches that look at the trail right after a move."""
        if self._is_idle():
            return True
        if self._idle is None:
            self._idle = asyncio.Event()
        self._idle.clear()
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _is_idle(self) -> bool:
        return not self._pending and not self._running

    def _settle(self) -> None:
        """Wake :meth:`settled` when the last edit has left the queue and finished."""
        if self._idle is not None and self._is_idle():
            self._idle.set()

    async def close(self, grace: float) -> None:
        """At shutdown: drop the edits still waiting; give running ones ``grace`` seconds."""
        for _ in self._pending:
            self.counts.cosmetic("stale")
        self._pending.clear()
        self._settle()
        if self._pump is not None and not self._needed:
            self._pump.cancel()
        if self._running:
            await asyncio.wait(set(self._running), timeout=grace)

    # ---- the pump ----------------------------------------------------------------------------
    def _wake(self) -> None:
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(
                self._serve(), name="mastermind-rest-budget", context=contextvars.Context())

    async def _serve(self) -> None:
        """Hand out tokens, needed requests first, until nothing waits."""
        while self._needed or self._pending:
            wait = self._until_token()
            if wait > 0:
                await self.sleep(wait)
                continue
            if self._needed:
                waiter = self._needed.popleft()
                if not waiter.done() and self._take():
                    waiter.set_result(None)
                continue
            message_id = next(iter(self._pending))
            asked, job = self._pending.pop(message_id)
            if self.clock() - asked > STALE_AFTER:
                self.counts.cosmetic("stale")
            elif self._take():
                self._start(job)
            self._settle()

    def _start(self, job: Job) -> None:
        context = contextvars.Context()
        context.run(_prepaid.set, True)
        task = asyncio.get_running_loop().create_task(
            self._run(job), name=TASK_NAME, context=context)
        self._running.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        self._settle()

    async def _run(self, job: Job) -> None:
        try:
            sent = await job()
        except Exception:  # a cosmetic edit never takes anything else down
            log.exception("a board-trail edit failed")
            sent = False
        self.counts.cosmetic("sent" if sent else "failed")

    # ---- discord.py ----------------------------------------------------------------------------
    def install(self, http: discord.http.HTTPClient) -> None:
        """Pass every request of discord.py's REST client (not interaction answers, which
        use the interaction's webhook) through this budget, and time Discord's own waits."""
        send = http.request

        async def request(route: discord.http.Route, **kwargs: Any) -> Any:
            cosmetic = _prepaid.get()
            if not cosmetic:
                await self.needed()
            self.counts.rest_sent("cosmetic" if cosmetic else "needed")
            attempts: list[float] = []
            token = _attempts.set(attempts)
            started = time.perf_counter()
            try:
                return await send(route, **kwargs)
            finally:
                _attempts.reset(token)
                waited = time.perf_counter() - started - sum(attempts)
                self.counts.rest_waited("discord", max(0.0, waited) if attempts else 0.0)

        http.request = request  # type: ignore[method-assign]


def trace(counts: Counts) -> aiohttp.TraceConfig:
    """Count Discord's 429s on every request (answers too), and time each HTTP attempt so
    what discord.py waited between them (rate-limit buckets, 429 retries) is known."""
    config = aiohttp.TraceConfig()

    async def started(session: Any, context: Any, params: Any) -> None:
        context.started = time.perf_counter()

    async def ended(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        attempts = _attempts.get()
        if attempts is not None and hasattr(context, "started"):
            attempts.append(time.perf_counter() - context.started)
        response = params.response
        if response.status != 429:
            return
        headers = response.headers
        scope = headers.get("X-RateLimit-Scope") or (
            "global" if headers.get("X-RateLimit-Global") else "user")
        path = params.url.path
        route = "interaction" if "/interactions/" in path or "/webhooks/" in path else "rest"
        counts.rate_limited(scope, route)

    config.on_request_start.append(started)
    config.on_request_end.append(ended)
    return config
