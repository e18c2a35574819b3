"""Private games at service level (``BreakerService``, ``ChallengeService``,
``StatsService``), on a real database, SQLite and PostgreSQL: one running private game per
player (beside everyone else's and the channel's), a private game by its id refused to
anyone else, and its own leaderboard kept apart from the shared one. What only the player
sees, and where, is in ``tests/test_bot_private.py``."""

from __future__ import annotations

import pytest
from service_kit import action, rows, state, words

from bot.core.enums import Mode, Period
from bot.core.errors import NoPrivateGame, PrivateGameRunning
from bot.features.stats.render import leaderboard_embed, stats_embed
from engine import Rules, format_code

GUILD, GENERAL, OTHER = 7, 100, 200
ALICE, BOB = 1, 2
NAMES = {ALICE: "alice", BOB: "bob"}
CLASSIC = Rules(4, 6, 10, True)


async def new_game(s, user: int, channel: int = GENERAL, *, private: bool):
    opened = await s.breaker.new_game(guild_id=GUILD, channel_id=channel, user_id=user,
                                      user_name=NAMES[user], rules=CLASSIC, private=private,
                                      action_id=action())
    return opened.game


async def test_one_private_game_per_player(services, db_path):
    s = services
    await new_game(s, ALICE, private=True)
    before = state(db_path)
    attempts = [
        new_game(s, ALICE, OTHER, private=True),
        s.challenges.start(guild_id=GUILD, channel_id=OTHER, user_id=ALICE, user_name="alice",
                           rules=CLASSIC, strategy="knuth", action_id=action(), private=True),
    ]
    for attempt in attempts:
        with pytest.raises(PrivateGameRunning) as refused:
            await attempt
        title, message = words(refused.value)
        assert title == "You have a private game"
        assert "One private game at a time" in message and f"<#{GENERAL}>" in message
    assert state(db_path) == before
    # others have their own, and the channel its own
    assert (await new_game(s, BOB, private=True)).private
    assert not (await new_game(s, ALICE, private=False)).private
    assert rows(db_path, "SELECT started_by, private FROM games ORDER BY id") == [
        (ALICE, 1), (BOB, 1), (ALICE, 0)]


async def test_a_private_game_by_its_id_is_its_players_alone(services, db_path):
    """``BreakerService.guess_in``: what a button on a private board calls. (Moved from
    test_bot_private.py, where it called the bot's service directly.)"""
    s = services
    game = await new_game(s, ALICE, private=True)
    secret = format_code(game.secret)
    with pytest.raises(NoPrivateGame):
        await s.breaker.guess_in(game.id, user_id=BOB, user_name="bob", text=secret,
                                 action_id=action())
    assert rows(db_path, "SELECT COUNT(*) FROM guesses") == [(0,)]
    played = await s.breaker.guess_in(game.id, user_id=ALICE, user_name="alice", text=secret,
                                      action_id=action())
    assert played.status.value == "won" and len(played.guesses) == 1


async def test_leaderboards_keep_private_and_shared_apart(services, db_path):
    s = services
    alices = await new_game(s, ALICE, private=True)
    await s.breaker.guess(channel_id=GENERAL, user_id=ALICE, user_name="alice",
                          text=format_code(alices.secret), action_id=action())
    bobs = await new_game(s, BOB, private=False)
    await s.breaker.guess(channel_id=GENERAL, user_id=BOB, user_name="bob",
                          text=format_code(bobs.secret), action_id=action())

    async def board(mode: Mode, viewer: int) -> str:
        page = await s.stats.leaderboard(mode=mode, scope=GUILD, period=Period.ALL,
                                         size="4x6", page=0, viewer_id=viewer)
        embed = leaderboard_embed(page, NAMES[viewer], "x")
        return f"{embed.title}\n{embed.description}\n{embed.fields[0].value}"

    shared = await board(Mode.BREAKER, ALICE)
    assert shared.startswith("Code breakers") and "bob" in shared and "alice" not in shared
    solo = await board(Mode.PRIVATE, BOB)
    assert solo.startswith("Private games") and "**alice**" in solo and "**bob**" not in solo
    assert "Not on this board yet" in solo  # bob, viewing the private board
    assert rows(db_path, "SELECT DISTINCT mode, user_id FROM standings ORDER BY 1") == [
        ("breaker", BOB), ("private", ALICE)]
    shown = {f.name: f.value for f in stats_embed(await s.stats.player(ALICE, "4x6"),
                                                  "alice").fields}
    assert shown["Games played"] == "1 · 1 private"
    before = rows(db_path, "SELECT * FROM standings ORDER BY 1, 2, 3, 4, 5")
    await s.stats.recompute()  # a rebuild from the stored games gives the same tables
    assert rows(db_path, "SELECT * FROM standings ORDER BY 1, 2, 3, 4, 5") == before
