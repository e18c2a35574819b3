"""/challenge's rules at service level (``ChallengeService``), on a real database, SQLite
and PostgreSQL: the bot breaking codes with each strategy, the guess limit, replies that
can't happen and strangers refused with their words and nothing stored. The boards and
buttons are in ``tests/test_bot_challenge.py``."""

from __future__ import annotations

import pytest
from service_kit import action, rows, state, words

import bot.features.challenge.render  # noqa: F401 (registers the challenge's words)
from bot.core.enums import GameStatus
from bot.features.challenge.errors import ImpossibleReply, NotYourChallenge
from engine import Rules, format_code, score

CHANNEL, GUILD, ALICE, BOB = 300, 7, 1, 2
CLASSIC = Rules(4, 6, 10, True)


async def start(s, strategy: str = "knuth", rules: Rules = CLASSIC):
    started, _ = await s.challenges.start(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", rules=rules,
        strategy=strategy, action_id=action())
    return started.game


async def answer(s, game, reply: tuple[int, int], user: int = ALICE):
    """A reply clicked on the board (its turn named in the button)."""
    checked = s.challenges.check_reply(game, reply, turn=len(game.replies) + 1,
                                       action_id=action(), player_id=user)
    return (await s.challenges.commit_reply(checked)).game


async def crack(s, game, secret: str):
    """Answer every guess truthfully until the game ends."""
    while game.active:
        fb = score(secret, format_code(game.pending_guess))
        game = await answer(s, game, (fb.black, fb.white))
    return game


@pytest.mark.parametrize("secret", ["1111", "6543", "2525", "4136", "6666", "1221"])
async def test_knuth_never_needs_more_than_five(services, db_path, secret):
    """(From test_bot_challenge.py, where one secret still goes through Discord.)"""
    game = await start(services)
    assert format_code(game.pending_guess) == "1122"
    game = await crack(services, game, secret)
    assert game.status is GameStatus.WON and len(game.replies) <= 5
    stored = rows(db_path, "SELECT guess, black, white FROM challenge_replies ORDER BY turn")
    assert len(stored) == len(game.replies) and stored[-1] == (secret, 4, 0)


async def test_the_player_wins_by_the_guess_limit(services, db_path):
    game = await crack(services, await start(services, rules=Rules(4, 6, 2, True)), "6543")
    assert game.status is GameStatus.LOST and game.winner_id == ALICE
    assert rows(db_path, "SELECT status, winner_id FROM games") == [("lost", ALICE)]


async def test_replies_that_cant_happen_are_refused(services, db_path):
    game = await start(services, strategy="optimal")
    before = state(db_path)
    for reply, expected in (((3, 1), "3 black and 1 white can't happen"),
                            ((4, 4), "only 4 pegs")):
        with pytest.raises(ImpossibleReply) as refused:
            await answer(services, game, reply)
        assert expected in words(refused.value)[1]
    assert state(db_path) == before


async def test_a_stranger_cannot_answer(services, db_path):
    game = await start(services)
    before = state(db_path)
    with pytest.raises(NotYourChallenge) as by_button:
        await services.challenges.load(game.id, BOB)
    with pytest.raises(NotYourChallenge) as typed:  # /feedback typed in the channel
        await services.challenges.in_channel(CHANNEL, BOB)
    for refused in (by_button, typed):
        assert "not your challenge" in words(refused.value)[0]
    assert state(db_path) == before
