"""A race's end as the ratings see it: its places, rated in the transaction that ends it."""

from __future__ import annotations

from ...core.enums import RatedKind
from ...core.races import RaceRecord, RatingShown
from ...store import Connection
from ..ratings.service import Placement, RatedGame, RatingService
from .service import RateRace


def rate_with(ratings: RatingService) -> RateRace:
    """The race's :data:`~.service.RateRace`: every racer placed (those who left are placed
    last already), rated once per race (the ratings' own key), a race of one not at all."""

    async def rate(conn: Connection, race: RaceRecord, placed: dict[int, int],
                   now: float) -> dict[int, RatingShown]:
        outcome = await ratings.rate(conn, RatedGame(
            race.guild_id, RatedKind.RACE, race.id,
            tuple(Placement(user, place) for user, place in sorted(placed.items()))), now)
        return {c.user_id: RatingShown(c.before, c.after, c.provisional, c.rated, c.why_not)
                for c in outcome.changes}

    return rate
