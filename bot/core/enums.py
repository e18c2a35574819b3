"""The words the database and the code share for kinds of game, states and boards."""

from __future__ import annotations

from enum import StrEnum


class GameKind(StrEnum):
    #: People in a channel break the bot's secret (``/mastermind new``, ``/guess``).
    BREAKER = "breaker"
    #: The bot breaks a code the player keeps to themself (``/challenge``).
    CHALLENGE = "challenge"


class RaceStatus(StrEnum):
    """A race (``/race``): people join its lobby, then race, until all finish or time is up."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    #: The starter left the lobby: nobody raced.
    CANCELLED = "cancelled"


class RacerStatus(StrEnum):
    RACING = "racing"
    SOLVED = "solved"
    #: Out of guesses, or out of time.
    UNSOLVED = "unsolved"
    #: Left the race (the Leave button, or quit the board): a forfeit, ranked last.
    LEFT = "left"


class GameStatus(StrEnum):
    ACTIVE = "active"
    WON = "won"
    LOST = "lost"
    QUIT = "quit"
    ABANDONED = "abandoned"


class DailyStatus(StrEnum):
    """A player's play of the daily code."""

    ACTIVE = "active"
    WON = "won"
    LOST = "lost"


class PuzzleKind(StrEnum):
    #: Everyone's puzzle of a UTC day (``/puzzle daily``).
    DAILY = "daily"
    #: A fresh puzzle at a level (``/puzzle random``).
    RANDOM = "random"


class PuzzleStatus(StrEnum):
    """A player's play of a puzzle: answered once, right or wrong."""

    OPEN = "open"
    SOLVED = "solved"
    MISSED = "missed"


class CodeEntry(StrEnum):
    """Where a player typed a code: the words for a bad one say how to type it right there
    (each feature registers its command's syntax beside its rendering)."""

    #: ``/guess``, or the guess picker's form.
    GUESS = "guess"
    #: ``/daily play``, or the daily picker's form.
    DAILY = "daily"
    #: ``/puzzle answer``.
    PUZZLE = "puzzle"
    #: A form or an option that takes the code alone (a reveal, a code to set).
    CODE = "code"


class Setting(StrEnum):
    """A server setting, by the name its summary and change log use."""

    HINTS = "hints"
    RULES = "rules"
    IDLE_TIMEOUT = "idle timeout"
    CHANNELS = "channels"
    DAILY_RESULTS = "daily results"
    LANGUAGE = "language"
    SEASONS = "rating seasons"
    PAIR_CAP = "rated games per pair a day"
    RACE_TIME = "race time limit"


class Seasons(StrEnum):
    """How often a server's rating season starts over (``/mastermind settings``)."""

    OFF = "off"
    MONTHLY = "monthly"
    QUARTERLY = "quarterly"


class RatedKind(StrEnum):
    """What a rated game was: ``(kind, source id)`` moves ratings at most once."""

    RACE = "race"
    MATCH = "match"


class Mode(StrEnum):
    """Which leaderboard a result counts on (one per kind of game today)."""

    BREAKER = "breaker"
    CHALLENGE = "challenge"
    #: Private breaker games (``/mastermind new private:True``, games in a DM with the bot):
    #: solo play, ranked like the breakers' board but never on it.
    PRIVATE = "private"
    #: Matches won, lost and drawn (``/match``): against the bot, and against people.
    MATCH_BOT = "match-bot"
    MATCH_PEOPLE = "match-people"


#: Boards of code breakers (shared games, and private ones apart): ranked by cracks, then
#: by fewer guesses per crack.
CRACK_MODES = (Mode.BREAKER, Mode.PRIVATE)


class Which(StrEnum):
    """Which game a command in a channel acts on, when the player also has a private one
    (``game:`` option of ``/guess``, ``/mastermind board`` and ``quit``)."""

    #: Their private game if they started it in this channel, or if this channel has no game
    #: the command can act on; else the channel's.
    AUTO = "auto"
    PRIVATE = "private"
    CHANNEL = "channel"


class Period(StrEnum):
    ALL = "all"
    MONTH = "month"
    WEEK = "week"
