"""The puzzles' own mistakes; their words are in :mod:`.render`."""

from __future__ import annotations

from ...core.errors import UserError
from ...core.records import PuzzlePlay


class NoOpenPuzzle(UserError):
    """An answer with no puzzle waiting for one."""


class PuzzleAnswered(UserError):
    """A second try at a puzzle (one try each)."""

    def __init__(self, play: PuzzlePlay):
        super().__init__("that puzzle was already answered")
        self.play = play


class NotYourPuzzle(UserError):
    """Someone else's puzzle (a forged or shared button id)."""
