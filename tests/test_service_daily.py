"""The daily code at service level (``DailyService``), on a real database, SQLite and
PostgreSQL: one attempt per player per day on every server, the day's tallies and ranks per
server and everywhere, ties, the streak across midnight, bad and repeated guesses, and
forget-me. The private boards, the share grid and the buttons are in
``tests/test_bot_daily.py``."""

from __future__ import annotations

import datetime as dt

import pytest
from service_kit import action, rows, state, words

import bot.features.daily.render  # noqa: F401 (registers the daily's words)
from bot.core.errors import BadCode
from bot.features.daily.errors import DailyAlreadyPlayed, DailyRepeat
from bot.features.daily.render import leaderboard_embed
from bot.features.stats.render import stats_embed
from engine import format_code

ONE, TWO = 1001, 1002
ALICE, BOB, CAROL = 11, 12, 13
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol"}


def misses(secret: str) -> list[str]:
    return [c for c in ("1122", "3344", "5566", "1234") if c != secret]


async def daily(s, user: int, guild: int | None, code: str):
    return await s.daily.guess(user_id=user, user_name=NAMES[user], guild_id=guild, text=code,
                               action_id=action())


def todays(s) -> str:
    return format_code(s.daily.secret(s.daily.today()))


def to_next_midnight(wall_clock) -> None:
    now = dt.datetime.fromtimestamp(wall_clock.now, tz=dt.UTC)
    midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    wall_clock.advance((midnight - now).total_seconds() + 5)


async def test_two_players_two_servers(services, db_path):
    s = services
    secret, day = todays(s), s.daily.today()
    wrong = misses(secret)
    first = await daily(s, ALICE, ONE, wrong[0])
    assert not first.finished
    for code in (*wrong[:2], secret):  # carol, on the other server: 3 guesses
        carol = await daily(s, CAROL, TWO, code)
    assert carol.solved and len(carol.guesses) == 3
    won = await daily(s, ALICE, ONE, secret)  # the same code on every server
    assert won.solved and len(won.guesses) == 2
    here = await s.daily.standing(day, ONE, ALICE)
    everywhere = await s.daily.standing(day, None, ALICE)
    assert (here.solved, here.finished, here.rank) == (1, 1, 1)
    assert (everywhere.solved, everywhere.finished, everywhere.rank) == (2, 2, 1)
    footer = leaderboard_embed(here, "One").footer.text
    assert footer.startswith("1 of 1 solved · you are #1")

    # One attempt per day, on every server; nothing more is stored.
    before = state(db_path)
    for guild in (ONE, TWO):
        with pytest.raises(DailyAlreadyPlayed) as refused:
            await daily(s, ALICE, guild, wrong[1])
        assert words(refused.value)[0] == "Already played today"
    assert state(db_path) == before
    assert rows(db_path, "SELECT user_id, guild_id, status, guesses FROM daily_plays"
                " ORDER BY user_id") == [(ALICE, ONE, "won", 2), (CAROL, TWO, "won", 3)]

    # The day's leaderboards: per server, and everywhere (fewest guesses first).
    mine = leaderboard_embed(await s.daily.standing(day, ONE, BOB), "One").description
    assert "alice" in mine and "carol" not in mine
    ranked = leaderboard_embed(everywhere, "all servers").description.split("\n")
    assert "alice" in ranked[0] and "2 guesses" in ranked[0]
    assert "carol" in ranked[1] and "3 guesses" in ranked[1]


async def test_bad_and_repeated_guesses_change_nothing(services, db_path):
    s = services
    before = state(db_path)
    with pytest.raises(BadCode) as bad:
        await daily(s, ALICE, ONE, "12")
    title, message = words(bad.value)
    assert title == "That is not a valid code" and "/daily play guess:1123" in message
    assert state(db_path) == before
    code = misses(todays(s))[0]
    await daily(s, ALICE, ONE, code)
    before = state(db_path)
    with pytest.raises(DailyRepeat) as repeat:
        await daily(s, ALICE, ONE, code)
    assert words(repeat.value)[0] == "Already on your board"
    assert state(db_path) == before
    assert rows(db_path, "SELECT COUNT(*) FROM daily_guesses") == [(1,)]


async def test_ties_go_to_the_earlier_finish(services, wall_clock):
    s = services
    secret = todays(s)
    for user in (BOB, ALICE):  # bob finishes first, both in 2 guesses
        await daily(s, user, ONE, misses(secret)[0])
        await daily(s, user, ONE, secret)
        wall_clock.advance(60)
    standing = await s.daily.standing(s.daily.today(), ONE, ALICE)
    assert (standing.solved, standing.finished, standing.rank) == (2, 2, 2)
    assert [row.name for row in standing.rows] == ["bob", "alice"]


async def test_the_streak_crosses_midnight(services, db_path, wall_clock):
    s = services

    async def streak_words() -> str:
        embed = stats_embed(await s.stats.player(ALICE, "4x6"), "alice")
        return next(f.value for f in embed.fields if f.name == "Daily streak")

    for n in range(2):
        secret = todays(s)
        assert (await daily(s, ALICE, ONE, secret)).solved
        assert (await s.daily.streak(ALICE))[:2] == (n + 1, n + 1)
        assert (await streak_words()).startswith(f"{n + 1} {'day' if n == 0 else 'days'} now")
        to_next_midnight(wall_clock)  # a new day, a new code, a new attempt
    assert len(set(rows(db_path, "SELECT day FROM daily_plays"))) == 2
    # Once its day is over, a day's code is no secret: yesterday's is named.
    assert format_code(s.daily.yesterdays_secret()) == secret
    assert await streak_words() == "2 days now · 2 longest · 2 of 2 dailies solved"
    # Two days on without a daily, the streak is over (the longest stays).
    wall_clock.advance(2 * 86400)
    assert (await s.daily.streak(ALICE)) == (0, 2, 2, 2)
    assert (await streak_words()).startswith("0 days now · 2 longest")


async def test_forget_me_deletes_daily_plays(services, db_path):
    s = services
    secret = todays(s)
    for user in (ALICE, BOB):
        await daily(s, user, ONE, secret)
    opened = await s.breaker.new_game(guild_id=ONE, channel_id=5, user_id=ALICE,
                                      user_name="alice", rules=s.settings.default_rules(ONE),
                                      action_id=action())
    hint = s.hints.work_out(await s.hints.check(guild_id=ONE, channel_id=5))
    await s.hints.commit(opened.game, hint, user_id=ALICE, action_id=action())
    counts = await s.stats.forget(ALICE)
    assert counts["dailies"] == 1 and counts["hints"] == 1
    assert rows(db_path, "SELECT user_id FROM daily_plays") == [(BOB,)]
    assert rows(db_path, "SELECT COUNT(*) FROM daily_guesses WHERE user_id = ?",
                ALICE) == [(0,)]
    assert rows(db_path, "SELECT user_id FROM hints") == [(0,)]  # the hint stays, unlinked
    assert rows(db_path, "SELECT scope, plays FROM daily_tally ORDER BY scope") == [
        (0, 1), (ONE, 1)]
    standing = await s.daily.standing(s.daily.today(), ONE, BOB)
    assert [row.name for row in standing.rows] == ["bob"]
    assert (standing.solved, standing.finished, standing.rank) == (1, 1, 1)
