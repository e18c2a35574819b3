"""Driving the Activity's web server as its client does: an aiohttp client against the real bot
(started on the fake Discord with ``ACTIVITY_PORT`` on an ephemeral port), with a user
signed in through the fake's OAuth2 (a code minted as the SDK's ``authorize`` would get it)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.app import MastermindBot


def server_of(bot: MastermindBot):
    cog = bot.get_cog("activity")
    assert cog is not None and cog.server is not None, "the Activity's server is off"
    return cog.server


async def settled(bot: MastermindBot) -> None:
    """Wait for the channel boards the Activity's moves are updating."""
    tasks = bot.get_cog("activity")._tasks
    if tasks:
        await asyncio.wait(tasks, timeout=10)


def base_url(bot: MastermindBot) -> str:
    return f"http://127.0.0.1:{server_of(bot).port}"


async def start_activity_bot(start_bot, fake, **kwargs: Any) -> MastermindBot:
    return await start_bot(activity_port=0, client_secret=fake.state.client_secret, **kwargs)


@dataclass
class Answer:
    status: int
    body: Any
    headers: Any

    @property
    def error(self) -> str | None:
        return (self.body or {}).get("error", {}).get("code") if isinstance(
            self.body, dict) else None


class Player:
    """One user's client: their token and the instance they are in."""

    def __init__(self, http: aiohttp.ClientSession, base: str, token: str,
                 instance_id: str) -> None:
        self.http, self.base, self.token, self.instance_id = http, base, token, instance_id

    @classmethod
    async def sign_in(cls, http: aiohttp.ClientSession, bot: MastermindBot, fake, user,
                      instance_id: str) -> Player:
        code = fake.state.authorize(getattr(user, "user", user))
        async with http.post(base_url(bot) + "/api/token", json={"code": code}) as response:
            assert response.status == 200, await response.text()
            token = (await response.json())["access_token"]
        return cls(http, base_url(bot), token, instance_id)

    async def call(self, method: str, path: str, body: Any = None, *,
                   token: str | None = None, raw: bytes | None = None,
                   instance_id: str | None = None) -> Answer:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        params = {"instance_id": instance_id or self.instance_id}
        data = raw if raw is not None else (
            json.dumps({"instance_id": instance_id or self.instance_id, **body}).encode()
            if body is not None else None)
        async with self.http.request(method, self.base + path, params=params, data=data,
                                     headers=headers) as response:
            text = await response.text()
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = text
            return Answer(response.status, parsed, response.headers)

    async def game(self, mode: str) -> Answer:
        return await self.call("GET", "/api/game?mode=" + mode)

    async def new(self, mode: str, **rules: Any) -> Answer:
        return await self.call("POST", "/api/new", {"mode": mode, **rules})

    async def guess(self, mode: str, view: dict[str, Any], code: str,
                    turn: int | None = None) -> Answer:
        return await self.call("POST", "/api/guess", {
            "mode": mode, "game_id": view["game_id"],
            "turn": view["turn"] if turn is None else turn, "code": code})

    async def live(self, since: int | None = None) -> Live:
        ws = await self.http.ws_connect(self.base + f"/api/live?instance_id={self.instance_id}")
        await ws.send_json({"type": "auth", "token": self.token, "since": since})
        live = Live(ws)
        ready = await live.next()
        assert ready["type"] == "ready", ready
        live.seq = ready["seq"]
        return live


class Live:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        message = await self.ws.receive(timeout=timeout)
        assert message.type is aiohttp.WSMsgType.TEXT, message
        return json.loads(message.data)

    async def close(self) -> None:
        await self.ws.close()


async def drain(live: Live, seconds: float = 0.05) -> list[dict[str, Any]]:
    """Whatever arrives within ``seconds``."""
    got = []
    try:
        while True:
            got.append(await live.next(timeout=seconds))
    except TimeoutError:
        return got
