"""SQLite storage: the connection and migrations (``db``) and the game tables (``games``)."""

from .challenges import ChallengeStore, ReplyRecord
from .db import Database, MigrationError
from .games import GameRecord, GameStore, GuessRecord

__all__ = [
    "ChallengeStore",
    "Database",
    "GameRecord",
    "GameStore",
    "GuessRecord",
    "MigrationError",
    "ReplyRecord",
]
