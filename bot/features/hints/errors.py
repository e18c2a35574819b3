"""The hints' own mistakes; their words are in :mod:`.render`."""

from __future__ import annotations

from ...core.errors import UserError
from ...core.records import GameRecord


class HintsOff(UserError):
    """``/mastermind hint`` on a server whose settings switched hints off."""


class HintRaced(UserError):
    """The board moved on (a guess, another hint) while this hint was worked out."""


class HintNeedsAGuess(UserError):
    """The colour hint before any reply: nothing about colours is known yet."""


class NoHintsInMatches(UserError):
    """A match half-round is scored by the moves its breaker needed: no help."""


class NoMoreHints(UserError):
    def __init__(self, game: GameRecord):
        super().__init__("every hint was given")
        self.game = game
