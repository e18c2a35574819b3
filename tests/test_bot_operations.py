"""Settings for running at scale (SHARD_COUNT, SHARD_IDS, METRICS_PORT), how a database is
named in logs, and what the bot counts for its metrics page. The processes themselves are
in test_bot_process_shards.py."""

from __future__ import annotations

import contextlib
import re

import discord
import pytest
from dbtools import connect
from test_bot_process_shards import samples

from bot.app import MastermindBot
from bot.core.config import ConfigError, Settings, describe_database
from bot.core.metrics import Metrics

SCALE_VARIABLES = ("DISCORD_TOKEN", "SHARD_COUNT", "SHARD_IDS", "METRICS_PORT")


@pytest.fixture
def env(monkeypatch):
    for name in SCALE_VARIABLES:
        monkeypatch.setenv(name, "")  # recorded, so the test's writes are undone
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")

    def settings(**values: str) -> Settings:
        for name, value in values.items():
            monkeypatch.setenv(name, value)
        return Settings.from_env(env_file=None)

    return settings


def test_no_shard_settings_means_one_connection_as_today(env):
    settings = env()
    assert (settings.shard_count, settings.shard_ids, settings.metrics_port) == (None, None, None)
    bot = MastermindBot.from_settings(settings)
    assert bot.shard_count is None and bot.shard_ids is None  # discord.py asks Discord
    assert bot.serving() == "the shards Discord recommends (SHARD_COUNT not set)"


def test_shard_count_and_ids(env):
    settings = env(SHARD_COUNT="8", SHARD_IDS="6, 0-2", METRICS_PORT="9108")
    assert (settings.shard_count, settings.shard_ids, settings.metrics_port) == (
        8, (0, 1, 2, 6), 9108)
    bot = MastermindBot.from_settings(settings)
    assert (bot.shard_count, bot.shard_ids) == (8, [0, 1, 2, 6])
    assert bot.serving() == "shards 0, 1, 2, 6 of 8"
    assert MastermindBot.from_settings(env(SHARD_IDS="")).serving() == (
        "shards 0, 1, 2, 3, 4, 5, 6, 7 of 8")
    assert "abc.def.ghi" not in repr(settings)


@pytest.mark.parametrize(("values", "says"), [
    ({"SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number from 1 to 4096, got '0'"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "3,4"}, "SHARD_IDS must list shard numbers from 0 to 3"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "1-"}, "like 0,1 or 0-3"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "a"}, "got 'a'"),
    ({"METRICS_PORT": "http"}, "METRICS_PORT must be a port number"),
    ({"METRICS_PORT": "70000"}, "METRICS_PORT must be a port number"),
])
def test_bad_scale_settings_say_what_to_write(env, values, says):
    with pytest.raises(ConfigError, match=re.escape(says)):
        env(**values)


def test_a_database_url_is_logged_without_its_password():
    assert describe_database("data/mastermind.sqlite3") == "data/mastermind.sqlite3"
    assert describe_database("sqlite:///data/m.sqlite3") == "sqlite:///data/m.sqlite3"
    assert describe_database("postgresql://bot:s3cr:et@db.local:5432/mm") == (
        "postgresql://bot:***@db.local:5432/mm")
    assert describe_database("postgresql://bot:p@ss@db/mm") == "postgresql://bot:***@db/mm"
    assert describe_database("postgresql://bot@db/mm") == "postgresql://bot@db/mm"


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_metrics_page_counts_rates_and_buckets():
    clock = Clock(100.2)
    metrics = Metrics(clock)
    for now in (100.2, 100.5, 101.1, 150.0):
        clock.now = now
        metrics.interaction_received()
    for seconds in (0.003, 0.07, 20.0):
        metrics.reply_took(seconds)
    metrics.error("discord")
    clock.now = 161.5  # the last full minute is seconds 101 to 160
    values = samples(metrics.render([(3, 0.042), (2, float("inf"))]))
    assert values["mastermind_interactions_total"] == 4
    assert values["mastermind_interactions_per_second"] == pytest.approx(2 / 60)
    assert values['mastermind_reply_seconds_bucket{le="0.005"}'] == 1
    assert values['mastermind_reply_seconds_bucket{le="0.05"}'] == 1
    assert values['mastermind_reply_seconds_bucket{le="0.1"}'] == 2
    assert values['mastermind_reply_seconds_bucket{le="10"}'] == 2
    assert values['mastermind_reply_seconds_bucket{le="+Inf"}'] == 3
    assert values["mastermind_reply_seconds_count"] == 3
    assert values["mastermind_reply_seconds_sum"] == pytest.approx(20.073)
    assert values['mastermind_interaction_errors_total{kind="discord"}'] == 1
    assert values['mastermind_interaction_errors_total{kind="bug"}'] == 0
    assert values['mastermind_gateway_latency_seconds{shard="3"}'] == 0.042
    assert values['mastermind_gateway_latency_seconds{shard="2"}'] == float("inf")


def test_rate_slots_stay_bounded():
    clock = Clock(0.0)
    metrics = Metrics(clock)
    for second in range(10_000):
        clock.now = float(second)
        metrics.interaction_received()
    assert len(metrics._slots) <= 62
    assert metrics.per_second() == 1.0


async def test_the_bot_counts_interactions_replies_and_errors(fake_discord, start_bot, world):
    """Through discord.py's own dispatch, with the shards of a sharded process."""
    bot = await start_bot(shard_count=4, shard_ids=(2, 3))
    guild, channel = world.guild, world.general

    async def guess(code: str, **kwargs):
        return await fake_discord.slash(bot, "guess", user=world.alice, channel=channel,
                                        guild=guild, code=code, **kwargs)

    await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=channel,
                             guild=guild)
    assert not (await guess("1111")).ephemeral
    assert (await guess("9999")).ephemeral  # the player's mistake: not an error
    fake_discord.state.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 404, 10062,
                                 "Unknown interaction", times=2)
    fake_discord.expect_error(discord.NotFound)
    await guess("2222", expect_response=False)
    values = samples(await bot.metrics_page())
    assert values["mastermind_interactions_total"] == 4
    assert values["mastermind_reply_seconds_count"] == 4
    assert values['mastermind_interaction_errors_total{kind="expired"}'] == 1
    assert values['mastermind_interaction_errors_total{kind="bug"}'] == 0
    assert not any(k.startswith("mastermind_gateway_latency") for k in values)  # not connected
    assert {k: v for k, v in values.items() if k.startswith("mastermind_games_running")} == {
        f'mastermind_games_running{{kind="{kind}"}}': n
        for kind, n in (("breaker", 1), ("challenge", 0), ("match", 0), ("daily", 0))}


async def test_a_scrape_the_database_cannot_answer_still_shows_the_process_counts(
        fake_discord, start_bot, world, db_path, caplog):
    """The games running are read at each scrape; when that read fails (here: a table the
    query needs is gone for a moment) the page leaves them out, says so in a WARNING, and
    shows the rest."""
    bot = await start_bot()
    await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                             guild=world.guild)
    with contextlib.closing(connect(db_path)) as conn:
        conn.execute("ALTER TABLE daily_plays RENAME TO daily_plays_away")
        conn.commit()
        try:
            values = samples(await bot.metrics_page())
        finally:
            conn.execute("ALTER TABLE daily_plays_away RENAME TO daily_plays")
            conn.commit()
    assert values["mastermind_interactions_total"] == 1
    assert not any(k.startswith("mastermind_games_running") for k in values)
    assert "metrics: games running not read from the database" in caplog.text
    values = samples(await bot.metrics_page())
    assert values['mastermind_games_running{kind="breaker"}'] == 1
