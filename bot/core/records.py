"""The stored records as the services see them (games and their moves, a game about to
open or end, daily plays, puzzle plays, setting changes, standings): plain data read from the store,
never mutated by it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine import Code, Feedback, Rules
from engine.puzzle import Clue, Level

from .enums import DailyStatus, GameKind, GameStatus, PuzzleKind, PuzzleStatus, Setting

#: The user id that attributions are rewritten to by ``/mastermind forget-me``.
FORGOTTEN = 0


@dataclass(frozen=True)
class GuessRecord:
    """One guess of a breaker game."""

    turn: int
    player_id: int
    code: Code
    feedback: Feedback
    created_at: float


@dataclass(frozen=True)
class ReplyRecord:
    """One of the bot's guesses in a challenge, with the challenger's standing reply."""

    id: int
    turn: int
    guess: Code
    feedback: Feedback
    player_id: int
    created_at: float


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    kind: GameKind
    rules: Rules
    #: A breaker game's secret; a challenge's code once revealed (None before).
    secret: Code | None
    status: GameStatus
    started_by: int
    winner_id: int | None
    created_at: float
    updated_at: float
    ended_at: float | None
    board_message_id: int | None
    strategy: str | None = None
    seed: int = 0
    #: A challenge's guess waiting for a reply (None when over or contradictory)...
    pending_guess: Code | None = None
    #: ...how many codes fit every standing reply (None when not known yet)...
    codes_left: int | None = None
    #: ...and the interaction that put that guess on the board: a ``/feedback`` created
    #: before it answers an older guess.
    turn_opened_by: int | None = None
    #: The match this game is a half-round of (``/match``), and which half (0-based).
    match_id: int | None = None
    match_half: int | None = None
    #: A breaker game whose secret a person set (a match, ``/mastermind new setter:me``):
    #: the setter may not guess.
    setter_id: int | None = None
    #: Hints given to this game (``/mastermind hint``): its crack stays off the leaderboards.
    hints: int = 0
    #: A private game: only its player (``started_by``) sees and plays it, wherever they are;
    #: ``channel_id`` is where it started. One per player; a channel's own game is unaffected.
    private: bool = False
    #: A racer's board in a race (``/race``): a private breaker game that ends at the
    #: race's ``deadline`` (a time, like ``ended_at``), whether or not its player moves;
    #: once the race is over, a board that ended before it has its own end as deadline.
    race_id: int | None = None
    deadline: float | None = None
    #: A breaker game's guesses, or a challenge's standing replies, in turn order.
    guesses: tuple[GuessRecord, ...] = field(default=())
    replies: tuple[ReplyRecord, ...] = field(default=())

    @property
    def active(self) -> bool:
        return self.status is GameStatus.ACTIVE

    @property
    def secret_withheld(self) -> bool:
        """A racer's board while its race runs: its code is shown on no screen (a board, an
        analysis, the Activity) even once the board itself ended, out of guesses or left;
        its race's end lifts it (:meth:`~bot.store.races.RaceStore.finish`). Who solved it
        knows the code anyway."""
        return (self.race_id is not None and self.status is not GameStatus.WON
                and self.deadline is not None and (self.ended_at or 0) < self.deadline)

    @property
    def turns_used(self) -> int:
        return len(self.guesses) if self.kind is GameKind.BREAKER else len(self.replies)

    @property
    def guesses_left(self) -> int:
        return self.rules.max_guesses - len(self.guesses)

    def with_changes(self, **changes) -> GameRecord:
        return replace(self, **changes)


@dataclass(frozen=True)
class NewGame:
    """A game about to open: what its row starts with. The store writes each field to the
    column of the same name (``action_id``: the interaction that opened it), so a column
    set when a game opens is a field here and of :class:`GameRecord`, given by the feature
    that opens the game."""

    kind: GameKind
    guild_id: int | None
    channel_id: int
    started_by: int
    rules: Rules
    secret: Code | None = None
    strategy: str | None = None
    seed: int = 0
    pending_guess: Code | None = None
    codes_left: int | None = None
    turn_opened_by: int | None = None
    match_id: int | None = None
    match_half: int | None = None
    setter_id: int | None = None
    private: bool = False
    race_id: int | None = None
    deadline: float | None = None
    action_id: int | None = None


@dataclass(frozen=True)
class GameEnding:
    """How a game ends: what its row is given then (with the time). A field left None keeps
    its column as it was; ``action_id`` is the interaction that ended it."""

    status: GameStatus
    winner_id: int | None = None
    #: A challenge's code, revealed by the challenger as it ends.
    secret: Code | None = None
    action_id: int | None = None


@dataclass(frozen=True)
class DailyPlay:
    """A player's play of one day's daily code (one per player and day, across servers)."""

    day: str
    user_id: int
    guild_id: int | None
    status: DailyStatus
    started_at: float
    ended_at: float | None
    guesses: tuple[GuessRecord, ...] = ()

    @property
    def finished(self) -> bool:
        return self.status is not DailyStatus.ACTIVE

    @property
    def solved(self) -> bool:
        return self.status is DailyStatus.WON


@dataclass(frozen=True)
class PuzzlePlay:
    """A player's play of one puzzle, kept with its clues and answer as shown."""

    id: int
    user_id: int
    guild_id: int | None
    kind: PuzzleKind
    day: str | None  # a daily puzzle's UTC day
    level: Level
    rules: Rules
    clues: tuple[Clue, ...]
    answer: Code
    spread: int
    status: PuzzleStatus
    named: Code | None
    created_at: float
    answered_at: float | None
    answered_by: int | None  # the interaction that answered it

    @property
    def open(self) -> bool:
        return self.status is PuzzleStatus.OPEN


@dataclass(frozen=True)
class SettingChange:
    """One line of a server's settings log: who changed what, from what to what (the values
    in English words, as the summary says them)."""

    user_id: int
    name: Setting
    old: str | None
    new: str | None
    changed_at: float


@dataclass(frozen=True)
class Standing:
    """A player's line on one leaderboard."""

    user_id: int
    name: str
    played: int
    won: int
    #: breaker: guesses per crack; challenge: the bot's guesses per challenge; a match
    #: board: points per match.
    average: float | None
    #: Competition rank (ties share one: 1, 2, 2, 4); 0 until the service ranks it.
    rank: int = 0
