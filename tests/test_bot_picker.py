"""Tap to play: the peg picker through discord.py's real dispatch (tests/fake_discord checks
every message and button against Discord's limits), with a real database.

A player presses Guess on a board, taps the colours and Submit: n + 2 taps for n pegs. The
same picker sets a code (a setter game, a match) and gives a challenge's reveal.
"""

from __future__ import annotations

import contextlib
import sqlite3

import dbtools
import pytest
from conftest import board_title, secret_of, snapshot
from picking import button, open_picker, pick, play, tap

from bot.features.daily.service import secret_for
from bot.ui.pegs import code_line, key_pegs
from engine import code_from_digits, score

SIZES = [(2, 2), (4, 6), (8, 9)]


def rows(db_path, sql, *args) -> list[sqlite3.Row]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute(sql, args).fetchall()


def shows(fake, channel, code: str) -> bool:
    """Does anything the channel can read (private pickers left out) show ``code``: as pegs,
    as `digits`, or in a picker button's code field?"""
    public = fake.messages(channel, include_ephemeral=False)
    text = "\n".join(f"{m.content} {m.embeds}" for m in public)
    ids = [c.split(":") for m in public for c in m.custom_ids if c.startswith("mmp:")]
    return (code_line(code_from_digits(code)) in text or f"`{code}`" in text
            or any(parts[5] for parts in ids))


def miss(secret: str, colors: int) -> str:
    """A valid code that is not the secret (same colours, repeats allowed or not)."""
    return secret[1:] + secret[0] if len(set(secret)) > 1 else (
        str(int(secret[0]) % colors + 1) * len(secret))


async def slash(fake, bot, world, command, user, **options):
    return await fake.slash(bot, command, user=user, channel=world.general, guild=world.guild,
                            **options)


@pytest.mark.parametrize(("pegs", "colors"), SIZES)
async def test_set_a_code_then_break_it_with_taps(fake_discord, start_bot, world, db_path,
                                                  pegs, colors):
    """Alice sets the code with taps; bob and the moderator break it with taps, each guess
    n + 2 taps from the board; every public board is the same as ``/guess`` shows."""
    bot = await start_bot()
    alice, bob, mod = world.alice, world.bob, world.mod
    opened = await slash(fake_discord, bot, world, "mastermind new", alice, pegs=pegs,
                         colors=colors, setter="me")
    assert opened.ephemeral and "Your secret code" in opened.message.content
    secret = "".join(str((k * 5) % colors + 1) for k in range(pegs))
    picker, _ = await pick(fake_discord, bot, opened.message, secret, alice)
    assert f"`{secret}`" in picker.content and "ready" in picker.content
    set_ = await tap(fake_discord, bot, picker, "s", alice)
    assert secret_of(db_path, world.general.id) == secret
    assert fake_discord.message(picker.id).custom_ids == []  # the picker is done
    assert f"`{secret}`" in fake_discord.message(picker.id).content  # said to alice alone
    board, = set_.followups
    assert not board.ephemeral and "Anyone but the setter can guess" in board.embed["description"]
    assert not shows(fake_discord, world.general, secret)

    # The setter may not open a picker for her own code.
    mine = await fake_discord.click(bot, board, board.component(label="Guess")["custom_id"],
                                    user=alice)
    assert mine.ephemeral and mine.embed["title"] == "You set this code"

    wrong = miss(secret, colors)
    sent, picker, taps = await play(fake_discord, bot, board, wrong, bob)
    assert taps == pegs + 2
    fb = score(secret, wrong)
    row = f"{code_line(code_from_digits(wrong))} {key_pegs(fb)}"
    assert picker.content.startswith(f"Sent guess 1: {row}")  # cleared for the next guess
    assert "`" + "\N{MIDDLE DOT}" * pegs + "`" in picker.content
    new_board, = sent.followups
    assert not new_board.ephemeral and row in new_board.embed["description"]
    old = fake_discord.message(board.id)
    assert old.custom_ids == [] and row in old.content  # the old board shrank to its move
    assert rows(db_path, "SELECT board_message_id FROM games")[0][0] == new_board.id

    won, picker, taps = await play(fake_discord, bot, new_board, secret, mod)
    assert taps == pegs + 2
    assert "cracked the code" in picker.content and picker.custom_ids == []
    final, = won.followups
    assert final.embed["title"] == "Code broken in 2 guesses!"
    stored = [(g["turn"], g["player_id"], g["code"]) for g in snapshot(db_path)["guesses"]]
    assert stored == [(1, bob.id, wrong), (2, mod.id, secret)]
    assert tuple(rows(db_path, "SELECT status, winner_id FROM games")[0]) == ("won", mod.id)


@pytest.mark.parametrize(("pegs", "colors"), SIZES)
async def test_reveal_a_challenge_with_taps(fake_discord, start_bot, world, db_path, pegs,
                                            colors):
    bot = await start_bot()
    started = await slash(fake_discord, bot, world, "challenge", world.alice, pegs=pegs,
                          colors=colors)
    board = started.message
    stranger = await fake_discord.click(
        bot, board, board.component(label="Reveal my code")["custom_id"], user=world.bob)
    assert stranger.ephemeral and stranger.embed["title"] == "This is not your challenge"
    _, picker = await open_picker(fake_discord, bot, board, world.alice, label="Reveal my code")
    assert "Reveal your code" in picker.content
    code = "".join(str(k % colors + 1) for k in range(pegs))
    picker, taps = await pick(fake_discord, bot, picker, code, world.alice)
    revealed = await tap(fake_discord, bot, picker, "s", world.alice)
    assert taps + 2 == pegs + 2
    assert fake_discord.message(picker.id).content.startswith(
        f"You revealed {code_line(code_from_digits(code))}")
    finished, = revealed.followups
    assert not finished.ephemeral and board_title(finished) == "Code revealed"
    assert fake_discord.message(board.id).custom_ids == []  # the old board shrank
    game = rows(db_path, "SELECT status, secret FROM games")[0]
    assert tuple(game) == ("quit", code)


async def test_a_match_half_and_code_with_taps(fake_discord, start_bot, world, db_path):
    """Player against player: bob sets the code with taps; only alice, the breaker, may
    open a picker for it, and she breaks it with taps."""
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    invited = await slash(fake_discord, bot, world, "match", alice, rounds=1,
                          options={"opponent": bob})
    match_id = rows(db_path, "SELECT id FROM matches")[0][0]
    await fake_discord.click(bot, invited.message, f"mmm:accept:{match_id}", user=bob)
    scoreboard = fake_discord.message(invited.message.id)
    _, picker = await open_picker(fake_discord, bot, scoreboard, bob, label="Set my code")
    picker, _ = await pick(fake_discord, bot, picker, "3456", bob)
    set_ = await tap(fake_discord, bot, picker, "s", bob)
    assert "`3456`" in fake_discord.message(picker.id).content
    assert not shows(fake_discord, world.general, "3456")
    board = next(m for m in set_.followups if m.custom_ids)
    refused = await fake_discord.click(bot, board, board.component(label="Guess")["custom_id"],
                                       user=bob)
    assert refused.ephemeral and refused.embed["title"] == "Not your code to break"
    await play(fake_discord, bot, board, "1234", alice)
    board = fake_discord.message(rows(db_path, "SELECT board_message_id FROM games")[0][0])
    won, picker, _ = await play(fake_discord, bot, board, "3456", alice)
    assert "cracked the code" in picker.content
    match = rows(db_path, "SELECT half, half_scores FROM matches")[0]
    assert tuple(match) == (1, "2")  # scored once, the next half-round begins
    assert any("sets a secret code" in str(m.embeds) for m in won.followups)


async def test_the_daily_is_played_in_place(fake_discord, start_bot, world, db_path, wall_clock):
    """The private board's Guess turns it into the picker (rows above the code); at the end
    it turns back into the finished board."""
    bot = await start_bot()
    board = (await slash(fake_discord, bot, world, "daily play", world.alice)).message
    opened, picker = await open_picker(fake_discord, bot, board, world.alice)
    assert picker.id == board.id and opened.response.type == 7  # the same private message
    (seed,), = rows(db_path, "SELECT value FROM bot_settings WHERE name = 'daily_seed'")
    day = bot.services.daily.today()
    secret = "".join(map(str, secret_for(seed, day)))
    wrong = miss(secret, 6)
    picker, _ = await pick(fake_discord, bot, picker, wrong, world.alice)
    await tap(fake_discord, bot, picker, "s", world.alice)
    picker = fake_discord.message(picker.id)
    assert f"` 1` {code_line(code_from_digits(wrong))}" in picker.content
    assert "9 of 10 left" in picker.content
    picker, _ = await pick(fake_discord, bot, picker, secret, world.alice)
    await tap(fake_discord, bot, picker, "s", world.alice)
    finished = fake_discord.message(picker.id)
    assert finished.embed["title"] == f"Daily {day}: broken in 2 guesses!"
    assert finished.custom_ids == [f"mma:d:{day}"]
    stored = rows(db_path, "SELECT turn, code FROM daily_guesses ORDER BY turn")
    assert [tuple(r) for r in stored] == [(1, wrong), (2, secret)]

    # A picker from yesterday says its day is over.
    bob_board = (await slash(fake_discord, bot, world, "daily play", world.bob)).message
    _, late = await open_picker(fake_discord, bot, bob_board, world.bob)
    late, _ = await pick(fake_discord, bot, late, "1234", world.bob)
    wall_clock.advance(24 * 3600)
    refused = await tap(fake_discord, bot, late, "s", world.bob)
    assert refused.ephemeral and refused.embed["title"] == "That daily is over"
    assert len(rows(db_path, "SELECT * FROM daily_guesses")) == 2


async def test_typing_still_works_everywhere(fake_discord, start_bot, world, db_path):
    """/guess, and the picker's Type form (letters, pegs copied from a board)."""
    bot = await start_bot()
    board = (await slash(fake_discord, bot, world, "mastermind new", world.alice)).message
    secret = secret_of(db_path, world.general.id)
    _, picker = await open_picker(fake_discord, bot, board, world.alice)
    picker, _ = await pick(fake_discord, bot, picker, "12", world.alice)
    form = await tap(fake_discord, bot, picker, "t", world.alice)
    assert form.modal is not None and form.modal["title"] == "Type your guess"
    field = form.modal["components"][0]["components"][0]
    assert field.get("value") == "12"  # the pegs picked so far, to go on typing
    wrong = miss(secret, 6)
    letters = "".join("ROYGBP"[int(d) - 1] for d in wrong)
    typed = await fake_discord.submit_modal(bot, form, {"code": letters}, user=world.alice)
    assert typed.followups and "Sent guess 1" in fake_discord.message(picker.id).content
    slashed = await slash(fake_discord, bot, world, "guess", world.bob, code=secret)
    assert slashed.embed["title"] == "Code broken in 2 guesses!"
    assert [g["code"] for g in snapshot(db_path)["guesses"]] == [wrong, secret]


async def test_a_picker_button_opens_nothing_for_a_finished_game(fake_discord, start_bot,
                                                                 world, db_path):
    bot = await start_bot()
    board = (await slash(fake_discord, bot, world, "mastermind new", world.alice)).message
    guess = button(board, "o")["custom_id"]
    await slash(fake_discord, bot, world, "mastermind quit", world.alice)
    await fake_discord.wait_until(  # the ended board loses its Guess (a cosmetic edit)
        lambda: fake_discord.message(board.id).custom_ids == [], timeout=10,
        what="the ended board to lose its buttons")
    old = fake_discord.old_message(world.general, [guess])  # a client that didn't refresh
    late = await fake_discord.click(bot, old, guess, user=world.bob)
    assert late.ephemeral and late.embed["title"] == "That game is over"
