"""The analysis feature's own mistakes; their words are in :mod:`.render`."""

from __future__ import annotations

from ...core.errors import UserError
from ...core.records import GameRecord


class GameNotOver(UserError):
    """The analysis of a game that is still running (it would help its players)."""

    def __init__(self, game: GameRecord):
        super().__init__("that game is still running")
        self.game = game
