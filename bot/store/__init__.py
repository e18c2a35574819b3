"""Storage: the database (``db``: SQLite in ``sqlite``, PostgreSQL in ``postgres``, one
connection shape for both in ``connection``), and the SQL for each group of tables (``games``,
``replies``, ``stats``, ...), written once for both. No SQL lives outside this package."""

from .connection import Connection, Row
from .db import (
    INTEGRITY_ERRORS,
    Database,
    DatabaseUnusable,
    MigrationError,
    is_duplicate_action,
    once,
)
from .games import BoardElsewhere, GameStore, StaleWrite
from .matches import MatchStore
from .replies import ReplyStore
from .stats import Board, StatsStore

__all__ = [
    "INTEGRITY_ERRORS",
    "Board",
    "BoardElsewhere",
    "Connection",
    "Database",
    "DatabaseUnusable",
    "GameStore",
    "MatchStore",
    "MigrationError",
    "ReplyStore",
    "Row",
    "StaleWrite",
    "StatsStore",
    "is_duplicate_action",
    "once",
]
