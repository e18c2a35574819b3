"""``/puzzle``: the day's puzzle and random ones, answered in one try, through discord.py's
real dispatch; every stored puzzle's certificate checked from what the database holds. The
service's rules and their SQL on both databases: ``tests/test_service_puzzle.py``; here,
SQLite, but for the exactly-once answer with taps."""

from __future__ import annotations

import contextlib
import json

import dbtools
import pytest
from conftest import without_drawn_pegs
from picking import open_picker, pick, tap

from engine import Feedback, Rules, code_from_digits, format_code
from engine.puzzle import Clue, certify, verify


def rows(db_path, sql, args=()):
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return conn.execute(sql, args).fetchall()


def stored(db_path, play_id=None):
    """The newest (or the given) play as the database holds it, checked as a puzzle."""
    where, args = ("WHERE id = ?", (play_id,)) if play_id else ("", ())
    (pid, pegs, colors, repeats, clues, answer, spread, status, named), = rows(
        db_path, "SELECT id, pegs, colors, repeats, clues, answer, spread, status, named"
        f" FROM puzzle_plays {where} ORDER BY id DESC LIMIT 1", args)
    rules = Rules(pegs=pegs, colors=colors, repeats=bool(repeats))
    clue_list = tuple(Clue(code_from_digits(g), Feedback(b, w)) for g, b, w in json.loads(clues))
    return pid, rules, clue_list, answer, spread, status, named


def certified(db_path, play_id=None):
    """The stored puzzle's certificate, worked out again and verified from scratch."""
    pid, rules, clues, answer, *_ = stored(db_path, play_id)
    verify(certify(rules, clues, code_from_digits(answer)))
    return pid, answer


async def puzzle(fake, bot, world, command, user=None, **options):
    return await fake.slash(bot, f"puzzle {command}", user=user or world.alice,
                            guild=world.guild, channel=world.general, **options)


async def test_todays_puzzle_is_the_same_for_everyone_private_and_answered_once(
        fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    shown = await puzzle(fake_discord, bot, world, "today")
    assert shown.ephemeral
    pid, answer = certified(db_path)
    assert answer not in without_drawn_pegs(json.dumps(shown.embed))
    answer_id, = shown.message.custom_ids  # the board's Answer: a picker for alice alone
    owner_and_play = f"mmp:z:{world.alice.id}:{pid}:"
    assert answer_id.startswith(owner_and_play)
    assert answer not in answer_id.removeprefix(owner_and_play)  # ids could hold it by chance
    again = await puzzle(fake_discord, bot, world, "today")  # the same play, not a new one
    assert again.message.custom_ids == [answer_id]

    bobs = await puzzle(fake_discord, bot, world, "today", user=world.bob)
    _, _, bob_clues, bob_answer, *_ = stored(db_path)
    _, _, clues, *_ = stored(db_path, pid)
    assert (bob_clues, bob_answer) == (clues, answer)  # the same puzzle for everyone
    assert bobs.ephemeral

    solved = await puzzle(fake_discord, bot, world, "answer", code=answer)
    assert solved.ephemeral and "Solved!" in solved.embed["description"]
    assert "Puzzle streak: **1** day (best 1)" in solved.embed["description"]
    assert "Today 1 of 1 players solved it." in solved.embed["description"]
    assert solved.message.custom_ids == [f"mmz:another:{pid}"]

    before = rows(db_path, "SELECT * FROM puzzle_plays ORDER BY id")
    second = await puzzle(fake_discord, bot, world, "answer", code="1111")
    assert second.embed["title"] == "No puzzle to answer"  # bob's is open, alice's is not
    assert rows(db_path, "SELECT * FROM puzzle_plays ORDER BY id") == before


async def test_a_miss_names_the_clue_it_breaks_and_shows_the_answer(
        fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await puzzle(fake_discord, bot, world, "new", level="hard")
    _, _, clues, answer, spread, status, _ = stored(db_path)
    assert spread >= 10 and status == "open"
    wrong = next(format_code(c.guess) for c in clues)  # a clue's guess never is the answer
    missed = await puzzle(fake_discord, bot, world, "answer", code=wrong)
    text = missed.embed["description"]
    assert "Not it." in text and "The answer was" in text and answer in text
    assert "It breaks clue" in text
    assert stored(db_path)[5:] == ("missed", wrong)


@pytest.mark.both_databases
async def test_answered_with_taps_on_its_own_board_exactly_once(
        fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    shown = await puzzle(fake_discord, bot, world, "new", level="easy", size="5x8")
    pid, answer = certified(db_path)
    assert stored(db_path)[1] == Rules(5, 8)
    board = shown.message
    answer_id, = board.custom_ids
    forged = fake_discord.old_message(world.general, [answer_id])
    stranger = await fake_discord.click(bot, forged, answer_id, user=world.bob)
    assert stranger.ephemeral and stranger.embed["title"] == "This picker isn't yours"
    later = fake_discord.stale_click(board, answer_id, user=world.alice)

    _, picker = await open_picker(fake_discord, bot, board, world.alice, label="Answer")
    assert picker.id == board.id  # the private board itself becomes the picker
    assert "1" in picker.content and answer not in picker.content.replace("`", "")
    picker, taps = await pick(fake_discord, bot, picker, answer, world.alice)
    done = await tap(fake_discord, bot, picker, "s", world.alice)
    assert taps + 2 == 7  # Answer, five colours, submit
    assert "Solved!" in fake_discord.message(board.id).embed["description"]
    fake_discord.expect_violation(40060)
    await fake_discord.redeliver(bot, done)  # the same answer delivered twice: one try
    assert rows(db_path, "SELECT status, named FROM puzzle_plays WHERE id = ?",
                (pid,)) == [("solved", answer)]
    stale = await later(bot)  # the board's Answer, pressed before it changed: no second try
    assert stale.ephemeral and stale.embed["title"] == "Already answered"
    assert rows(db_path, "SELECT status, named FROM puzzle_plays WHERE id = ?",
                (pid,)) == [("solved", answer)]


@pytest.mark.parametrize("custom_id", ["mmz:another", "mmz:another:1:2", "mmz:answer:1",
                                       "mmz:another:99999999999999999999",
                                       "mmp:z:1:x:4:6:1::o"])
async def test_an_unreadable_puzzle_button_is_out_of_date(fake_discord, start_bot, world,
                                                          custom_id):
    bot = await start_bot()
    old = fake_discord.old_message(world.general, [custom_id])
    clicked = await fake_discord.click(bot, old, custom_id, user=world.alice)
    assert clicked.embed["title"] == "That button is out of date"


async def test_forget_me_deletes_a_players_puzzles(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await puzzle(fake_discord, bot, world, "today")
    await puzzle(fake_discord, bot, world, "today", user=world.bob)
    asked = await fake_discord.slash(bot, "mastermind forget-me", user=world.alice,
                                     guild=world.guild, channel=world.general)
    await fake_discord.click(bot, asked.message, f"mmf:yes:{world.alice.id}", user=world.alice)
    assert rows(db_path, "SELECT user_id FROM puzzle_plays") == [(world.bob.id,)]
