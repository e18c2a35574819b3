"""Errors of the game rules. Every message is meant to be shown to a player as it is."""


class MastermindError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidRules(MastermindError):
    """The rules ask for a size the engine does not support."""


class InvalidCode(MastermindError):
    """A code could not be read, or breaks the rules of the game."""


class InvalidFeedback(MastermindError):
    """A black/white reply that no code could produce for that guess."""


class UnknownStrategy(MastermindError):
    """A strategy name that is not in the registry."""


class InconsistentFeedback(MastermindError):
    """The replies so far contradict each other: no code fits them all."""

    def __init__(self, message: str, turn: int):
        super().__init__(message)
        #: 1-based turn whose reply first left no possible code.
        self.turn = turn
