"""What a finished game counts for on the leaderboards: pure functions of the stored game.

The store writes these rows in the transaction that ends a game, and rebuilds every table
from them on demand, so the live totals and a rebuild can never disagree.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .enums import GameKind, GameStatus, Mode, Period
from .matches import COUNTED, MatchRecord, Side, points
from .records import FORGOTTEN, GameRecord

#: Fewest finished challenges before a player appears on the challenge leaderboard.
MIN_CHALLENGES = 3


@dataclass(frozen=True)
class Result:
    """One player's share of a finished game.

    breaker:   ``won`` = this player broke the code; ``guesses`` = the game's guesses.
    private:   the same, for a private game (its player alone): a board of its own.
    challenge: ``won`` = the bot broke the player's code; ``guesses`` = the bot's guesses
               (the limit + 1 when it failed). A code a person set for others to break
               (``setter:me``, a match against a person) counts here too, for the setter.
    matches:   ``game_id`` is the match's id; ``won`` = this player's side won;
               ``guesses`` = points (2 a win, 1 a draw, 0 a loss).
    """

    game_id: int
    user_id: int
    guild_id: int | None
    mode: Mode
    size: str
    won: bool
    guesses: int
    ended_at: float
    #: Played with hints (``/mastermind hint``): in /stats, never on a leaderboard.
    hinted: bool = False

    @property
    def day(self) -> str:
        return utc(self.ended_at).date().isoformat()


def utc(ts: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(ts, tz=dt.UTC)


def period_key(period: Period, ts: float) -> str:
    """``all``, ``M2026-11`` (calendar month) or ``W2026-47`` (ISO week), in UTC."""
    when = utc(ts)
    if period is Period.MONTH:
        return f"M{when:%Y-%m}"
    if period is Period.WEEK:
        year, week, _ = when.isocalendar()
        return f"W{year}-{week:02d}"
    return "all"


def results_for(game: GameRecord) -> list[Result]:
    """What a finished game counts for, per player: the single source of the stats."""
    if game.active or game.ended_at is None:
        return []
    size = game.rules.size_label
    if game.kind is GameKind.BREAKER:
        players: list[int] = []
        for guess in game.guesses:
            if guess.player_id != FORGOTTEN and guess.player_id not in players:
                players.append(guess.player_id)
        mode = Mode.PRIVATE if game.private else Mode.BREAKER
        results = [
            Result(game.id, user, game.guild_id, mode, size,
                   game.status is GameStatus.WON and user == game.winner_id,
                   len(game.guesses), game.ended_at, game.hints > 0)
            for user in players
        ]
        return results + _setter_result(game)
    # A challenge is one player's code against the bot wherever it is played, so a private
    # one counts on the same board: nothing shared is mixed in.
    if game.status not in (GameStatus.WON, GameStatus.LOST) or game.started_by == FORGOTTEN:
        return []
    solved = game.status is GameStatus.WON
    guesses = len(game.replies) if solved else game.rules.max_guesses + 1
    return [Result(game.id, game.started_by, game.guild_id, Mode.CHALLENGE, size, solved,
                   guesses, game.ended_at)]


def _setter_result(game: GameRecord) -> list[Result]:
    """A code a person set: its "hardest code" figure, like a challenge's."""
    setter = game.setter_id
    if setter is None or setter == FORGOTTEN or game.ended_at is None or (
            game.status not in (GameStatus.WON, GameStatus.LOST)):
        return []
    broken = game.status is GameStatus.WON
    moves = len(game.guesses) if broken else game.rules.max_guesses + 1
    return [Result(game.id, setter, game.guild_id, Mode.CHALLENGE, game.rules.size_label,
                   broken, moves, game.ended_at)]


def results_for_match(match: MatchRecord) -> list[Result]:
    """What a finished or forfeited match counts for, per player."""
    if match.status not in COUNTED or match.ended_at is None:
        return []
    mode = Mode.MATCH_BOT if match.vs_bot else Mode.MATCH_PEOPLE
    results = []
    for side in Side:
        user = match.player(side)
        if user is None or user == FORGOTTEN:
            continue
        results.append(Result(match.id, user, match.guild_id, mode, match.rules.size_label,
                              match.winner == side.value, points(match, side),
                              match.ended_at))
    return results
