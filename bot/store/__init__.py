"""SQLite storage: the connection and migrations (``db``) and the game tables (``games``)."""

from .db import Database, MigrationError
from .games import GameRecord, GameStore, GuessRecord

__all__ = ["Database", "GameRecord", "GameStore", "GuessRecord", "MigrationError"]
