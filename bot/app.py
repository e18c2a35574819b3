"""The bot object: opens the database, builds the services and loads one extension per
feature (``bot/features/*``), then syncs the slash commands."""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from engine import Rules
from engine import memory as engine_memory

from .core.clock import Clock, system_clock
from .core.config import DEFAULT_ACTIVITY_HOST, DEFAULT_MEMORY_MB, Settings, describe_database
from .core.errors import StorageUnavailable
from .core.metrics import Metrics
from .core.results import utc
from .features.challenge.solvers import SolverCache, in_thread
from .gc_tuning import CollectionTimer, freeze
from .identify_pacing import IdentifyPacing
from .metrics_endpoint import MetricsEndpoint
from .services.games import DEFAULT_IDLE_TIMEOUT
from .store import Database, GameStore
from .ui import boards, pegs
from .ui.app_emoji import Sync, sync_pegs
from .ui.buttons import UnknownButton, unknown_button
from .ui.command_sync import sync_commands
from .ui.ordering import InteractionOrder
from .ui.peg_images import peg_images
from .ui.reply_metrics import action_labels
from .ui.responses import MastermindTree
from .ui.rest_budget import RestBudget, share, trace
from .ui.translation import CatalogTranslator
from .wiring import Services, build_services

log = logging.getLogger(__name__)

#: Seconds running interactions get to finish on SIGTERM/SIGINT.
SHUTDOWN_GRACE = 10.0
#: Seconds a metrics scrape waits to read the games running from the database.
METRICS_READ_TIMEOUT = 2.0
#: Seconds start-up gives the pegs' application emoji (rate limits included) before the
#: boards settle for unicode pegs.
EMOJI_TIMEOUT = 20.0
#: Seconds between two syncs of the pegs while running: each says again that this version
#: shows its pegs (an older drawing goes once no version has for 7 days), deletes what
#: none has shown for that long, and uploads any that went missing.
PEG_REFRESH = 24 * 3600.0
#: What makes the pegs' emoji unavailable for now: the boards keep the pegs they show.
_PEG_FAILURES = (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError,
                 StorageUnavailable)
#: Names discord.py gives the tasks that run a command, a button or a modal.
_INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-",
                      "discord-ui-view-dispatch-", "discord-ui-modal-dispatch-",
                      boards.TASK_NAME)


def _answers_an_interaction(task: asyncio.Task) -> bool:
    return task is not asyncio.current_task() and not task.done() and (
        task.get_name().startswith(_INTERACTION_TASKS))


def _prefixes(items: tuple[type[discord.ui.DynamicItem[Any]], ...]) -> set[str]:
    return {prefix for item in items
            if (prefix := getattr(item, "prefix", None)) and not issubclass(item, UnknownButton)}


def _board_size(function: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """``pegs x colours`` of the rules a solver call works on (a session's, or given)."""
    for candidate in (getattr(function, "__self__", None), *args):
        rules = candidate if isinstance(candidate, Rules) else getattr(candidate, "rules", None)
        if isinstance(rules, Rules):
            return f"{rules.pegs}x{rules.colors}"
    return "unknown"


#: Each feature package's ``setup`` imports its cog and adds it (the cog is imported there and
#: not at the top of the package, so that importing a feature's service, as ``bot/wiring.py``
#: does, loads neither discord.py nor any cog). They are imported rather than loaded with
#: ``load_extension``: discord.py's ``close`` unloads extensions and drops their modules from
#: ``sys.modules``, so every start in one process (the tests start thousands) ran each
#: feature's modules again (0.15 s) and made second copies of their classes and errors.
FEATURES = (
    "bot.features.picker",
    "bot.features.breaker",
    "bot.features.challenge",
    "bot.features.stats",
    "bot.features.ratings",
    "bot.features.match",
    "bot.features.race",
    "bot.features.analysis",
    "bot.features.hints",
    "bot.features.daily",
    "bot.features.puzzle",
    "bot.features.settings",
    "bot.features.mastermind",
    "bot.features.activity",
)


class MastermindBot(commands.AutoShardedBot, commands.Bot):
    """Runs the shards it is given (``shard_ids`` of ``shard_count``), or with no count one
    connection with as many shards as Discord recommends (one for a small bot). Everything
    that must hold across processes is in the database.

    Also a ``commands.Bot`` (which adds nothing to ``BotBase`` and ``Client`` at run time), so
    the features' cogs and ``isinstance(client, commands.Bot)`` checks take it as it is; the
    sharded client's methods come first in the method order."""

    #: Built in ``setup_hook`` once the database is open; features take what they need.
    db: Database
    services: Services

    def __init__(
        self,
        *,
        database: str | Path,
        dev_guild_id: int | None = None,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        memory_budget: int = DEFAULT_MEMORY_MB * 2**20,
        clock: Clock = system_clock,
        shard_count: int | None = None,
        shard_ids: tuple[int, ...] | None = None,
        metrics_port: int | None = None,
        emoji_timeout: float = EMOJI_TIMEOUT,
        activity_port: int | None = None,
        activity_host: str = DEFAULT_ACTIVITY_HOST,
        client_secret: str | None = None,
        peg_refresh: float = PEG_REFRESH,
        freeze_after_start: bool = False,
    ):
        # The bot has no voice features: don't warn about voice libraries on every start.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        self.metrics = Metrics()
        intents = discord.Intents.none()
        intents.guilds = True  # slash commands need no privileged intents
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=MastermindTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=shard_count,
            shard_ids=list(shard_ids) if shard_ids is not None else None,  # type: ignore[arg-type]
            http_trace=trace(self.metrics),
        )
        self._keep_only_modals()
        #: The prefixes of the buttons registered, and the button answering any other.
        self._button_prefixes: set[str] = set()
        self._unknown_button: type[UnknownButton] | None = None
        #: Requests Discord's global limit counts go through this process's share of it.
        self.rest_budget = RestBudget(share(shard_count, shard_ids), counts=self.metrics)
        self.rest_budget.install(self.http)
        self.identify_pacing = IdentifyPacing(self.http.get_bot_gateway)
        #: A SQLite file, or a ``sqlite:///`` or ``postgresql://`` URL (``Database.open``).
        self.database = database
        self.dev_guild_id = dev_guild_id
        self.idle_timeout = idle_timeout
        self.memory_budget = memory_budget
        self.clock = clock
        self._db: Database | None = None
        self.interaction_order = InteractionOrder()
        #: Set on shutdown: new interactions are refused with a "restarting" note.
        self.closing = False
        self.emoji_timeout = emoji_timeout
        #: What the last sync did with the pegs' emoji; None when the boards show unicode pegs.
        self.peg_sync: Sync | None = None
        #: The Activity's web server (None: off; 0: any free port) and its sign-in's secret.
        self.activity_port = activity_port
        self.activity_host = activity_host
        self.client_secret = client_secret
        self.peg_refresh = peg_refresh
        self._peg_refresher: asyncio.Task[None] | None = None
        self._metrics_endpoint = (MetricsEndpoint(metrics_port, self.metrics_page)
                                  if metrics_port is not None else None)
        #: Freeze start-up's objects (:mod:`bot.gc_tuning`): the process's own bot does;
        #: tests, which start many bots in one process, don't. How many are frozen, once
        #: set up and once ready (0: not yet).
        self.freeze_after_start = freeze_after_start
        self.frozen_at_setup = self.frozen_at_ready = 0
        self._collections = CollectionTimer(self.metrics.gc_paused)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False
                                   ) -> None:
        await self.identify_pacing.before_identify(shard_id, initial=initial)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register buttons (a feature's cog does, as it loads), and answer a click on any
        other prefix of ours as out of date (:func:`unknown_button`)."""
        super().add_dynamic_items(*items)
        self._button_prefixes.update(_prefixes(items))
        self._answer_unknown_buttons()

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        self._button_prefixes.difference_update(_prefixes(items))
        self._answer_unknown_buttons()

    @property
    def button_prefixes(self) -> frozenset[str]:
        """The custom_id prefixes of the buttons registered now."""
        return frozenset(self._button_prefixes)

    def _answer_unknown_buttons(self) -> None:
        if self._unknown_button is not None:
            super().remove_dynamic_items(self._unknown_button)
        self._unknown_button = unknown_button(self._button_prefixes)
        super().add_dynamic_items(self._unknown_button)

    def _keep_only_modals(self) -> None:
        """Every button of the bot is a ``DynamicItem`` dispatched from its custom_id, so a
        sent view is not kept: discord.py would hold each one for the life of the process
        (a private one with a 15-minute timer task). Modals still are, since their
        submission is routed through the store."""
        keep = self._connection.store_view

        def store_modals_only(view: discord.ui.view.BaseView, message_id: int | None = None
                              ) -> None:
            if isinstance(view, discord.ui.Modal):
                keep(view, message_id)

        self._connection.store_view = store_modals_only  # type: ignore[method-assign]

    @classmethod
    def from_settings(cls, settings: Settings) -> MastermindBot:
        return cls(
            database=settings.database,
            dev_guild_id=settings.dev_guild_id,
            idle_timeout=settings.idle_timeout,
            memory_budget=settings.memory_budget,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
            metrics_port=settings.metrics_port,
            activity_port=settings.activity_port,
            activity_host=settings.activity_host,
            client_secret=settings.client_secret,
            freeze_after_start=True,
        )

    async def setup_hook(self) -> None:
        self._collections.install()
        self._db = self.db = await Database.open(self.database,
                                                 lock_waited=self.metrics.db_waited)
        log.info("serving %s from database %s at schema version %s", self.serving(),
                 describe_database(self.database), await self.db.schema_version())
        if self._metrics_endpoint is not None:
            await self._metrics_endpoint.start()
        # Half the memory budget for the engine's shared tables, half for solver sessions.
        engine_memory.set_budget(self.memory_budget - self.memory_budget // 2)
        self.services = await build_services(
            self.db, clock=self.clock, idle_timeout=self.idle_timeout,
            solvers=SolverCache(max_bytes=self.memory_budget // 2, run=self._timed_solver),
            turn_mark=self.interaction_order.mark)
        for feature in FEATURES:  # imported, not loaded as extensions: see FEATURES
            await importlib.import_module(feature).setup(self)
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()
        await self.install_pegs()
        self._peg_refresher = asyncio.create_task(self._refresh_pegs(), name="pegs-refresh")
        if self.freeze_after_start:  # before connecting: no reply waits for the collection
            self.frozen_at_setup = freeze(collect_first=True)

    async def install_pegs(self) -> None:
        """Boards show the drawn pegs as application emoji (uploading those Discord lacks),
        or, when Discord won't have them within ``emoji_timeout``, the pegs they showed
        (at start-up the unicode pegs)."""
        try:
            async with asyncio.timeout(self.emoji_timeout):
                images = await asyncio.to_thread(peg_images)
                sync = await sync_pegs(self, images, self.services.emoji_use)
        except _PEG_FAILURES as exc:
            why = (f"no answer within {self.emoji_timeout:g} s" if isinstance(exc, TimeoutError)
                   else " ".join(str(exc).split()) or type(exc).__name__)
            shown = "unicode pegs" if self.peg_sync is None else "the pegs they showed"
            log.warning("pegs: the application emoji can't be had (%s); boards show %s", why,
                        shown)
            return
        pegs.install(sync.peg_set())
        self.peg_sync = sync
        log.info("pegs: %d application emoji in use (%d uploaded, %d older drawings deleted, "
                 "%d kept for other versions)", len(sync.emoji), len(sync.uploaded),
                 len(sync.deleted), len(sync.others))

    async def _refresh_pegs(self) -> None:
        while True:
            await asyncio.sleep(self.peg_refresh)
            await self.install_pegs()

    def serving(self) -> str:
        """Which shards this process runs, in words for the start-up line."""
        if self.shard_count is None:
            return "the shards Discord recommends (SHARD_COUNT not set)"
        ids = self.shard_ids if self.shard_ids is not None else range(self.shard_count)
        return f"shards {', '.join(map(str, ids))} of {self.shard_count}"

    async def _timed_solver(self, function: Callable[..., Any], *args: Any,
                            **kwargs: Any) -> Any:
        """Solver work in a worker thread, timed by board size for the metrics."""
        started = time.perf_counter()
        try:
            return await in_thread(function, *args, **kwargs)
        finally:
            self.metrics.solver_took(_board_size(function, args),
                                     time.perf_counter() - started)

    async def metrics_page(self) -> str:
        latencies = self.latencies
        guilds = {shard: 0 for shard, _ in latencies}
        guilds.update(Counter(guild.shard_id for guild in self.guilds))
        return self.metrics.render(latencies, guilds, await self.games_running())

    async def games_running(self) -> dict[str, int] | None:
        """Games running by kind, counted in the database (the same on every process), or
        None when it can't be read now: the page still shows this process's counts."""
        if self._db is None:
            return None
        day = utc(self.clock()).date().isoformat()  # the daily code's day (DailyService)
        try:
            async with asyncio.timeout(METRICS_READ_TIMEOUT):
                return await GameStore().running(await self._db.reader(), day)
        except Exception as exc:  # a scrape must never fail for the database's sake
            log.warning("metrics: games running not read from the database (%s)",
                        exc or type(exc).__name__)
            return None

    async def on_ready(self) -> None:
        """Every shard is ready: what start-up made (the servers' cache too) is frozen, once,
        without a collection (interactions may be coming in)."""
        if self.freeze_after_start and not self.frozen_at_ready:
            self.frozen_at_ready = freeze(collect_first=False)
            log.info("garbage collector: %d objects of start-up frozen (%d after set-up)",
                     self.frozen_at_ready, self.frozen_at_setup)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interaction_order.seen(interaction.id)
        self.metrics.interaction_received(*action_labels(interaction))

    async def shutdown(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Stop taking interactions, let the running ones finish (up to ``grace`` seconds),
        then close the gateway, the HTTP session and the database."""
        await self.drain(grace)
        await self.close()

    async def drain(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Refuse new interactions and wait up to ``grace`` seconds for the running ones,
        and for the board updates they start meanwhile, to finish."""
        self.closing = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        told = False
        while running := [t for t in asyncio.all_tasks() if _answers_an_interaction(t)]:
            if not told:
                log.info("waiting for %d running interactions", len(running))
                told = True
            if loop.time() >= deadline:
                log.warning("%d interactions still running after %.0f s", len(running), grace)
                return
            await asyncio.wait(running, timeout=deadline - loop.time())

    @property
    def syncs_commands(self) -> bool:
        """One process syncs the commands: the one that runs shard 0 (all of them, unless
        SHARD_IDS says otherwise)."""
        return self.shard_ids is None or 0 in self.shard_ids

    async def sync_commands(self) -> None:
        """The slash commands (global, or the development server's) written to Discord when
        it holds others (:mod:`bot.ui.command_sync`)."""
        if not self.syncs_commands:
            log.info("commands: not synced here; the process that runs shard 0 syncs them")
            return
        guild = None
        if self.dev_guild_id:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        done = await sync_commands(self.tree, guild)
        kept = f"; kept Discord's {', '.join(done.kept)}" if done.kept else ""
        if done.written:
            log.info("commands: %d synced (%s; global ones can take a while to appear)%s",
                     done.declared, done.scope, kept)
        else:
            log.info("commands: %d unchanged (%s), not synced%s", done.declared, done.scope,
                     kept)

    async def close(self) -> None:
        """Close everything, after draining like :meth:`shutdown` when nothing did yet:
        discord.py closes the client itself on a fatal gateway close (4004 after a token
        reset), and the moves still running need the database and HTTP to finish."""
        if not self.closing:
            await self.drain()
        await self.rest_budget.close(grace=1.0)  # board-trail edits still waiting: dropped
        if self._peg_refresher is not None:
            self._peg_refresher.cancel()
        try:
            await super().close()
        finally:
            if self.peg_sync is not None:
                pegs.reset()
            self._collections.remove()
            if self._metrics_endpoint is not None:
                await self._metrics_endpoint.stop()
            if self._db is not None:
                await self._db.close()
                self._db = None
                log.info("database closed")
