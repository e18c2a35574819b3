"""Moves, live, to everyone watching: the channel game's to every viewer of that channel's
instances, a player's own game's to that player's own connections.

On PostgreSQL a move is announced with ``NOTIFY`` (:mod:`bot.store.notify`) and every process
(the one that made it too) reads the game and tells its own viewers, so a move made in any
process reaches viewers connected to any other. On SQLite (one process) the announcement
stays in memory. Each viewer has its own small queue and writer: a slow or stalled
connection is closed when its queue fills, and never holds up the others.

The sequence number (``seq``) counts the moves this process told about; a viewer that comes
back (a dropped network, a restarted bot) with another number is told to ``resync``: it
reads what it shows again, since moves may have been missed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from aiohttp import web

from ...store.db import is_postgres
from ...store.notify import MAX_PAYLOAD, Notifications
from .service import ActivityGames, Mode, Moved, Place, Player
from .views import View

log = logging.getLogger(__name__)

CHANNEL = "mastermind_activity"
#: Messages waiting for one viewer before it counts as too slow and is closed.
QUEUE_SIZE = 32


@dataclass(eq=False)
class Viewer:
    """One live connection: who, where, and what waits to be written to it."""

    ws: web.WebSocketResponse
    player: Player
    place: Place
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    writer: asyncio.Task[None] | None = None

    def send(self, text: str) -> None:
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # too slow to keep up: it reconnects and catches up
            log.info("activity: a live connection of user %s fell behind; closing it",
                     self.player.id)
            if self.writer is not None:
                self.writer.cancel()

    async def write(self) -> None:
        try:
            while True:  # a stalled reader fills the queue, and is closed by send()
                await self.ws.send_str(await self.queue.get())
        except (ConnectionError, RuntimeError):
            pass
        finally:
            with contextlib.suppress(Exception):
                await asyncio.shield(self.ws.close(code=4408, message=b"too slow"))


def _notice(moved: Moved, view: View | None) -> str:
    """What goes round: the move, and the game as it now stands when it fits in a
    notification (then no process reads it again)."""
    text = json.dumps({**asdict(moved), "view": view})
    return text if len(text.encode()) <= MAX_PAYLOAD else json.dumps(
        {**asdict(moved), "view": None})


def _read_notice(text: str) -> tuple[Moved, View | None] | None:
    try:
        data = json.loads(text)
        by = data["by"]
        moved = Moved(Mode(data["mode"]), data.get("guild_id"), data.get("channel_id"),
                      int(data["user_id"]), Player(int(by["id"]), str(by["name"])))
        view = data.get("view")
        return moved, view if isinstance(view, dict) else None
    except (ValueError, KeyError, TypeError):
        log.warning("activity: a live notification could not be read")
        return None


class LiveHub:
    def __init__(self, games: ActivityGames, database: str) -> None:
        self.games = games
        self.database = database
        self.seq = 0
        self._by_channel: defaultdict[int, set[Viewer]] = defaultdict(set)
        self._by_user: defaultdict[int, set[Viewer]] = defaultdict(set)
        self._notifications: Notifications | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def viewers(self) -> int:
        return sum(len(v) for v in self._by_user.values())

    async def start(self) -> None:
        if is_postgres(self.database):
            self._notifications = Notifications(self.database, CHANNEL, self._received,
                                                self.resync_all)
            await self._notifications.start()

    async def close(self) -> None:
        if self._notifications is not None:
            await self._notifications.close()
        for viewers in list(self._by_user.values()):
            for viewer in list(viewers):
                with contextlib.suppress(Exception):
                    await viewer.ws.close(code=1001, message=b"restarting")
        for task in list(self._tasks):
            task.cancel()

    # ---- viewers ----------------------------------------------------------------------------
    def join(self, viewer: Viewer) -> None:
        viewer.writer = asyncio.get_running_loop().create_task(viewer.write())
        self._by_user[viewer.player.id].add(viewer)
        if viewer.place.guild_id is not None:
            self._by_channel[viewer.place.channel_id].add(viewer)

    def leave(self, viewer: Viewer) -> None:
        for index, key in ((self._by_user, viewer.player.id),
                           (self._by_channel, viewer.place.channel_id)):
            found = index.get(key)
            if found is not None:
                found.discard(viewer)
                if not found:
                    del index[key]
        if viewer.writer is not None:
            viewer.writer.cancel()

    async def resync_all(self) -> None:
        """Moves may have been missed (the database connection was lost): every viewer
        reads what it shows again."""
        text = json.dumps({"type": "resync", "seq": self.seq})
        for viewers in list(self._by_user.values()):
            for viewer in viewers:
                viewer.send(text)

    # ---- moves ------------------------------------------------------------------------------
    async def publish(self, moved: Moved, view: View | None = None) -> None:
        """Tell every viewer concerned, in every process; ``view``: the game as it now stands
        for them, if the caller has it (else each process reads it)."""
        if self._notifications is not None and await self._notifications.send(
                _notice(moved, view)):
            return
        self._spawn(self.deliver(moved, view))  # not sent: at least this process's viewers

    def _received(self, text: str) -> None:
        notice = _read_notice(text)
        if notice is not None:
            self._spawn(self.deliver(*notice))

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def deliver(self, moved: Moved, view: View | None = None) -> None:
        """This process's viewers of the move, each sent the game as it now stands."""
        if moved.mode is Mode.CHANNEL:
            targets = list(self._by_channel.get(moved.channel_id or 0, ()))
        else:
            targets = list(self._by_user.get(moved.user_id, ()))
        if not targets:
            return
        self.seq += 1
        place = Place(moved.guild_id, moved.channel_id or targets[0].place.channel_id)
        owner = targets[0].player if moved.mode is not Mode.CHANNEL else moved.by
        try:
            if view is None:
                view = await self.games.view(moved.mode, place, owner)
        except Exception:  # a viewer misses one update, never the mover their answer
            log.exception("activity: the view of a move could not be read")
            return
        text = json.dumps({"type": "move", "seq": self.seq, "mode": moved.mode.value,
                           "game_id": view.get("game_id"),
                           "by": {"id": str(moved.by.id), "name": moved.by.name},
                           "view": view})
        for viewer in targets:
            viewer.send(text)
