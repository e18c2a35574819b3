"""Loopback fake Discord: a real HTTP REST API and websocket gateway on 127.0.0.1.

For smoke tests that run the bot as it runs in production (``python -m bot``, or a bare
``discord.Client`` with ``start()``). The REST API is the same :class:`DiscordState` the
in-process harness uses, so every rule and limit applies identically.

Gateway: HELLO on connect, HEARTBEAT -> HEARTBEAT_ACK, IDENTIFY -> READY then one GUILD_CREATE
per guild of the session's shard, REQUEST_GUILD_MEMBERS -> GUILD_MEMBERS_CHUNK,
RESUME -> RESUMED. The server pushes INTERACTION_CREATE (``slash``/``click``) and
MESSAGE_CREATE/UPDATE/DELETE for messages the bot posts in guild channels (when the session's
intents ask for them).

Shards: IDENTIFY may carry ``shard: [id, count]`` (default ``[0, 1]``). As on Discord, a guild's
events and interactions go only to the session of shard ``(guild_id >> 22) % count`` (direct
messages to shard 0); ``GET /gateway/bot`` recommends ``state.recommended_shards``. Use
``state.create_guild(..., shard=(id, count))`` for a guild on a given shard.

Pointing discord.py at it: in-process, ``with server.redirect(): ...`` patches
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``; for a
child process, ``server.env()`` returns environment variables that make the ``sitecustomize``
shim in ``fake_discord/_redirect`` apply the same patch at interpreter start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import yarl
from aiohttp import WSMsgType, web

from .activities import ActivityLaunch
from .errors import FakeDiscordError, NoResponse
from .harness import InteractionResult
from .models import FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeUser
from .session import split_api_path
from .state import ApiRequest, DiscordState, InteractionRecord, RecordedRequest

REDIRECT_DIR = Path(__file__).with_name("_redirect")

# gateway opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, VOICE_PING, RESUME, RECONNECT = range(8)
REQUEST_MEMBERS = 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content


class GatewaySession:
    """One websocket connection from a client."""

    def __init__(self, server: FakeDiscordServer, ws: web.WebSocketResponse) -> None:
        self.server = server
        self.ws = ws
        self.session_id = secrets.token_hex(16)
        self.seq = 0
        self.identified = asyncio.Event()
        self.identify_payload: dict[str, Any] | None = None
        self.intents = 0
        self.heartbeats = 0
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.guild_versions: dict[int, str] = {}
        #: ``(shard id, shard count)`` from IDENTIFY (or the resumed session's).
        self.shard: tuple[int, int] = (0, 1)
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(self._write_loop())

    def send(self, op: int, d: Any = None, t: str | None = None) -> None:
        msg: dict[str, Any] = {"op": op, "d": d, "s": None, "t": None}
        if op == DISPATCH:
            self.seq += 1
            msg.update(s=self.seq, t=t)
        self.sent.append(msg)
        self._queue.put_nowait(msg)

    def dispatch(self, event: str, data: Any) -> None:
        self.send(DISPATCH, data, event)

    async def _write_loop(self) -> None:
        while True:
            msg = await self._queue.get()
            if msg is None or self.ws.closed:
                return
            await self.ws.send_str(json.dumps(msg))

    async def close(self, code: int = 1000, message: str = "") -> None:
        self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self._writer
        if not self.ws.closed:
            await self.ws.close(code=code, message=message.encode())

    def wants(self, intent: int) -> bool:
        return bool(self.intents & intent)

    def serves(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the guild's events (DMs: shard 0)."""
        shard_id, count = self.shard
        return shard_of(guild_id, count) == shard_id


def _bad_json() -> web.Response:
    """Discord's answer to a body that is not JSON (50109, "The request body contains
    invalid JSON.")."""
    body = {"code": 50109, "message": "The request body contains invalid JSON."}
    return web.Response(status=400, body=json.dumps(body).encode(),
                        headers={"Content-Type": "application/json"})


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's rule: ``(guild_id >> 22) % shard_count``; direct messages go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def _shard(value: Any) -> tuple[int, int] | None:
    """IDENTIFY's ``shard`` field as ``(id, count)``, or None if it is not a valid shard."""
    if value is None:
        return (0, 1)
    if (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)
            and 0 <= value[0] < value[1]):
        return (value[0], value[1])
    return None


class FakeDiscordServer:
    """A fake Discord listening on 127.0.0.1 (an ephemeral port)."""

    def __init__(
        self,
        state: DiscordState | None = None,
        *,
        host: str = "127.0.0.1",
        heartbeat_interval_ms: int = 41250,
        allow_privileged_intents: bool = True,
        timeout: float = 5.0,
    ) -> None:
        if host not in ("127.0.0.1", "::1", "localhost"):
            raise ValueError("the fake Discord server only listens on loopback")
        self.state = state or DiscordState()
        self.host = host
        self.port = 0
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.allow_privileged_intents = allow_privileged_intents
        self.timeout = timeout
        self.sessions: list[GatewaySession] = []
        #: session id -> shard, so a RESUME continues the shard it identified with
        self._shards: dict[str, tuple[int, int]] = {}
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Event()
        self._listeners_installed = False

    # ----------------------------------------------------------------------- lifecycle
    async def start(self) -> FakeDiscordServer:
        app = web.Application()
        app.router.add_route("*", "/api/{tail:.*}", self._rest)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/", self._gateway)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        sockets = site._server.sockets  # type: ignore[union-attr]
        self.port = sockets[0].getsockname()[1]
        self.state.gateway_url = self.gateway_url
        self.state.message_listeners.append(self._on_message)
        self.state.request_listeners.append(self._on_request)
        return self

    async def stop(self) -> None:
        for session in list(self.sessions):
            await session.close(1001, "server stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        with contextlib.suppress(ValueError):
            self.state.message_listeners.remove(self._on_message)
        with contextlib.suppress(ValueError):
            self.state.request_listeners.remove(self._on_request)

    async def __aenter__(self) -> FakeDiscordServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``."""
        return self.url.replace("http://", "ws://", 1) + "/gateway/"

    @contextlib.contextmanager
    def redirect(self) -> Iterator[None]:
        """Point discord.py in *this* process at the server (restored on exit)."""
        from discord.gateway import DiscordWebSocket
        from discord.http import Route

        old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
        Route.BASE = self.api_base
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway

    def env(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """Environment for a child process (e.g. ``python -m bot``) to use this server.

        Adds the ``sitecustomize`` shim to ``PYTHONPATH``; the shim patches discord.py's
        endpoints from ``FAKE_DISCORD_API_BASE``/``FAKE_DISCORD_GATEWAY``. The bot token is in
        ``FAKE_DISCORD_TOKEN`` (map it to whatever variable the bot reads).
        """
        env = dict(os.environ if base is None else base)
        paths = [str(REDIRECT_DIR)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        env.update(
            PYTHONPATH=os.pathsep.join(paths),
            FAKE_DISCORD_API_BASE=self.api_base,
            FAKE_DISCORD_GATEWAY=self.gateway_url,
            FAKE_DISCORD_TOKEN=self.state.token,
        )
        return env

    # ---------------------------------------------------------------------------- REST
    async def _rest(self, request: web.Request) -> web.Response:
        body: Any = None
        files: list[tuple[str, int]] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    data = await part.read()  # type: ignore[union-attr]
                    files.append(
                        (
                            part.filename or part.name or "file",  # type: ignore
                            len(data),
                        )
                    )
        elif request.content_type == "application/x-www-form-urlencoded":
            body = dict(await request.post())  # OAuth2's token endpoint
        elif request.can_read_body:
            raw = await request.text()
            try:
                body = json.loads(raw) if raw else None
            except json.JSONDecodeError:
                return _bad_json()
        api = ApiRequest(
            request.method,
            split_api_path(request.path),
            dict(request.query),
            body,
            files,
            dict(request.headers),
        )
        resp = self.state.handle(api)
        headers = {}
        if resp.status == 429:  # as Discord sends them (discord.py retries only these)
            body = resp.body or {}
            headers = {"Via": "1.1 google", "Retry-After": str(body.get("retry_after", 1))}
            if body.get("global"):
                headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
        if resp.body is None:
            return web.Response(status=resp.status, headers=headers)
        # exactly "application/json": discord.py compares the header verbatim (no charset)
        return web.Response(
            status=resp.status,
            body=json.dumps(resp.body).encode(),
            headers={"Content-Type": "application/json", **headers},
        )

    def _on_request(self, recorded: RecordedRequest) -> None:
        self._changed.set()

    # ------------------------------------------------------------------------- gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(self, ws)
        self.sessions.append(session)
        session.send(HELLO, {"heartbeat_interval": self.heartbeat_interval_ms})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                session.received.append(payload)
                await self._on_gateway_message(session, payload)
        finally:
            await session.close()
            if session in self.sessions:
                self.sessions.remove(session)
            self._changed.set()
        return ws

    async def _on_gateway_message(self, session: GatewaySession, payload: dict[str, Any]) -> None:
        op, d = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            session.heartbeats += 1
            session.send(HEARTBEAT_ACK)
        elif op == IDENTIFY:
            if d.get("token") != self.state.token:
                await session.close(4004, "Authentication failed.")
                return
            intents = int(d.get("intents", 0))
            if intents & PRIVILEGED_INTENTS and not self.allow_privileged_intents:
                await session.close(4014, "Disallowed intent(s).")
                return
            shard = _shard(d.get("shard"))
            if shard is None:
                await session.close(4010, "Invalid shard.")
                return
            if shard[1] < self.state.required_shards:
                await session.close(4011, "Sharding required.")
                return
            session.identify_payload, session.intents, session.shard = d, intents, shard
            self._shards[session.session_id] = shard
            self._send_ready(session)
            session.identified.set()
            self._changed.set()
        elif op == RESUME:
            if d.get("token") != self.state.token:
                await session.close(4004, "Authentication failed.")
                return
            resumed = str(d.get("session_id"))
            if resumed in self._shards:
                session.session_id, session.shard = resumed, self._shards[resumed]
            session.dispatch("RESUMED", {})
            session.identified.set()
        elif op == REQUEST_MEMBERS:
            guild = self.state.guilds.get(int(d["guild_id"]))
            if guild is not None:
                members = [m.payload(with_permissions=False) for m in guild.members.values()]
                members.append(self.state.bot_member(guild).payload(with_permissions=False))
                chunk: dict[str, Any] = {
                    "guild_id": str(guild.id),
                    "members": members,
                    "chunk_index": 0,
                    "chunk_count": 1,
                }
                if d.get("nonce"):
                    chunk["nonce"] = d["nonce"]
                session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        # PRESENCE / VOICE updates are accepted and ignored

    def _send_ready(self, session: GatewaySession) -> None:
        st = self.state
        user = st.bot_user.payload()
        user.update(verified=True, mfa_enabled=False, flags=0)
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": user,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in st.guilds.values()
                           if g.installed and session.serves(g.id)],
                "session_id": session.session_id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "shard": list(session.shard),
                "application": {"id": str(st.application_id), "flags": st.application_flags},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "auth": {},
                "user_settings": {},
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
            },
        )
        if session.wants(INTENT_GUILDS):
            for guild in st.guilds.values():
                if guild.installed and session.serves(guild.id):
                    self._send_guild(session, guild, force=True)

    def _send_guild(
        self, session: GatewaySession, guild: FakeGuild, *, force: bool = False
    ) -> None:
        payload = guild.payload(bot_member=self.state.bot_member(guild))
        key = json.dumps(payload, sort_keys=True)
        if not force and session.guild_versions.get(guild.id) == key:
            return
        session.guild_versions[guild.id] = key
        session.dispatch("GUILD_CREATE", payload)

    def _on_message(self, kind: str, msg: FakeMessage) -> None:
        if msg.ephemeral:
            return
        chan = self.state.channels.get(msg.channel_id)
        if chan is not None and (chan.is_private_channel
                                 or (chan.guild is not None and not chan.guild.installed)):
            return  # the bot gets no events from channels it is not in
        for session in self.sessions:
            if not session.identified.is_set() or not session.serves(msg.guild_id):
                continue
            intent = INTENT_DIRECT_MESSAGES if chan is None or chan.is_dm else INTENT_GUILD_MESSAGES
            if not session.wants(intent):
                continue
            if kind == "delete":
                data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
                if msg.guild_id is not None:
                    data["guild_id"] = str(msg.guild_id)
                session.dispatch("MESSAGE_DELETE", data)
                continue
            data = msg.payload()
            if chan is not None and chan.guild is not None:
                data["member"] = self.state.bot_member(chan.guild).payload(
                    with_user=False, with_permissions=False
                )
            session.dispatch("MESSAGE_CREATE" if kind == "create" else "MESSAGE_UPDATE", data)

    # --------------------------------------------------------------------- test driver
    async def wait_for_session(
        self, timeout: float | None = None, *, guild_id: int | None = None
    ) -> GatewaySession:
        """The first identified gateway session of the shard that serves ``guild_id`` (waits
        for a client to IDENTIFY on it)."""

        def ready() -> list[GatewaySession]:
            return [s for s in self.sessions if s.identified.is_set() and s.serves(guild_id)]

        await self.wait_until(
            ready, timeout=timeout, what=f"a client to connect and IDENTIFY (guild {guild_id})"
        )
        return ready()[0]

    async def wait_until(
        self, predicate: Callable[[], Any], *, timeout: float | None = None, what: str = "condition"
    ) -> None:
        """Wait (real time) until ``predicate()`` is truthy; re-checked after every request
        and gateway event, and at least every 50 ms."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out waiting for {what}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.05))

    async def send_interaction(
        self,
        rec: InteractionRecord,
        *,
        timeout: float | None = None,
        expect_response: bool = True,
        session: GatewaySession | None = None,
    ) -> InteractionResult:
        """Dispatch ``rec`` to the session of its guild's shard (or to ``session``: e.g. the
        same interaction to a second process, as in a deploy) and wait for the answer."""
        guild_id = rec.guild.id if rec.guild is not None else None
        if session is None:
            session = await self.wait_for_session(timeout, guild_id=guild_id)
        if rec.guild is not None and rec.guild.installed and session.wants(INTENT_GUILDS):
            self._send_guild(session, rec.guild)
        session.dispatch("INTERACTION_CREATE", rec.payload)
        if expect_response:
            try:
                await self.wait_until(
                    lambda: rec.callback is not None or rec.callback_attempts > 0,
                    timeout=timeout,
                    what=f"a response to {rec!r}",
                )
            except TimeoutError:
                raise NoResponse(f"{rec!r}: the bot never responded or deferred") from None
            cb = rec.callback
            if cb is not None and cb.type == 5:
                # "thinking": wait for the followup/edit that resolves it
                with contextlib.suppress(TimeoutError):
                    await self.wait_until(
                        lambda: not self.state.messages[rec.original_message_id].loading,
                        timeout=timeout,
                        what="the deferred response to be completed",
                    )
            await self._quiet(rec)
        return InteractionResult(self.state, rec)

    async def _quiet(self, rec: InteractionRecord, period: float = 0.05) -> None:
        """Return once no request for ``rec`` arrived for ``period`` seconds."""
        while True:
            count = len(rec.requests)
            await asyncio.sleep(period)
            if len(rec.requests) == count:
                return

    async def slash(
        self,
        command: str,
        *,
        user: FakeUser | FakeMember,
        channel: FakeChannel | None = None,
        guild: FakeGuild | None = None,
        options: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        **kwargs: Any,
    ) -> InteractionResult:
        """Like :meth:`FakeDiscord.slash`, over the gateway to a connected client."""
        rec = self.state.new_command_interaction(
            command,
            user=user,
            channel=channel,
            guild=guild,
            options={**(options or {}), **kwargs},
            context_keywords=[
                k
                for k, v in (("user", user), ("channel", channel), ("guild", guild))
                if v is not None
            ],
        )
        return await self.send_interaction(rec, timeout=timeout, expect_response=expect_response)

    async def click(
        self,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        user: FakeUser | FakeMember,
        timeout: float | None = None,
        expect_response: bool = True,
    ) -> InteractionResult:
        msg = self.state.messages[message if isinstance(message, int) else message.id]
        if custom_id is None:
            if label is None:
                raise FakeDiscordError("click() needs a custom_id or a label")
            custom_id = msg.component(label=label)["custom_id"]
        rec = self.state.new_component_interaction(msg, custom_id, user=user)
        return await self.send_interaction(rec, timeout=timeout, expect_response=expect_response)

    async def entry_point(
        self, *, user: FakeUser | FakeMember, channel: FakeChannel | None = None,
        guild: FakeGuild | None = None, timeout: float | None = None,
    ) -> ActivityLaunch | InteractionResult:
        """``user`` picks the Entry Point command: Discord launches the Activity (handler 2),
        or the connected bot answers the interaction (handler 1)."""
        launched = self.state.launch_from_entry_point(user, channel, guild)
        if isinstance(launched, ActivityLaunch):
            return launched
        return await self.send_interaction(launched, timeout=timeout)

    def announce_guild(self, guild: FakeGuild) -> None:
        """Send GUILD_CREATE for ``guild`` (e.g. created after READY) to every session."""
        for session in self.sessions:
            if session.identified.is_set() and session.wants(INTENT_GUILDS) and session.serves(
                guild.id
            ):
                self._send_guild(session, guild)


__all__ = ["FakeDiscordServer", "GatewaySession", "shard_of"]
