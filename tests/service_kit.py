"""What the service-level tests share: every service built on a real database the way the
bot builds them (``bot.wiring``), with the test's movable clock, and no
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
from bot.features.match.service import MatchService
from bot.features.puzzle.service import PuzzleService
from bot.features.settings.service import SettingsService
from bot.features.stats.service import StatsService
from bot.services.games import DEFAULT_IDLE_TIMEOUT, GameService
from bot.store import Database
from bot.wiring import build_services

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
    """Each service as the bot builds it (``bot.wiring``), and the two its features add."""
    shared = await build_services(db, clock=clock, idle_timeout=DEFAULT_IDLE_TIMEOUT,
                                  solvers=SolverCache(), turn_mark=action)
    await shared.daily.start()  # as the daily's cog does when the bot starts
    return Services(
        db=db, clock=clock, settings=shared.settings, games=shared.games,
        breaker=shared.breaker, challenges=shared.challenges, matches=shared.matches,
        stats=shared.stats, daily=shared.daily,
        hints=HintService(shared.games, shared.settings.hints_allowed),  # as hints' setup
        puzzles=PuzzleService(shared.games, shared.daily))  # as the puzzle's setup


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
