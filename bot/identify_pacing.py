"""Shards IDENTIFY as fast as Discord allows, and no faster.

Discord takes ``max_concurrency`` IDENTIFYs every 5 seconds, one per bucket (a shard's id
modulo ``max_concurrency``; ``GET /gateway/bot`` says how many), and invalidates every session
of an app that goes past it. discord.py's default waits 5 s before every shard but a process's
first, whatever the app's ``max_concurrency``: a process of 16 shards of a large bot took 75 s
to connect where Discord allows 5, and a shard reconnecting waited 5 s even when its bucket
had been free for an hour. This waits only for the shard's own bucket.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

#: Discord's window: one IDENTIFY per bucket in it.
IDENTIFY_INTERVAL = 5.0


class IdentifyPacing:
    """When each of this process's shards last identified (other processes pace their own:
    docs/operating.md says to start them 5 s apart where ``max_concurrency`` is 1)."""

    def __init__(self, gateway: Callable[[], Awaitable[tuple[int, str, Any]]],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._gateway = gateway
        self._clock = clock
        self._max_concurrency: int | None = None
        #: shard id -> when it last identified
        self._identified: dict[int, float] = {}

    def delay(self, shard_id: int, max_concurrency: int) -> float:
        """Seconds until ``shard_id``'s bucket may identify again."""
        bucket = shard_id % max_concurrency
        last = max((at for shard, at in self._identified.items()
                    if shard % max_concurrency == bucket), default=None)
        return 0.0 if last is None else max(0.0, last + IDENTIFY_INTERVAL - self._clock())

    async def max_concurrency(self) -> int:
        """The app's, asked of Discord once (1, Discord's default, when it can't be read)."""
        if self._max_concurrency is None:
            try:
                _, _, limits = await self._gateway()
                self._max_concurrency = max(1, int(limits["max_concurrency"]))
            except Exception:  # a start never fails for want of a faster one
                self._max_concurrency = 1
        return self._max_concurrency

    async def before_identify(self, shard_id: int | None, *, initial: bool) -> None:
        """Wait until ``shard_id``'s bucket is free, then count it used. A process's first
        IDENTIFY goes at once, as discord.py's does (without asking Discord anything)."""
        shard = shard_id or 0
        if not initial:
            await asyncio.sleep(self.delay(shard, await self.max_concurrency()))
        self._identified[shard] = self._clock()
