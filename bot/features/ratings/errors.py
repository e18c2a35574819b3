"""The ratings' own mistakes; their words are in :mod:`.render`."""

from __future__ import annotations

from ...core.errors import UserError


class RatingsPerServer(UserError):
    """A rating board asked for outside a server (a DM): ratings are kept per server."""

    def __init__(self) -> None:
        super().__init__("ratings are kept per server")


class UnknownSeason(UserError):
    """A ``season:`` that isn't one of the server's (typed, or out of date)."""

    def __init__(self, season: str, known: list[str]):
        super().__init__(f"no season {season!r}")
        self.season = season
        self.known = known
