"""Puzzles at service level (``PuzzleService``), on a real database, SQLite and PostgreSQL:
the day's puzzle the same for everyone and opened once per player, one try per puzzle (a
second refused with its words, nothing stored), a miss recorded with what was named, the
streak and the day's tally, forget-me. Every stored puzzle's certificate is checked from
what the database holds. The boards and the picker are in ``tests/test_bot_puzzle.py``."""

from __future__ import annotations

import pytest
from service_kit import action, rows, state, words
from test_bot_puzzle import certified, stored

import bot.features.puzzle.render  # noqa: F401 (registers the puzzle's words)
from bot.features.puzzle.errors import NoOpenPuzzle, NotYourPuzzle, PuzzleAnswered
from engine import format_code
from engine.puzzle import Level

GUILD, ALICE, BOB = 7, 1, 2


async def today(s, user: int):
    return await s.puzzles.today_play(user_id=user, guild_id=GUILD, action_id=action())


async def test_todays_puzzle_is_the_same_for_everyone_and_answered_once(services, db_path):
    s = services
    mine = await today(s, ALICE)
    pid, answer = certified(db_path)
    assert mine.id == pid and format_code(mine.answer) == answer
    assert (await today(s, ALICE)).id == pid  # the same play, not a new one
    bobs = await today(s, BOB)
    assert bobs.id != pid and (bobs.clues, bobs.answer) == (mine.clues, mine.answer)
    assert stored(db_path, bobs.id)[2:4] == stored(db_path, pid)[2:4]

    solved = await s.puzzles.answer(play_id=None, user_id=ALICE, text=answer,
                                    action_id=action())
    assert solved.status == "solved" and solved.id == pid
    assert await s.puzzles.streak(ALICE) == (1, 1)
    assert await s.puzzles.tally(s.puzzles.today()) == (1, 1)

    before = state(db_path)
    with pytest.raises(NoOpenPuzzle) as none_open:  # bob's is open, alice's is not
        await s.puzzles.answer(play_id=None, user_id=ALICE, text="1111", action_id=action())
    assert words(none_open.value)[0] == "No puzzle to answer"
    with pytest.raises(PuzzleAnswered) as again:
        await s.puzzles.answer(play_id=pid, user_id=ALICE, text="1111", action_id=action())
    assert "each puzzle takes one try" in words(again.value)[1]
    with pytest.raises(NotYourPuzzle) as not_hers:
        await s.puzzles.answer(play_id=bobs.id, user_id=ALICE, text=answer, action_id=action())
    assert words(not_hers.value)[0] == "Not your puzzle"
    assert state(db_path) == before


async def test_a_miss_is_recorded_with_the_code_named(services, db_path):
    s = services
    play = await s.puzzles.new_play(user_id=ALICE, guild_id=GUILD, level=Level.HARD,
                                    size="4x6", action_id=action())
    certified(db_path, play.id)
    assert play.spread >= 10 and play.status == "open"
    wrong = format_code(play.clues[0].guess)  # a clue's guess never is the answer
    missed = await s.puzzles.answer(play_id=play.id, user_id=ALICE, text=wrong,
                                    action_id=action())
    assert (missed.status, format_code(missed.named)) == ("missed", wrong)
    assert stored(db_path)[5:] == ("missed", wrong)


async def test_forget_me_deletes_a_players_puzzles(services, db_path):
    s = services
    await today(s, ALICE)
    await today(s, BOB)
    counts = await s.stats.forget(ALICE)
    assert counts["puzzles"] == 1
    assert rows(db_path, "SELECT user_id FROM puzzle_plays") == [(BOB,)]
