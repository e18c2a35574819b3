"""``/mastermind settings``: refused without Manage Server, every setting honoured by the
commands, each change logged with who made it. Through discord.py's real dispatch, on
SQLite; every refusal's words, the log, the read-back by another process and the game
services honouring the settings run on both databases in ``tests/test_service_settings.py``."""

from __future__ import annotations

import contextlib

import dbtools
import discord
import pytest
from conftest import snapshot

from bot.features.settings.cog import SettingsCog
from engine import CLASSIC


def rows(db_path, sql, args=()):
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return conn.execute(sql, args).fetchall()


@pytest.fixture
def admin(fake_discord, world):
    return fake_discord.member(world.guild, fake_discord.user("admin"),
                               permissions=discord.Permissions(manage_guild=True))


async def settings(fake, bot, world, user, **options):
    result = await fake.slash(bot, "mastermind settings", user=user, channel=world.general,
                              guild=world.guild, **options)
    assert result.ephemeral  # the summary, or a refusal, is private
    return result


async def slash(fake, bot, world, command, user=None, channel=None, **options):
    return await fake.slash(bot, command, user=user or world.alice,
                            channel=channel or world.general, guild=world.guild, **options)


def fields(result) -> dict[str, str]:
    return {f["name"]: f["value"] for f in result.embed["fields"]}


async def test_members_without_manage_server_are_refused(fake_discord, start_bot, world,
                                                         db_path):
    bot = await start_bot()
    for user in (world.alice, world.mod):  # Manage Messages is not enough
        refused = await settings(fake_discord, bot, world, user, hints=False)
        assert "Manage Server" in refused.embed["description"]
    assert rows(db_path, "SELECT COUNT(*) FROM server_settings") == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM settings_log") == [(0,)]


async def test_the_summary_changes_nothing(fake_discord, start_bot, world, admin, db_path):
    bot = await start_bot()
    shown = await settings(fake_discord, bot, world, admin)
    assert shown.embed["description"].startswith("Nothing changed")
    assert fields(shown) == {
        "Hints (/mastermind hint)": "on",
        "Default rules for /mastermind new": CLASSIC.describe(),
        "Idle timeout": "24 hours (the bot's default)",
        "Games allowed in": "every channel",
        "Daily results (/daily share)": "posted when shared",
        "Language of public boards": "the server's own language (now English)",
        "Rating seasons": "monthly",
        "Rated games per pair a day": "3 a day",
        "Race time limit": "10 minutes",
    }
    assert rows(db_path, "SELECT COUNT(*) FROM settings_log") == [(0,)]


async def test_hints_off_is_honoured_and_logged(fake_discord, start_bot, world, admin,
                                                db_path):
    bot = await start_bot()
    changed = await settings(fake_discord, bot, world, admin, hints=False)
    assert changed.embed["description"] == "Changed: hints."
    assert f"<@{admin.id}> hints: on → off" in fields(changed)["Recent changes"]
    await slash(fake_discord, bot, world, "mastermind new")
    before = snapshot(db_path)
    refused = await slash(fake_discord, bot, world, "mastermind hint")
    assert refused.ephemeral and refused.embed["title"] == "Hints are off here"
    assert snapshot(db_path) == before
    assert rows(db_path, "SELECT COUNT(*) FROM hints") == [(0,)]
    assert rows(db_path, "SELECT user_id, name, old_value, new_value FROM settings_log") == [
        (admin.id, "hints", "on", "off")]
    await settings(fake_discord, bot, world, admin, hints=True)
    given = await slash(fake_discord, bot, world, "mastermind hint")
    assert not given.ephemeral and "Hint 1 of 3" in given.embed["title"]


async def test_default_rules_for_new_games(fake_discord, start_bot, world, admin, db_path):
    bot = await start_bot()
    await settings(fake_discord, bot, world, admin, pegs=5, colors=8, repeats=False)
    await slash(fake_discord, bot, world, "mastermind new")
    await slash(fake_discord, bot, world, "mastermind quit")
    await slash(fake_discord, bot, world, "mastermind new", pegs=4)  # a given option wins
    await slash(fake_discord, bot, world, "mastermind quit")
    await slash(fake_discord, bot, world, "challenge", channel=world.other)  # /challenge too
    assert rows(db_path, "SELECT kind, pegs, colors, repeats FROM games ORDER BY id") == [
        ("breaker", 5, 8, 0), ("breaker", 4, 8, 0), ("challenge", 5, 8, 0)]
    # Rules that can't work together are refused, and nothing changes.
    bad = await settings(fake_discord, bot, world, admin, pegs=8, colors=4)
    assert bad.embed["title"] == "That setting doesn't work"
    assert "Nothing changed" in bad.embed["description"]
    shown = await settings(fake_discord, bot, world, admin)
    assert "5 pegs" in fields(shown)["Default rules for /mastermind new"]


async def test_idle_timeout_per_server(fake_discord, start_bot, world, admin, wall_clock,
                                       db_path):
    bot = await start_bot()
    other = fake_discord.guild("Other Server")
    bea = fake_discord.member(other, fake_discord.user("bea"))
    there = next(iter(other.channels.values()))
    await settings(fake_discord, bot, world, admin, idle_hours=1.0)
    await slash(fake_discord, bot, world, "mastermind new")
    await fake_discord.slash(bot, "mastermind new", user=bea, channel=there, guild=other)
    wall_clock.advance(2 * 3600)
    gone = await slash(fake_discord, bot, world, "guess", code="1234")
    assert gone.ephemeral and "went 1 hour without a move" in gone.embed["description"]
    kept = await fake_discord.slash(bot, "guess", user=bea, channel=there, guild=other,
                                    code="1234")
    assert not kept.ephemeral  # the other server keeps the bot's 24 hours
    assert rows(db_path, "SELECT status FROM games ORDER BY id") == [("abandoned",),
                                                                      ("active",)]


async def test_channels_that_allow_games(fake_discord, start_bot, world, admin, db_path):
    bot = await start_bot()
    listed = await settings(fake_discord, bot, world, admin,
                            options={"allow_channel": world.general})
    assert fields(listed)["Games allowed in"] == f"<#{world.general.id}>"
    for command in ("mastermind new", "challenge", "match"):
        refused = await slash(fake_discord, bot, world, command, channel=world.other)
        # (/challenge defers first: its "thinking..." is replaced by the private answer)
        assert refused.message.ephemeral and refused.embed["title"] == "No games in this channel"
        assert f"<#{world.general.id}>" in refused.embed["description"]
    assert rows(db_path, "SELECT COUNT(*) FROM games") == [(0,)]
    assert not (await slash(fake_discord, bot, world, "mastermind new")).ephemeral
    await settings(fake_discord, bot, world, admin, all_channels=True)
    assert not (await slash(fake_discord, bot, world, "mastermind new",
                            channel=world.other)).ephemeral
    log = rows(db_path, "SELECT name, new_value FROM settings_log ORDER BY id")
    assert log == [("channels", f"<#{world.general.id}>"), ("channels", "every channel")]


async def test_daily_results_kept_private(fake_discord, start_bot, world, admin, db_path,
                                          wall_clock):
    from test_bot_daily import todays_code

    bot = await start_bot()
    await settings(fake_discord, bot, world, admin, daily_posts=False)
    await slash(fake_discord, bot, world, "daily play",
                guess=todays_code(db_path, wall_clock.now))
    shared = await slash(fake_discord, bot, world, "daily share")
    assert shared.ephemeral and "keeps daily results out of its channels" in shared.content
    await settings(fake_discord, bot, world, admin, daily_posts=True)
    assert not (await slash(fake_discord, bot, world, "daily share")).ephemeral


async def test_settings_survive_a_restart(fake_discord, start_bot, world, admin, db_path):
    bot = await start_bot()
    await settings(fake_discord, bot, world, admin, hints=False, pegs=3)
    await bot.close()
    bot = await start_bot()
    shown = await settings(fake_discord, bot, world, admin)
    assert fields(shown)["Hints (/mastermind hint)"] == "off"
    assert "3 pegs" in fields(shown)["Default rules for /mastermind new"]


async def test_a_change_through_another_process_applies_here(fake_discord, start_bot, world,
                                                             admin, db_path):
    """Two bots on one database (two shards' processes): one changes a setting, the other
    picks it up at its next re-read (every RELOAD_SECONDS)."""
    here = await start_bot()
    there = await start_bot()
    await fake_discord.slash(here, "mastermind new", user=world.alice, channel=world.general,
                             guild=world.guild)
    await settings(fake_discord, here, world, admin, hints=False)
    cog = there.get_cog(SettingsCog.__cog_name__)
    assert isinstance(cog, SettingsCog)
    await cog.reload()  # what its loop runs
    refused = await fake_discord.slash(there, "mastermind hint", user=world.alice,
                                       channel=world.general, guild=world.guild)
    assert refused.ephemeral and refused.embed["title"] == "Hints are off here"
