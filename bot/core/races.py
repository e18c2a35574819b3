"""A race (``/race``) as the services see it, and its ranking: plain data, Discord-free."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine import Code, Feedback, Rules

from .enums import RacerStatus, RaceStatus

#: How long the lobby waits for people to join before the race starts by itself.
LOBBY_SECONDS = 60.0
#: Racers at most: the standings board shows each on a line, and a race stays a race.
MAX_RACERS = 25
#: The time limit when the server has set none.
DEFAULT_TIME_LIMIT = 600.0


@dataclass(frozen=True)
class RatingShown:
    """The rating change a race's end made for one racer, kept to be shown with the result
    (the ratings service's answer, as stored)."""

    before: float | None
    after: float | None
    provisional: bool
    rated: bool
    why_not: str | None


@dataclass(frozen=True)
class Racer:
    user_id: int
    joined_at: float
    status: RacerStatus
    #: Guesses made so far (while racing: read from the board).
    guesses: int
    finished_at: float | None
    #: The best reply among the racer's guesses (black first): how an unsolved one ranks.
    best: Feedback
    place: int | None = None
    rating: RatingShown | None = None

    @property
    def racing(self) -> bool:
        return self.status is RacerStatus.RACING


#: A race still to be played (its lobby, or running).
OPEN = frozenset({RaceStatus.LOBBY, RaceStatus.RUNNING})


@dataclass(frozen=True)
class RaceHead:
    """A race's state and board, without its racers: what a racer's move needs to know."""

    id: int
    status: RaceStatus
    board_message_id: int | None

    @property
    def open(self) -> bool:
        return self.status in OPEN


@dataclass(frozen=True)
class RaceRecord:
    id: int
    guild_id: int | None
    channel_id: int
    rules: Rules
    secret: Code
    status: RaceStatus
    started_by: int
    created_at: float
    lobby_until: float
    time_limit: float
    started_at: float | None
    deadline: float | None
    ended_at: float | None
    board_message_id: int | None
    announced: bool
    racers: tuple[Racer, ...] = ()

    @property
    def open(self) -> bool:
        return self.status in OPEN

    def with_changes(self, **changes: object) -> RaceRecord:
        return replace(self, **changes)  # type: ignore[arg-type]

    def racer(self, user_id: int) -> Racer | None:
        return next((r for r in self.racers if r.user_id == user_id), None)

    def lobby_over(self, now: float) -> bool:
        return self.status is RaceStatus.LOBBY and now >= self.lobby_until

    def time_up(self, now: float) -> bool:
        return (self.status is RaceStatus.RUNNING and self.deadline is not None
                and now >= self.deadline)


def rank_key(racer: Racer, started_at: float) -> tuple[float, ...]:
    """Solved first, by fewer guesses then less time; unsolved next, by their best guess's
    black then white pegs; those who left last. Equal keys are a tie."""
    if racer.status is RacerStatus.SOLVED:
        return (0, racer.guesses, (racer.finished_at or started_at) - started_at)
    if racer.status is RacerStatus.LEFT:
        return (2,)
    return (1, -racer.best.black, -racer.best.white)


def places(racers: tuple[Racer, ...], started_at: float) -> dict[int, int]:
    """Each racer's place (1 is best; a tie shares the place, the next skips: 1, 1, 3)."""
    ordered = sorted(racers, key=lambda r: (rank_key(r, started_at), r.joined_at))
    placed: dict[int, int] = {}
    previous: tuple[float, ...] | None = None
    place = 0
    for index, racer in enumerate(ordered, start=1):
        key = rank_key(racer, started_at)
        if key != previous:
            place, previous = index, key
        placed[racer.user_id] = place
    return placed


def ranked(race: RaceRecord) -> list[Racer]:
    """The racers in their order on the board: by place once placed, else as they rank now
    (finished ones ranked, those still racing after them by guesses made)."""
    start = race.started_at or race.created_at
    if all(r.place is not None for r in race.racers):
        return sorted(race.racers, key=lambda r: (r.place or 0, r.joined_at))
    return sorted(race.racers, key=lambda r: (
        (0.5, -r.guesses) if r.racing else rank_key(r, start), r.joined_at))
