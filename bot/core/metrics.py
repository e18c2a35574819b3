"""What one bot process counts for its operators, written in the Prometheus text format.

Discord-free and cheap: counters are plain integers, the reply-time histogram has fixed
buckets, and "per second" is measured over the last minute in one-second slots (memory stays
the same at any load). Prometheus itself computes rates from the counters; the per-second
gauge is for a person reading the page.
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

#: Upper bounds (seconds) of the reply-time buckets: Discord's 3 s answer window in view.
REPLY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: The window "interactions per second" is averaged over.
RATE_WINDOW = 60


def number(value: float) -> str:
    """A sample value as Prometheus writes it (``+Inf``, ``NaN``, no needless ``.0``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass
class Histogram:
    bounds: tuple[float, ...] = REPLY_BUCKETS
    counts: list[int] = field(default_factory=lambda: [0] * (len(REPLY_BUCKETS) + 1))
    total: float = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, seconds)] += 1
        self.total += seconds

    def lines(self, name: str) -> list[str]:
        out, running = [], 0
        for bound, count in zip((*self.bounds, math.inf), self.counts, strict=True):
            running += count
            out.append(f'{name}_bucket{{le="{number(bound)}"}} {running}')
        out += [f"{name}_sum {number(self.total)}", f"{name}_count {running}"]
        return out


class Metrics:
    """One process's counts since it started."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.interactions = 0
        self.errors: dict[str, int] = {}
        self.replies = Histogram()
        self._slots: dict[int, int] = {}  # whole second -> interactions received in it

    def interaction_received(self) -> None:
        self.interactions += 1
        second = int(self.clock())
        self._slots[second] = self._slots.get(second, 0) + 1
        if len(self._slots) > RATE_WINDOW + 1:
            for old in [s for s in self._slots if s < second - RATE_WINDOW]:
                del self._slots[old]

    def reply_took(self, seconds: float) -> None:
        self.replies.observe(seconds)

    def error(self, kind: str) -> None:
        """An interaction that failed not by the player's doing: ``bug``, ``discord`` (Discord
        refused the answer) or ``expired`` (answered too late)."""
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def per_second(self) -> float:
        """Interactions per second over the last full minute."""
        now = int(self.clock())
        recent = sum(n for s, n in self._slots.items() if now - RATE_WINDOW <= s < now)
        return recent / RATE_WINDOW

    def render(self, gateway: Iterable[tuple[int, float]],
               running: Mapping[str, int] | None = None) -> str:
        """The page: this process's counts, each of its shards' gateway latency and, read
        from the database (so every process shows the same), the games running by kind
        (left out when the database could not be read)."""
        lines = [
            *_head("mastermind_interactions_total", "counter",
                   "Interactions received by this process."),
            f"mastermind_interactions_total {self.interactions}",
            *_head("mastermind_interactions_per_second", "gauge",
                   f"Interactions received per second, averaged over the last "
                   f"{RATE_WINDOW} s."),
            f"mastermind_interactions_per_second {number(self.per_second())}",
            *_head("mastermind_reply_seconds", "histogram",
                   "Time from an interaction's handler starting to it finishing, its answer "
                   "sent."),
            *self.replies.lines("mastermind_reply_seconds"),
            *_head("mastermind_interaction_errors_total", "counter",
                   "Interactions that failed not by the player's doing, by kind."),
            *(f'mastermind_interaction_errors_total{{kind="{kind}"}} {self.errors.get(kind, 0)}'
              for kind in ("bug", "discord", "expired")),
            *_head("mastermind_gateway_latency_seconds", "gauge",
                   "Time between a gateway heartbeat and its acknowledgement, per shard."),
            *(f'mastermind_gateway_latency_seconds{{shard="{shard}"}} {number(latency)}'
              for shard, latency in sorted(gateway)),
        ]
        if running is not None:
            lines += [
                *_head("mastermind_games_running", "gauge",
                       "Games running now in the database (every process), by kind: breaker, "
                       "challenge, match (a match's half) and daily (today's unfinished "
                       "plays). Idle games count until the next command in their channel "
                       "ends them."),
                *(f'mastermind_games_running{{kind="{kind}"}} {count}'
                  for kind, count in running.items()),
            ]
        return "\n".join(lines) + "\n"


def _head(name: str, kind: str, help_text: str) -> tuple[str, str]:
    return f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"
