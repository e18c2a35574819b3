"""A player's rating and their part in a rated game, as stored (see migrations/020)."""

from __future__ import annotations

from dataclasses import dataclass

from .enums import RatedKind


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating in one server, in the season of their last rated game."""

    guild_id: int
    user_id: int
    season: str
    mu: float
    sigma: float
    #: The shown rating (the conservative one, scaled): what boards rank by.
    rating: float
    #: Rated games in this season, and in this server ever.
    games: int
    total_games: int
    #: The best shown rating in this season.
    best: float
    updated_at: float


@dataclass(frozen=True)
class StoredChange:
    """A player's part in a rated game: their shown rating before and after, or why the
    game didn't count for them."""

    kind: RatedKind
    source_id: int
    user_id: int
    place: int
    before: float | None
    after: float | None
    provisional: bool
    why_not: str | None
    changed_at: float


@dataclass(frozen=True)
class Standing:
    """A row of a rating leaderboard."""

    rank: int
    user_id: int
    rating: float
    games: int
    total_games: int
