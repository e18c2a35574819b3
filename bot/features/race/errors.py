"""A race's own mistakes, each carrying the race it is about (its words, with a link to its
standings board, are in :mod:`.render`)."""

from __future__ import annotations

from ...core.errors import UserError
from ...core.races import RaceRecord


class RaceError(UserError):
    def __init__(self, race: RaceRecord, what: str):
        super().__init__(what)
        self.race = race


class RaceRunning(RaceError):
    """The channel has a lobby or a race already (a second ``/race``, a game, a match)."""

    def __init__(self, race: RaceRecord):
        super().__init__(race, "a race is running in this channel")


class RaceStarted(RaceError):
    """Joining (or starting) after the start: the race runs without them."""

    def __init__(self, race: RaceRecord):
        super().__init__(race, "the race has started")


class NotStartedYet(RaceError):
    """A racer's board asked for while the lobby still waits."""

    def __init__(self, race: RaceRecord):
        super().__init__(race, "the race has not started yet")


class RaceOver(RaceError):
    """A button of a race that has ended, or was called off."""

    def __init__(self, race: RaceRecord):
        super().__init__(race, "the race is over")


class AlreadyJoined(RaceError):
    def __init__(self, race: RaceRecord):
        super().__init__(race, "you are in this race already")


class NotInRace(RaceError):
    """Someone who is not racing pressed a racer's button (My board, Leave)."""

    def __init__(self, race: RaceRecord):
        super().__init__(race, "you are not in this race")


class RaceFull(RaceError):
    def __init__(self, race: RaceRecord):
        super().__init__(race, "the race is full")


class NotTheStarter(RaceError):
    def __init__(self, race: RaceRecord):
        super().__init__(race, "only the starter can start the race")


class DoneRacing(RaceError):
    """A racer who finished (or left) pressed Leave."""

    def __init__(self, race: RaceRecord):
        super().__init__(race, "you have finished this race")


class RaceGone(UserError):
    """A button naming a race that was never stored (forged)."""

    def __init__(self) -> None:
        super().__init__("no such race")
