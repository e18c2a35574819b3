"""The stats feature's own mistakes; their words are in :mod:`.render`."""

from __future__ import annotations

from ...core.errors import UserError


class BadSize(UserError):
    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class NotYourPrompt(UserError):
    """A confirmation button pressed by someone other than the person it asks."""


class SeasonWithoutRating(UserError):
    """``/leaderboard season:`` with a mode other than rating (seasons are the ratings')."""
