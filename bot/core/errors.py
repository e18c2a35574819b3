"""A player's mistakes, as data. Raised before anything is written, so nothing changes;
:mod:`bot.ui.messages` turns each into words for the one person who acted."""

from __future__ import annotations

from engine import Rules

from .records import GameRecord, GuessRecord


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


class TooLate(UserError):
    """A guess arriving just after someone broke the code."""

    def __init__(self, game: GameRecord):
        super().__init__("the code was already broken")
        self.game = game


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


class NotYourChallenge(UserError):
    def __init__(self, game: GameRecord):
        super().__init__("only the challenger may answer")
        self.game = game


class AlreadyGuessed(UserError):
    """A code already on the board: guessing it again costs no turn."""

    def __init__(self, game: GameRecord, earlier: GuessRecord):
        super().__init__("that code is already on the board")
        self.game = game
        self.earlier = earlier


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


class GameMovedOn(UserError):
    """A move for a game that is no longer the channel's running one: it ended, or another
    replaced it, since the move's picker was opened. Nothing is stored."""

    def __init__(self, game_id: int, running: GameRecord | None):
        super().__init__("that game is no longer running")
        self.game_id = game_id
        #: The channel's game now, if another one runs.
        self.running = running


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


class BadCode(UserError):
    def __init__(self, reason: str, rules: Rules, example_command: str):
        super().__init__(reason)
        self.reason = reason
        self.rules = rules
        #: How to type a code right here, e.g. "/guess 1123".
        self.example_command = example_command


class ImpossibleReply(UserError):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RepliesContradict(UserError):
    """A new reply while the standing ones already leave no code."""


class NothingToTakeBack(UserError):
    pass


class BadRules(UserError):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class BadSize(UserError):
    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class NotYourPrompt(UserError):
    """A confirmation button pressed by someone other than the person it asks."""


class UnknownStrategy(UserError):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class MatchRunning(UserError):
    """A match holds the channel (between its half-rounds, or while an invitation waits)."""

    def __init__(self, match: object):
        super().__init__("a match is running in this channel")
        #: The :class:`~bot.core.matches.MatchRecord` that holds the channel.
        self.match = match


class NotYourTurn(UserError):
    """A guess by someone who may not guess this code: its setter, or in a match anyone
    but the half-round's breaker."""

    def __init__(self, game: GameRecord):
        super().__init__("you may not guess this code")
        self.game = game


class GameNotOver(UserError):
    """The analysis of a game that is still running (it would help its players)."""

    def __init__(self, game: GameRecord):
        super().__init__("that game is still running")
        self.game = game


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


class HintsOff(UserError):
    """``/mastermind hint`` on a server whose settings switched hints off."""


class ChannelNotAllowed(UserError):
    """A game started in a channel the server's settings don't allow games in."""

    def __init__(self, allowed: tuple[int, ...]):
        super().__init__("games are not allowed in this channel")
        self.allowed = allowed


class BadSetting(UserError):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
