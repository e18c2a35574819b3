"""Errors a player caused: shown to them alone (ephemeral), and nothing is changed."""

from __future__ import annotations


class UserError(Exception):
    """A mistake with a message that says what was wrong and how to do it right."""

    def __init__(self, message: str, *, title: str = "That didn't work"):
        super().__init__(message)
        self.message = message
        self.title = title


class NoGameRunning(UserError):
    pass


class GameAlreadyRunning(UserError):
    pass


class NotAllowed(UserError):
    pass


class GameOver(UserError):
    pass


class BadInput(UserError):
    pass
