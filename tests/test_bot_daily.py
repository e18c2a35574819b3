"""``/daily``: two players on two servers, through discord.py's real dispatch. The tallies,
ranks, ties, streaks and forget-me's deletions are checked at service level on both
databases (``tests/test_service_daily.py``); these check what Discord shows, on SQLite (the
seed kept over a restart, a guess delivered twice and the tally's migration on both)."""

from __future__ import annotations

import contextlib
import datetime as dt
import re

import dbtools
import pytest
from conftest import without_drawn_pegs

from bot.features.daily.service import secret_for
from bot.ui.pegs import PEG_EMOJI, SHARE_BLACK, share_row
from engine import format_code, score


def rows(db_path, sql, args=()):
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return conn.execute(sql, args).fetchall()


def day_of(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, tz=dt.UTC).date().isoformat()


def todays_code(db_path, ts: float) -> str:
    """Worked out from the stored seed alone, as the bot must."""
    (seed,), = rows(db_path, "SELECT value FROM bot_settings WHERE name = 'daily_seed'")
    return format_code(secret_for(seed, day_of(ts)))


def misses(secret: str) -> list[str]:
    return [c for c in ("1122", "3344", "5566", "1234") if c != secret]


async def daily(fake, bot, user, guild, channel, command="daily play", **options):
    return await fake.slash(bot, command, user=user, guild=guild, channel=channel, **options)


async def test_two_players_two_servers(fake_discord, start_bot, world, db_path, wall_clock):
    bot = await start_bot()
    other = fake_discord.guild("Second Server")
    carol = fake_discord.member(other, fake_discord.user("carol"))
    alice_there = fake_discord.member(other, world.alice.user)
    there = next(iter(other.channels.values()))
    here = world.general
    secret = todays_code(db_path, wall_clock.now)
    day = day_of(wall_clock.now)

    empty = await daily(fake_discord, bot, world.alice, world.guild, here)
    assert empty.ephemeral and empty.embed["title"] == f"Daily code · {day}"
    assert "No guesses yet" in empty.embed["description"]

    wrong = misses(secret)
    first = await daily(fake_discord, bot, world.alice, world.guild, here, guess=wrong[0])
    assert first.ephemeral  # a private board: nobody else can see it
    assert "The code was" not in str(first.embed)
    assert secret not in without_drawn_pegs(first.embed["description"])

    for code in (*wrong[:2], secret):  # carol, on the other server: 3 guesses
        result = await daily(fake_discord, bot, carol, other, there, guess=code)
        assert result.ephemeral
    assert result.embed["title"] == f"Daily {day}: broken in 3 guesses!"
    assert secret in result.embed["description"]  # she finished: she sees the code
    assert result.message.custom_ids == [f"mma:d:{day}"]

    won = await daily(fake_discord, bot, world.alice, world.guild, here, guess=secret)
    assert won.embed["title"] == f"Daily {day}: broken in 2 guesses!"  # the same code
    fields = {f["name"]: f["value"] for f in won.embed["fields"]}
    assert fields["Today, this server"] == "1 of 1 solved · you are #1"
    assert fields["Today, all servers"] == "2 of 2 solved · you are #1"

    # One attempt per day, on every server.
    stored = rows(db_path, "SELECT COUNT(*) FROM daily_guesses")
    for user, guild, channel in ((world.alice, world.guild, here),
                                 (alice_there, other, there)):
        again = await daily(fake_discord, bot, user, guild, channel, guess=wrong[1])
        assert again.ephemeral and again.embed["title"] == "Already played today"
    assert rows(db_path, "SELECT COUNT(*) FROM daily_guesses") == stored
    assert rows(db_path, "SELECT user_id, guild_id, status, guesses FROM daily_plays"
                " ORDER BY user_id") == sorted([(world.alice.id, world.guild.id, "won", 2),
                                                (carol.id, other.id, "won", 3)])

    # The share grid: key pegs per row as emoji (hits first), no colours, no code.
    shared = await daily(fake_discord, bot, world.alice, world.guild, here, "daily share")
    assert not shared.ephemeral
    lines = shared.content.split("\n")
    assert lines[0].startswith(f"**Mastermind daily {day}** · 2/10")
    assert lines[1:] == [share_row(score(secret, wrong[0]), 4), SHARE_BLACK * 4]
    assert not any(e in shared.content for e in PEG_EMOJI) and secret not in lines[1]
    assert not re.search(r"\d", "".join(lines[1:]))

    # Leaderboards: per server, and everywhere (fewest guesses first).
    mine = await daily(fake_discord, bot, world.bob, world.guild, here, "daily leaderboard")
    assert "alice" in mine.embed["description"] and "carol" not in mine.embed["description"]
    everywhere = await daily(fake_discord, bot, world.bob, world.guild, here,
                             "daily leaderboard", scope="global")
    ranked = everywhere.embed["description"].split("\n")
    assert "alice" in ranked[0] and "2 guesses" in ranked[0]
    assert "carol" in ranked[1] and "3 guesses" in ranked[1]

    # Bob hasn't played: nothing of today's code for him.
    refused = await daily(fake_discord, bot, world.bob, world.guild, here, "daily share")
    assert refused.ephemeral and refused.embed["title"] == "Finish the daily first"
    forged = fake_discord.old_message(here, [f"mma:d:{day}"])
    peek = await fake_discord.click(bot, forged, f"mma:d:{day}", user=world.bob)
    assert peek.ephemeral and peek.embed["title"] == "Finish the daily first"
    analysed = await fake_discord.click(bot, won.message, label="Analyse", user=world.alice)
    assert analysed.ephemeral and analysed.embed["title"] == f"Analysis · Daily {day} · 4x6"
    assert len(analysed.embed["description"].split("\n")) == 2


async def test_the_streak_crosses_midnight(fake_discord, start_bot, world, db_path,
                                           wall_clock):
    bot = await start_bot()
    here = world.general
    for n in range(2):
        secret = todays_code(db_path, wall_clock.now)
        result = await daily(fake_discord, bot, world.alice, world.guild, here, guess=secret)
        assert "broken in 1 guess" in result.embed["title"]
        stats = await fake_discord.slash(bot, "stats", user=world.alice, guild=world.guild,
                                         channel=here, options={"user": None})
        fields = {f["name"]: f["value"] for f in stats.embed["fields"]}
        assert fields["Daily streak"].startswith(f"{n + 1} {'day' if n == 0 else 'days'} now")
        # To just after the next UTC midnight: a new day, a new code, a new attempt.
        now = dt.datetime.fromtimestamp(wall_clock.now, tz=dt.UTC)
        midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(),
                                       tzinfo=dt.UTC)
        wall_clock.advance((midnight - now).total_seconds() + 5)
    assert len({d for (d,) in rows(db_path, "SELECT day FROM daily_plays")}) == 2
    # Once its day is over, a day's code is no secret: today's board names yesterday's.
    board = await daily(fake_discord, bot, world.bob, world.guild, here)
    fields = {f["name"]: f["value"] for f in board.embed["fields"]}
    assert fields["Yesterday's code"].endswith(f"`{secret}`")
    fields = {f["name"]: f["value"] for f in (await fake_discord.slash(
        bot, "stats", user=world.alice, guild=world.guild, channel=here,
        options={"user": None})).embed["fields"]}
    assert fields["Daily streak"] == "2 days now · 2 longest · 2 of 2 dailies solved"
    # Two days on without a daily, the streak is over (the longest stays).
    wall_clock.advance(2 * 86400)
    fields = {f["name"]: f["value"] for f in (await fake_discord.slash(
        bot, "stats", user=world.alice, guild=world.guild, channel=here,
        options={"user": None})).embed["fields"]}
    assert fields["Daily streak"].startswith("0 days now · 2 longest")


@pytest.mark.both_databases
async def test_the_seed_is_drawn_once_and_kept(fake_discord, start_bot, db_path):
    await start_bot()
    first = rows(db_path, "SELECT name, value FROM bot_settings ORDER BY name")
    await start_bot()  # a restart keeps it
    assert rows(db_path, "SELECT name, value FROM bot_settings ORDER BY name") == first
    assert len(dict(first)["daily_seed"]) == 64


async def test_a_fresh_database_names_no_code_for_the_day_before_the_daily(
        fake_discord, start_bot, world, db_path, wall_clock):
    """Issue 20: the first day's board showed "Yesterday's code" for a day with no daily."""
    bot = await start_bot()
    first_day = todays_code(db_path, wall_clock.now)
    board = await daily(fake_discord, bot, world.alice, world.guild, world.general)
    assert "Yesterday's code" not in [f["name"] for f in board.embed.get("fields", [])]
    now = dt.datetime.fromtimestamp(wall_clock.now, tz=dt.UTC)
    midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    wall_clock.advance((midnight - now).total_seconds() + 5)
    bot = await start_bot()  # a restart on the second day keeps the first day
    board = await daily(fake_discord, bot, world.alice, world.guild, world.general)
    fields = {f["name"]: f["value"] for f in board.embed["fields"]}
    assert fields["Yesterday's code"].endswith(f"`{first_day}`")


async def test_bad_daily_guesses_change_nothing(fake_discord, start_bot, world, db_path,
                                                wall_clock):
    bot = await start_bot()
    bad = await daily(fake_discord, bot, world.alice, world.guild, world.general, guess="12")
    assert bad.ephemeral and bad.embed["title"] == "That is not a valid code"
    assert "/daily play guess:1123" in bad.embed["description"]
    code = misses(todays_code(db_path, wall_clock.now))[0]
    await daily(fake_discord, bot, world.alice, world.guild, world.general, guess=code)
    repeat = await daily(fake_discord, bot, world.alice, world.guild, world.general, guess=code)
    assert repeat.ephemeral and repeat.embed["title"] == "Already on your board"
    assert rows(db_path, "SELECT COUNT(*) FROM daily_guesses") == [(1,)]


@pytest.mark.both_databases
@pytest.mark.new_database  # it migrates the database itself, step by step
async def test_the_tally_is_built_from_plays_stored_before_it(db_path, tmp_path):
    """Migration 011 counts the plays a version-10 database already holds."""
    import shutil

    from bot.store import Database

    old = tmp_path / "up_to_010"
    old.mkdir()
    for path in dbtools.migrations_dir(db_path).glob("*.sql"):
        if int(path.name[:3]) <= 10:
            shutil.copy(path, old)
    db = await Database.open(db_path, migrations=old)
    async with db.transaction() as conn:
        for play in [(1, 10, "won", 1, 4, 5.0), (2, 10, "won", 1, 4, 6.0),
                     (3, 20, "lost", 0, 10, 7.0), (4, 20, "active", 0, 2, None)]:
            await conn.execute(
                "INSERT INTO daily_plays (day, user_id, guild_id, status, solved, guesses,"
                " started_at, ended_at) VALUES ('2026-11-20', ?, ?, ?, ?, ?, 1.0, ?)", play)
    await db.close()
    db = await Database.open(db_path)
    await db.close()
    assert rows(db_path, "SELECT scope, solved, guesses, plays FROM daily_tally"
                " ORDER BY scope, solved, guesses") == [
        (0, 0, 10, 1), (0, 1, 4, 2), (10, 1, 4, 2), (20, 0, 10, 1)]


async def test_ties_go_to_the_earlier_finish(fake_discord, start_bot, world, db_path,
                                             wall_clock):
    bot = await start_bot()
    secret = todays_code(db_path, wall_clock.now)
    miss = misses(secret)[0]
    for user in (world.bob, world.alice):  # bob finishes first, both in 2 guesses
        await daily(fake_discord, bot, user, world.guild, world.general, guess=miss)
        done = await daily(fake_discord, bot, user, world.guild, world.general, guess=secret)
        wall_clock.advance(60)
    fields = {f["name"]: f["value"] for f in done.embed["fields"]}
    assert fields["Today, this server"] == "2 of 2 solved · you are #2"
    board = await daily(fake_discord, bot, world.mod, world.guild, world.general,
                        "daily leaderboard")
    names = [line.split("**")[1] for line in board.embed["description"].split("\n")]
    assert names == ["bob", "alice"]


@pytest.mark.both_databases
async def test_a_daily_guess_delivered_twice_is_stored_once(fake_discord, start_bot, world,
                                                            db_path, wall_clock):
    bot = await start_bot()
    code = misses(todays_code(db_path, wall_clock.now))[0]
    first = await daily(fake_discord, bot, world.alice, world.guild, world.general, guess=code)
    fake_discord.expect_violation(40060)  # Discord refuses the second answer
    await fake_discord.redeliver(bot, first)
    assert rows(db_path, "SELECT turn, code FROM daily_guesses") == [(1, code)]


async def test_forget_me_deletes_daily_plays(fake_discord, start_bot, world, db_path,
                                             wall_clock):
    bot = await start_bot()
    secret = todays_code(db_path, wall_clock.now)
    for user in (world.alice, world.bob):
        await daily(fake_discord, bot, user, world.guild, world.general, guess=secret)
    await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                             guild=world.guild)
    await fake_discord.slash(bot, "mastermind hint", user=world.alice, channel=world.general,
                             guild=world.guild)
    asked = await fake_discord.slash(bot, "mastermind forget-me", user=world.alice,
                                     channel=world.general, guild=world.guild)
    assert "daily plays" in asked.embed["description"]
    await fake_discord.click(bot, asked.message, f"mmf:yes:{world.alice.id}", user=world.alice)
    assert rows(db_path, "SELECT user_id FROM daily_plays") == [(world.bob.id,)]
    assert rows(db_path, "SELECT COUNT(*) FROM daily_guesses WHERE user_id = ?",
                (world.alice.id,)) == [(0,)]
    assert rows(db_path, "SELECT user_id FROM hints") == [(0,)]
    assert rows(db_path, "SELECT scope, plays FROM daily_tally ORDER BY scope") == [
        (0, 1), (world.guild.id, 1)]
    board = await daily(fake_discord, bot, world.bob, world.guild, world.general,
                        "daily leaderboard")
    assert "alice" not in board.embed["description"]
    assert board.embed["footer"]["text"].startswith("1 of 1 solved · you are #1")
