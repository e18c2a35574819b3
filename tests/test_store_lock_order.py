"""PostgreSQL write transactions take their locks in one global order (bot/store/locks.py),
so no two of them wait for each other: not in a lock cycle, and not for the server's deadlock
detector. Two "processes" (two ``Database`` objects) on the real server."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.core.enums import GameKind
from bot.core.records import NewGame
from bot.services.games import GameService
from bot.store import Database, locks
from engine import Rules, code_from_digits, score_codes

pytestmark = pytest.mark.postgresql_only

RULES = Rules(4, 6, 10, True)
CODE = code_from_digits("1234")
_ids = itertools.count(10**15)


@pytest.fixture
async def two(db_path):
    first, second = await Database.open(db_path), await Database.open(db_path)
    try:
        yield GameService(first), GameService(second)
    finally:
        await first.close()
        await second.close()


async def test_keys_named_in_opposite_orders_are_taken_in_one_order(two):
    """Forty pairs of transactions at once, each pair needing the same two channels and a
    player, named in opposite orders: each takes all three sorted, so every one completes
    (none waits for the other in a cycle, none is ended as a deadlock)."""
    done: list[int] = []

    async def write(games: GameService, pair: int, keys: tuple[locks.Key, ...]) -> None:
        async with games.db.transaction() as conn:
            await locks.hold(conn, *keys)
            await asyncio.sleep(0.01)  # the other of the pair asks meanwhile
            await conn.execute("SELECT 1")
        done.append(pair)

    first, second = two
    pairs = []
    for pair in range(40):
        keys = (locks.channel(pair), locks.channel(1000 - pair), locks.private(pair % 3))
        pairs += [write(first, pair, keys), write(second, pair, keys[::-1])]
    await asyncio.wait_for(asyncio.gather(*pairs), 20)
    assert sorted(done) == sorted(list(range(40)) * 2)


async def test_a_key_ranked_below_one_held_is_refused_before_it_waits(two):
    """A transaction holding a channel that then asks for a player's private key could
    close a cycle with a move that holds the player and asks for the channel: the order
    is checked as keys are taken (the suite turns the report into a failure)."""
    games, _ = two
    with pytest.raises(AssertionError, match="out of order"):
        async with games.db.transaction() as conn:
            await locks.hold(conn, locks.channel(1))
            await locks.hold(conn, locks.private(7))
    with pytest.raises(AssertionError, match="out of order"):
        async with games.db.transaction() as conn:
            await locks.hold(conn, locks.channel(1))
            await locks.hold(conn, locks.channel(2))


async def test_private_games_started_in_each_others_channels_move_at_once(two, db_path):
    """Player 1's private game was started in channel B, player 2's in channel A; each
    guesses from the other's channel at the same moment. A move looks for the player's
    private game, then at the channel it was typed in (is a game running there?), then
    writes the private game: with a private game locked under its channel, the two moves
    would hold one channel each and wait for the other's. Both are stored."""
    first, second = two
    channel_a, channel_b = 10, 20
    for games, (player, channel) in zip(two, ((1, channel_b), (2, channel_a)), strict=True):
        await games.open(NewGame(kind=GameKind.BREAKER, guild_id=5, channel_id=channel,
                                 started_by=player, rules=RULES, secret=CODE,
                                 action_id=next(_ids), private=True), user_name=f"p{player}")
    both_looked = asyncio.Barrier(2)

    async def guess(games: GameService, player: int, channel: int) -> int:
        code = code_from_digits("1122")
        async with games.db.transaction() as conn:
            game, _, private = await games.load_for(conn, channel_id=channel, user_id=player)
            assert game is not None and private
            await both_looked.wait()  # each holds what choosing its game took
            stored = await games.store.add_guess(
                conn, game, player_id=player, code=code, feedback=score_codes(CODE, code),
                now=games.clock(), action_id=next(_ids))
        return len(stored.guesses)

    turns = await asyncio.wait_for(asyncio.gather(
        guess(first, 1, channel_a), guess(second, 2, channel_b)), 10)
    assert turns == [1, 1]


async def test_keys_a_statement_takes_itself_are_holds_own_and_checked_as_its(two):
    """``locks.in_statement``: the keys a statement takes itself (``rating_open``, a rated
    game's players) are the locks :func:`locks.hold` takes (another transaction waits for
    them), counted as held and checked for order; before the transaction's first statement
    they ride on its ``BEGIN``. The function asks for generic plans to the end of its
    transaction; the next transaction on the connection plans as before."""
    games, other = two
    keys = [locks.rating(5, u) for u in (3, 10, 2)]

    async def mode(conn) -> str:
        async with conn.execute("SELECT current_setting('plan_cache_mode')") as cur:
            ((value,),) = await cur.fetchall()
        return str(value)

    async def hold_elsewhere(key: locks.Key) -> None:
        async with other.db.transaction() as conn:
            await locks.hold(conn, key)

    async with games.db.transaction() as conn:
        await locks.hold(conn, locks.channel(5))  # an ending holds its game's key first
        taken = await locks.in_statement(conn, *keys)
        assert taken == ["mastermind:rating:5:10", "mastermind:rating:5:2",
                         "mastermind:rating:5:3"]  # by name, as hold() orders them
        assert all(locks.holding(conn, k) for k in keys)
        assert await locks.in_statement(conn, keys[0]) == []  # held already
        async with conn.execute(
                "SELECT user_id, rating FROM rating_open(?, 'race', 1, 5, '2026-11', 0, 0,"
                " 86400, ?)", (taken, [2, 3, 10])) as cur:
            assert sorted(await cur.fetchall()) == [(2, None), (3, None), (10, None)]
        assert await mode(conn) == "force_generic_plan"
        waiter = asyncio.create_task(hold_elsewhere(keys[1]))
        await asyncio.sleep(0.3)
        assert not waiter.done()  # the function's lock is hold()'s
    await asyncio.wait_for(waiter, 10)
    async with games.db.transaction() as conn:
        assert await locks.in_statement(conn, *keys) == []  # on the BEGIN
        assert conn.began and all(locks.holding(conn, k) for k in keys)
        assert await mode(conn) == "auto"
    with pytest.raises(AssertionError, match="out of order"):
        async with games.db.transaction() as conn:
            await locks.hold(conn, locks.rating(5, 9))
            await locks.in_statement(conn, locks.rating(5, 1))
