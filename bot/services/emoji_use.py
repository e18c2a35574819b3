"""Which of the pegs' application emoji a running version shows, and which no version has
shown for a while: a start never deletes emoji that another version still running (a
rolling deploy, a rollback) may show on its boards.

Each version records the names of its pegs at start-up and once a day while it runs. An
older drawing, not among this version's, is deleted only after no version has recorded it
for :data:`KEEP_UNUSED` seconds; one never recorded (uploaded by a version from before
this record) counts as shown when it is first seen. Discord-free.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.clock import Clock, system_clock
from ..store import Database
from ..store.emoji import EmojiUseStore

#: Seconds an older drawing stays after a version last showed it: 7 days.
KEEP_UNUSED = 7 * 24 * 3600.0


class EmojiUseService:
    def __init__(self, db: Database, *, clock: Clock = system_clock,
                 keep_unused: float = KEEP_UNUSED) -> None:
        self.db, self.clock, self.keep_unused = db, clock, keep_unused
        self.store = EmojiUseStore()

    async def mark(self, names: Iterable[str]) -> None:
        """This version shows ``names`` (from now on)."""
        async with self.db.transaction() as conn:
            await self.store.mark(conn, sorted(names), self.clock())

    async def unused(self, names: Iterable[str]) -> list[str]:
        """Of the older drawings ``names``, those no version has shown for
        :attr:`keep_unused` seconds (a name never seen before is recorded as shown now)."""
        names = sorted(names)
        if not names:
            return []
        now = self.clock()
        async with self.db.transaction() as conn:
            await self.store.first_seen(conn, names, now)
            last = await self.store.last_used(conn, names)
        return [n for n in names if now - last[n] >= self.keep_unused]

    async def claim(self, name: str) -> bool:
        """Take ``name`` out of the record to delete it, if no version showed it since
        :meth:`unused` found it unused (False: one just did, so it stays)."""
        async with self.db.transaction() as conn:
            return await self.store.forget(conn, name, self.clock() - self.keep_unused)
