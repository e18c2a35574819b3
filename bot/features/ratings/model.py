"""The rating model, its numbers and the seasons: OpenSkill's Plackett-Luce, as the library
ships it (no rating maths here but the season's widening, which is the library's own
additive dynamics step applied once).

Shown numbers: the library's conservative rating (its ``ordinal``, mu - 3 sigma), scaled by
the library's own ``alpha`` and ``target`` so a newcomer shows 1000 and a strong regular
about 1600 to 1800, the range chess players know (the raw ordinal starts at 0 and moves by
a few points a game, which reads as nothing).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

from openskill.models import PlackettLuce, PlackettLuceRating

from ...core.enums import Seasons

MODEL = PlackettLuce()
#: ``ordinal(z, alpha, target)``: alpha * (mu - z * sigma) + target.
Z, ALPHA, TARGET = 3.0, 20.0, 1000.0
#: A player's first rated games in a server are provisional (marked on every board): the
#: first game alone moves a newcomer by about 100 shown points, the fifth by about 40.
PROVISIONAL_GAMES = 5
#: At a new season each rating's uncertainty widens by this additive dynamics factor (the
#: library's ``tau``, applied as ``rate`` applies it: sigma' = sqrt(sigma² + tau²)), never
#: past a newcomer's sigma: a third of the starting sigma, so a regular's rating can move
#: again in the new season without being thrown away.
SEASON_TAU = MODEL.sigma / 3
#: The season of a server with seasons off.
NO_SEASONS = "all"


def rating(mu: float | None = None, sigma: float | None = None) -> PlackettLuceRating:
    """A player's rating in the library's type (a newcomer's without arguments)."""
    return MODEL.rating(mu=mu, sigma=sigma)


def shown(player: PlackettLuceRating) -> float:
    """The number players see: the conservative rating, scaled (see the module's doc)."""
    return float(player.ordinal(Z, ALPHA, TARGET))


def newcomer() -> float:
    return shown(rating())


def widened(sigma: float) -> float:
    """A rating's sigma as it carries into a new season."""
    return min(math.sqrt(sigma * sigma + SEASON_TAU * SEASON_TAU), MODEL.sigma)


def season_of(now: float, cadence: Seasons) -> str:
    """The season a moment is in: ``2026-11`` (monthly), ``2026-Q4`` (quarterly), or
    :data:`NO_SEASONS`; UTC, so every process and server agrees on when one ends."""
    day = datetime.fromtimestamp(now, UTC)
    if cadence is Seasons.MONTHLY:
        return f"{day.year}-{day.month:02d}"
    if cadence is Seasons.QUARTERLY:
        return f"{day.year}-Q{(day.month - 1) // 3 + 1}"
    return NO_SEASONS


#: Seconds in a UTC day (Unix time has no leap seconds).
DAY = 86_400


def utc_day(now: float) -> tuple[float, float]:
    """The UTC day a moment is in, as the span of times ``[start, end)`` (the daily cap per
    pair counts the rated games in it)."""
    start = float(math.floor(now / DAY) * DAY)
    return start, start + DAY
