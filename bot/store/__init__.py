"""SQLite storage: the connection, transactions and migrations (``db``), and the SQL for
each group of tables (``games``, ``replies``, ``stats``). No SQL lives outside this package."""

from .db import Database, DatabaseUnusable, MigrationError, is_duplicate_action, once
from .games import GameStore, StaleWrite
from .matches import MatchStore
from .replies import ReplyStore
from .stats import Board, StandingRow, StatsStore

__all__ = [
    "Board",
    "Database",
    "DatabaseUnusable",
    "GameStore",
    "MatchStore",
    "MigrationError",
    "ReplyStore",
    "StaleWrite",
    "StandingRow",
    "StatsStore",
    "is_duplicate_action",
    "once",
]
