"""Hints at service level (``HintService``), on a real database, SQLite and PostgreSQL: when
a hint is refused and with which words (nothing stored), and a hinted crack counted in the
player's stats but kept off the leaderboards. The hints' words and levels as the channel
sees them are in ``tests/test_bot_hints.py``."""

from __future__ import annotations

import pytest
from service_kit import action, rows, state, words

import bot.features.hints.render  # noqa: F401 (registers the hints' words)
from bot.core.enums import Mode, Period
from bot.core.errors import NoGameRunning, UserError, WrongKindOfGame
from bot.features.breaker.render import board_embed
from bot.features.hints.errors import HintNeedsAGuess, HintsOff, NoHintsInMatches, NoMoreHints
from bot.features.settings.service import Changes
from bot.features.stats.render import leaderboard_embed, stats_embed
from engine import Rules, format_code

GUILD, CHANNEL, ALICE, ADMIN = 7, 100, 1, 9
CLASSIC = Rules(4, 6, 10, True)


async def new_game(s):
    opened = await s.breaker.new_game(guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE,
                                      user_name="alice", rules=CLASSIC, action_id=action())
    return format_code(opened.game.secret)


async def guess(s, code: str):
    return await s.breaker.guess(channel_id=CHANNEL, user_id=ALICE, user_name="alice",
                                 text=code, action_id=action())


async def hint(s):
    game = await s.hints.check(guild_id=GUILD, channel_id=CHANNEL)
    return await s.hints.commit(game, s.hints.work_out(game), user_id=ALICE, action_id=action())


def wrong(secret: str) -> str:
    return "1122" if secret != "1122" else "3344"


async def refused(s, db_path, kind: type[UserError], title: str) -> None:
    before = state(db_path)
    with pytest.raises(kind) as raised:
        await hint(s)
    assert words(raised.value)[0] == title
    assert state(db_path) == before


async def test_when_a_hint_is_refused(services, db_path):
    s = services
    await refused(s, db_path, NoGameRunning, "No game is running here")
    await s.challenges.start(guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE,
                             user_name="alice", rules=CLASSIC, strategy="knuth",
                             action_id=action())
    await refused(s, db_path, WrongKindOfGame, "A challenge is running here")
    await s.games.quit(channel_id=CHANNEL, user_id=ALICE, can_manage=False, action_id=action())
    await s.matches.start(guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice",
                          rules=CLASSIC, rounds=1, strategy="knuth", opponent=None,
                          action_id=action())
    await refused(s, db_path, NoHintsInMatches, "No hints in a match")
    await s.matches.quit(channel_id=CHANNEL, user_id=ALICE, can_manage=False,
                         action_id=action())
    secret = await new_game(s)
    await hint(s)
    await refused(s, db_path, HintNeedsAGuess, "Guess first")  # level 2 needs a reply
    await guess(s, wrong(secret))
    await hint(s)
    await hint(s)
    await refused(s, db_path, NoMoreHints, "No hints left")
    assert rows(db_path, "SELECT level FROM hints ORDER BY level") == [(1,), (2,), (3,)]
    await s.settings.change(GUILD, ADMIN, Changes(hints=False), action_id=action())
    await refused(s, db_path, HintsOff, "Hints are off here")


async def test_a_hinted_crack_counts_in_stats_not_on_leaderboards(services, db_path):
    s = services
    secret = await new_game(s)
    await guess(s, wrong(secret))
    await hint(s)
    won = await guess(s, secret)
    assert rows(db_path, "SELECT status FROM games") == [("won",)]
    assert "won't count on the leaderboards" in str(board_embed(won).fields)
    assert rows(db_path, "SELECT won, hinted FROM results") == [(1, 1)]
    assert rows(db_path, "SELECT COUNT(*) FROM standings") == [(0,)]
    board = await s.stats.leaderboard(mode=Mode.BREAKER, scope=GUILD, period=Period.ALL,
                                      size="4x6", page=0, viewer_id=ALICE)
    assert "Nobody has cracked a code here" in leaderboard_embed(board, "alice", "x").description
    shown = {f.name: f.value for f in stats_embed(await s.stats.player(ALICE, "4x6"),
                                                  "alice").fields}
    assert shown["Games played"] == "1 · 1 with hints"
    assert shown["Codes cracked"].startswith("1 ")
    # The same game without a hint would have counted: a second, clean game does.
    await guess(s, await new_game(s))
    assert rows(db_path, "SELECT COUNT(DISTINCT user_id) FROM standings") == [(1,)]
