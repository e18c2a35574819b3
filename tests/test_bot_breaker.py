"""People break the bot's code: /mastermind new, /guess, board, quit, help.

Every test drives a real MastermindBot through discord.py's own dispatch (the fake Discord
under tests/fake_discord) with a real SQLite file.
"""

from __future__ import annotations

import asyncio
import contextlib

import dbtools
import pytest
from conftest import secret_of, snapshot, without_drawn_pegs

from bot.ui.pegs import code_line, key_pegs
from engine import code_from_digits, score


async def new_game(fake, bot, world, user=None, channel=None, **options):
    result = await fake.slash(bot, "mastermind new", user=user or world.alice,
                              channel=channel or world.general, guild=world.guild, **options)
    assert not result.ephemeral, result.embed
    return result


async def guess(fake, bot, world, code, user=None, channel=None):
    return await fake.slash(bot, "guess", user=user or world.alice,
                            channel=channel or world.general, guild=world.guild, code=code)


def wrong_code(secret: str, colors: int = 6) -> str:
    """A valid code that is not the secret."""
    first = int(secret[0]) % colors + 1
    return str(first) + secret[1:]


async def test_commands_are_synced_with_ranges(fake_discord, start_bot):
    await start_bot()
    names = {c["name"]: c for c in fake_discord.commands}
    assert {"mastermind", "guess"} <= set(names)
    new = next(o for o in names["mastermind"]["options"] if o["name"] == "new")
    ranges = {o["name"]: (o.get("min_value"), o.get("max_value")) for o in new["options"]}
    assert ranges == {"pegs": (2, 8), "colors": (2, 9), "max_guesses": (1, 20),
                      "repeats": (None, None), "setter": (None, None), "private": (None, None)}


async def test_every_command_that_starts_a_game_offers_the_same_rule_options(
        fake_discord, start_bot, world, db_path):
    """/mastermind new, /challenge and /match take their rule options from one definition
    (``with_rule_options``): the same names, types, ranges and descriptions, in the same
    order, and the options given reach the game."""
    await start_bot()
    names = {c["name"]: c for c in fake_discord.commands}
    new = next(o for o in names["mastermind"]["options"] if o["name"] == "new")
    rule_names = ["pegs", "colors", "max_guesses", "repeats"]

    def rule_options(command: dict) -> list[dict]:
        return [o for o in command["options"] if o["name"] in rule_names]

    offered = [rule_options(c) for c in (new, names["challenge"], names["match"])]
    assert [o["name"] for o in offered[0]] == rule_names
    assert offered[0] == offered[1] == offered[2]
    assert all(o.get("description_localizations") for o in offered[0])  # translated


async def test_rule_options_given_reach_the_game(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new_game(fake_discord, bot, world, pegs=5, repeats=False)
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        row = conn.execute("SELECT pegs, colors, max_guesses, repeats FROM games").fetchone()
    assert tuple(row) == (5, 6, 10, 0)  # the rest: the server's default rules


async def test_a_secret_spelling_the_example_is_still_never_shown(
        fake_discord, start_bot, world, db_path, monkeypatch):
    """The new game's text shows ``/guess 1123`` as an example, whatever the secret: a
    secret of 1123 (one game in 1,296) is kept as secret as any other."""
    import bot.features.breaker.service as breaker

    monkeypatch.setattr(breaker, "draw_secret", lambda rules: (1, 1, 2, 3))
    bot = await start_bot()
    started = await new_game(fake_discord, bot, world)
    assert secret_of(db_path, world.general.id) == "1123"
    assert "`/guess 1123`" in started.embed["description"]  # the example
    assert "1123" not in without_drawn_pegs(started.embed)
    first = await guess(fake_discord, bot, world, "4444")
    assert "1123" not in without_drawn_pegs(first.embed)


@pytest.mark.both_databases
async def test_full_won_game(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    started = await new_game(fake_discord, bot, world)
    assert "break the code" in started.embed["title"]
    secret = secret_of(db_path, world.general.id)
    assert secret not in without_drawn_pegs(started.embed)  # never shown while the game runs
    miss = wrong_code(secret)
    first = await guess(fake_discord, bot, world, miss)
    fb = score(secret, miss)
    assert f"{code_line(code_from_digits(miss))} {key_pegs(fb)}" in first.embed["description"]
    assert secret not in without_drawn_pegs(first.embed)
    won = await guess(fake_discord, bot, world, secret, user=world.bob)
    assert won.embed["title"] == "Code broken in 2 guesses!"
    assert f"<@{world.bob.id}>" in won.embed["description"]
    assert secret in won.embed["description"]
    rows = snapshot(db_path)
    columns = ("turn", "player_id", "code", "black", "white")
    assert [tuple(g[c] for c in columns) for g in rows["guesses"]] == [
        (1, world.alice.id, miss, fb.black, fb.white),
        (2, world.bob.id, secret, 4, 0),
    ]
    game = rows["games"][0]
    assert game["status"] == "won" and game["winner_id"] == world.bob.id


async def test_lost_game_reveals_the_code(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new_game(fake_discord, bot, world, max_guesses=2)
    secret = secret_of(db_path, world.general.id)
    first = wrong_code(secret)
    await guess(fake_discord, bot, world, first)
    second = next(c for c in ("1111", "2222", "3333") if c not in (secret, first))
    last = await guess(fake_discord, bot, world, second, user=world.bob)
    assert last.embed["title"] == "Out of guesses: the code wins"
    assert secret in last.embed["description"]
    after = await guess(fake_discord, bot, world, secret)
    assert after.ephemeral and "No game is running" in after.embed["title"]


async def test_a_bad_code_is_explained_privately_and_changes_nothing(
    fake_discord, start_bot, world, db_path
):
    """The Discord side of a bad code: a private answer with the words, nothing stored. Every
    kind of bad code (its words, nothing stored), a repeat when repeats are off, and codes
    typed in full-width digits or letters are in tests/test_service_breaker.py."""
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    await guess(fake_discord, bot, world, wrong_code(secret_of(db_path, world.general.id)))
    before = snapshot(db_path)
    result = await guess(fake_discord, bot, world, "1723")
    assert result.ephemeral
    assert result.embed["title"] == "That is not a valid code"
    assert "colour 7 (n = brown) at peg 2 is out of range" in result.embed["description"].lower()
    assert "/guess 1123" in result.embed["description"]
    assert snapshot(db_path) == before


@pytest.mark.both_databases
async def test_impossible_rules_are_refused(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    result = await fake_discord.slash(bot, "mastermind new", user=world.alice,
                                      channel=world.general, guild=world.guild,
                                      pegs=6, colors=4, repeats=False)
    assert result.ephemeral
    assert "6 pegs need at least 6 colours" in result.embed["description"]
    assert snapshot(db_path)["games"] == []


async def test_guess_without_a_game(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    result = await guess(fake_discord, bot, world, "1234")
    assert result.ephemeral
    assert "/mastermind new" in result.embed["description"]
    assert snapshot(db_path)["guesses"] == []


async def test_one_game_per_channel(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    started = await new_game(fake_discord, bot, world)
    again = await fake_discord.slash(bot, "mastermind new", user=world.bob,
                                     channel=world.general, guild=world.guild)
    assert again.ephemeral
    assert "already running" in again.embed["description"]
    assert str(started.message.id) in again.embed["description"]  # links to the board
    assert len(snapshot(db_path)["games"]) == 1


async def test_quit_rules(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    secret = secret_of(db_path, world.general.id)
    before = snapshot(db_path)
    refused = await fake_discord.slash(bot, "mastermind quit", user=world.bob,
                                       channel=world.general, guild=world.guild)
    assert refused.ephemeral and "Manage Messages" in refused.embed["description"]
    assert snapshot(db_path) == before
    ended = await fake_discord.slash(bot, "mastermind quit", user=world.mod,
                                     channel=world.general, guild=world.guild)
    assert not ended.ephemeral
    assert secret in ended.embed["description"]
    assert snapshot(db_path)["games"][0]["status"] == "quit"
    # The starter may quit their own game too.
    await new_game(fake_discord, bot, world, user=world.bob)
    mine = await fake_discord.slash(bot, "mastermind quit", user=world.bob,
                                    channel=world.general, guild=world.guild)
    assert mine.embed["title"] == "Game ended"


async def test_board_and_help(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    none = await fake_discord.slash(bot, "mastermind board", user=world.alice,
                                    channel=world.general, guild=world.guild)
    assert none.ephemeral
    await new_game(fake_discord, bot, world)
    miss = wrong_code(secret_of(db_path, world.general.id))
    await guess(fake_discord, bot, world, miss)
    board = await fake_discord.slash(bot, "mastermind board", user=world.bob,
                                     channel=world.general, guild=world.guild)
    assert not board.ephemeral and miss in board.embed["description"]
    helped = await fake_discord.slash(bot, "mastermind help", user=world.bob,
                                      channel=world.general, guild=world.guild)
    assert helped.ephemeral and "black" in helped.embed["description"]


@pytest.mark.both_databases
async def test_concurrent_guesses_are_all_applied_once(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new_game(fake_discord, bot, world, max_guesses=20)
    secret = secret_of(db_path, world.general.id)
    codes = [c for c in ("1111", "2222", "3333", "4444", "5555", "6666", "1212", "3434")
             if c != secret]
    players = [world.alice, world.bob, world.mod]
    results = await asyncio.gather(*(
        guess(fake_discord, bot, world, code, user=players[i % 3])
        for i, code in enumerate(codes)
    ))
    assert all(not r.ephemeral for r in results)
    stored = snapshot(db_path)["guesses"]
    assert [g["turn"] for g in stored] == list(range(1, len(codes) + 1))
    assert sorted(g["code"] for g in stored) == sorted(codes)


async def test_a_guess_after_the_win_is_too_late(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    secret = secret_of(db_path, world.general.id)
    win, late = await asyncio.gather(
        guess(fake_discord, bot, world, secret, user=world.alice),
        guess(fake_discord, bot, world, wrong_code(secret), user=world.bob),
    )
    assert win.embed["title"].startswith("Code broken")
    assert late.ephemeral and "Too late" in late.embed["description"]
    assert len(snapshot(db_path)["guesses"]) == 1


async def test_two_channels_at_once(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await asyncio.gather(
        new_game(fake_discord, bot, world, channel=world.general),
        new_game(fake_discord, bot, world, channel=world.other, user=world.bob, pegs=5),
    )
    a, b = secret_of(db_path, world.general.id), secret_of(db_path, world.other.id)
    assert len(a) == 4 and len(b) == 5
    r1, r2 = await asyncio.gather(
        guess(fake_discord, bot, world, a, channel=world.general),
        guess(fake_discord, bot, world, "12345", channel=world.other, user=world.bob),
    )
    assert r1.embed["title"].startswith("Code broken")
    assert not r2.ephemeral


@pytest.mark.both_databases
async def test_restart_in_the_middle(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    secret = secret_of(db_path, world.general.id)
    await guess(fake_discord, bot, world, wrong_code(secret))
    before = snapshot(db_path)
    await bot.close()
    bot = await start_bot()
    board = await fake_discord.slash(bot, "mastermind board", user=world.bob,
                                     channel=world.general, guild=world.guild)
    assert wrong_code(secret) in board.embed["description"]
    assert _moves(snapshot(db_path)) == _moves(before)  # only the live board moved
    won = await guess(fake_discord, bot, world, secret, user=world.bob)
    assert won.embed["title"] == "Code broken in 2 guesses!"


def _moves(rows) -> dict:
    """Stored games and guesses, without which message shows the live board."""
    board = {"board_message_id", "board_turn", "board_replaced_id", "board_replaced_turn"}
    return {table: [{k: row[k] for k in row.keys() if k not in board}  # noqa: SIM118 (a Row)
                    for row in found]
            for table, found in rows.items()}


@pytest.mark.both_databases
async def test_idle_game_is_abandoned(fake_discord, start_bot, world, db_path, wall_clock):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    secret = secret_of(db_path, world.general.id)
    wall_clock.advance(24 * 3600 + 1)
    result = await guess(fake_discord, bot, world, "1234")
    assert result.ephemeral
    assert "abandoned" in result.embed["description"] and secret in result.embed["description"]
    assert snapshot(db_path)["games"][0]["status"] == "abandoned"
    fresh = await new_game(fake_discord, bot, world)
    assert fresh.embed["title"].startswith("Mastermind")


async def test_largest_board_fits_discord_limits(fake_discord, start_bot, world, db_path):
    """8 pegs and 20 rows: the fake checks every embed against Discord's limits."""
    bot = await start_bot()
    await new_game(fake_discord, bot, world, pegs=8, colors=9, max_guesses=20)
    secret = secret_of(db_path, world.general.id)
    codes = [f"{a}{b}" * 4 for a in range(1, 10) for b in range(1, 10)]  # all different
    codes = [c for c in codes if c != secret][:19]
    for code in codes:
        result = await guess(fake_discord, bot, world, code)
        assert not result.ephemeral
    last = await guess(fake_discord, bot, world, secret)
    assert last.embed["title"] == "Code broken in 20 guesses!"
    assert len(last.embed["description"]) < 4096
    fake_discord.assert_no_violations()


async def test_unexpected_errors_get_an_apology(fake_discord, start_bot, world, monkeypatch):
    bot = await start_bot()

    async def broken(**kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(bot.services.breaker, "guess", broken)
    fake_discord.expect_error(RuntimeError)
    result = await guess(fake_discord, bot, world, "1234")
    assert result.ephemeral
    assert "bug in the bot" in result.embed["description"]
