"""The daily code's own mistakes; their words are in :mod:`.render` (and :mod:`.picking`)."""

from __future__ import annotations

from ...core.errors import UserError
from ...core.records import GuessRecord


class DailyNotFinished(UserError):
    """Something that would show the day's code to a player who hasn't finished it yet."""

    def __init__(self, day: str):
        super().__init__("finish today's daily first")
        self.day = day


class DailyAlreadyPlayed(UserError):
    """A second attempt at the day's code (one per player per UTC day, across servers)."""

    def __init__(self, day: str, won: bool, guesses: int):
        super().__init__("today's daily is already played")
        self.day, self.won, self.guesses = day, won, guesses


class DailyRepeat(UserError):
    """A code already on the player's daily board: it costs no guess."""

    def __init__(self, earlier: GuessRecord):
        super().__init__("that code is already on your daily board")
        self.earlier = earlier


class DailyRaced(UserError):
    """Two guesses of the same player at once: the other one was stored."""


class DailyOver(UserError):
    """A guess for a day that has passed (a picker opened before midnight UTC)."""

    def __init__(self, day: str):
        super().__init__("that day's daily is over")
        self.day = day
