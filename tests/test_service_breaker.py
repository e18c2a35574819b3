"""The code-breaking game's rules at service level (``BreakerService``), on a real database,
SQLite and PostgreSQL: what a guess is refused for and with which words, that a refusal
stores nothing, and what an accepted guess stores. The Discord side of each (a private
answer, the board) is in ``tests/test_bot_breaker.py``, once."""

from __future__ import annotations

import pytest
from service_kit import action, rows, state, words

import bot.features.breaker.render  # noqa: F401 (registers the breaker's words)
from bot.core.errors import BadCode, GameAlreadyRunning, NoGameRunning
from engine import Rules, format_code

CHANNEL, GUILD, ALICE, BOB = 100, 7, 1, 2
CLASSIC = Rules(4, 6, 10, True)


async def new_game(services, rules: Rules = CLASSIC, channel: int = CHANNEL):
    opened = await services.breaker.new_game(guild_id=GUILD, channel_id=channel, user_id=ALICE,
                                             user_name="alice", rules=rules, action_id=action())
    return opened.game


async def guess(services, text: str, user: int = ALICE, channel: int = CHANNEL):
    return await services.breaker.guess(channel_id=channel, user_id=user, user_name="alice",
                                        text=text, action_id=action())


def wrong_code(secret: str, colors: int = 6) -> str:
    """A valid code that is not the secret."""
    return str(int(secret[0]) % colors + 1) + secret[1:]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("12", "expected 4 pegs, got 2"),
        ("12345", "expected 4 pegs, got 5"),
        ("1723", "colour 7 (N = brown) at peg 2 is out of range"),
        ("12a4", "unknown character 'a' at peg 3"),
        ("1 2 \N{GRINNING FACE} 4", "unknown character"),
        ("   ", "the code is empty"),
        ("9" * 100, "that is 100 characters long"),
        ("\u200b1234", "unknown character U+200B at peg 1"),
    ],
)
async def test_bad_codes_are_explained_and_change_nothing(services, db_path, code, expected):
    """(From test_bot_breaker.py, where one of these still goes through Discord.)"""
    game = await new_game(services)
    await guess(services, wrong_code(format_code(game.secret)))
    before = state(db_path)
    with pytest.raises(BadCode) as refused:
        await guess(services, code)
    title, message = words(refused.value)
    assert title == "That is not a valid code"
    assert expected.lower() in message.lower()
    assert "/guess 1123" in message  # how to type one right here
    assert state(db_path) == before


async def test_a_repeat_is_refused_when_repeats_are_off(services, db_path):
    await new_game(services, Rules(4, 6, 10, False))
    before = state(db_path)
    with pytest.raises(BadCode) as refused:
        await guess(services, "1123")
    assert "colour 1 appears twice, but repeats are off" in words(refused.value)[1].lower()
    assert state(db_path) == before


async def test_full_width_digits_and_letters_are_read_as_codes(services, db_path):
    game = await new_game(services)
    secret = format_code(game.secret)
    first = wrong_code(secret)
    second = wrong_code(first) if wrong_code(first) != secret else wrong_code(secret, 5)
    wide = "".join(chr(ord("０") + int(d)) for d in first)
    letters = "-".join("ROYGBP"[int(d) - 1].lower() for d in second)
    await guess(services, wide)
    await guess(services, letters)
    assert rows(db_path, "SELECT code FROM guesses ORDER BY turn") == [(first,), (second,)]


async def test_a_guess_without_a_game_says_how_to_start_one(services, db_path):
    with pytest.raises(NoGameRunning) as refused:
        await guess(services, "1234")
    assert "/mastermind new" in words(refused.value)[1]
    assert rows(db_path, "SELECT COUNT(*) FROM guesses") == [(0,)]


async def test_one_game_per_channel(services, db_path):
    game = await new_game(services)
    await services.games.set_board_message(game.id, 987654321)
    with pytest.raises(GameAlreadyRunning) as refused:
        await new_game(services)
    assert "already running" in words(refused.value)[1]
    assert "987654321" in words(refused.value)[1]  # links to the running game's board
    assert rows(db_path, "SELECT id FROM games") == [(game.id,)]
