"""Matches as the services see them, and the 1978 scoring: pure data, no I/O.

A match of ``rounds`` rounds has ``2 * rounds`` half-rounds. In even halves side A (who
started) breaks side B's code; in odd halves B breaks A's. Side B is the bot (no player id)
or an invited player. Each side scores the moves it needed as breaker (the guess limit + 1
for a code it failed to break); after the last half the fewer total moves wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine import Rules

from .enums import GameStatus
from .records import GameRecord

MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 1, 10, 3
#: Seconds an invitation waits for its answer.
INVITATION_SECONDS = 15 * 60


class MatchStatus(StrEnum):
    INVITED = "invited"  # waiting for the invited player to accept
    ACTIVE = "active"
    FINISHED = "finished"  # played to the end: the fewer moves won (or a draw)
    FORFEIT = "forfeit"  # a player quit: the other side won
    DECLINED = "declined"
    EXPIRED = "expired"  # the invitation was not answered in time
    ABANDONED = "abandoned"  # no move for too long
    ENDED = "ended"  # a moderator ended it: nobody won


RUNNING = (MatchStatus.INVITED, MatchStatus.ACTIVE)
#: Ends that count on the leaderboards.
COUNTED = (MatchStatus.FINISHED, MatchStatus.FORFEIT)


class Side(StrEnum):
    A = "a"
    B = "b"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


DRAW = "draw"


@dataclass(frozen=True)
class MatchRecord:
    id: int
    guild_id: int | None
    channel_id: int
    rules: Rules
    strategy: str | None
    rounds: int
    player_a: int
    #: None: side B is the bot.
    player_b: int | None
    status: MatchStatus
    #: The half-round being played (0-based); ``2 * rounds`` once all were played.
    half: int
    #: Moves the breaker needed in each finished half, in order.
    half_scores: tuple[int, ...]
    #: ``a``, ``b`` or ``draw`` once decided.
    winner: str | None
    ended_by: int | None
    created_at: float
    updated_at: float
    ended_at: float | None
    board_message_id: int | None

    @property
    def vs_bot(self) -> bool:
        return self.player_b is None

    @property
    def running(self) -> bool:
        return self.status in RUNNING

    @property
    def halves(self) -> int:
        return 2 * self.rounds

    @property
    def round(self) -> int:
        """The round being played, 1-based (the last one once over)."""
        return min(self.half // 2 + 1, self.rounds)

    def player(self, side: Side) -> int | None:
        return self.player_a if side is Side.A else self.player_b

    def side_of(self, user_id: int) -> Side | None:
        if user_id == self.player_a:
            return Side.A
        if self.player_b is not None and user_id == self.player_b:
            return Side.B
        return None

    def breaker(self, half: int | None = None) -> Side:
        """Who breaks the code in a half-round: A in even halves, B in odd ones."""
        return Side.A if (self.half if half is None else half) % 2 == 0 else Side.B

    def setter(self, half: int | None = None) -> Side:
        return self.breaker(half).other

    def totals(self) -> dict[Side, int]:
        """Each side's moves so far (a side scores the halves it broke)."""
        totals = {Side.A: 0, Side.B: 0}
        for half, moves in enumerate(self.half_scores):
            totals[self.breaker(half)] += moves
        return totals

    def leader(self) -> str:
        """``a``, ``b`` or ``draw``: fewer total moves is ahead."""
        totals = self.totals()
        if totals[Side.A] == totals[Side.B]:
            return DRAW
        return Side.A.value if totals[Side.A] < totals[Side.B] else Side.B.value

    def with_changes(self, **changes) -> MatchRecord:
        return replace(self, **changes)


def half_score(game: GameRecord) -> int:
    """The moves a breaker needed: its guesses when it broke the code, else the limit + 1."""
    if game.status is GameStatus.WON:
        return game.turns_used
    return game.rules.max_guesses + 1


def points(match: MatchRecord, side: Side) -> int:
    """2 for a win, 1 for a draw, 0 for a loss (a counted match only)."""
    if match.winner == DRAW:
        return 1
    return 2 if match.winner == side.value else 0
