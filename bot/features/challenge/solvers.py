"""Solver sessions kept between moves: only a cache, rebuilt from the stored replies.

Bounded by count and by bytes (an 8x9 session holds up to ~85 MiB of possible codes while
its first sets are big, usually far less), least recently used first out. Each entry
remembers the move it is up to date with (the interaction that opened the current turn),
so a move read from an older state is spotted without work.
Solver work runs in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from engine import DEFAULT_STRATEGY, SolverSession

from ...core.records import GameRecord

Runner = Callable[..., Awaitable[Any]]

#: Sessions kept, and the memory they may hold together (the bot's budget sets this).
DEFAULT_SESSIONS = 64
DEFAULT_BYTES = 256 * 2**20


async def in_thread(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await asyncio.to_thread(function, *args, **kwargs)


@dataclass
class _Entry:
    session: SolverSession
    #: ``turn_opened_by`` of the stored game this session matches.
    token: int | None


class SolverCache:
    def __init__(self, *, max_sessions: int = DEFAULT_SESSIONS,
                 max_bytes: int = DEFAULT_BYTES, run: Runner = in_thread):
        self.max_sessions = max_sessions
        self.max_bytes = max_bytes
        #: Runs solver work off the event loop; a seam tests use to slow it down.
        self.run = run
        self._entries: OrderedDict[int, _Entry] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def nbytes(self) -> int:
        return sum(e.session.nbytes for e in self._entries.values())

    def session_nbytes(self, game_id: int) -> int:
        entry = self._entries.get(game_id)
        return entry.session.nbytes if entry else 0

    @asynccontextmanager
    async def locked(self, game_id: int) -> AsyncIterator[None]:
        """One move at a time per game; the lock is dropped once nobody waits for it."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            if not lock.locked() and self._locks.get(game_id) is lock:
                del self._locks[game_id]

    @property
    def lock_count(self) -> int:
        """Games with a move under way (locks are dropped once nobody waits)."""
        return len(self._locks)

    def newer_than(self, game: GameRecord) -> bool:
        """True when a cached session has moved past the state ``game`` was read in."""
        entry = self._entries.get(game.id)
        return entry is not None and entry.token != game.turn_opened_by

    async def session_for(self, game: GameRecord) -> SolverSession:
        """The session for the stored game (call under :meth:`locked`)."""
        entry = self._entries.get(game.id)
        if entry is None or entry.token != game.turn_opened_by:
            session = await self.run(
                SolverSession.restore, game.rules, game.strategy or DEFAULT_STRATEGY,
                [(r.guess, r.feedback) for r in game.replies], seed=game.seed,
            )
            entry = _Entry(session, game.turn_opened_by)
        self.keep(game.id, entry.session, entry.token)
        return entry.session

    def keep(self, game_id: int, session: SolverSession, token: int | None) -> None:
        self._entries[game_id] = _Entry(session, token)
        self._entries.move_to_end(game_id)
        while len(self._entries) > 1 and (
            len(self._entries) > self.max_sessions or self.nbytes > self.max_bytes
        ):
            self._entries.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._entries.pop(game_id, None)
