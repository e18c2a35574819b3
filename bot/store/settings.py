"""SQL for ``server_settings`` (one row per server that changed something) and
``settings_log`` (every change, with who made it)."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.enums import Setting
from ..core.records import FORGOTTEN, SettingChange
from .connection import Connection, fetch_all

#: The settings columns, in the order rows are read and written (NULL = the default).
COLUMNS = ("hints", "pegs", "colors", "max_guesses", "repeats", "idle_hours", "channels",
           "daily_posts", "language", "seasons", "pair_cap", "race_minutes")


class SettingsStore:
    async def all(self, conn: Connection) -> dict[int, dict[str, object]]:
        """Every server's stored settings, by server id."""
        rows = await fetch_all(
                conn, f"SELECT guild_id, {', '.join(COLUMNS)} FROM server_settings")
        return {row[0]: dict(zip(COLUMNS, row[1:], strict=True))
                for row in rows}

    async def save(self, conn: Connection, guild_id: int, values: dict[str, object],
                   changes: Sequence[tuple[Setting, str | None, str | None]], *,
                   user_id: int, now: float, action_id: int | None) -> None:
        """Write a server's settings and log each change, in the caller's transaction (the
        log's unique key refuses the same interaction twice)."""
        names = ", ".join(COLUMNS)
        marks = ", ".join("?" for _ in COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS)
        await conn.execute(
            f"INSERT INTO server_settings (guild_id, {names}, updated_at, updated_by)"
            f" VALUES (?, {marks}, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET {updates},"
            f" updated_at = excluded.updated_at, updated_by = excluded.updated_by",
            (guild_id, *(values[c] for c in COLUMNS), now, user_id))
        for name, old, new in changes:
            await conn.execute(
                "INSERT INTO settings_log (guild_id, user_id, name, old_value, new_value,"
                " changed_at, interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, user_id, name, old, new, now, action_id))

    async def forget(self, conn: Connection, user_id: int) -> int:
        """Unlink a user from the setting changes they made (the log keeps the changes)."""
        await conn.execute(
            f"UPDATE server_settings SET updated_by = {FORGOTTEN} WHERE updated_by = ?",
            (user_id,))
        cur = await conn.execute(
            f"UPDATE settings_log SET user_id = {FORGOTTEN} WHERE user_id = ?", (user_id,))
        return cur.rowcount

    async def recent(self, conn: Connection, guild_id: int, limit: int
                     ) -> list[SettingChange]:
        rows = await fetch_all(
            conn, "SELECT user_id, name, old_value, new_value, changed_at FROM settings_log"
            f" WHERE guild_id = ? ORDER BY id DESC LIMIT {int(limit)}", (guild_id,),
        )
        return [SettingChange(row[0], Setting(row[1]), row[2], row[3], row[4])
                for row in rows]
