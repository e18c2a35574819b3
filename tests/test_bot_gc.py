"""The garbage collector in the bot's process (bot/gc_tuning.py): start-up's objects are
frozen after the set-up and once the bot is ready (the process's own bot, from its
settings; the tests' bots, many in one process, leave the collector alone), and each
collection's pause is on the metrics page by generation."""

from __future__ import annotations

import asyncio
import gc
import logging

from test_bot_process_shards import samples

from bot.app import MastermindBot
from bot.core.config import Settings
from bot.core.metrics import Metrics
from bot.gc_tuning import CollectionTimer


def test_each_collection_is_timed_by_generation_until_removed():
    seen: list[tuple[int, float]] = []
    timer = CollectionTimer(lambda generation, seconds: seen.append((generation, seconds)))
    timer.install()
    timer.install()  # once only
    try:
        gc.collect(0)
        gc.collect(2)
    finally:
        timer.remove()
    gc.collect(1)
    assert [generation for generation, _ in seen] == [0, 2]
    assert all(0 <= seconds < 5 for _, seconds in seen)


def test_the_pauses_are_on_the_metrics_page():
    metrics = Metrics()
    for generation, seconds in ((0, 0.0002), (0, 0.0004), (2, 0.09)):
        metrics.gc_paused(generation, seconds)
    values = samples(metrics.render([], {}))
    assert values['mastermind_gc_pause_seconds_count{generation="0"}'] == 2
    assert values['mastermind_gc_pause_seconds_bucket{generation="2",le="0.05"}'] == 0
    assert values['mastermind_gc_pause_seconds_bucket{generation="2",le="0.1"}'] == 1


def test_the_process_bot_freezes_its_start_up_and_a_test_bot_does_not(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    assert MastermindBot.from_settings(Settings.from_env(env_file=None)).freeze_after_start
    assert not MastermindBot(database=":memory:").freeze_after_start


async def _ready(bot: MastermindBot) -> None:
    """discord.py's READY event, as every shard's READY ends in."""
    bot.dispatch("ready")
    for _ in range(100):
        await asyncio.sleep(0)


async def test_the_bot_freezes_after_set_up_and_once_ready_and_times_collections(
        start_bot, caplog):
    caplog.set_level(logging.INFO, logger="bot.app")
    try:
        bot = await start_bot(freeze_after_start=True)  # logged in: set up, not connected
        at_setup = bot.frozen_at_setup
        assert at_setup > 1000 and gc.get_freeze_count() > at_setup // 2  # some freed since
        assert bot.frozen_at_ready == 0
        await _ready(bot)
        at_ready = bot.frozen_at_ready
        assert at_ready >= gc.get_freeze_count() > 0
        assert (f"garbage collector: {at_ready} objects of start-up frozen ({at_setup} after"
                f" set-up)") in caplog.text
        await _ready(bot)  # a second READY (shards reconnecting) freezes nothing more
        assert bot.frozen_at_ready == at_ready and caplog.text.count("objects of start") == 1
        gc.collect(0)
        values = samples(await bot.metrics_page())
        assert values['mastermind_gc_pause_seconds_count{generation="0"}'] >= 1
    finally:
        gc.unfreeze()  # the test process's objects collectable again


async def test_a_test_bot_leaves_the_collector_alone(start_bot):
    before = gc.get_freeze_count()
    bot = await start_bot()
    await _ready(bot)
    assert (bot.frozen_at_setup, bot.frozen_at_ready) == (0, 0)
    assert gc.get_freeze_count() == before
