"""The loopback fake Discord's shards: IDENTIFY with ``shard: [id, count]``, READY and the
guild events of that shard only, interactions routed by ``(guild_id >> 22) % count``, the
recommended count from ``GET /gateway/bot``, a bad shard refused with 4010, and a RESUME
keeping its shard. Driven by discord.py's own ``AutoShardedClient`` where it can be."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import discord
from discord import app_commands
from fake_discord.server import FakeDiscordServer, shard_of

IDENTIFY, RESUME, HELLO = 2, 6, 10


class QuickShards(discord.AutoShardedClient):
    """discord.py waits 5 s between two shards' IDENTIFYs (Discord's default rate); the fake
    has no such limit, so this test client doesn't wait."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def dispatched(server: FakeDiscordServer, event: str) -> dict[tuple[int, int], list[Any]]:
    """Per shard, the payloads of ``event`` the server sent."""
    out: dict[tuple[int, int], list[Any]] = {}
    for session in server.sessions:
        out.setdefault(session.shard, []).extend(
            m["d"] for m in session.sent if m["t"] == event)
    return out


async def test_a_sharded_client_gets_each_guild_on_its_shard() -> None:
    async with FakeDiscordServer() as server:
        state = server.state
        state.recommended_shards = 2
        guilds = [state.create_guild(f"G{k}", shard=(k % 2, 2)) for k in range(4)]
        assert [shard_of(g.id, 2) for g in guilds] == [0, 1, 0, 1]
        alice = state.create_user("alice")
        intents = discord.Intents.none()
        intents.guilds = intents.guild_messages = True
        client = QuickShards(intents=intents, guild_ready_timeout=0.01)  # no shard_count
        tree = app_commands.CommandTree(client)
        ready = asyncio.Event()
        client.event(_setter("on_ready", ready))

        @tree.command(description="which shard")
        async def where(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            await interaction.response.send_message(f"shard {interaction.guild.shard_id}")

        with server.redirect():
            runner = asyncio.create_task(client.start(state.token))
            try:
                await asyncio.wait_for(ready.wait(), 5)
                assert client.shard_count == 2  # as GET /gateway/bot recommended
                assert sorted(s.shard for s in server.sessions) == [(0, 2), (1, 2)]
                ready_guilds = {shard: [int(g["id"]) for d in payloads for g in d["guilds"]]
                                for shard, payloads in dispatched(server, "READY").items()}
                assert ready_guilds == {(0, 2): [guilds[0].id, guilds[2].id],
                                        (1, 2): [guilds[1].id, guilds[3].id]}
                assert {g.id for g in client.guilds} == {g.id for g in guilds}
                await tree.sync()
                for k, guild in enumerate(guilds):
                    res = await server.slash("where", user=alice, guild=guild)
                    assert res.original.content == f"shard {k % 2}"
                interactions = dispatched(server, "INTERACTION_CREATE")
                assert [int(d["guild_id"]) for d in interactions[(1, 2)]] == [
                    guilds[1].id, guilds[3].id]
                channel = next(iter(guilds[3].channels.values()))
                await client.get_channel(channel.id).send("hello shard 1")

                def got_hello() -> dict[tuple[int, int], int]:
                    return {shard: sum(m["content"] == "hello shard 1" for m in sent)
                            for shard, sent in dispatched(server, "MESSAGE_CREATE").items()}

                await server.wait_until(lambda: got_hello()[(1, 2)], timeout=2)
                assert got_hello() == {(0, 2): 0, (1, 2): 1}
            finally:
                await client.close()
                await asyncio.wait_for(runner, 5)


def _setter(name: str, event: asyncio.Event):
    async def handler() -> None:
        event.set()

    handler.__name__ = name
    return handler


async def _hello(ws: aiohttp.ClientWebSocketResponse) -> None:
    assert json.loads((await ws.receive()).data)["op"] == HELLO


async def test_a_shard_out_of_range_is_refused_with_4010() -> None:
    async with (FakeDiscordServer() as server, aiohttp.ClientSession() as http,
                http.ws_connect(server.gateway_url) as ws):
        await _hello(ws)
        await ws.send_json({"op": IDENTIFY, "d": {
            "token": server.state.token, "intents": 1, "properties": {}, "shard": [2, 2]}})
        closing = await ws.receive()
        assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4010


async def test_a_resume_keeps_its_shard() -> None:
    async with FakeDiscordServer() as server, aiohttp.ClientSession() as http:
        guild = server.state.create_guild("On shard 1", shard=(1, 2))
        async with http.ws_connect(server.gateway_url) as ws:
            await _hello(ws)
            await ws.send_json({"op": IDENTIFY, "d": {
                "token": server.state.token, "intents": 1, "properties": {}, "shard": [1, 2]}})
            ready = json.loads((await ws.receive()).data)
            assert ready["t"] == "READY" and ready["d"]["shard"] == [1, 2]
            session_id = ready["d"]["session_id"]
        await server.wait_until(lambda: not server.sessions, timeout=2)
        async with http.ws_connect(server.gateway_url) as ws:
            await _hello(ws)
            await ws.send_json({"op": RESUME, "d": {
                "token": server.state.token, "session_id": session_id, "seq": 2}})
            assert json.loads((await ws.receive()).data)["t"] == "RESUMED"
            (session,) = server.sessions
            assert session.shard == (1, 2) and session.serves(guild.id)
            assert (await server.wait_for_session(1, guild_id=guild.id)) is session
