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
from dataclasses import dataclass, fields

import pytest
from dbtools import connect

from bot.core.clock import Clock
from bot.core.errors import UserError
from bot.features.challenge.solvers import SolverCache
from bot.services.games import DEFAULT_IDLE_TIMEOUT
from bot.store import Database
from bot.wiring import Services, build_services

#: Interaction ids: every action a player takes carries one (unique, growing with time).
action_ids = itertools.count(1_500_000_000_000_000_000)


def action() -> int:
    return next(action_ids)


@dataclass(frozen=True)
class Kit(Services):
    """The bot's services (``bot.wiring``), with the database and clock they stand on."""

    db: Database
    clock: Clock


async def build(db: Database, clock: Clock) -> Kit:
    """Every service as the bot builds it (``bot.wiring``)."""
    shared = await build_services(db, clock=clock, idle_timeout=DEFAULT_IDLE_TIMEOUT,
                                  solvers=SolverCache(), turn_mark=action)
    await shared.daily.start()  # as the daily's cog does when the bot starts
    return Kit(db=db, clock=clock, **{f.name: getattr(shared, f.name) for f in fields(shared)})


@pytest.fixture
async def services(db_path, wall_clock) -> AsyncIterator[Kit]:
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
