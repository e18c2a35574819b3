"""Two processes (two ``Database`` objects, each with connections of its own) writing at
the same moment, on both backends: what must hold across games holds under races. One
running game per channel, one daily play per player, leaderboard totals, the live board,
and each interaction stored once. On PostgreSQL writes of different channels also run at
once: one channel's lock held open does not hold up a move elsewhere.
"""

from __future__ import annotations

import asyncio
import itertools
import random

import asyncpg
import dbtools
import pytest

from bot.core.enums import GameKind
from bot.core.errors import AlreadyDone, GameAlreadyRunning
from bot.core.records import NewGame
from bot.features.breaker.errors import AlreadyGuessed
from bot.features.breaker.service import BreakerService
from bot.features.daily.service import DailyService, secret_for
from bot.features.puzzle.errors import PuzzleAnswered
from bot.features.puzzle.service import PuzzleService
from bot.services.games import GameService
from bot.store import Database, GameStore
from engine import Rules, code_from_digits, format_code
from engine.puzzle import Level

RULES = Rules(4, 6, 10, True)
CODE = code_from_digits("1234")
#: Interaction ids: unique per test, like Discord's.
_ids = itertools.count(10**15)


@pytest.fixture
async def two(db_path):
    """Two "processes" on one database, each with its services."""
    first = await Database.open(db_path)
    second = await Database.open(db_path)
    try:
        yield GameService(first), GameService(second)
    finally:
        await first.close()
        await second.close()


def rows(db_path, sql: str, *args) -> list[tuple]:
    with dbtools.connect(db_path) as conn:
        return [tuple(row) for row in conn.execute(sql, args).fetchall()]


async def open_game(games: GameService, channel: int, user: int = 1):
    return await games.open(NewGame(GameKind.BREAKER, 5, channel, user, RULES, secret=CODE,
                                    action_id=next(_ids)), user_name=f"p{user}")


async def test_two_new_games_in_one_channel_from_two_processes_open_one(two, db_path):
    """Each channel: both processes ask at once; one opens, the other is told a game runs
    (never a database error)."""
    channels = range(100, 120)
    results = await asyncio.gather(*(open_game(games, channel, user)
                                      for channel in channels
                                      for user, games in enumerate(two, 1)),
                                   return_exceptions=True)
    opened = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(opened) == len(channels)
    assert all(isinstance(r, GameAlreadyRunning) for r in refused), refused
    assert rows(db_path, "SELECT channel_id, COUNT(*) FROM games WHERE status = 'active'"
                         " GROUP BY channel_id ORDER BY channel_id") == [
        (channel, 1) for channel in channels]


async def test_one_interaction_delivered_to_two_processes_is_stored_once(two, db_path):
    """The same guess (one interaction id) reaches both processes: stored once; the other
    is refused as done already (the interaction's unique key) or as a code already on the
    board (when it reads the game after the first committed): never a database error."""
    first, _ = two
    channels = range(200, 220)
    for channel in channels:
        await open_game(first, channel)
    deliveries = []
    for channel in channels:
        action = next(_ids)
        deliveries += [BreakerService(games).guess(channel_id=channel, user_id=7,
                                                   user_name="p7", text="1122",
                                                   action_id=action) for games in two]
    results = await asyncio.gather(*deliveries, return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    assert len(failed) == len(channels)
    assert all(isinstance(r, AlreadyDone | AlreadyGuessed) for r in failed), failed
    assert rows(db_path, "SELECT COUNT(*), COUNT(DISTINCT interaction_id) FROM guesses") == [
        (len(channels), len(channels))]


async def test_moves_from_two_processes_in_one_channel_lose_and_double_nothing(two, db_path):
    """Both processes play the same channels at once, different guesses: every guess is
    stored once, turns 1, 2, 3, ... with no gap."""
    channels = range(300, 330)
    for channel in channels:
        await open_game(two[0], channel)
    codes = ("1111", "2222", "3333", "4444", "5555", "6666")
    await asyncio.gather(*(
        BreakerService(two[n % 2]).guess(channel_id=channel, user_id=n, user_name=f"p{n}",
                                         text=code, action_id=next(_ids))
        for channel in channels for n, code in enumerate(codes)))
    for channel in channels:
        stored = rows(db_path, "SELECT turn, code FROM guesses JOIN games g ON g.id = game_id"
                               " WHERE g.channel_id = ? ORDER BY turn", channel)
        assert [turn for turn, _ in stored] == list(range(1, len(codes) + 1))
        assert sorted(code for _, code in stored) == sorted(codes)


async def test_one_daily_play_per_player_from_two_processes(two, db_path):
    """A player's first daily guesses arrive at both processes at once: one play, each
    guess a turn of it."""
    dailies = [DailyService(games) for games in two]
    for daily in dailies:
        await daily.start()
    code = format_code(secret_for(dailies[0]._seed or "", dailies[0].today()))
    misses = [c for c in ("1111", "2222", "3333", "4444") if c != code][:2]
    players = range(40, 60)
    await asyncio.gather(*(daily.guess(user_id=user, user_name=f"p{user}", guild_id=5,
                                       text=guess, action_id=next(_ids))
                           for user in players
                           for daily, guess in zip(dailies, misses, strict=True)))
    assert rows(db_path, "SELECT COUNT(*), COUNT(DISTINCT user_id) FROM daily_plays") == [
        (len(players), len(players))]
    assert rows(db_path, "SELECT COUNT(*) FROM daily_guesses WHERE turn IN (1, 2)") == [
        (2 * len(players),)]


async def test_leaderboard_totals_add_up_when_games_end_at_once(two, db_path):
    """One player wins ten games ending at the same moment in two processes: every total
    counts ten (the upserts never lose one, and never wait on each other for ever)."""
    channels = range(400, 410)
    for channel in channels:
        await open_game(two[0], channel, user=9)
    await asyncio.gather(*(BreakerService(two[n % 2]).guess(
        channel_id=channel, user_id=9, user_name="p9", text="1234", action_id=next(_ids))
        for n, channel in enumerate(channels)))
    totals = rows(db_path, "SELECT played, won FROM standings WHERE user_id = 9")
    assert totals and all(row == (len(channels), len(channels)) for row in totals)


async def test_live_board_swaps_from_two_processes_collapse_each_old_board_once(two,
                                                                                 db_path):
    """Twenty boards of one game, swapped in at once in a random order from both
    processes: the board showing the most moves is live, and every other board is
    named exactly once to be shrunk (by the swap that replaced it, or as too late)."""
    game = (await open_game(two[0], 500)).game
    boards = list(range(1, 21))
    random.Random(3).shuffle(boards)
    replaced = await asyncio.gather(*(two[n % 2].swap_board(game.id, 1000 + turn, turn)
                                      for n, turn in enumerate(boards)))
    shrunk = sorted(found[0] for found in replaced if found is not None)
    assert shrunk == [1000 + turn for turn in range(1, 20)]
    assert rows(db_path, "SELECT board_message_id, board_turn FROM games WHERE id = ?",
                game.id) == [(1020, 20)]


@pytest.mark.postgresql_only
async def test_a_channel_held_by_one_write_holds_up_only_that_channel(two, db_path):
    """Process A holds channel 1 in an open write transaction. B's move in channel 2
    completes meanwhile (no lock for the whole database); B's move in channel 1 waits
    for A, then is stored after it."""
    a, b = two
    for channel in (1, 2):
        await open_game(a, channel)
    store = GameStore()
    held, release = asyncio.Event(), asyncio.Event()

    async def hold_channel_one() -> None:
        async with a.db.transaction() as conn:
            await store.active_in_channel(conn, 1)
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold_channel_one())
    try:
        await held.wait()
        breaker = BreakerService(b)
        elsewhere = await asyncio.wait_for(breaker.guess(
            channel_id=2, user_id=3, user_name="p3", text="1111", action_id=next(_ids)), 5)
        assert [g.code for g in elsewhere.guesses] == [code_from_digits("1111")]
        here = asyncio.create_task(breaker.guess(channel_id=1, user_id=3, user_name="p3",
                                                 text="2222", action_id=next(_ids)))
        await _until_a_session_waits_for_a_lock(db_path)  # B's move reached A's lock
        assert not here.done() and not holder.done()
    finally:
        release.set()
        await holder
    assert len((await asyncio.wait_for(here, 5)).guesses) == 1


async def _until_a_session_waits_for_a_lock(url: str) -> None:
    """Until PostgreSQL shows a session of this database waiting for a lock (an event,
    where a fixed sleep would assert "not done yet" on a guess about the machine's speed)."""
    conn = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(10):
            while not await conn.fetchval(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND wait_event_type = 'Lock'"):
                await asyncio.sleep(0.01)
    finally:
        await conn.close()


@pytest.mark.postgresql_only
async def test_puzzles_wait_for_no_channel_and_are_answered_once(two):
    """A puzzle is its player's alone (a key of its own): it opens and is answered while
    another process holds a channel in an open write; two answers to it at once from the
    two processes store one."""
    a, b = two
    await open_game(a, 1)
    held, release = asyncio.Event(), asyncio.Event()

    async def hold_channel_one() -> None:
        async with a.db.transaction() as conn:
            await GameStore().active_in_channel(conn, 1)
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold_channel_one())
    puzzles = [PuzzleService(games, DailyService(games)) for games in (a, b)]
    try:
        await held.wait()
        play = await asyncio.wait_for(puzzles[1].new_play(
            user_id=7, guild_id=5, level=Level.EASY, size="4x6", action_id=next(_ids)), 5)
        answers = await asyncio.wait_for(asyncio.gather(*(
            service.answer(play_id=play.id, user_id=7, text=format_code(play.answer),
                           action_id=next(_ids)) for service in puzzles),
            return_exceptions=True), 5)
        assert not holder.done()  # all of that while channel 1 stayed held
    finally:
        release.set()
        await holder
    stored = [r for r in answers if not isinstance(r, BaseException)]
    refused = [r for r in answers if isinstance(r, PuzzleAnswered)]
    assert len(stored) == 1 and len(refused) == 1, answers
    assert stored[0].status == "solved"
