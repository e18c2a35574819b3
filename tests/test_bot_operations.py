"""Settings for running at scale (SHARD_COUNT, SHARD_IDS, METRICS_PORT), how a database is
named in logs, and what the bot counts for its metrics page. The processes themselves are
in test_bot_process_shards.py."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

import discord
import pytest
from conftest import secret_of
from dbtools import connect
from test_bot_board import misses
from test_bot_process_shards import samples, total

from bot.app import MastermindBot
from bot.core.config import ConfigError, Settings, describe_database
from bot.core.metrics import MAX_NAMES, Metrics

ROOT = Path(__file__).resolve().parent.parent
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


def test_metrics_page_counts_by_name_with_buckets_and_the_process():
    metrics = Metrics()
    for kind, name in (("command", "guess"), ("command", "guess"), ("button", "mmc:r")):
        metrics.interaction_received(kind, name)
    for seconds in (0.003, 0.07, 20.0):
        metrics.reply_took(seconds, "command", "guess")
    metrics.error("discord")
    metrics.mistake("BadCode")
    metrics.solver_took("5x8", 0.2)
    metrics.rate_limited("global", "rest")
    metrics.rest_waited("budget", 0.3)
    page = metrics.render([(3, 0.042), (2, float("inf"))], {2: 5, 3: 0},
                          {"breaker": 2, "challenge": 0, "match": 0, "daily": 1})
    values = samples(page)
    assert values['mastermind_interactions_total{kind="command",name="guess"}'] == 2
    assert values['mastermind_interactions_total{kind="button",name="mmc:r"}'] == 1
    assert "# TYPE mastermind_reply_seconds histogram" in page
    def bucket(le: str) -> float:
        return values[f'mastermind_reply_seconds_bucket{{kind="command",le="{le}",name="guess"}}']

    assert [bucket(le) for le in ("0.005", "0.05", "0.1", "10.0", "+Inf")] == [1, 1, 2, 2, 3]
    guess = 'kind="command",name="guess"'
    assert values[f"mastermind_reply_seconds_count{{{guess}}}"] == 3
    assert values[f"mastermind_reply_seconds_sum{{{guess}}}"] == pytest.approx(20.073)
    assert values['mastermind_interaction_errors_total{kind="discord"}'] == 1
    assert values['mastermind_interaction_errors_total{kind="bug"}'] == 0
    assert values['mastermind_player_mistakes_total{error="BadCode"}'] == 1
    assert values['mastermind_solver_seconds_count{size="5x8"}'] == 1
    assert values['mastermind_rest_429_total{route="rest",scope="global"}'] == 1
    assert values['mastermind_rest_wait_seconds_bucket{le="0.5",reason="budget"}'] == 1
    assert values['mastermind_gateway_latency_seconds{shard="3"}'] == 0.042
    assert values['mastermind_gateway_latency_seconds{shard="2"}'] == float("inf")
    assert values['mastermind_guilds{shard="2"}'] == 5
    assert values['mastermind_games_running{kind="daily"}'] == 1
    assert values["process_cpu_seconds_total"] >= 0
    assert not any(key.endswith("_created") for key in values)


def test_names_on_the_page_stay_bounded():
    """A forged custom_id per click must not grow the page: past MAX_NAMES, ``other``."""
    metrics = Metrics()
    for n in range(MAX_NAMES + 50):
        metrics.interaction_received("button", f"forged{n}")
    values = samples(metrics.render([], {}))
    names = [k for k in values if k.startswith('mastermind_interactions_total{kind="button"')]
    assert len(names) == MAX_NAMES + 1
    assert values['mastermind_interactions_total{kind="button",name="other"}'] == 50


@pytest.mark.both_databases
async def test_the_bot_counts_interactions_replies_and_errors(fake_discord, start_bot, world,
                                                             db_path):
    """Through discord.py's own dispatch, with the shards of a sharded process."""
    bot = await start_bot(shard_count=4, shard_ids=(2, 3))
    await fake_discord.sync(bot)  # as the process running shard 0 does
    guild, channel = world.guild, world.general

    async def guess(code: str, **kwargs):
        return await fake_discord.slash(bot, "guess", user=world.alice, channel=channel,
                                        guild=guild, code=code, **kwargs)

    await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=channel,
                             guild=guild)
    # two codes that are not the secret: the game still runs when the page counts it (the
    # 1111 and 2222 this test guessed before won it for 2 secrets in 1,296)
    first, second = misses(secret_of(db_path, channel.id), 2)
    assert not (await guess(first)).ephemeral
    assert (await guess("9999")).ephemeral  # the player's mistake: not an error
    fake_discord.state.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 404, 10062,
                                 "Unknown interaction", times=2)
    fake_discord.expect_error(discord.NotFound)
    await guess(second, expect_response=False)
    values = samples(await bot.metrics_page())
    assert total(values, "mastermind_interactions_total") == 4
    assert total(values, "mastermind_interactions_total", kind="command", name="guess") == 3
    assert total(values, "mastermind_reply_seconds_count") == 4
    assert values['mastermind_interaction_errors_total{kind="expired"}'] == 1
    assert values['mastermind_interaction_errors_total{kind="bug"}'] == 0
    assert values['mastermind_player_mistakes_total{error="BadCode"}'] == 1
    assert total(values, "mastermind_db_lock_wait_seconds_count") >= 2  # new game, a guess
    assert not any(k.startswith("mastermind_gateway_latency") for k in values)  # not connected
    assert {k: v for k, v in values.items() if k.startswith("mastermind_games_running")} == {
        f'mastermind_games_running{{kind="{kind}"}}': n
        for kind, n in (("breaker", 1), ("challenge", 0), ("match", 0), ("daily", 0))}


@pytest.mark.both_databases
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
    assert total(values, "mastermind_interactions_total") == 1
    assert not any(k.startswith("mastermind_games_running") for k in values)
    assert "metrics: games running not read from the database" in caplog.text
    values = samples(await bot.metrics_page())
    assert values['mastermind_games_running{kind="breaker"}'] == 1


def test_the_grafana_dashboard_reads_only_metrics_the_bot_serves():
    """docs/grafana/mastermind.json: every metric its queries name is on the page."""
    dashboard = json.loads((ROOT / "docs" / "grafana" / "mastermind.json").read_text())
    queries = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", ())]
    named = set(re.findall(r"\b(?:mastermind|process)_[a-z0-9_]+", " ".join(queries)))
    page = Metrics().render([(0, 0.05)], {0: 1}, {"breaker": 0})
    families = dict(re.findall(r"^# TYPE (\S+) (\S+)$", page, re.MULTILINE))
    suffixes = {"histogram": ("_bucket", "_sum", "_count"), "counter": ("", "_total")}
    served = {family + suffix for family, kind in families.items()
              for suffix in suffixes.get(kind, ("",))}
    assert len(queries) >= 15 and named and named <= served, named - served
