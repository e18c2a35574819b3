"""Server settings at service level (``SettingsService`` and the services that consult it),
on a real database, SQLite and PostgreSQL: changes that can't work refused with their words
and nothing stored, each change logged with who made it, read back by another process, and
honoured by the game services (the idle timeout, the channels that allow games). The command
and its summary are in ``tests/test_bot_settings.py``."""

from __future__ import annotations

import pytest
from service_kit import action, build, rows, state, words

import bot.features.settings.render  # noqa: F401 (registers the settings' words)
from bot.core.enums import GameStatus, Seasons, Setting
from bot.core.errors import NoGameRunning
from bot.features.settings.errors import BadSetting, ChannelNotAllowed
from bot.features.settings.service import MAX_CHANNELS, Changes
from engine import Rules, format_code

ONE, TWO, ADMIN, ALICE = 1001, 1002, 9, 1
HERE, THERE, OTHER = 501, 502, 503  # ONE's #general and #other; TWO's channel
CLASSIC = Rules(4, 6, 10, True)


async def change(s, guild: int = ONE, **asked):
    return await s.settings.change(guild, ADMIN, Changes(**asked), action_id=action())


async def new_game(s, guild: int, channel: int):
    return (await s.breaker.new_game(guild_id=guild, channel_id=channel, user_id=ALICE,
                                     user_name="alice", rules=s.settings.default_rules(guild),
                                     action_id=action())).game


@pytest.mark.parametrize(("asked", "reason"), [
    ({"pegs": 8, "colors": 4, "repeats": False}, "Those default rules don't work"),
    ({"disallow_channel": OTHER}, "That channel isn't on the list: games are allowed in "
                                  "every channel"),
    ({"language": "xx"}, "There is no language 'xx'"),
    ({"pair_cap": 0}, "0 is out of range: give a number from 1 to 20"),
    ({"race_minutes": 61}, "61 is out of range: give a number from 2 to 60"),
])
async def test_changes_that_cant_work_are_refused(services, db_path, asked, reason):
    before = state(db_path)
    with pytest.raises(BadSetting) as refused:
        await change(services, **asked)
    title, message = words(refused.value)
    assert title == "That setting doesn't work"
    assert message.startswith(reason) and message.endswith("Nothing changed.")
    assert state(db_path) == before
    assert services.settings.get(ONE) == services.settings.get(None)  # still the defaults


async def test_a_channel_list_is_at_most_25_long(services, db_path):
    for channel in range(MAX_CHANNELS):
        await change(services, allow_channel=10_000 + channel)
    before = state(db_path)
    with pytest.raises(BadSetting) as refused:
        await change(services, allow_channel=HERE)
    assert words(refused.value)[1] == "At most 25 channels can be listed. Nothing changed."
    assert state(db_path) == before


async def test_each_change_is_logged_and_read_back_by_another_process(services, db_path):
    s = services
    after, changed = await change(s, hints=False, pegs=5, colors=8, repeats=False)
    assert not after.hints and after.rules == Rules(5, 8, 10, False)
    assert [str(name) for name in changed] == ["hints", "rules"]
    _, nothing = await change(s, hints=False)  # the same again: nothing changes, no log
    assert nothing == []
    assert rows(db_path, "SELECT user_id, name, old_value, new_value FROM settings_log"
                " ORDER BY id") == [(ADMIN, "hints", "on", "off"),
                                    (ADMIN, "rules", CLASSIC.describe(),
                                     Rules(5, 8, 10, False).describe())]
    there = await build(s.db, s.clock)  # another process on the same database
    assert not there.settings.hints_allowed(ONE)
    assert there.settings.default_rules(ONE) == Rules(5, 8, 10, False)
    await change(s, hints=True)
    assert not there.settings.hints_allowed(ONE)  # until its next re-read
    await there.settings.load()
    assert there.settings.hints_allowed(ONE)
    assert [c.name for c in await there.settings.recent(ONE)][:1] == ["hints"]


async def test_the_idle_timeout_is_per_server(services, db_path, wall_clock):
    s = services
    await change(s, idle_hours=1.0)
    await new_game(s, ONE, HERE)
    secret = format_code((await new_game(s, TWO, THERE)).secret)
    wall_clock.advance(2 * 3600)
    with pytest.raises(NoGameRunning) as gone:
        await s.breaker.guess(channel_id=HERE, user_id=ALICE, user_name="alice", text="1234",
                              action_id=action())
    assert "went 1 hour without a move" in words(gone.value)[1]
    miss = str(int(secret[0]) % 6 + 1) + secret[1:]
    kept = await s.breaker.guess(channel_id=THERE, user_id=ALICE, user_name="alice",
                                 text=miss, action_id=action())
    assert kept.status is GameStatus.ACTIVE  # the other server keeps the bot's 24 hours
    assert rows(db_path, "SELECT status FROM games ORDER BY id") == [("abandoned",),
                                                                      ("active",)]


async def test_games_start_only_in_the_channels_allowed(services, db_path):
    s = services
    await change(s, allow_channel=HERE)
    before = state(db_path)
    starts = [
        new_game(s, ONE, OTHER),
        s.challenges.start(guild_id=ONE, channel_id=OTHER, user_id=ALICE, user_name="alice",
                           rules=CLASSIC, strategy="knuth", action_id=action()),
        s.matches.start(guild_id=ONE, channel_id=OTHER, user_id=ALICE, user_name="alice",
                        rules=CLASSIC, rounds=1, strategy="knuth", opponent=None,
                        action_id=action()),
    ]
    for start in starts:
        with pytest.raises(ChannelNotAllowed) as refused:
            await start
        title, message = words(refused.value)
        assert title == "No games in this channel" and f"<#{HERE}>" in message
    assert state(db_path) == before
    assert (await new_game(s, ONE, HERE)).channel_id == HERE
    await change(s, all_channels=True)
    assert (await new_game(s, ONE, OTHER)).channel_id == OTHER
    assert rows(db_path, "SELECT name, new_value FROM settings_log ORDER BY id") == [
        ("channels", f"<#{HERE}>"), ("channels", "every channel")]


async def test_the_ratings_and_races_settings(services, db_path):
    """Seasons, the daily cap per pair and the race time limit: stored, logged, read by the
    ratings and the race (through the small functions), defaults while unset."""
    assert (services.settings.seasons(ONE), services.settings.pair_cap(ONE),
            services.settings.race_seconds(ONE)) == (Seasons.MONTHLY, 3, 600.0)
    _, changed = await change(services, seasons=Seasons.QUARTERLY, pair_cap=5, race_minutes=2)
    assert changed == [Setting.SEASONS, Setting.PAIR_CAP, Setting.RACE_TIME]
    assert (services.settings.seasons(ONE), services.settings.pair_cap(ONE),
            services.settings.race_seconds(ONE)) == (Seasons.QUARTERLY, 5, 120.0)
    assert services.ratings.season(ONE, 1_795_000_000.0) == "2026-Q4"
    assert rows(db_path, "SELECT seasons, pair_cap, race_minutes FROM server_settings") == [
        ("quarterly", 5, 2)]
    assert rows(db_path, "SELECT name, old_value, new_value FROM settings_log ORDER BY name"
                ) == [("race time limit", "10 minutes", "2 minutes"),
                      ("rated games per pair a day", "3 a day", "5 a day"),
                      ("rating seasons", "monthly", "quarterly")]
    other = await build(services.db, services.clock)  # another process reads them
    assert other.settings.pair_cap(ONE) == 5 and other.settings.seasons(TWO) == Seasons.MONTHLY
