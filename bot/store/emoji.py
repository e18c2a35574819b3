"""SQL for ``emoji_use``: when a running version last showed each of the pegs' application
emoji (see bot/ui/app_emoji.py). Written at start-up and once a day, in a transaction of
its own that names no lock (it holds the whole database on PostgreSQL for a moment)."""

from __future__ import annotations

from collections.abc import Iterable

from .connection import Connection, fetch_all


class EmojiUseStore:
    async def mark(self, conn: Connection, names: Iterable[str], now: float) -> None:
        """``names`` are shown as of ``now`` (a later time already recorded stays)."""
        for name in names:
            await conn.execute(
                "INSERT INTO emoji_use (name, last_used) VALUES (?, ?) ON CONFLICT (name)"
                " DO UPDATE SET last_used = excluded.last_used"
                " WHERE emoji_use.last_used < excluded.last_used", (name, now))

    async def first_seen(self, conn: Connection, names: Iterable[str], now: float) -> None:
        """Record ``names`` as shown at ``now`` where nothing was recorded yet (emoji a
        version from before this table uploaded)."""
        for name in names:
            await conn.execute("INSERT INTO emoji_use (name, last_used) VALUES (?, ?)"
                               " ON CONFLICT (name) DO NOTHING", (name, now))

    async def last_used(self, conn: Connection, names: Iterable[str]) -> dict[str, float]:
        wanted = list(names)
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await fetch_all(
                conn, f"SELECT name, last_used FROM emoji_use WHERE name IN ({marks})",
                wanted)
        return {row[0]: float(row[1]) for row in rows}

    async def forget(self, conn: Connection, name: str, unused_since: float) -> bool:
        """Drop ``name``'s record if it is still unused since ``unused_since``; whether it
        was (False: a version showed it meanwhile, so it must stay)."""
        cur = await conn.execute("DELETE FROM emoji_use WHERE name = ? AND last_used <= ?",
                                 (name, unused_since))
        return cur.rowcount == 1
