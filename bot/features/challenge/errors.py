"""A challenge's own mistakes (someone else's challenge, a stale board, a reply that
cannot be, replies that contradict, nothing to take back); their words are in :mod:`.render`."""

from __future__ import annotations

from ...core.errors import UserError
from ...core.records import GameRecord


class NotYourChallenge(UserError):
    def __init__(self, game: GameRecord):
        super().__init__("only the challenger may answer")
        self.game = game


class OutOfDate(UserError):
    """An action meant for an earlier state of the board (a stale button, a double click,
    a ``/feedback`` typed before the guess it would answer was shown)."""

    def __init__(self, game: GameRecord, given_turn: int | None, *, action: str = "reply",
                 raced: bool = False, turn_seen: int | None = None):
        super().__init__("that board is out of date")
        #: The game as the action read it.
        self.game = game
        #: The turn a button named; None for a typed ``/feedback``.
        self.given_turn = given_turn
        #: What was refused: ``"reply"``, ``"take back"`` or ``"reveal"``.
        self.action = action
        #: True when another action was stored between this one's check and its write.
        self.raced = raced
        #: A typed action that lost a race: the turn of the guess it saw and answered.
        self.turn_seen = turn_seen


class ImpossibleReply(UserError):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RepliesContradict(UserError):
    """A new reply while the standing ones already leave no code."""


class NothingToTakeBack(UserError):
    pass
