"""``/mastermind hint`` through the real dispatch: each level, recorded, the board marked,
and a hinted crack kept off the leaderboards but counted in /stats. The refusals and the
hinted crack's SQL on both databases: ``tests/test_service_hints.py``."""

from __future__ import annotations

import contextlib

import dbtools
import discord
import pytest
from conftest import secret_of, snapshot

from engine import CLASSIC, PALETTE, Rules, code_from_digits, score, score_codes
from engine.hints import facts

#: Real seconds the harness waits for a deferred 8x9 hint to be followed up.
BIG_HINT_SECONDS = 60.0


def rows(db_path, sql):
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return conn.execute(sql).fetchall()


async def slash(fake, bot, world, command, user=None, timeout=None, **options):
    return await fake.slash(bot, command, user=user or world.alice, channel=world.general,
                            guild=world.guild, timeout=timeout, **options)


def wrong(secret: str, first: str = "1122") -> str:
    return first if first != secret else "3344"


async def test_three_levels_recorded_and_shown(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new")
    secret = secret_of(db_path, world.general.id)
    played = wrong(secret)
    await slash(fake_discord, bot, world, "guess", code=played)
    turns = [(code_from_digits(played), score(secret, played))]
    truth = facts(CLASSIC, turns, pick=1)

    first = await slash(fake_discord, bot, world, "mastermind hint", user=world.bob)
    assert not first.ephemeral  # the whole channel sees it
    assert first.embed["title"].endswith("Hint 1 of 3: How many codes are left")
    assert f"{truth.count} codes still fit every reply." in first.embed["description"]
    assert f"<@{world.bob.id}>" in first.embed["description"]

    second = await slash(fake_discord, bot, world, "mastermind hint")
    assert "Hint 2 of 3" in second.embed["title"]
    text = second.embed["description"]
    if truth.surely_in:
        colour = truth.surely_in[0]
        assert f"olour {colour} ({PALETTE[colour - 1].name}) is surely in the code" in text
        assert str(colour) in secret
    elif truth.surely_out:
        colour = truth.surely_out[0]
        assert f"olour {colour} ({PALETTE[colour - 1].name}) is surely not in the code" in text
        assert str(colour) not in secret
    else:
        likeliest = max(range(6), key=lambda c: truth.containing[c])
        assert (f"the likeliest is colour {likeliest + 1} "
                f"({PALETTE[likeliest].name}): it is in {truth.containing[likeliest]} of the "
                f"{truth.count} codes that fit") in text

    third = await slash(fake_discord, bot, world, "mastermind hint")
    assert "Hint 3 of 3" in third.embed["title"]
    fitting = third.embed["description"].split("`")[1]
    assert fitting == "".join(map(str, truth.fitting))
    assert all(score_codes(code_from_digits(fitting), g) == fb for g, fb in turns)

    stored = rows(db_path, "SELECT level, user_id, text FROM hints ORDER BY level")
    assert [(lv, user) for lv, user, _ in stored] == [(1, world.bob.id), (2, world.alice.id),
                                                      (3, world.alice.id)]
    assert stored[0][2] == f"{truth.count} codes still fit every reply."
    assert stored[2][2] == f"{fitting} fits every reply so far."
    assert rows(db_path, "SELECT hints FROM games") == [(3,)]

    before = snapshot(db_path)
    fourth = await slash(fake_discord, bot, world, "mastermind hint")
    assert fourth.ephemeral and fourth.embed["title"] == "No hints left"
    assert snapshot(db_path) == before

    board = await slash(fake_discord, bot, world, "mastermind board")
    marks = {f["name"]: f["value"] for m in board.messages for e in m.embeds
             for f in e.get("fields", [])}
    assert marks["Hints"].startswith("3 used")


async def test_a_hinted_crack_counts_in_stats_not_on_leaderboards(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new")
    secret = secret_of(db_path, world.general.id)
    await slash(fake_discord, bot, world, "guess", code=wrong(secret))
    await slash(fake_discord, bot, world, "mastermind hint")
    won = await slash(fake_discord, bot, world, "guess", code=secret)
    assert rows(db_path, "SELECT status FROM games") == [("won",)]
    assert "won't count on the leaderboards" in str(won.embed["fields"])
    assert rows(db_path, "SELECT won, hinted FROM results") == [(1, 1)]
    assert rows(db_path, "SELECT COUNT(*) FROM standings") == [(0,)]
    board = await slash(fake_discord, bot, world, "leaderboard")
    assert "Nobody has cracked a code here" in board.embed["description"]
    stats = await slash(fake_discord, bot, world, "stats", options={"user": None})
    fields = {f["name"]: f["value"] for f in stats.embed["fields"]}
    assert fields["Games played"] == "1 · 1 with hints"
    assert fields["Codes cracked"].startswith("1 ")
    # The same game without a hint would have counted: a second, clean game does.
    await slash(fake_discord, bot, world, "mastermind new")
    await slash(fake_discord, bot, world, "guess", code=secret_of(db_path, world.general.id))
    assert rows(db_path, "SELECT COUNT(DISTINCT user_id) FROM standings") == [(1,)]


async def test_hints_need_a_running_code_game(fake_discord, start_bot, world, db_path):
    """A refusal's Discord side: a private answer, nothing stored. Every refusal (no game, a
    challenge, a match, hints off, guess first, none left) with its words and every table
    unchanged: tests/test_service_hints.py."""
    bot = await start_bot()
    none = await slash(fake_discord, bot, world, "mastermind hint")
    assert none.ephemeral and none.embed["title"] == "No game is running here"
    assert rows(db_path, "SELECT COUNT(*) FROM hints") == [(0,)]


@pytest.mark.both_databases
async def test_a_hint_delivered_twice_is_given_once(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new")
    await slash(fake_discord, bot, world, "guess",
                code=wrong(secret_of(db_path, world.general.id)))
    first = await slash(fake_discord, bot, world, "mastermind hint")
    assert "Hint 1 of 3" in first.embed["title"]
    fake_discord.expect_violation(40060)  # Discord refuses the second delivery's defer...
    fake_discord.expect_error(discord.HTTPException, match="40060")  # ...before any write
    await fake_discord.redeliver(bot, first)
    assert rows(db_path, "SELECT level FROM hints") == [(1,)]
    assert rows(db_path, "SELECT hints FROM games") == [(1,)]


async def test_hints_in_the_biggest_game(fake_discord, start_bot, world, db_path):
    """8x9 (43 million codes): the count before any guess, the colour only after a reply."""
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new", pegs=8, colors=9, max_guesses=20)
    first = await slash(fake_discord, bot, world, "mastermind hint")
    assert f"{9 ** 8} codes still fit every reply." in first.embed["description"]
    early = await slash(fake_discord, bot, world, "mastermind hint")
    assert early.ephemeral and early.embed["title"] == "Guess first"
    assert rows(db_path, "SELECT level FROM hints") == [(1,)]
    played = "11223344"
    await slash(fake_discord, bot, world, "guess", code=played)
    secret = secret_of(db_path, world.general.id)
    truth = facts(Rules(8, 9, 20), [(code_from_digits(played), score(secret, played))],
                  pick=1)
    # A hint after a reply scores all 43 million codes in a worker thread, after a defer:
    # seconds on a busy machine, where the harness's 5 s for the whole answer is too short.
    second = await slash(fake_discord, bot, world, "mastermind hint", timeout=BIG_HINT_SECONDS)
    assert "Hint 2 of 3" in second.embed["title"]
    if truth.surely_out:
        assert f"olour {truth.surely_out[0]} " in second.embed["description"]
    third = await slash(fake_discord, bot, world, "mastermind hint", timeout=BIG_HINT_SECONDS)
    fitting = third.embed["description"].split("`")[1]
    assert score(fitting, played) == score(secret, played)
    assert rows(db_path, "SELECT level FROM hints") == [(1,), (2,), (3,)]
