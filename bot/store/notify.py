"""PostgreSQL's ``LISTEN``/``NOTIFY`` on one channel: how a message sent by one process reaches
every process on the same database (the Activity's live moves), with no broker of our own.

One connection of its own listens (a pooled connection can't keep a ``LISTEN``); it also
sends, one statement at a time. When it drops (a restarted server), it is opened again with
a growing pause, and ``reconnected`` is called: messages sent meanwhile are lost, so the
listeners' readers catch up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from ..core.config import describe_database

log = logging.getLogger(__name__)

#: PostgreSQL refuses a payload of 8,000 bytes or more.
MAX_PAYLOAD = 7999
#: Seconds between attempts to listen again, growing to the last.
RETRY_PAUSES = (0.2, 0.5, 1.0, 2.0, 5.0)


class Notifications:
    """``send(text)`` reaches ``received(text)`` in every process listening on ``channel``
    of the database at ``url``, this one included."""

    def __init__(self, url: str, channel: str, received: Callable[[str], None],
                 reconnected: Callable[[], Awaitable[None]]) -> None:
        self.url = url
        self.channel = channel
        self.received = received
        self.reconnected = reconnected
        self._conn: asyncpg.Connection | None = None
        self._sending = asyncio.Lock()
        self._retry: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self) -> None:
        self._conn = await self._listen()

    async def _listen(self) -> asyncpg.Connection:
        conn = await asyncpg.connect(self.url, timeout=10)
        await conn.add_listener(self.channel, self._on_message)
        conn.add_termination_listener(self._on_lost)
        return conn

    def _on_message(self, _conn: Any, _pid: int, _channel: str, payload: object) -> None:
        self.received(str(payload))

    def _on_lost(self, _conn: object) -> None:
        self._conn = None
        if not self._closed and self._retry is None:
            log.warning("live moves: lost the connection listening on %s; listening again",
                        describe_database(self.url))
            self._retry = asyncio.get_running_loop().create_task(self._listen_again())

    async def _listen_again(self) -> None:
        attempt = 0
        while not self._closed:
            await asyncio.sleep(RETRY_PAUSES[min(attempt, len(RETRY_PAUSES) - 1)])
            attempt += 1
            try:
                self._conn = await self._listen()
            except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
                log.info("live moves: still not listening (%s)", exc or type(exc).__name__)
                continue
            log.info("live moves: listening again")
            self._retry = None
            await self.reconnected()
            return

    async def send(self, payload: str) -> bool:
        """NOTIFY every listener; False when not connected now (the move itself is stored:
        viewers elsewhere see it when they catch up)."""
        if len(payload.encode()) > MAX_PAYLOAD:
            raise ValueError("a notification's payload must stay under 8,000 bytes")
        async with self._sending:
            conn = self._conn
            if conn is None or conn.is_closed():
                return False
            try:
                await conn.execute("SELECT pg_notify($1, $2)", self.channel, payload)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("live moves: a notification was not sent (%s)",
                            exc or type(exc).__name__)
                return False
        return True

    async def close(self) -> None:
        self._closed = True
        if self._retry is not None:
            self._retry.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._retry
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(Exception):
                await conn.close(timeout=2)
