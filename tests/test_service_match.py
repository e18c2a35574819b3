"""/match's rules at service level (``MatchService`` with the game services), on a real
database, SQLite and PostgreSQL: who may start, answer, set a code and guess, each refusal's
words with nothing stored, and the matches' stats, leaderboards and rebuild. The boards,
buttons, restarts and deliveries are in ``tests/test_bot_match.py``."""

from __future__ import annotations

import contextlib

import pytest
from dbtools import connect
from service_kit import action, rows, state, words

import bot.features.breaker.render  # registers the breaker's words
import bot.features.match.render  # noqa: F401 (registers the match's words)
from bot.core.enums import Mode, Period
from bot.core.errors import BadCode, GameAlreadyRunning, UserError
from bot.features.breaker.errors import NotYourTurn
from bot.features.match.errors import (
    BadOpponent,
    MatchOver,
    MatchRunning,
    NotInMatch,
    NotYourCode,
    OnlyInvitee,
    StaleMatchButton,
)
from bot.features.stats.render import leaderboard_embed, stats_embed
from engine import Rules, format_code

GUILD, CHANNEL = 7, 100
ALICE, BOB, MOD = 1, 2, 3
NAMES = {ALICE: "alice", BOB: "bob", MOD: "mod"}
CLASSIC = Rules(4, 6, 10, True)


async def start(s, user: int = ALICE, *, opponent: int | None = None, rounds: int = 3,
                rules: Rules = CLASSIC):
    return await s.matches.start(guild_id=GUILD, channel_id=CHANNEL, user_id=user,
                                 user_name=NAMES[user], rules=rules, rounds=rounds,
                                 strategy="knuth", opponent=opponent, action_id=action())


async def guess(s, code: str, user: int):
    return await s.breaker.guess(channel_id=CHANNEL, user_id=user, user_name=NAMES[user],
                                 text=code, action_id=action())


async def refused(db_path, attempt, kind: type[UserError], title: str) -> str:
    """The attempt raises ``kind`` titled ``title`` and stores nothing: its message."""
    before = state(db_path)
    with pytest.raises(kind) as raised:
        await attempt
    said_title, message = words(raised.value)
    assert said_title == title
    assert state(db_path) == before
    return message


async def test_starting_a_match_where_it_cant_start(services, db_path):
    s = services
    await refused(db_path, start(s, opponent=ALICE), BadOpponent, "Pick another opponent")
    await s.breaker.new_game(guild_id=GUILD, channel_id=CHANNEL, user_id=BOB, user_name="bob",
                             rules=CLASSIC, action_id=action())
    await refused(db_path, start(s), GameAlreadyRunning, "A game is already running here")
    await s.games.quit(channel_id=CHANNEL, user_id=BOB, can_manage=False, action_id=action())
    await start(s, opponent=BOB)  # an invitation holds the channel
    await refused(db_path, start(s, BOB), MatchRunning, "A match is running here")
    held = s.breaker.new_game(guild_id=GUILD, channel_id=CHANNEL, user_id=MOD,
                              user_name="mod", rules=CLASSIC, action_id=action())
    await refused(db_path, held, MatchRunning, "A match is running here")
    assert rows(db_path, "SELECT COUNT(*) FROM matches") == [(1,)]


async def test_who_may_answer_an_invitation(services, db_path, wall_clock):
    s = services
    match = (await start(s, opponent=BOB, rounds=1)).match
    answer = s.matches.answer
    await refused(db_path, answer(match.id, user_id=MOD, user_name="mod", accept=True),
                  NotInMatch, "This is not your match")
    await refused(db_path, answer(match.id, user_id=ALICE, user_name="alice", accept=True),
                  OnlyInvitee, "Waiting for your opponent")
    accepted = await answer(match.id, user_id=BOB, user_name="bob", accept=True,
                            action_id=action())
    assert accepted.match.status.value == "active"
    again = await refused(db_path, s.matches.check_invitation(match.id, BOB),
                          StaleMatchButton, "That button is out of date")
    assert "invitation was accepted already" in again  # a double click, not "code set"
    await s.matches.quit(channel_id=CHANNEL, user_id=ALICE, can_manage=False,
                         action_id=action())

    declined = (await start(s, opponent=BOB)).match
    await answer(declined.id, user_id=BOB, user_name="bob", accept=False, action_id=action())
    late = (await start(s, opponent=BOB)).match
    wall_clock.advance(16 * 60)
    with pytest.raises(MatchOver) as expired:
        await answer(late.id, user_id=BOB, user_name="bob", accept=True, action_id=action())
    assert words(expired.value)[0] == "This invitation expired"
    assert rows(db_path, "SELECT status FROM matches ORDER BY id") == [
        ("forfeit",), ("declined",), ("expired",)]


async def test_who_may_set_a_code_and_guess_it(services, db_path):
    s = services
    match = (await start(s, opponent=BOB, rounds=1)).match
    await s.matches.answer(match.id, user_id=BOB, user_name="bob", accept=True,
                           action_id=action())
    set_code = s.matches.set_code
    await refused(db_path, set_code(match.id, 0, user_id=ALICE, text="3456"), NotYourCode,
                  "Not your code to set")
    await refused(db_path, set_code(match.id, 0, user_id=MOD, text="3456"), NotInMatch,
                  "This is not your match")
    await refused(db_path, set_code(match.id, 0, user_id=BOB, text="36"), BadCode,
                  "That is not a valid code")
    game = (await set_code(match.id, 0, user_id=BOB, text="3456", action_id=action())).game
    assert game is not None
    assert (format_code(game.secret), game.setter_id, game.started_by) == ("3456", BOB, ALICE)
    for user in (BOB, MOD):  # the setter can't guess; a stranger neither
        await refused(db_path, guess(s, "1111", user), NotYourTurn, "Not your code to break")
    await guess(s, "1111", ALICE)
    await guess(s, "3456", ALICE)  # the half ends: alice sets the next code
    await refused(db_path, s.matches.check_setter(match.id, 0, BOB), StaleMatchButton,
                  "That button is out of date")  # the first half's button, spent
    assert rows(db_path, "SELECT half, half_scores FROM matches") == [(1, "2")]


async def test_match_stats_leaderboard_and_rebuild(services, db_path):
    s = services
    for _ in range(2):  # alice forfeits two matches; bob wins a one-round match
        await start(s)
        await s.matches.quit(channel_id=CHANNEL, user_id=ALICE, can_manage=False,
                             action_id=action())
    first = (await start(s, BOB, rounds=1, rules=Rules(4, 6, 1, True))).game
    assert first is not None
    await guess(s, format_code(first.secret), BOB)  # 1 move
    challenge = (await s.challenges.board(await s.games.running(CHANNEL))).game
    reply = s.challenges.check_reply(challenge, (0, 0), turn=1, action_id=action(),
                                     player_id=BOB)
    await s.challenges.commit_reply(reply)  # the bot fails its one guess: 2 moves
    assert rows(db_path, "SELECT status, winner, half_scores FROM matches ORDER BY id")[-1] == (
        "finished", "a", "1,2")

    shown = {f.name: f.value for f in stats_embed(await s.stats.player(ALICE, "4x6"),
                                                  "alice").fields}
    assert shown["Matches against the bot"] == "0 won · 0 drawn · 2 lost"
    board = await s.stats.leaderboard(mode=Mode.MATCH_BOT, scope=GUILD, period=Period.ALL,
                                      size="4x6", page=0, viewer_id=BOB)
    embed = leaderboard_embed(board, "bob", "x")
    assert embed.title.startswith("Matches against the bot")
    lines = embed.description.splitlines()
    assert "**bob** · 1 won · 0 drawn · 0 lost" in lines[0]
    assert "**alice** · 0 won · 0 drawn · 2 lost" in lines[1]

    def standings() -> list[tuple]:
        with contextlib.closing(connect(db_path)) as conn:
            return sorted(tuple(r) for r in conn.execute("SELECT * FROM standings"))

    before = standings()
    await s.stats.recompute()
    assert standings() == before
