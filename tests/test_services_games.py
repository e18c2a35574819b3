"""GameService is built with everything it consults (wiring by constructor): the servers'
idle rule and channel check, and other features' end hooks and channel checks. Service
level, on a real database: no Discord involved."""

from __future__ import annotations

import itertools

import pytest

from bot.core.enums import GameKind, GameStatus
from bot.core.errors import NoGameRunning, UserError
from bot.core.records import GameRecord, NewGame
from bot.features.settings.errors import ChannelNotAllowed
from bot.services.games import GameService, IdleRule
from bot.store import Connection
from engine import Rules, code_from_digits

RULES = Rules(4, 6, 10, True)
_ids = itertools.count(10**15)


class Held(UserError):
    """Another feature holds the channel."""


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def open_game(games: GameService, guild: int, channel: int) -> GameRecord:
    opened = await games.open(NewGame(GameKind.BREAKER, guild, channel, 1, RULES,
                                      secret=code_from_digits("1234"), action_id=next(_ids)),
                              user_name="p1")
    return opened.game


def test_the_idle_rule_takes_a_servers_own_timeout_over_the_bots():
    rule = IdleRule(3600, by_server=lambda guild: 60.0 if guild == 7 else None)
    assert rule.seconds(7) == 60.0
    assert rule.seconds(8) == rule.seconds(None) == 3600


async def test_a_game_goes_idle_by_its_servers_timeout(db):
    clock = Clock()
    games = GameService(db, clock=clock,
                        idle=IdleRule(3600, by_server=lambda g: 60.0 if g == 7 else None))
    quick, slow = await open_game(games, 7, 100), await open_game(games, 8, 200)
    clock.now += 61
    assert (await games.running(200)).id == slow.id
    with pytest.raises(NoGameRunning) as raised:
        await games.running(100)
    assert raised.value.abandoned is not None and raised.value.abandoned.id == quick.id
    assert raised.value.idle_timeout == 60.0


async def test_the_servers_channel_check_refuses_before_anything_is_stored(db):
    def only_channel_5(guild: int | None, channel: int) -> None:
        if channel != 5:
            raise ChannelNotAllowed((5,))

    games = GameService(db, channel_allowed=only_channel_5)
    with pytest.raises(ChannelNotAllowed):
        await open_game(games, 7, 100)
    assert await games.latest(100) is None
    assert (await open_game(games, 7, 5)).channel_id == 5


async def test_hooks_given_when_built_run_in_the_transaction_that_opens_or_ends(db):
    ended: list[tuple[int, GameStatus, int | None]] = []
    held = {300}

    async def on_end(conn: Connection, game: GameRecord, by: int | None) -> None:
        # In the ending transaction: the game row already says it ended.
        stored = await games.store.get(conn, game.id)
        assert stored is not None and stored.status is game.status
        ended.append((game.id, game.status, by))

    async def hold(conn: Connection, channel: int) -> None:
        if channel in held:  # as a match holds its channel
            raise Held()

    games = GameService(db, end_hooks=[on_end], channel_checks=[hold])
    assert games.end_hooks == (on_end,) and games.channel_checks == (hold,)
    with pytest.raises(Held):
        await open_game(games, 7, 300)
    game = await open_game(games, 7, 301)
    await games.quit(channel_id=301, user_id=1, can_manage=False, action_id=next(_ids))
    assert ended == [(game.id, GameStatus.QUIT, 1)]
