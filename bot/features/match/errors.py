"""A match's own mistakes; their words are in :mod:`.render`."""

from __future__ import annotations

from ...core.errors import UserError
from ...core.matches import MatchRecord


class MatchRunning(UserError):
    """A match holds the channel (between its half-rounds, or while an invitation waits)."""

    def __init__(self, match: MatchRecord):
        super().__init__("a match is running in this channel")
        #: The match that holds the channel.
        self.match = match


class NotInMatch(UserError):
    """Someone who plays no side of the match pressed its button or tried to end it."""

    def __init__(self, match: MatchRecord):
        super().__init__("you are not playing in this match")
        self.match = match


class NotYourCode(UserError):
    """The code-setting button, pressed by a player whose turn to set it is not now."""

    def __init__(self, match: MatchRecord):
        super().__init__("it is not your code to set")
        self.match = match


class MatchOver(UserError):
    """A button of a match that has ended (or an invitation no longer open)."""

    def __init__(self, match: MatchRecord | None):
        super().__init__("that match is over")
        self.match = match


class OnlyInvitee(UserError):
    """The inviter pressed Accept on their own invitation."""

    def __init__(self, match: MatchRecord):
        super().__init__("only the invited player accepts")
        self.match = match


class StaleMatchButton(UserError):
    """A button for an earlier half-round (the code was set already, a double click), or
    an invitation's Accept clicked again after it was accepted (``accepted``)."""

    def __init__(self, match: MatchRecord, *, accepted: bool = False):
        super().__init__("that button is out of date")
        self.match = match
        self.accepted = accepted


class BadOpponent(UserError):
    """``reason``: a sentence marked for the catalogs (``mark(...)``), shown translated."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
