"""In-process harness: drive a real ``commands.Bot`` through discord.py's own code paths.

Only the network is replaced. ``FakeDiscord.login`` swaps ``aiohttp.ClientSession`` for a
:class:`~fake_discord.session.FakeClientSession` while ``bot.login`` runs, so both the bot's
``HTTPClient`` and every interaction's webhook adapter talk to the fake. Interactions are fed
to ``bot._connection.parsers["INTERACTION_CREATE"]`` exactly as the gateway would, so
CommandTree dispatch, option conversion, views, DynamicItems and ``InteractionResponse`` all run
unmodified.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import sys
import traceback
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from unittest import mock

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from .activities import ActivityInstance, ActivityLaunch, ActivityStore
from .errors import (
    BotErrors,
    DiscordRuleViolations,
    FakeDiscordError,
    InteractionTimeout,
    InvalidInteraction,
    NoResponse,
)
from .models import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    json_copy,
)
from .session import FakeClientSession
from .state import (
    CallbackRecord,
    DiscordState,
    InteractionRecord,
    MessageEvent,
    RecordedRequest,
    Violation,
    current_interaction,
)

log = logging.getLogger(__name__)

# Library tasks that legitimately outlive an interaction and must not be waited for.
_LONG_LIVED_CORO_SUFFIXES = ("__timeout_task_impl",)


class FakeClock:
    """A monotonic clock the test moves by hand: ``FakeDiscord(clock=clock)``."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a monotonic clock can't go back")
        self.now += seconds


@dataclass
class BotError:
    """An exception the bot raised (or logged at ERROR level) while handling something."""

    exception: BaseException | None
    source: str  # "tree.on_error", "view.on_error", "client.on_error", "task", "log:<logger>"
    message: str
    interaction_id: int | None = None

    def chain(self) -> list[BaseException]:
        """The exception, its ``.original`` (CommandInvokeError) and its causes."""
        out: list[BaseException] = []
        exc = self.exception
        while exc is not None and exc not in out:
            out.append(exc)
            exc = getattr(exc, "original", None) or exc.__cause__ or exc.__context__
        return out

    def matches(
        self,
        exc_type: type[BaseException] | tuple[type[BaseException], ...],
        match: str | None = None,
    ) -> bool:
        for exc in self.chain():
            if isinstance(exc, exc_type) and (match is None or match in str(exc)):
                return True
        return False

    def __str__(self) -> str:
        head = f"[{self.source}] {self.message}"
        if self.exception is None:
            return head
        tb = "".join(traceback.format_exception(self.exception))
        return f"{head}\n{tb}"


@dataclass
class Expectation:
    """An error or violation announced before it happened (see ``FakeDiscord.expect_error``)."""

    kind: str  # "error" | "violation"
    what: Any  # exception type(s), or a Discord error code
    match: str | None = None
    matched: BotError | Violation | None = None

    def __repr__(self) -> str:
        what = getattr(self.what, "__name__", self.what)
        extra = f" matching {self.match!r}" if self.match else ""
        return f"<expected {self.kind} {what}{extra}: {'met' if self.matched else 'unmet'}>"


class InteractionResult:
    """What happened for one interaction: the response, messages, errors and violations."""

    def __init__(self, state: DiscordState, record: InteractionRecord) -> None:
        self._state = state
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def response(self) -> CallbackRecord | None:
        """The accepted initial response (callback): ``.type``, ``.data``, ``.ephemeral``..."""
        return self.record.callback

    @property
    def responded(self) -> bool:
        return self.record.callback is not None

    @property
    def events(self) -> list[MessageEvent]:
        return list(self.record.events)

    @property
    def messages(self) -> list[FakeMessage]:
        """Snapshots of every message created or edited for this interaction, in order
        (original response, edits of @original, followups, channel messages the handler sent).
        """
        return [e.message for e in self.record.events if e.kind in ("create", "edit")]

    @property
    def original(self) -> FakeMessage | None:
        """The live ``@original`` message (for component interactions after a deferred
        update or update_message, that is the message holding the component)."""
        mid = self.record.original_message_id
        return self._state.messages.get(mid) if mid is not None else None

    @property
    def followups(self) -> list[FakeMessage]:
        return [self._state.messages[m] for m in self.record.followup_ids]

    @property
    def message(self) -> FakeMessage | None:
        """The live message most recently created or edited by this interaction."""
        for event in reversed(self.record.events):
            if event.kind != "delete":
                return self._state.messages[event.message.id]
        return self.original

    @property
    def content(self) -> str | None:
        msg = self.message
        return msg.content if msg is not None else None

    @property
    def embeds(self) -> list[dict[str, Any]]:
        msg = self.message
        return msg.embeds if msg is not None else []

    @property
    def embed(self) -> dict[str, Any] | None:
        embeds = self.embeds
        return embeds[0] if embeds else None

    @property
    def ephemeral(self) -> bool:
        return self.record.callback is not None and (
            self.record.callback.ephemeral or bool(self.original and self.original.ephemeral)
        )

    @property
    def modal(self) -> dict[str, Any] | None:
        cb = self.record.callback
        return cb.data if cb is not None and cb.type == 9 else None

    @property
    def launch(self) -> ActivityLaunch | None:
        """The Activity this interaction's ``LAUNCH_ACTIVITY`` answer launched, if any."""
        return next((launch for launch in self._state.activities.launches
                     if launch.interaction_id == self.record.id), None)

    @property
    def errors(self) -> list[BotError]:
        return list(self.record.errors)

    @property
    def violations(self) -> list[Violation]:
        return list(self.record.violations)

    @property
    def requests(self) -> list[RecordedRequest]:
        return list(self.record.requests)

    def __repr__(self) -> str:
        cb = self.record.callback
        return (
            f"<InteractionResult {self.record!r} response={cb.type_name if cb else None} "
            f"messages={len(self.messages)} errors={len(self.record.errors)} "
            f"violations={len(self.record.violations)}>"
        )


class _LogCapture(logging.Handler):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(level=logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        try:
            message = record.getMessage()
        except Exception:  # pragma: no cover - broken log format
            message = str(record.msg)
        self.fake._record_error(exc, f"log:{record.name}", message)


class FakeDiscord:
    """A fake Discord for in-process tests. See the package docstring for a tour.

    ``clock``: monotonic clock used for the 3 s response rule and token expiry (inject a
    :class:`FakeClock` to simulate slow handlers without sleeping). ``timeout``: real seconds
    after which a handler (or what it set off) is called hung: a hang detector, never a speed
    bound (Discord's 3 s run on ``clock``), so it is far above what a busy machine takes; the
    cancel it makes is a failure of its own. ``settle``: real seconds to give tasks the handler
    spawned.
    ``ignore_errors``: exception types that are normal control flow and never count as bot
    errors (by default failed app-command checks). ``error_loggers``: loggers whose ERROR
    records count as bot errors (add the bot's own logger names here).
    """

    def __init__(
        self,
        *,
        clock: Callable[[], float] | None = None,
        token: str | None = None,
        bot_name: str = "TestBot",
        timeout: float = 60.0,
        settle: float = 0.05,
        ignore_errors: tuple[type[BaseException], ...] = (app_commands.CheckFailure,),
        error_loggers: Iterable[str] = ("discord",),
    ) -> None:
        self.state = DiscordState(token=token, bot_name=bot_name, clock=clock)
        self.timeout = timeout
        self.settle = settle
        self.ignore_errors = ignore_errors
        self.error_loggers = tuple(error_loggers)
        self.errors: list[BotError] = []
        self.expected_errors: list[BotError] = []
        self.expected_violations: list[Violation] = []
        self._pending_errors: list[Expectation] = []
        self._pending_violations: list[Expectation] = []
        self.bots: list[commands.Bot] = []
        self._tasks: dict[int, list[asyncio.Task[Any]]] = {}
        self._guild_versions: dict[int, dict[int, str]] = {}
        self._seen_exceptions: dict[int, BaseException] = {}  # keeps them alive
        self._undo: list[Callable[[], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False

    # -------------------------------------------------------------- state passthroughs
    @property
    def token(self) -> str:
        return self.state.token

    @property
    def bot_user(self) -> FakeUser:
        return self.state.bot_user

    @property
    def application_id(self) -> int:
        return self.state.application_id

    @property
    def violations(self) -> list[Violation]:
        return self.state.violations

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.state.requests

    @property
    def commands(self) -> list[dict[str, Any]]:
        """Global command schema as last synced (the PUT body, plus ids)."""
        return self.state.global_commands

    def guild_commands(self, guild: FakeGuild) -> list[dict[str, Any]]:
        return self.state.guild_commands.get(guild.id, [])

    # ------------------------------------------------------------------------ factories
    def user(self, username: str, *, global_name: str | None = None) -> FakeUser:
        return self.state.create_user(username, global_name=global_name)

    def guild(self, name: str = "Test Guild", **kwargs: Any) -> FakeGuild:
        """A guild with an ``@everyone`` role and a ``#general`` channel.

        kwargs: ``owner``, ``everyone_permissions``, ``bot_permissions``, ``channels``,
        ``installed=False`` (the app was not added to it: only members who installed it to
        their account reach it, see :meth:`user_install`).
        """
        return self.state.create_guild(name, **kwargs)

    def user_install(self, user: FakeUser) -> FakeUser:
        """``user`` installs the app to their account: its commands follow them into servers
        that did not add it, group DMs and DMs with other users."""
        self.state.install_for_user(user)
        return user

    def group_dm(self, *users: FakeUser, name: str = "group") -> FakeChannel:
        """A group DM of ``users`` (the bot is never in one)."""
        return self.state.private_channel(*users, name=name)

    def user_dm(self, user: FakeUser, other: FakeUser) -> FakeChannel:
        """The DM between two users (not the bot's)."""
        return self.state.private_channel(user, other)

    def channel(self, guild: FakeGuild, name: str = "general", **kwargs: Any) -> FakeChannel:
        return self.state.create_channel(guild, name, **kwargs)

    def role(
        self, guild: FakeGuild, name: str, *, permissions: int | discord.Permissions | None = None
    ) -> FakeRole:
        return self.state.create_role(guild, name, permissions=permissions)

    def member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        roles: Iterable[FakeRole] = (),
        permissions: int | discord.Permissions | None = None,
        nick: str | None = None,
    ) -> FakeMember:
        """Add ``user`` to ``guild``; ``permissions`` (e.g. ``Permissions(manage_messages=True)``)
        are granted through an extra role, so ``interaction.permissions`` reflects them."""
        return self.state.add_member(guild, user, roles=roles, permissions=permissions, nick=nick)

    def dm(self, user: FakeUser) -> FakeChannel:
        return self.state.dm_channel(user)

    # ----------------------------------------------------------------------- activities
    def enable_activities(self) -> dict[str, Any]:
        """Activities on: the ``EMBEDDED`` flag and the Entry Point command "Launch"
        (see :mod:`fake_discord.activities`). Returns that command."""
        return self.state.enable_activities()

    @property
    def activities(self) -> ActivityStore:
        """Codes, tokens, instances, launches and the app's ``client_secret``."""
        return self.state.activities

    def authorize(self, user: FakeUser, scopes: Sequence[str] = ("identify",)) -> str:
        """The Embedded App SDK's ``commands.authorize``: a single-use code for ``user``."""
        return self.state.authorize(user, scopes)

    def start_activity(self, channel: FakeChannel, *users: FakeUser) -> ActivityInstance:
        """``users`` open the Activity in ``channel`` (joining the instance running there)."""
        return self.state.start_activity(channel, *users)

    async def entry_point(
        self, bot: commands.Bot, *, user: FakeUser | FakeMember,
        channel: FakeChannel | None = None, guild: FakeGuild | None = None,
    ) -> ActivityLaunch | InteractionResult:
        """``user`` picks the Entry Point command: Discord launches the Activity (handler 2)
        or the bot answers the interaction (handler 1)."""
        launched = self.state.launch_from_entry_point(user, channel, guild)
        if isinstance(launched, ActivityLaunch):
            return launched
        return await self._run(bot, launched, timeout=None, expect_response=True)

    def client_session(self) -> FakeClientSession:
        """An ``aiohttp.ClientSession`` stand-in answering from this fake: for code that
        calls Discord outside discord.py (OAuth2's token exchange, ``/users/@me`` with a
        Bearer token, activity instances) at ``discord.http.Route.BASE``."""
        return FakeClientSession(self.state)

    # ----------------------------------------------------------------------- inspection
    def message(self, message_id: int) -> FakeMessage:
        return self.state.messages[message_id]

    def messages(
        self, channel: FakeChannel, *, include_ephemeral: bool = True
    ) -> list[FakeMessage]:
        """Live messages in ``channel``, oldest first (deleted ones excluded)."""
        return self.state.channel_history(channel, include_ephemeral=include_ephemeral)

    def last_message(self, channel: FakeChannel, *, include_ephemeral: bool = False) -> FakeMessage:
        msgs = self.messages(channel, include_ephemeral=include_ephemeral)
        if not msgs:
            raise AssertionError(f"no messages in {channel!r}")
        return msgs[-1]

    async def wait_until(
        self, predicate: Callable[[], Any], *, timeout: float | None = None, what: str = "condition"
    ) -> Any:
        """Poll ``predicate()`` (every ~1 ms, real time) until it is truthy; return its value.

        For flows where a handler waits for a later interaction, e.g.::

            pending = asyncio.create_task(fake.slash(bot, "reset", user=alice))
            msg = await fake.wait_until(lambda: find_confirm_message())
            await fake.click(bot, msg, "confirm", user=alice)
            result = await pending
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        while not (value := predicate()):
            if loop.time() >= deadline:
                raise TimeoutError(f"timed out waiting for {what}")
            await asyncio.sleep(0.001)
        return value

    # ------------------------------------------------------------------- bot lifecycle
    async def login(self, bot: commands.Bot, *, token: str | None = None) -> commands.Bot:
        """``bot.login`` against the fake (runs ``setup_hook``), then install error hooks."""
        self._install_loop_hooks()

        def session_factory(*args: Any, **kwargs: Any) -> FakeClientSession:
            return FakeClientSession(self.state, connector=kwargs.get("connector"),
                                     trace_configs=kwargs.get("trace_configs"))

        with mock.patch.object(aiohttp, "ClientSession", session_factory):
            await bot.login(token or self.state.token)
        self._install_bot_hooks(bot)
        self.bots.append(bot)
        return bot

    async def sync(
        self, bot: commands.Bot, *, guild: FakeGuild | None = None
    ) -> list[app_commands.AppCommand]:
        """``bot.tree.sync()`` (globally, or to ``guild``) through the fake."""
        target = discord.Object(guild.id) if guild is not None else None
        return await bot.tree.sync(guild=target)

    async def close(self) -> None:
        """Close logged-in bots, reap tasks, and remove every hook (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            for bot in self.bots:
                if not bot.is_closed():
                    await bot.close()
            for rec_id, tasks in self._tasks.items():
                for task in tasks:
                    if not task.done():
                        task.cancel()
                self._collect_task_errors(tasks, self.state.interactions.get(rec_id))
            pending = [t for ts in self._tasks.values() for t in ts if not t.done()]
            if pending:
                await asyncio.wait(pending, timeout=1.0)
        finally:
            while self._undo:
                self._undo.pop()()

    async def __aenter__(self) -> FakeDiscord:
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.close()
        if exc_type is None:
            self.check()

    # -------------------------------------------------------------------- interactions
    async def slash(
        self,
        bot: commands.Bot,
        command: str,
        *,
        user: FakeUser | FakeMember,
        channel: FakeChannel | None = None,
        guild: FakeGuild | None = None,
        options: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        **kwargs: Any,
    ) -> InteractionResult:
        """Invoke ``/command`` (e.g. ``"mastermind new"``) as ``user`` and wait for the bot.

        Options come from ``kwargs`` and/or ``options`` (use ``options`` for names such as
        ``user`` or ``channel``). Users/members, roles and channels are passed as fake objects.
        Without ``channel``/``guild`` the command is used in the user's DM with the bot.
        """
        rec = self.state.new_command_interaction(
            command,
            user=user,
            channel=channel,
            guild=guild,
            options={**(options or {}), **kwargs},
            context_keywords=_passed(user=user, channel=channel, guild=guild),
        )
        return await self._run(bot, rec, timeout=timeout, expect_response=expect_response)

    async def click(
        self,
        bot: commands.Bot,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        user: FakeUser | FakeMember,
        timeout: float | None = None,
        expect_response: bool = True,
    ) -> InteractionResult:
        """Click a button of a stored message, by ``custom_id`` or by ``label``."""
        msg = self._message(message)
        if custom_id is None:
            if label is None:
                raise InvalidInteraction("click() needs a custom_id or a label")
            try:
                custom_id = msg.component(label=label).get("custom_id")
            except KeyError as exc:
                raise InvalidInteraction(str(exc.args[0])) from None
            if custom_id is None:
                raise InvalidInteraction(f"button {label!r} is a link; clicking it sends nothing")
        rec = self.state.new_component_interaction(msg, custom_id, user=user)
        return await self._run(bot, rec, timeout=timeout, expect_response=expect_response)

    async def redeliver(self, bot: commands.Bot, result: InteractionResult) -> InteractionResult:
        """Deliver an interaction that was already delivered, to ``bot`` (another process on
        the same token, or a replay): Discord refuses a second answer with 40060."""
        return await self._run(bot, result.record, timeout=None, expect_response=False)

    def old_message(self, channel: FakeChannel, custom_ids: Sequence[str]) -> FakeMessage:
        """A message the bot posted long ago (another version), with buttons of these ids:
        what a player may still click after an upgrade, or craft."""
        buttons = [{"type": 2, "style": 2, "label": str(i), "custom_id": cid}
                   for i, cid in enumerate(custom_ids)]
        rows = [{"type": 1, "components": buttons[k:k + 5]} for k in range(0, len(buttons), 5)]
        return self.state._create_message(channel, {"content": "an old board",
                                                    "components": rows})

    def stale_click(
        self,
        message: FakeMessage | int,
        custom_id: str,
        *,
        user: FakeUser | FakeMember,
    ) -> Callable[[commands.Bot], Awaitable[InteractionResult]]:
        """A click made now, on the message as it is now, but delivered later (call the
        result with the bot): a player who acts on a board their client has not refreshed."""
        rec = self.state.new_component_interaction(self._message(message), custom_id, user=user)

        async def deliver(bot: commands.Bot) -> InteractionResult:
            return await self._run(bot, rec, timeout=None, expect_response=True)

        return deliver

    def late_slash(
        self,
        command: str,
        *,
        user: FakeUser | FakeMember,
        channel: FakeChannel | None = None,
        guild: FakeGuild | None = None,
        **options: Any,
    ) -> Callable[[commands.Bot], Awaitable[InteractionResult]]:
        """A command typed now but delivered later (call the result with the bot): its id
        is from now, as Discord's ids grow with the time an interaction was made."""
        rec = self.state.new_command_interaction(
            command, user=user, channel=channel, guild=guild, options=options,
            context_keywords=_passed(user=user, channel=channel, guild=guild))

        async def deliver(bot: commands.Bot) -> InteractionResult:
            return await self._run(bot, rec, timeout=None, expect_response=True)

        return deliver

    async def select(
        self,
        bot: commands.Bot,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str],
        *,
        user: FakeUser | FakeMember,
        timeout: float | None = None,
        expect_response: bool = True,
    ) -> InteractionResult:
        """Choose ``values`` in a string select menu of a stored message."""
        rec = self.state.new_component_interaction(
            self._message(message), custom_id, user=user, values=values
        )
        return await self._run(bot, rec, timeout=timeout, expect_response=expect_response)

    async def submit_modal(
        self,
        bot: commands.Bot,
        opened_by: InteractionResult,
        values: Mapping[str, str],
        *,
        user: FakeUser | FakeMember | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot answered ``opened_by`` with."""
        rec = self.state.new_modal_submit(opened_by.record, values, user=user)
        return await self._run(bot, rec, timeout=timeout, expect_response=expect_response)

    def _message(self, message: FakeMessage | int) -> FakeMessage:
        mid = message if isinstance(message, int) else message.id
        try:
            return self.state.messages[mid]
        except KeyError:
            raise InvalidInteraction(f"unknown message {mid}") from None

    async def _run(
        self,
        bot: commands.Bot,
        rec: InteractionRecord,
        *,
        timeout: float | None,
        expect_response: bool,
    ) -> InteractionResult:
        if bot not in self.bots:
            raise FakeDiscordError("log the bot in with `await fake.login(bot)` first")
        timeout = self.timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if rec.guild is not None:
            self._refresh_guild_cache(bot, rec.guild)
        parser = bot._connection.parsers["INTERACTION_CREATE"]
        payload = json_copy(rec.payload)
        tasks = self._tasks.setdefault(rec.id, [])

        def feed() -> None:
            current_interaction.set(rec)
            parser(payload)

        contextvars.copy_context().run(feed)
        direct = list(tasks)  # the dispatch tasks discord.py created for this interaction

        if direct:
            _done, pending = await asyncio.wait(direct, timeout=timeout)
            if pending:
                for task in pending:
                    task.cancel()
                names = [t.get_name() for t in pending]
                raise InteractionTimeout(
                    f"{rec!r}: handler still running after {timeout}s ({names}); "
                    f"callback={rec.callback}"
                )
        if rec.callback is None and rec.callback_attempts == 0 and expect_response:
            if not tasks:
                raise NoResponse(
                    f"{rec!r}: the bot dispatched nothing for this interaction (no command, "
                    f"view or DynamicItem matched), so Discord shows 'This interaction failed'"
                )
            # The handler returned without answering. Wait only while something it spawned is
            # still running and could still answer.
            ack = asyncio.ensure_future(rec.acknowledged.wait())
            try:
                while not rec.acknowledged.is_set():
                    alive = [t for t in tasks if not t.done() and not _is_long_lived(t)]
                    remaining = deadline - loop.time()
                    if not alive or remaining <= 0:
                        break
                    await asyncio.wait(
                        [ack, *alive], timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                    )
            finally:
                ack.cancel()
            if not rec.acknowledged.is_set() and rec.callback_attempts == 0:
                self._collect_task_errors(tasks, rec)
                raise NoResponse(
                    f"{rec!r}: the bot never responded or deferred; errors: "
                    f"{[e.message for e in rec.errors]}"
                )
        await self._settle(rec)
        budget = getattr(bot, "rest_budget", None)  # a bot that paces its other requests
        settled = budget is None or self.settle <= 0 or await budget.settled(
            timeout=deadline - loop.time())  # what the move set off, e.g. a board edit
        if not settled:
            raise InteractionTimeout(f"{rec!r}: the REST budget still held edits after {timeout}s")
        self._collect_task_errors(tasks, rec)
        return InteractionResult(self.state, rec)

    def _refresh_guild_cache(self, bot: commands.Bot, guild: FakeGuild) -> None:
        """Send GUILD_CREATE when the bot hasn't seen this guild as it is now.

        A connected bot with the guilds intent gets GUILD_CREATE for every guild it is in (and
        update events afterwards), so its cache knows roles, channels and members. Bots without
        that intent only ever see the partial guild inside interactions, as in production.
        """
        if not bot.intents.guilds or not guild.installed:
            return  # no GUILD_CREATE for a server the bot is not in
        payload = guild.payload(bot_member=self.state.bot_member(guild))
        key = json.dumps(payload, sort_keys=True)
        seen = self._guild_versions.setdefault(id(bot), {})
        if seen.get(guild.id) == key:
            return
        seen[guild.id] = key
        bot._connection.parsers["GUILD_CREATE"](payload)

    async def _settle(self, rec: InteractionRecord) -> None:
        """Give tasks spawned by the handler a short grace period to finish."""
        for _ in range(3):
            await asyncio.sleep(0)
        pending = [t for t in self._tasks.get(rec.id, []) if not t.done() and not _is_long_lived(t)]
        if pending and self.settle > 0:
            await asyncio.wait(pending, timeout=self.settle)

    def _collect_task_errors(
        self, tasks: Sequence[asyncio.Task[Any]], rec: InteractionRecord | None
    ) -> None:
        for task in tasks:
            if task.done() and not task.cancelled():
                exc = task.exception()
                if exc is not None:
                    self._record_error(exc, "task", f"task {task.get_name()!r} raised {exc!r}", rec)

    # ---------------------------------------------------------------------- error hooks
    def _record_error(
        self,
        exc: BaseException | None,
        source: str,
        message: str,
        rec: InteractionRecord | None = None,
    ) -> None:
        error = BotError(exc, source, "", None)
        if exc is not None:
            # one failure often surfaces several times (a task's exception, the same exception
            # wrapped in CommandInvokeError, the default handler's log line): record it once
            chain = error.chain()
            if any(id(e) in self._seen_exceptions for e in chain):
                return
            self._seen_exceptions.update((id(e), e) for e in chain)
            if any(isinstance(e, self.ignore_errors) for e in chain[:2]):
                return
        rec = rec if rec is not None else current_interaction.get()
        error.message = message or repr(exc)
        error.interaction_id = rec.id if rec else None
        if not self._absorb_expected(error):
            self.errors.append(error)
        if rec is not None:
            rec.errors.append(error)

    def _install_loop_hooks(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        if self._loop is not None:
            raise FakeDiscordError("one FakeDiscord can't be used from two event loops")
        self._loop = loop
        previous = loop.get_task_factory()
        tracked = self._tasks

        def task_factory(
            loop_: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any
        ) -> asyncio.Task[Any]:
            if previous is not None:
                task = previous(loop_, coro, **kwargs)
            else:
                task = asyncio.Task(coro, loop=loop_, **kwargs)
            rec = current_interaction.get()
            if rec is not None:
                tracked.setdefault(rec.id, []).append(task)
            return task

        loop.set_task_factory(task_factory)
        self._undo.append(lambda: loop.set_task_factory(previous))

        handler = _LogCapture(self)
        for name in self.error_loggers:
            logger = logging.getLogger(name)
            logger.addHandler(handler)
            self._undo.append(lambda logger=logger: logger.removeHandler(handler))

        from discord.ui.view import BaseView

        original_dispatch = BaseView._dispatch_item
        fake = self

        def _dispatch_item(view: BaseView, item: Any, interaction: discord.Interaction) -> Any:
            if interaction.client in fake.bots and not getattr(
                view, "_fake_discord_wrapped", False
            ):
                fake._wrap_view(view)
            return original_dispatch(view, item, interaction)

        BaseView._dispatch_item = _dispatch_item  # type: ignore[method-assign]
        self._undo.append(lambda: setattr(BaseView, "_dispatch_item", original_dispatch))

    def _wrap_view(self, view: Any) -> None:
        original = view.on_error

        async def on_error(interaction: discord.Interaction, error: Exception, item: Any) -> None:
            self._record_error(
                error, "view.on_error", f"{type(view).__name__} item {item!r}: {error!r}"
            )
            await original(interaction, error, item)

        view.on_error = on_error
        view._fake_discord_wrapped = True

    def _install_bot_hooks(self, bot: commands.Bot) -> None:
        tree = bot.tree
        tree_original = tree.on_error

        async def tree_on_error(
            interaction: discord.Interaction, error: app_commands.AppCommandError
        ) -> None:
            self._record_error(
                error,
                "tree.on_error",
                f"command {getattr(interaction.command, 'qualified_name', None)!r}: {error!r}",
            )
            await tree_original(interaction, error)

        tree.on_error = tree_on_error  # type: ignore[method-assign]
        client_original = bot.on_error

        async def client_on_error(event_method: str, /, *args: Any, **kwargs: Any) -> None:
            exc = sys.exc_info()[1]
            self._record_error(exc, "client.on_error", f"event {event_method}: {exc!r}")
            await client_original(event_method, *args, **kwargs)

        bot.on_error = client_on_error  # type: ignore[method-assign]

    # ------------------------------------------------------------- assertions for tests
    def expect_error(
        self,
        exc_type: type[BaseException] | tuple[type[BaseException], ...] = Exception,
        *,
        match: str | None = None,
    ) -> BotError | Expectation:
        """Claim one bot error matching ``exc_type``/``match`` (searched through
        ``CommandInvokeError.original`` and ``__cause__``) so it doesn't fail the test.

        After the fact, it consumes and returns the recorded :class:`BotError` (AssertionError
        if there is none). Called *before* the error happens, it returns a pending
        :class:`Expectation` that absorbs the next matching error; ``check()`` fails if it is
        never met.
        """
        for i, err in enumerate(self.errors):
            if err.matches(exc_type, match):
                self.expected_errors.append(self.errors.pop(i))
                return err
        expectation = Expectation("error", exc_type, match)
        self._pending_errors.append(expectation)
        return expectation

    def expect_violation(self, code: int, *, match: str | None = None) -> Violation | Expectation:
        """Claim one Discord-rule violation with this error ``code`` (e.g. 40060, 10062,
        50035); like :meth:`expect_error`, before or after it happens."""
        found = self._take_violation(code, match)
        if found is not None:
            return found
        expectation = Expectation("violation", code, match)
        self._pending_violations.append(expectation)
        return expectation

    def _take_violation(self, code: int, match: str | None) -> Violation | None:
        for i, v in enumerate(self.state.violations):
            if v.code == code and (match is None or match in str(v)):
                self.expected_violations.append(self.state.violations.pop(i))
                return v
        return None

    def _absorb_expected(self, error: BotError) -> bool:
        for exp in self._pending_errors:
            if exp.matched is None and error.matches(exp.what, exp.match):  # type: ignore[arg-type]
                exp.matched = error
                self.expected_errors.append(error)
                return True
        return False

    def raise_errors(self) -> None:
        """Fail if the bot raised/logged exceptions nobody claimed with ``expect_error``, or
        an error announced with ``expect_error`` never happened."""
        unmet = [e for e in self._pending_errors if e.matched is None]
        if self.errors or unmet:
            body = "\n\n".join(str(e) for e in self.errors)
            missing = f"\nexpected but never raised: {unmet}" if unmet else ""
            raise BotErrors(f"{len(self.errors)} unexpected bot error(s):\n{body}{missing}")

    def assert_no_violations(self) -> None:
        for exp in self._pending_violations:
            if exp.matched is None:
                exp.matched = self._take_violation(exp.what, exp.match)  # type: ignore[arg-type]
        unmet = [e for e in self._pending_violations if e.matched is None]
        if self.state.violations or unmet:
            body = "\n".join(f"  - {v}" for v in self.state.violations)
            missing = f"\nexpected but never happened: {unmet}" if unmet else ""
            raise DiscordRuleViolations(f"the bot broke Discord's rules:\n{body}{missing}")

    def unfinished_deferrals(self) -> list[InteractionRecord]:
        """Interactions answered with a "thinking" defer whose message is still loading."""
        out = []
        for rec in self.state.interactions.values():
            msg = self.state.messages.get(rec.original_message_id or 0)
            if rec.callback and rec.callback.type == 5 and msg and msg.loading and not msg.deleted:
                out.append(rec)
        return out

    def check(self) -> None:
        """``raise_errors()``, ``assert_no_violations()``, and no "thinking..." left forever."""
        self.raise_errors()
        self.assert_no_violations()
        stuck = self.unfinished_deferrals()
        if stuck:
            raise DiscordRuleViolations(
                f"deferred with thinking=True but never followed up (users see 'is thinking...' "
                f"until it fails): {stuck}"
            )


def _passed(**kwargs: Any) -> list[str]:
    return [k for k, v in kwargs.items() if v is not None]


def _is_long_lived(task: asyncio.Task[Any]) -> bool:
    coro = task.get_coro()
    name = getattr(coro, "__qualname__", "") or ""
    return name.endswith(_LONG_LIVED_CORO_SUFFIXES)
