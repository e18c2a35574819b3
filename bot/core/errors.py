"""A player's mistakes that several features share, as data (a feature's own are in its
``errors.py``). Raised before anything is written, so nothing changes; :mod:`bot.ui.messages`
turns each into words for the one person who acted (a feature's own, its ``render.py``)."""

from __future__ import annotations

from engine import Rules

from .enums import CodeEntry
from .records import GameRecord


class UserError(Exception):
    """Something the player can put right; the stored game stays as it was."""


class NoGameRunning(UserError):
    def __init__(self, abandoned: GameRecord | None = None, idle_timeout: float = 0.0):
        super().__init__("no game is running in this channel")
        #: The channel's last game, if it had just gone idle and was ended as abandoned.
        self.abandoned = abandoned
        self.idle_timeout = idle_timeout


class NoPrivateGame(NoGameRunning):
    """The player has no private game running (``abandoned``: theirs just went idle)."""


class GameAlreadyRunning(UserError):
    def __init__(self, game: GameRecord):
        super().__init__("a game is already running in this channel")
        self.game = game


class PrivateGameRunning(GameAlreadyRunning):
    """One private game per player at a time: ``game`` is theirs, still running."""


class NotYourGame(UserError):
    """Only the starter (or a moderator) may end a game."""

    def __init__(self, game: GameRecord):
        super().__init__("only the starter can end this game")
        self.game = game


class WrongKindOfGame(UserError):
    """``/guess`` in a channel where a challenge runs, or ``/feedback`` where none does."""

    def __init__(self, game: GameRecord | None):
        super().__init__("the running game is of another kind")
        self.game = game


class AlreadyDone(UserError):
    """The same interaction arrived a second time (a replay, two processes with one token):
    it was applied once, the first time."""

    def __init__(self) -> None:
        super().__init__("that action was already applied")


class MalformedButton(UserError):
    """A button whose custom_id we cannot read: from an older version, or forged."""


class StorageUnavailable(UserError):
    """The database could not take the write (busy past our patience, disk full, read-only):
    nothing was stored. Not the player's fault; they are told, and the admin is warned."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class GameOver(UserError):
    """A button or command for a game that has ended (or never existed)."""

    def __init__(self, game: GameRecord | None):
        super().__init__("that game is over")
        self.game = game


class BadCode(UserError):
    def __init__(self, reason: str, rules: Rules, entry: CodeEntry):
        super().__init__(reason)
        self.reason = reason
        self.rules = rules
        #: Where it was typed (the words show how to type one right there).
        self.entry = entry


class BadRules(UserError):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class UnknownStrategy(UserError):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name




class RaceTimeUp(NoPrivateGame):
    """A racer's board whose race ran out of time (``abandoned``: the board, ended)."""


class InRace(PrivateGameRunning):
    """The player's private board is a race's (``game``): no other private game meanwhile."""
