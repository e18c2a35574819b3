"""What the service-level tests share: every service built on a real database the way the
bot builds them (``MastermindBot.setup_hook``), with the test's movable clock, and no
Discord at all. A service test drives them directly and reads the tables back, on SQLite and
on PostgreSQL (the ``db_path`` fixture), so it checks the rules and the stored rows the
end-to-end tests once checked through the fake Discord, at a fraction of the cost.

A fixture here (``services``) is shared through ``pytest_plugins`` in ``conftest.py``."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from dbtools import connect

from bot.core.clock import Clock
from bot.core.errors import UserError
from bot.features.breaker.service import BreakerService
from bot.features.challenge.service import ChallengeService
from bot.features.challenge.solvers import SolverCache
from bot.features.daily.service import DailyService
from bot.features.hints.service import HintService
from bot.features.match.halves import HalfRounds
from bot.features.match.service import MatchService
from bot.features.puzzle.service import PuzzleService
from bot.features.settings.service import SettingsService
from bot.features.stats.service import StatsService
from bot.services.games import DEFAULT_IDLE_TIMEOUT, GameService, IdleRule
from bot.store import Database

#: Interaction ids: every action a player takes carries one (unique, growing with time).
action_ids = itertools.count(1_500_000_000_000_000_000)


def action() -> int:
    return next(action_ids)


@dataclass
class Services:
    db: Database
    clock: Clock
    settings: SettingsService
    games: GameService
    breaker: BreakerService
    challenges: ChallengeService
    matches: MatchService
    stats: StatsService
    daily: DailyService
    hints: HintService
    puzzles: PuzzleService


async def build(db: Database, clock: Clock) -> Services:
    """Each service with what it consults, in the bot's order (see ``bot/app.py``)."""
    settings = SettingsService(db, clock=clock,
                               default_idle_hours=DEFAULT_IDLE_TIMEOUT / 3600)
    await settings.load()
    idle = IdleRule(DEFAULT_IDLE_TIMEOUT, by_server=settings.idle_seconds)
    halves = HalfRounds(clock=clock, idle=idle)
    games = GameService(db, clock=clock, idle=idle, channel_allowed=settings.check_channel,
                        end_hooks=[halves.on_game_end], channel_checks=[halves.check_channel])
    daily = DailyService(games)
    await daily.start()
    return Services(
        db=db, clock=clock, settings=settings, games=games, breaker=BreakerService(games),
        challenges=ChallengeService(games, SolverCache(), action),
        matches=MatchService(games, halves), stats=StatsService(db, clock=clock),
        daily=daily, hints=HintService(games, settings.hints_allowed),
        puzzles=PuzzleService(games, daily))


@pytest.fixture
async def services(db_path, wall_clock) -> AsyncIterator[Services]:
    """The bot's services on a fresh database (SQLite, then PostgreSQL)."""
    db = await Database.open(db_path)
    try:
        yield await build(db, wall_clock)
    finally:
        await db.close()


def rows(db_path, sql: str, *args) -> list[tuple]:
    """Rows read with a plain connection of their own, as tuples."""
    with contextlib.closing(connect(db_path)) as conn:
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]


#: The tables a refused action must leave exactly as they were.
STATE_TABLES = ("games", "guesses", "players", "challenge_replies", "matches", "results",
                "standings", "match_results", "hints", "daily_plays", "daily_guesses",
                "daily_tally", "server_settings", "settings_log", "puzzle_plays")


def state(db_path) -> dict[str, list]:
    """Every row of every table a player's action can write."""
    with contextlib.closing(connect(db_path)) as conn:
        return {table: [tuple(r) for r in conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2")]
                for table in STATE_TABLES}


def words(error: UserError) -> tuple[str, str]:
    """(title, message) a player reads for a refusal: the words the feature registered."""
    from bot.ui.messages import describe_user_error

    return describe_user_error(error)
