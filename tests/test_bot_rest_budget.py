"""Discord's global limit (50 requests a second per bot, interaction answers exempt) under
load: the REST budget (bot/ui/rest_budget.py) keeps the bot under 40 in any second, requests
a player needs go before cosmetic board-trail edits, and a busy channel's trail keeps only
its newest edit waiting. The fake Discord enforces the 50 and records every request it
counts (tests/fake_discord/ratelimit.py)."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import pytest
from conftest import secret_of
from test_bot_board import misses
from test_bot_process_shards import samples, total
from virtual_time import VirtualTime

from bot.ui import rest_budget
from bot.ui.rest_budget import RestBudget, share


class Recorded:
    """What the budget counted."""

    def __init__(self) -> None:
        self.outcomes: Counter[str] = Counter()
        self.waits: list[tuple[str, float]] = []

    def rest_sent(self, kind: str) -> None: ...
    def rate_limited(self, scope: str, route: str) -> None: ...

    def rest_waited(self, reason: str, seconds: float) -> None:
        self.waits.append((reason, seconds))

    def cosmetic(self, outcome: str) -> None:
        self.outcomes[outcome] += 1


def busiest_second(times: list[float]) -> int:
    times = sorted(times)
    return max((sum(1 for t in times if start <= t < start + 1.0) for start in times),
               default=0)


async def test_needed_requests_go_first_and_a_channel_keeps_only_its_newest_edit():
    counts, virtual = Recorded(), VirtualTime()
    budget = RestBudget(per_second=20, burst=1, counts=counts, clock=virtual.clock,
                        sleep=virtual.sleep)
    order: list[tuple[str, int, int]] = []
    granted: list[float] = []

    async def edit(channel: int, n: int) -> bool:
        granted.append(virtual.now)
        order.append(("edit", channel, n))
        return True

    async def needed(n: int) -> None:
        await budget.needed()
        granted.append(virtual.now)
        order.append(("needed", n, 0))

    for n in range(3):  # three moves in each of ten channels, faster than the budget
        for channel in range(10):
            budget.cosmetic(channel, lambda channel=channel, n=n: edit(channel, n))
    await asyncio.gather(*(needed(n) for n in range(5)))
    assert await budget.settled(timeout=10)
    kinds = [kind for kind, _, _ in order]
    # one edit took the only token before anyone else asked; then the five needed ones
    assert kinds == ["edit"] + ["needed"] * 5 + ["edit"] * 9
    assert sorted(channel for kind, channel, _ in order if kind == "edit") == list(range(10))
    assert all(n == 2 for kind, _, n in order if kind == "edit")  # each channel's newest
    assert counts.outcomes == {"merged": 20, "sent": 10}
    assert busiest_second(granted) <= 20 + 1
    assert granted == pytest.approx([k / 20 for k in range(15)])  # one token each 1/20 s
    # each needed request waited for the tokens of those before it, none for an edit
    waits = [seconds for reason, seconds in counts.waits if reason == "budget"]
    assert waits == pytest.approx([k / 20 for k in range(1, 6)])


async def test_an_edit_that_waited_too_long_is_dropped(monkeypatch):
    monkeypatch.setattr(rest_budget, "STALE_AFTER", 0.5)
    counts, virtual = Recorded(), VirtualTime()
    budget = RestBudget(per_second=5, burst=1, counts=counts, clock=virtual.clock,
                        sleep=virtual.sleep)
    ran: list[int] = []

    async def edit(channel: int) -> bool:
        ran.append(channel)
        return True

    for channel in range(6):  # 5 a second: the 4th's token comes at 0.6 s, past 0.5 s
        budget.cosmetic(channel, lambda channel=channel: edit(channel))
    assert await budget.settled(timeout=10)
    assert ran == [0, 1, 2]
    assert counts.outcomes == {"sent": 3, "stale": 3}


def test_processes_split_the_budget_by_their_shards():
    assert share(None, None) == 1.0
    assert share(4, (0, 1)) == 0.5 and share(4, (3,)) == 0.25
    halves = [RestBudget(share(4, ids)) for ids in ((0, 1), (2, 3))]
    assert sum(b.rate for b in halves) == rest_budget.PER_SECOND
    assert sum(b.rate + b.burst for b in halves) <= 17


@pytest.mark.both_databases
@pytest.mark.real_time_pacing
async def test_a_burst_of_moves_in_many_channels_stays_under_40_requests_a_second(
        fake_discord, start_bot, world, db_path):
    """Thirty channels, three guesses each, all at once (90 boards to shrink: six seconds at
    the budget's pace, in real time): every move is answered, Discord never refuses a
    request, the bot makes fewer than 40 that count in any second, and each channel's newest
    replaced board is shrunk (tests/test_bot_board.py checks the whole trail at an ordinary
    pace)."""
    bot = await start_bot()
    channels = [world.general, *(fake_discord.channel(world.guild, f"c{n}") for n in range(29))]
    await asyncio.gather(*(fake_discord.slash(bot, "mastermind new", user=world.alice,
                                              channel=channel, guild=world.guild)
                           for channel in channels))
    codes = {channel.id: misses(secret_of(db_path, channel.id), 3) for channel in channels}
    began = time.monotonic()

    async def play(channel) -> list:
        return [await fake_discord.slash(bot, "guess", user=world.bob, channel=channel,
                                         guild=world.guild, code=code)
                for code in codes[channel.id]]

    played = await asyncio.gather(*(play(channel) for channel in channels))
    assert all(not answer.ephemeral for answers in played for answer in answers)
    limit = fake_discord.state.global_limit
    await fake_discord.wait_until(lambda: not bot.rest_budget._pending
                                  and not bot.rest_budget._running, timeout=30)
    assert limit.refused == 0
    assert limit.busiest_second(since=began) < 40
    values = samples(await bot.metrics_page())
    assert total(values, "mastermind_rest_429_total") == 0
    for channel in channels:  # the board just above the live one shows one line
        *_, above, live = fake_discord.messages(channel, include_ephemeral=False)
        assert live.embeds and not above.embeds and above.content
    fake_discord.assert_no_violations()


@pytest.mark.sqlite_only
async def test_the_fake_discord_refuses_the_51st_request_in_a_second(fake_discord, start_bot,
                                                                     world):
    """What the budget protects against, as Discord does it: a bot without it (its budget
    set far above 50) gets global 429s, which discord.py waits out and the metrics
    count."""
    bot = await start_bot()
    bot.rest_budget.rate, bot.rest_budget.burst = 1000.0, 1000.0
    bot.rest_budget._tokens = 1000.0
    await asyncio.gather(*(bot.http.send_typing(world.general.id) for _ in range(60)))
    assert fake_discord.state.global_limit.refused >= 1
    values = samples(await bot.metrics_page())
    assert total(values, "mastermind_rest_429_total", scope="global", route="rest") >= 1
