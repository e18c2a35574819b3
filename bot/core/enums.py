"""The words the database and the code share for kinds of game, states and boards."""

from __future__ import annotations

from enum import StrEnum


class GameKind(StrEnum):
    #: People in a channel break the bot's secret (``/mastermind new``, ``/guess``).
    BREAKER = "breaker"
    #: The bot breaks a code the player keeps to themself (``/challenge``).
    CHALLENGE = "challenge"


class GameStatus(StrEnum):
    ACTIVE = "active"
    WON = "won"
    LOST = "lost"
    QUIT = "quit"
    ABANDONED = "abandoned"


class Mode(StrEnum):
    """Which leaderboard a result counts on (one per kind of game today)."""

    BREAKER = "breaker"
    CHALLENGE = "challenge"
    #: Matches won, lost and drawn (``/match``): against the bot, and against people.
    MATCH_BOT = "match-bot"
    MATCH_PEOPLE = "match-people"


class Period(StrEnum):
    ALL = "all"
    MONTH = "month"
    WEEK = "week"
