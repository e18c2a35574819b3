"""What one bot process counts for its operators, as Prometheus metrics (prometheus_client).

Discord-free: the Discord layer calls the methods below with plain names and seconds. Each
bot has a registry of its own (tests run several bots in one process), with the process
collector (CPU, memory, open files). What only exists at the moment of a scrape is read
then: each shard's gateway latency and servers, and the games running, which the bot
counts in the database (so every process shows the same) and hands to :meth:`render`.
Prometheus computes rates and quantiles from the counters and histograms; the Grafana
dashboard in docs/grafana/ shows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

#: A ``_created`` sample for every labelled series doubles the page for nothing Grafana uses.
prometheus_client.disable_created_metrics()

#: Upper bounds (seconds) of the reply-time buckets: Discord's 3 s answer window in view.
REPLY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Waits: for the database's locks, for Discord's rate limits.
WAIT_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: The challenge solver's thinking, from a millisecond (4x6) to seconds (8x9).
SOLVER_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: A garbage collection's pause: under a millisecond young, tens of ms for a full one.
GC_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5)
#: Failures that were not the player's doing (see :meth:`Metrics.error`).
ERROR_KINDS = ("bug", "discord", "expired", "storage")
#: Distinct command or button names kept per kind; more are counted as ``other`` (a forged
#: custom_id must not grow the page without bound).
MAX_NAMES = 64
OTHER = "other"


class _AtScrape(Collector):
    """What is read at the moment of a scrape (set by :meth:`Metrics.render`)."""

    def __init__(self) -> None:
        self.gateway: list[tuple[int, float]] = []
        self.guilds: dict[int, int] = {}
        self.running: Mapping[str, int] | None = None

    def collect(self) -> Iterator[Metric]:
        latency = GaugeMetricFamily(
            "mastermind_gateway_latency_seconds",
            "Time between a gateway heartbeat and its acknowledgement, per shard of this "
            "process (+Inf before the first heartbeat).", labels=["shard"])
        for shard, seconds in sorted(self.gateway):
            latency.add_metric([str(shard)], seconds)
        guilds = GaugeMetricFamily(
            "mastermind_guilds", "Servers each shard of this process serves.", labels=["shard"])
        for shard, count in sorted(self.guilds.items()):
            guilds.add_metric([str(shard)], count)
        yield from (latency, guilds)
        if self.running is not None:
            running = GaugeMetricFamily(
                "mastermind_games_running",
                "Games running now in the database (every process), by kind: breaker, "
                "challenge, match (a match's half) and daily (today's unfinished plays). Idle "
                "games count until the next command in their channel ends them.",
                labels=["kind"])
            for kind, count in self.running.items():
                running.add_metric([kind], count)
            yield running


class Metrics:
    """One process's metrics since it started."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self._interactions = Counter(
            "mastermind_interactions", "Interactions received by this process, by kind "
            "(command, button, modal, autocomplete) and name.", ["kind", "name"],
            registry=registry)
        self._replies = Histogram(
            "mastermind_reply_seconds", "Time from an interaction's handler starting to it "
            "finishing, its answer sent, by kind and name.", ["kind", "name"],
            buckets=REPLY_BUCKETS, registry=registry)
        self._errors = Counter(
            "mastermind_interaction_errors", "Interactions that failed not by the player's "
            "doing, by kind: bug, discord (Discord refused the answer), expired (answered too "
            "late), storage (the database busy or out of reach: nothing stored).", ["kind"],
            registry=registry)
        self._mistakes = Counter(
            "mastermind_player_mistakes", "Interactions refused as the player's mistake "
            "(nothing stored), by the error they were told.", ["error"], registry=registry)
        self._rest = Counter(
            "mastermind_rest_requests", "REST requests to Discord that Discord's global limit "
            "counts (not interaction answers), by kind: needed, or cosmetic (board trail).",
            ["kind"], registry=registry)
        self._rest_waits = Histogram(
            "mastermind_rest_wait_seconds", "Time a REST request waited before it was sent, "
            "by reason: budget (this process's share of the global limit), discord "
            "(Discord's rate limits: buckets and 429 retries).", ["reason"],
            buckets=WAIT_BUCKETS, registry=registry)
        self._rest_429 = Counter(
            "mastermind_rest_429", "429 answers from Discord, by scope (global, shared, user) "
            "and route (interaction, rest).", ["scope", "route"], registry=registry)
        self._cosmetic = Counter(
            "mastermind_cosmetic_edits", "Board-trail edits by outcome: sent, merged (a newer "
            "one for the same board replaced it), stale (waited too long), failed.",
            ["outcome"], registry=registry)
        self._db_waits = Histogram(
            "mastermind_db_lock_wait_seconds", "Time a write transaction waited before it "
            "held what it writes (PostgreSQL: a connection and its locks; SQLite: the file).",
            buckets=WAIT_BUCKETS, registry=registry)
        self._gc = Histogram(
            "mastermind_gc_pause_seconds", "Time each garbage collection stopped this "
            "process (its event loop and every reply), by generation (2: a full one).",
            ["generation"], buckets=GC_BUCKETS, registry=registry)
        self._solver = Histogram(
            "mastermind_solver_seconds", "The challenge solver's thinking per call, by board "
            "size (pegs x colours).", ["size"], buckets=SOLVER_BUCKETS, registry=registry)
        self._at_scrape = _AtScrape()
        registry.register(self._at_scrape)
        ProcessCollector(registry=registry)
        for kind in ERROR_KINDS:  # every kind shows, at 0 until it happens
            self._errors.labels(kind)
        self._names: dict[str, set[str]] = {}

    # ---- interactions ------------------------------------------------------------------------
    def _name(self, kind: str, name: str) -> str:
        known = self._names.setdefault(kind, set())
        if name in known:
            return name
        if len(known) >= MAX_NAMES:
            return OTHER
        known.add(name)
        return name

    def interaction_received(self, kind: str, name: str) -> None:
        self._interactions.labels(kind, self._name(kind, name)).inc()

    def reply_took(self, seconds: float, kind: str, name: str) -> None:
        self._replies.labels(kind, self._name(kind, name)).observe(seconds)

    def error(self, kind: str) -> None:
        """An interaction that failed not by the player's doing (:data:`ERROR_KINDS`)."""
        self._errors.labels(kind).inc()

    def mistake(self, error: str) -> None:
        """An interaction refused as the player's mistake (the domain error's name)."""
        self._mistakes.labels(self._name("mistake", error)).inc()

    # ---- Discord's REST budget ---------------------------------------------------------------
    def rest_sent(self, kind: str) -> None:
        self._rest.labels(kind).inc()

    def rest_waited(self, reason: str, seconds: float) -> None:
        self._rest_waits.labels(reason).observe(seconds)

    def rate_limited(self, scope: str, route: str) -> None:
        self._rest_429.labels(scope, route).inc()

    def cosmetic(self, outcome: str) -> None:
        self._cosmetic.labels(outcome).inc()

    # ---- the database, the garbage collector and the solver ----------------------------------
    def db_waited(self, seconds: float) -> None:
        self._db_waits.observe(seconds)

    def gc_paused(self, generation: int, seconds: float) -> None:
        self._gc.labels(str(generation)).observe(seconds)

    def solver_took(self, size: str, seconds: float) -> None:
        self._solver.labels(self._name("size", size)).observe(seconds)

    # ---- the page ----------------------------------------------------------------------------
    def render(self, gateway: Iterable[tuple[int, float]], guilds: Mapping[int, int],
               running: Mapping[str, int] | None = None) -> str:
        """The page: this process's counts, each of its shards' gateway latency and servers
        and, read from the database (so every process shows the same), the games running
        by kind (left out when the database could not be read)."""
        self._at_scrape.gateway = list(gateway)
        self._at_scrape.guilds = dict(guilds)
        self._at_scrape.running = running
        return prometheus_client.generate_latest(self.registry).decode()
