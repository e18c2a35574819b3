"""Shards identify as fast as Discord allows (bot/identify_pacing.py): one IDENTIFY per bucket
every 5 seconds, the buckets being the shard ids modulo the app's ``max_concurrency``, which
``GET /gateway/bot`` of the fake Discord reports as Discord does. The waits are counted, not
slept: the pacing's clock is the test's."""

from __future__ import annotations

import pytest
from fake_discord.server import FakeDiscordServer
from fake_discord.state import DiscordState

import bot.identify_pacing as pacing_module
from bot.identify_pacing import IDENTIFY_INTERVAL, IdentifyPacing


class Gateway:
    """``GET /gateway/bot`` as discord.py returns it, counting the requests."""

    def __init__(self, max_concurrency: int | None) -> None:
        self.max_concurrency = max_concurrency
        self.asked = 0

    async def __call__(self) -> tuple[int, str, dict]:
        self.asked += 1
        if self.max_concurrency is None:
            raise OSError("Discord could not be reached")
        return 1, "wss://gateway", {"total": 1000, "remaining": 999, "reset_after": 0,
                                    "max_concurrency": self.max_concurrency}


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    """The waits before each IDENTIFY, which move the clock instead of sleeping."""
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)
        clock.now += seconds

    monkeypatch.setattr(pacing_module.asyncio, "sleep", sleep)
    return waited


class Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


clock = Clock()


async def test_a_small_bot_s_shards_identify_5_seconds_apart(waits) -> None:
    gateway = Gateway(max_concurrency=1)
    pacing = IdentifyPacing(gateway, clock)
    for shard in (0, 1, 2):
        await pacing.before_identify(shard, initial=shard == 0)
    assert waits == [IDENTIFY_INTERVAL, IDENTIFY_INTERVAL]
    assert gateway.asked == 1, "asked once, and not for the first shard"


async def test_a_large_bot_s_buckets_identify_at_once(waits) -> None:
    gateway = Gateway(max_concurrency=16)
    pacing = IdentifyPacing(gateway, clock)
    for shard in range(4, 20):  # a process serving shards 4-19: every bucket once
        await pacing.before_identify(shard, initial=shard == 4)
    assert waits == [0.0] * 15
    await pacing.before_identify(20, initial=False)  # bucket 4 again, at once: it waits
    assert waits[-1] == IDENTIFY_INTERVAL


async def test_a_shard_reconnecting_waits_only_for_what_is_left_of_its_bucket_s_window(
        waits) -> None:
    pacing = IdentifyPacing(Gateway(max_concurrency=1), clock)
    await pacing.before_identify(0, initial=True)
    clock.now += 2
    await pacing.before_identify(0, initial=False)
    assert waits == [IDENTIFY_INTERVAL - 2]
    clock.now += 3600
    await pacing.before_identify(0, initial=False)
    assert waits[-1] == 0.0, "discord.py waited 5 s here"


async def test_without_discord_s_answer_it_paces_as_a_small_bot(waits) -> None:
    gateway = Gateway(max_concurrency=None)
    pacing = IdentifyPacing(gateway, clock)
    await pacing.before_identify(0, initial=True)
    await pacing.before_identify(1, initial=False)
    assert waits == [IDENTIFY_INTERVAL]


async def test_the_fake_discord_reports_the_app_s_max_concurrency() -> None:
    import aiohttp

    state = DiscordState()
    state.max_concurrency = 16
    async with FakeDiscordServer(state) as server, aiohttp.ClientSession() as http:
        url = server.env({})["FAKE_DISCORD_API_BASE"]
        async with http.get(f"{url}/gateway/bot",
                            headers={"Authorization": f"Bot {state.token}"}) as response:
            limits = (await response.json())["session_start_limit"]
    assert limits["max_concurrency"] == 16
