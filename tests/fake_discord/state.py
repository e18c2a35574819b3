"""Transport-independent core of the fake Discord: state, rules, limit checks and REST routing.

:class:`DiscordState` answers :class:`ApiRequest` objects with :class:`ApiResponse` objects
(``handle``). The in-process harness feeds it from a fake ``aiohttp.ClientSession``; the
loopback server feeds it from a real ``aiohttp.web`` application. Both share everything here.
"""

from __future__ import annotations

import asyncio
import contextvars
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from . import commands as cmds
from .activities import (
    EMBEDDED,
    ENTRY_POINT_REMOVED,
    ENTRY_POINT_REMOVED_MESSAGE,
    LAUNCH_ACTIVITY,
    ActivityInstance,
    ActivityLaunch,
    ActivityStore,
)
from .api import ApiRequest, ApiResponse
from .api import Reject as _Reject
from .api import form_error as _form_error
from .app_emoji import AppEmojiStore
from .errors import InvalidInteraction
from .limits import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    USER_INSTALL_FOLLOWUPS_MAX,
    V2_LEGACY,
    FieldError,
    check_message,
    check_modal,
    is_empty_message,
)
from .models import (
    DM_CHANNEL,
    GROUP_DM_CHANNEL,
    TEXT_CHANNEL,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Snowflakes,
    json_copy,
    number_components,
    perm_value,
)
from .ratelimit import GlobalLimit

RESPONSE_DEADLINE = 3.0  # seconds to send the initial interaction response
TOKEN_LIFETIME = 15 * 60.0  # interaction tokens (webhook followups/edits)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
INTERACTION_TYPE_NAMES = {
    1: "ping",
    2: "application_command",
    3: "component",
    4: "autocomplete",
    5: "modal_submit",
}
CALLBACK_TYPE_NAMES = {
    1: "pong",
    4: "channel_message",
    5: "deferred_channel_message",
    6: "deferred_update_message",
    7: "update_message",
    8: "autocomplete_result",
    9: "modal",
    12: "launch_activity",
}
ALLOWED_CALLBACKS = {
    PING: {1},
    APPLICATION_COMMAND: {4, 5, 9, LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9, LAUNCH_ACTIVITY},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7, LAUNCH_ACTIVITY},
}
MESSAGE_FLAGS_SETTABLE = FLAG_EPHEMERAL | (1 << 2) | (1 << 12) | FLAG_COMPONENTS_V2
CHAT_INPUT_MESSAGE_TYPE = 20
DEFAULT_MESSAGE_TYPE = 0
#: A member without it in a channel gets the answers of apps they installed themselves (the
#: server did not add them) as ephemeral messages, whatever the app asks.
USE_EXTERNAL_APPS = discord.Permissions(use_external_apps=True).value
#: ``app_permissions`` where the bot is not in the channel: interaction responses can always
#: embed and attach (and mention in private channels); in the bot's DM, external emoji too.
_ANSWER_PERMISSIONS = discord.Permissions(embed_links=True, attach_files=True).value
_PRIVATE_CHANNEL_PERMISSIONS = _ANSWER_PERMISSIONS | discord.Permissions(
    mention_everyone=True).value
_BOT_DM_PERMISSIONS = _PRIVATE_CHANNEL_PERMISSIONS | discord.Permissions(
    use_external_emojis=True).value

# The interaction whose handler is running in the current asyncio context (in-process harness).
current_interaction: contextvars.ContextVar[InteractionRecord | None] = contextvars.ContextVar(
    "fake_discord_current_interaction", default=None
)


# ----------------------------------------------------------------------------------- records
@dataclass
class Fault:
    """A REST failure to inject: the next ``times`` requests matching ``method`` and the
    ``path`` pattern get this error instead of being handled (Discord having a bad moment)."""

    method: str
    path: str
    status: int
    code: int = 0
    message: str = "injected fault"
    times: int = 1
    #: Seconds Discord takes before answering (status 0: slow, then handled normally).
    delay: float = 0.0
    #: For 429: how long Discord asks the client to wait before retrying.
    retry_after: float = 0.05
    #: Handled as usual, then the connection drops before Discord's answer reaches the
    #: client (status 0): Discord took the request, the client can't know it.
    dropped: bool = False

    def matches(self, req: ApiRequest) -> bool:
        return self.times > 0 and req.method == self.method and bool(
            re.search(self.path, req.path))


@dataclass
class Violation:
    """A request Discord would have rejected (the fake rejected it the same way)."""

    code: int
    message: str
    status: int
    method: str
    path: str
    interaction_id: int | None = None
    details: list[FieldError] = field(default_factory=list)

    def __str__(self) -> str:
        text = f"{self.status} {self.code} {self.message} [{self.method} {self.path}]"
        if self.details:
            text += ": " + "; ".join(str(d) for d in self.details)
        return text


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[tuple[str, int]]
    status: int
    response: Any
    interaction_id: int | None
    at: float


@dataclass
class CallbackRecord:
    """The accepted initial response to an interaction."""

    type: int
    data: dict[str, Any]
    at: float

    @property
    def type_name(self) -> str:
        return CALLBACK_TYPE_NAMES.get(self.type, str(self.type))

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.data.get("components") or [])


@dataclass
class MessageEvent:
    kind: str  # "create" | "edit" | "delete"
    message: FakeMessage  # snapshot taken right after the change


@dataclass(eq=False)
class InteractionRecord:
    id: int
    token: str
    type: int
    payload: dict[str, Any]
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    created_at: float
    name: str | None = None  # full command path for slash commands
    custom_id: str | None = None
    source_message_id: int | None = None  # message holding the clicked component
    callback: CallbackRecord | None = None
    callback_attempts: int = 0
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    events: list[MessageEvent] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    errors: list[Any] = field(default_factory=list)  # BotError objects (see harness)
    requests: list[RecordedRequest] = field(default_factory=list)
    expired: bool = False
    acknowledged: asyncio.Event = field(default_factory=asyncio.Event)
    #: When the user first saw an answer (``clock``): a response with a message or a
    #: modal, or after a deferral its first edit or follow-up (bench/ reads it).
    answered_at: float | None = None
    #: Follow-up POSTs accepted (at most 5 where only a user install authorizes the app).
    followup_posts: int = 0
    #: The submits of the modal this interaction answered with: once one is answered,
    #: Discord's client has closed the modal and cannot submit it again.
    modal_submits: list[InteractionRecord] = field(default_factory=list)

    @property
    def type_name(self) -> str:
        return INTERACTION_TYPE_NAMES.get(self.type, str(self.type))

    @property
    def context(self) -> int:
        """0 a server, 1 the bot's DM, 2 a group DM or a DM between users."""
        return int(self.payload["context"])

    @property
    def owners(self) -> dict[str, str]:
        """``authorizing_integration_owners``: ``{"0": guild id or "0", "1": user id}``."""
        return dict(self.payload.get("authorizing_integration_owners") or {})

    @property
    def user_install_only(self) -> bool:
        """Only a user's install authorizes the app here: its bot is not in the channel."""
        return set(self.owners) == {"1"}

    @property
    def forced_ephemeral(self) -> bool:
        """Discord turns the app's answers ephemeral: a user install in a server where the
        member may not use external apps (``USE_EXTERNAL_APPS`` off)."""
        if not self.user_install_only or self.context != 0:
            return False
        member = self.payload.get("member") or {}
        return not int(member.get("permissions") or 0) & USE_EXTERNAL_APPS

    def __repr__(self) -> str:
        what = self.name or self.custom_id or ""
        return f"<InteractionRecord {self.type_name} {what!r} id={self.id}>"




# ------------------------------------------------------------------------------------ state
class DiscordState:
    """Everything the fake Discord knows, and the REST API over it."""

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "TestBot",
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.clock: Callable[[], float] = clock or time.monotonic
        self.snowflake = Snowflakes()
        self.token = token or f"fake.{secrets.token_hex(12)}"
        self.bot_user = FakeUser(self.snowflake(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(self.snowflake(), "app-owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs: int = 0
        #: Users who installed the app to their account (USER_INSTALL).
        self.user_installs: set[int] = set()
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.requests: list[RecordedRequest] = []
        self.violations: list[Violation] = []
        self.faults: list[Fault] = []
        #: Discord's global limit (50 a second, interaction endpoints exempt), and the
        #: record of every request it counts.
        self.global_limit = GlobalLimit()
        self.gateway_url: str = "wss://gateway.invalid/"
        #: What ``GET /gateway/bot`` recommends (discord.py's AutoShardedClient starts this many
        #: shards when it is not told a count).
        self.recommended_shards: int = 1
        #: ``GET /gateway/bot``'s ``max_concurrency``: how many IDENTIFYs Discord takes every 5
        #: seconds, one per bucket (shard id modulo it); 1 for most bots, 16 and up for large ones.
        self.max_concurrency: int = 1
        #: The fewest shards IDENTIFY may use (more and Discord closes with 4011).
        self.required_shards: int = 1
        self.message_listeners: list[Callable[[str, FakeMessage], None]] = []
        self.request_listeners: list[Callable[[RecordedRequest], None]] = []
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        #: The application's own emoji; messages may only use these custom emoji.
        self.app_emoji = AppEmojiStore(self.snowflake, self.application_id,
                                       self.bot_user.payload)
        #: The app's Activity: off until :meth:`enable_activities`.
        self.activities = ActivityStore(self.snowflake, self.application_id, self.clock)
        self._routes = self._build_routes()

    # ------------------------------------------------------------------ factories (for tests)
    def create_user(
        self, username: str, *, global_name: str | None = None, bot: bool = False
    ) -> FakeUser:
        user = FakeUser(self.snowflake(), username, global_name=global_name, bot=bot)
        self.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: FakeUser | None = None,
        everyone_permissions: int | discord.Permissions | None = None,
        bot_permissions: int | discord.Permissions | None = None,
        channels: Iterable[str] = ("general",),
        shard: tuple[int, int] | None = None,
        installed: bool = True,
    ) -> FakeGuild:
        """A guild (with ``channels``); ``shard=(id, count)`` picks an id on that shard;
        ``installed=False``: the app was not added to it (reached only by user installs)."""
        from .models import DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS

        gid = self.snowflake.on_shard(*shard) if shard is not None else self.snowflake()
        owner = owner or self.owner
        guild = FakeGuild(gid, name, owner.id, bot_role_id=self.snowflake(),
                          installed=installed)
        everyone = (
            DEFAULT_EVERYONE_PERMISSIONS
            if everyone_permissions is None
            else perm_value(everyone_permissions)
        )
        guild.roles[gid] = FakeRole(gid, gid, "@everyone", everyone, 0)
        guild.bot_permissions = (
            DEFAULT_BOT_PERMISSIONS if bot_permissions is None else perm_value(bot_permissions)
        )
        self.guilds[gid] = guild
        if owner.id not in guild.members:
            guild.members[owner.id] = FakeMember(owner, guild)
        for channel_name in channels:
            self.create_channel(guild, channel_name)
        return guild

    def create_role(
        self, guild: FakeGuild, name: str, *, permissions: int | discord.Permissions | None = None
    ) -> FakeRole:
        role = FakeRole(
            self.snowflake(), guild.id, name, perm_value(permissions), position=len(guild.roles)
        )
        guild.roles[role.id] = role
        return role

    def create_channel(
        self, guild: FakeGuild, name: str = "general", *, topic: str | None = None
    ) -> FakeChannel:
        chan = FakeChannel(
            self.snowflake(),
            TEXT_CHANNEL,
            name,
            guild=guild,
            position=len(guild.channels),
            topic=topic,
        )
        guild.channels[chan.id] = chan
        self.channels[chan.id] = chan
        self.channel_messages[chan.id] = []
        return chan

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        for chan in self.channels.values():
            if chan.type == DM_CHANNEL and chan.recipient is user:
                return chan
        chan = FakeChannel(self.snowflake(), DM_CHANNEL, recipient=user)
        self.channels[chan.id] = chan
        self.channel_messages[chan.id] = []
        return chan

    def install_for_user(self, user: FakeUser) -> None:
        """``user`` adds the app to their account: its global commands follow them into
        servers without the bot, group DMs and DMs with other users."""
        self.user_installs.add(user.id)

    def private_channel(self, *users: FakeUser, name: str | None = None) -> FakeChannel:
        """A group DM of ``users`` (the first owns it), or with two users and no ``name``,
        their DM. The bot is never in it."""
        if len(users) < 2:
            raise ValueError("a private channel needs at least two users")
        kind = DM_CHANNEL if len(users) == 2 and name is None else GROUP_DM_CHANNEL
        chan = FakeChannel(self.snowflake(), kind, name=name, members=list(users))
        self.channels[chan.id] = chan
        self.channel_messages[chan.id] = []
        return chan

    def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        roles: Iterable[FakeRole] = (),
        permissions: int | discord.Permissions | None = None,
        nick: str | None = None,
    ) -> FakeMember:
        """Make ``user`` a member; ``permissions`` grants them via an extra role."""
        member = guild.members.get(user.id)
        if member is None:
            member = FakeMember(user, guild, nick=nick)
            guild.members[user.id] = member
        member.roles.extend(r for r in roles if r not in member.roles)
        if permissions is not None:
            role = self.create_role(guild, f"{user.username}-perms", permissions=permissions)
            member.roles.append(role)
        return member

    def bot_member(self, guild: FakeGuild) -> FakeMember:
        member = FakeMember(self.bot_user, guild, joined_at=guild.created_at)
        role = FakeRole(
            guild.bot_role_id, guild.id, self.bot_user.username, guild.bot_permissions, position=1
        )
        member.roles = [role]
        return member

    def hold_commands(self, payload: list[dict[str, Any]]) -> None:
        """Discord holds ``payload`` as the app's global commands, as an earlier run synced
        them (the body of that run's accepted ``PUT``)."""
        self.global_commands = [self._stored_command(c, None) for c in payload]

    def enable_activities(self) -> dict[str, Any]:
        """Switch Activities on, as the Developer Portal does: the application gets the
        ``EMBEDDED`` flag and Discord creates the Entry Point command "Launch" (handler 2)
        among the global commands. Returns that command."""
        self.activities.enabled = True
        held = next((c for c in self.global_commands if c.get("type") == 4), None)
        if held is None:
            held = self._stored_command(self.activities.default_entry_point(), None)
            self.global_commands.append(held)
        return json_copy(held)

    @property
    def client_secret(self) -> str:
        """The application's OAuth2 client secret (the bot's ``DISCORD_CLIENT_SECRET``)."""
        return self.activities.client_secret

    @property
    def application_flags(self) -> int:
        return EMBEDDED if self.activities.enabled else 0

    def authorize(self, user: FakeUser, scopes: Sequence[str] = ("identify",), *,
                  redirect_uri: str | None = None) -> str:
        """The Embedded App SDK's ``commands.authorize`` for ``user``: a single-use code
        (10 minutes) the app's server exchanges at ``POST /oauth2/token``."""
        return self.activities.authorize(user, scopes, redirect_uri=redirect_uri)

    def start_activity(self, channel: FakeChannel, *users: FakeUser) -> ActivityInstance:
        """``users`` open the Activity in ``channel``: the instance running there, or a new
        one (see :class:`~fake_discord.activities.ActivityInstance`: join, leave, end)."""
        return self.activities.start(channel, *users)

    def launch_from_entry_point(
        self, user: FakeUser | FakeMember, channel: FakeChannel | None = None,
        guild: FakeGuild | None = None,
    ) -> ActivityLaunch | InteractionRecord:
        """``user`` picks the app's Entry Point command in the App Launcher. Handler 2:
        Discord launches the Activity itself (returns the launch); handler 1: the app gets
        an application command interaction of type 4 to answer (returns it, to deliver)."""
        user, channel, guild = self._context(user, channel, guild)
        entry = next((c for c in self.global_commands if c.get("type") == 4), None)
        if entry is None or not self.activities.enabled:
            raise InvalidInteraction("the app has no Entry Point command (enable_activities())")
        owners = self._check_command_available(entry, [entry["name"]], user, channel, guild)
        if entry.get("handler") == 2:
            return self.activities.launch(user, channel)
        data = {"id": entry["id"], "name": entry["name"], "type": 4}
        iid, token, payload = self._base_payload(APPLICATION_COMMAND, user, channel, guild,
                                                 data, owners)
        return self._register(InteractionRecord(iid, token, APPLICATION_COMMAND, payload, user,
                                                channel, guild, self.clock(),
                                                name=entry["name"]))

    # ------------------------------------------------------------------------- inspection
    def channel_history(
        self, channel: FakeChannel | int, *, include_ephemeral: bool = True
    ) -> list[FakeMessage]:
        cid = channel if isinstance(channel, int) else channel.id
        out = [self.messages[m] for m in self.channel_messages.get(cid, [])]
        return [m for m in out if not m.deleted and (include_ephemeral or not m.ephemeral)]

    def commands_for(self, guild: FakeGuild | None) -> list[dict[str, Any]]:
        """The commands a user sees in ``guild`` (guild commands shadow global ones)."""
        seen: dict[str, dict[str, Any]] = {c["name"]: c for c in self.global_commands}
        if guild is not None and guild.installed:
            seen.update({c["name"]: c for c in self.guild_commands.get(guild.id, [])})
        return list(seen.values())

    # ------------------------------------------------------------------- interaction build
    def _context(
        self, user: FakeUser | FakeMember, channel: FakeChannel | None, guild: FakeGuild | None
    ) -> tuple[FakeUser, FakeChannel, FakeGuild | None]:
        if isinstance(user, FakeMember):
            guild = guild or user.guild
            user = user.user
        if channel is not None and channel.guild is not None:
            if guild is not None and guild is not channel.guild:
                raise InvalidInteraction(f"{channel!r} is not in {guild!r}")
            guild = channel.guild
        if channel is None:
            if guild is None:
                channel = self.dm_channel(user)
            else:
                channel = next(
                    (c for c in guild.channels.values() if c.type == TEXT_CHANNEL), None
                ) or self.create_channel(guild)
        if channel.is_private_channel:
            if user not in channel.members:
                raise InvalidInteraction(f"{user!r} is not in {channel!r}")
        elif channel.type == DM_CHANNEL and channel.recipient is not user:
            raise InvalidInteraction(f"{user!r} can't use {channel!r} (another user's DM)")
        if guild is not None and user.id not in guild.members:
            self.add_member(guild, user)
        return user, channel, guild

    @staticmethod
    def interaction_context(channel: FakeChannel, guild: FakeGuild | None) -> int:
        """Discord's interaction context type of an interaction made in ``channel``."""
        if guild is not None:
            return cmds.GUILD
        return cmds.PRIVATE_CHANNEL if channel.is_private_channel else cmds.BOT_DM

    def integration_owners(
        self,
        user: FakeUser,
        channel: FakeChannel,
        guild: FakeGuild | None,
        types: Iterable[int] = cmds.APP_INTEGRATION_TYPES,
    ) -> dict[str, str]:
        """``authorizing_integration_owners`` of an interaction ``user`` makes here, for a
        command installed as ``types``: the server, when it added the app ("0" in the bot's
        DM), and the user, when they installed it to their account."""
        types = set(types)
        context = self.interaction_context(channel, guild)
        owners: dict[str, str] = {}
        if cmds.GUILD_INSTALL in types:
            if context == cmds.GUILD and guild is not None and guild.installed:
                owners["0"] = str(guild.id)
            elif context == cmds.BOT_DM and (
                    user.id not in self.user_installs or any(
                        g.installed and user.id in g.members for g in self.guilds.values())):
                owners["0"] = "0"  # a server that added the app: the DM is reachable
        if cmds.USER_INSTALL in types and user.id in self.user_installs:
            owners["1"] = str(user.id)
        return owners

    def _base_payload(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        guild: FakeGuild | None,
        data: dict[str, Any],
        owners: Mapping[str, str] | None = None,
    ) -> tuple[int, str, dict[str, Any]]:
        """``owners``: who authorizes the app (default: as for a command of both
        installation types used here)."""
        if owners is None:
            owners = self.integration_owners(user, channel, guild)
        if not owners:
            raise InvalidInteraction(
                f"the app is not installed where {user!r} is ({channel!r}): neither added to "
                f"the server nor to the user's account (fake.user_install(user))")
        iid = self.snowflake()
        token = f"itok.{iid}.{secrets.token_urlsafe(24)}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "data": data,
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
        }
        context = self.interaction_context(channel, guild)
        payload.update(context=context, authorizing_integration_owners=dict(owners))
        if guild is not None:
            member = guild.members[user.id]
            # Without the bot in the server, the app has @everyone's permissions, plus what
            # any interaction response may do.
            app = (guild.bot_permissions if guild.installed
                   else guild.everyone.permissions | _ANSWER_PERMISSIONS)
            payload.update(
                guild_id=str(guild.id),
                guild=guild.partial_payload(),
                guild_locale=guild.locale,
                member=member.payload(),
                app_permissions=str(app),
            )
            payload["channel"] = channel.payload(permissions=member.permissions)
        else:
            app = (_PRIVATE_CHANNEL_PERMISSIONS if context == cmds.PRIVATE_CHANNEL
                   else _BOT_DM_PERMISSIONS)
            payload.update(user=user.payload(), app_permissions=str(app))
            payload["channel"] = channel.payload()
        payload["channel_id"] = str(channel.id)
        return iid, token, payload

    def _register(self, rec: InteractionRecord) -> InteractionRecord:
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        return rec

    def new_command_interaction(
        self,
        path: str | Sequence[str],
        *,
        user: FakeUser | FakeMember,
        channel: FakeChannel | None = None,
        guild: FakeGuild | None = None,
        options: Mapping[str, Any] | None = None,
        context_keywords: Iterable[str] = (),
    ) -> InteractionRecord:
        """Validate a slash command invocation against the synced schema and build it.

        ``context_keywords``: which of ``user``/``channel``/``guild`` the caller passed as
        keywords; if the command also has an option of that name which ``options`` doesn't
        mention, the call is ambiguous and rejected (pass ``options={"channel": ...}``, or
        ``options={"channel": None}`` to leave that option out).
        """
        user, channel, guild = self._context(user, channel, guild)
        parts = path.split() if isinstance(path, str) else list(path)
        visible = self.commands_for(guild)
        if not visible:
            raise InvalidInteraction(
                "no application commands are synced: the bot must sync its CommandTree "
                "(or call fake.sync(bot)) before commands can be used"
            )
        top, chain, leaf_defs = cmds.lookup(visible, parts)
        options = dict(options or {})
        clash = sorted({o["name"] for o in leaf_defs} & set(context_keywords) - set(options))
        if clash:
            raise InvalidInteraction(
                f"/{' '.join(parts)} has option(s) {clash} with the same name as the "
                f"user=/channel=/guild= keywords, which choose who uses the command and where; "
                f"pass the option as options={{{clash[0]!r}: ...}} (None to omit it)"
            )
        owners = self._check_command_available(top, parts, user, channel, guild)

        def resolve(kind: int, value: Any) -> tuple[str, dict[str, dict[str, Any]]]:
            return self._resolve_option(parts, kind, value, guild)

        opts, resolved = cmds.build_options(parts, chain, leaf_defs, options, resolve)
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1}
        if opts:
            data["options"] = opts
        if resolved:
            data["resolved"] = resolved
        if top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        iid, token, payload = self._base_payload(APPLICATION_COMMAND, user, channel, guild, data,
                                                 owners)
        return self._register(
            InteractionRecord(
                iid,
                token,
                APPLICATION_COMMAND,
                payload,
                user,
                channel,
                guild,
                self.clock(),
                name=" ".join(parts),
            )
        )

    def _check_command_available(
        self,
        top: dict[str, Any],
        parts: Sequence[str],
        user: FakeUser,
        channel: FakeChannel,
        guild: FakeGuild | None,
    ) -> dict[str, str]:
        """Refuse what Discord's client would not offer: a command outside its ``contexts``,
        or where none of its ``integration_types`` is installed. Returns who authorizes it."""
        where = "/" + " ".join(parts)
        context = self.interaction_context(channel, guild)
        if guild is None and top.get("guild_id"):
            raise InvalidInteraction(f"{where} is a guild command; it doesn't exist in DMs")
        allowed = cmds.contexts(top)
        if context not in allowed:
            raise InvalidInteraction(
                f"{where} is not offered in {cmds.CONTEXT_NAMES[context]} (contexts={allowed})")
        types = cmds.integration_types(top)
        owners = self.integration_owners(user, channel, guild, types)
        if not owners:
            raise InvalidInteraction(
                f"{where} is not offered to {user!r} in {cmds.CONTEXT_NAMES[context]}: its "
                f"integration_types {types} are not installed there (the server did not add "
                f"the app, and the user did not install it: fake.user_install(user))")
        required = top.get("default_member_permissions")
        if guild is not None and "0" in owners and required is not None:
            have = guild.members[user.id].permissions
            need = int(required)
            if have & need != need:
                missing = discord.Permissions(need & ~have)
                names = [n for n, v in missing if v]
                raise InvalidInteraction(
                    f"{user!r} can't see {where}: default_member_permissions needs {names}"
                )
        return owners

    def _resolve_option(
        self, parts: Sequence[str], kind: int, value: Any, guild: FakeGuild | None
    ) -> tuple[str, dict[str, dict[str, Any]]]:
        where = "/" + " ".join(parts)
        if kind in (cmds.USER, cmds.MENTIONABLE) and isinstance(value, FakeMember | FakeUser):
            user = value.user if isinstance(value, FakeMember) else value
            out: dict[str, dict[str, Any]] = {"users": {str(user.id): user.payload()}}
            if guild is not None and user.id in guild.members:
                out["members"] = {str(user.id): guild.members[user.id].payload(with_user=False)}
            return str(user.id), out
        if kind in (cmds.ROLE, cmds.MENTIONABLE) and isinstance(value, FakeRole):
            if guild is None or value.guild_id != guild.id:
                raise InvalidInteraction(f"{where}: {value!r} is not a role of this guild")
            return str(value.id), {"roles": {str(value.id): value.payload()}}
        if kind == cmds.CHANNEL and isinstance(value, FakeChannel):
            if value.guild is not guild:
                raise InvalidInteraction(f"{where}: {value!r} is not a channel of this guild")
            data = value.payload(permissions=guild.bot_permissions if guild else 0)
            return str(value.id), {"channels": {str(value.id): data}}
        raise InvalidInteraction(
            f"{where}: expected a fake {cmds.TYPE_NAMES.get(kind, kind)}, got {value!r}"
        )

    def new_component_interaction(
        self,
        message: FakeMessage | int,
        custom_id: str,
        *,
        user: FakeUser | FakeMember,
        values: Sequence[str] | None = None,
    ) -> InteractionRecord:
        """A click on a button (or a select choice) of a stored message."""
        msg = self.messages.get(message if isinstance(message, int) else message.id)
        if msg is None or msg.deleted:
            raise InvalidInteraction(f"message {message!r} does not exist (deleted?)")
        channel = self.channels[msg.channel_id]
        user, channel, guild = self._context(user, channel, None)
        if msg.ephemeral and msg.ephemeral_user_id != user.id:
            raise InvalidInteraction(f"{user!r} can't see ephemeral message {msg.id}")
        try:
            comp = msg.component(custom_id)
        except KeyError as exc:
            raise InvalidInteraction(str(exc.args[0])) from None
        if comp.get("disabled"):
            raise InvalidInteraction(f"component {custom_id!r} is disabled; it can't be used")
        kind = comp.get("type")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if "id" in comp:
            data["id"] = comp["id"]
        if kind == 2:
            if values is not None:
                raise InvalidInteraction(f"{custom_id!r} is a button; it takes no values")
        elif kind == 3:
            values = list(values or [])
            allowed = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in values if v not in allowed]
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if bad:
                raise InvalidInteraction(f"select {custom_id!r}: {bad} not among {allowed}")
            if not lo <= len(values) <= hi:
                raise InvalidInteraction(
                    f"select {custom_id!r}: {len(values)} values, needs {lo}..{hi}"
                )
            data["values"] = values
        else:
            raise InvalidInteraction(f"component type {kind} can't be used by fake.click")
        # Whoever clicks, the installation that made the message authorizes the click.
        made_by = (msg.interaction_metadata or {}).get("authorizing_integration_owners") or None
        iid, token, payload = self._base_payload(MESSAGE_COMPONENT, user, channel, guild, data,
                                                 made_by)
        payload["message"] = msg.payload()
        return self._register(
            InteractionRecord(
                iid,
                token,
                MESSAGE_COMPONENT,
                payload,
                user,
                channel,
                guild,
                self.clock(),
                custom_id=custom_id,
                source_message_id=msg.id,
            )
        )

    def new_modal_submit(
        self,
        modal_from: InteractionRecord,
        values: Mapping[str, str | Sequence[str]],
        *,
        user: FakeUser | FakeMember | None = None,
    ) -> InteractionRecord:
        """Submit the modal that interaction ``modal_from`` answered with.

        ``values`` is keyed by a field's ``custom_id`` or label (any case); text inputs take a str,
        selects inside labels a list of option values. Unset text inputs keep their default.
        """
        cb = modal_from.callback
        if cb is None or cb.type != 9:
            raise InvalidInteraction(f"{modal_from!r} did not answer with a modal")
        if any(done.callback is not None for done in modal_from.modal_submits):
            raise InvalidInteraction(
                f"the modal {modal_from!r} answered with was submitted and answered: Discord "
                "closed it (a player opens it again to submit again)")
        who = user or modal_from.user
        user_, channel, guild = self._context(who, modal_from.channel, modal_from.guild)
        used: set[str] = set()

        folded = {k.casefold(): k for k in values}

        def pick(comp: dict[str, Any], label: str | None) -> tuple[bool, Any]:
            if comp.get("custom_id") in values:
                used.add(comp["custom_id"])
                return True, values[comp["custom_id"]]
            for text in (comp.get("label"), label):  # labels match case-insensitively
                if text is not None and text.casefold() in folded:
                    key = folded[text.casefold()]
                    used.add(key)
                    return True, values[key]
            return False, None

        def submit(comp: dict[str, Any], label: str | None = None) -> dict[str, Any] | None:
            kind = comp.get("type")
            if kind == 1:
                inner = [x for x in (submit(c) for c in comp.get("components") or []) if x]
                return {"type": 1, "components": inner}
            if kind == 18:
                inner = submit(comp["component"], comp.get("label"))
                return {"type": 18, "component": inner} if inner else None
            name = comp.get("label") or label or comp.get("custom_id")
            found, value = pick(comp, label)
            if kind == 4:
                value = value if found else (comp.get("value") or "")
                if not isinstance(value, str):
                    raise InvalidInteraction(f"modal field {name!r} takes a string")
                if comp.get("required", True) and not value:
                    raise InvalidInteraction(f"modal field {name!r} is required")
                lo, hi = comp.get("min_length") or 0, comp.get("max_length") or 4000
                if value and not lo <= len(value) <= hi:
                    raise InvalidInteraction(f"modal field {name!r} must be {lo}..{hi} long")
                return {"type": 4, "custom_id": comp["custom_id"], "value": value}
            if kind == 3:
                chosen = list(value or []) if found else []
                allowed = [o["value"] for o in comp.get("options") or []]
                if any(v not in allowed for v in chosen):
                    raise InvalidInteraction(f"modal select {name!r}: {chosen} not in {allowed}")
                if comp.get("required", True) and not chosen:
                    raise InvalidInteraction(f"modal select {name!r} is required")
                return {"type": 3, "custom_id": comp["custom_id"], "values": chosen}
            return None  # text displays etc. send nothing back

        rows = [x for x in (submit(c) for c in cb.data.get("components") or []) if x]
        unknown = set(values) - used
        if unknown:
            raise InvalidInteraction(f"modal has no fields {sorted(unknown)}")
        data = {"custom_id": cb.data["custom_id"], "components": rows}
        iid, token, payload = self._base_payload(MODAL_SUBMIT, user_, channel, guild, data,
                                                 modal_from.owners)
        if modal_from.source_message_id is not None:
            payload["message"] = self.messages[modal_from.source_message_id].payload()
        submitted = self._register(
            InteractionRecord(
                iid,
                token,
                MODAL_SUBMIT,
                payload,
                user_,
                channel,
                guild,
                self.clock(),
                custom_id=cb.data["custom_id"],
                source_message_id=modal_from.source_message_id,
            )
        )
        modal_from.modal_submits.append(submitted)
        return submitted

    # ------------------------------------------------------------------------ REST entry
    def fail_next(self, method: str, path: str, status: int, code: int = 0,
                  message: str = "injected fault", times: int = 1) -> Fault:
        """Make the next ``times`` matching requests fail (see :class:`Fault`); a 429 asks
        the client to retry after ``Fault.retry_after`` seconds, as Discord does."""
        fault = Fault(method, path, status, code, message, times)
        self.faults.append(fault)
        return fault

    def slow_next(self, method: str, path: str, seconds: float, times: int = 1) -> Fault:
        """Make the next ``times`` matching requests take ``seconds`` before being handled."""
        fault = Fault(method, path, 0, times=times, delay=seconds)
        self.faults.append(fault)
        return fault

    def drop_after_next(self, method: str, path: str, times: int = 1) -> Fault:
        """Handle the next ``times`` matching requests, then drop the connection before the
        answer reaches the client (it sees the server disconnect)."""
        fault = Fault(method, path, 0, times=times, dropped=True)
        self.faults.append(fault)
        return fault

    def delay_for(self, req: ApiRequest) -> float:
        """Seconds to wait before handling ``req`` (a matching :meth:`slow_next`)."""
        for fault in self.faults:
            if fault.status == 0 and not fault.dropped and fault.matches(req):
                fault.times -= 1
                return fault.delay
        return 0.0

    def dropped_after(self, req: ApiRequest) -> bool:
        """Was the connection of ``req``, just handled, dropped (:meth:`drop_after_next`)?"""
        for fault in self.faults:
            if fault.dropped and fault.matches(req):
                fault.times -= 1
                return True
        return False

    def _injected(self, req: ApiRequest) -> ApiResponse | None:
        for fault in self.faults:
            if fault.status and fault.matches(req):
                fault.times -= 1
                body = {"code": fault.code, "message": fault.message}
                if fault.status == 429:
                    body.update(retry_after=fault.retry_after, **{"global": False})
                return ApiResponse(fault.status, body)
        return None

    def handle(self, req: ApiRequest) -> ApiResponse:
        rec = self._attributed_interaction(req)
        try:
            over = self.global_limit.admit(req.path)
            resp = (ApiResponse(429, over) if over else None) or self._injected(req) or (
                self._dispatch(req))
        except _Reject as rej:
            body = rej.body or {"code": rej.code, "message": rej.message}
            resp = ApiResponse(rej.status, body)
            if rej.record:
                violation = Violation(
                    rej.code,
                    rej.message,
                    rej.status,
                    req.method,
                    req.path,
                    rec.id if rec else None,
                    rej.details,
                )
                self.violations.append(violation)
                if rec is not None:
                    rec.violations.append(violation)
        recorded = RecordedRequest(
            req.method,
            req.path,
            dict(req.query),
            req.json,
            list(req.files),
            resp.status,
            resp.body,
            rec.id if rec else None,
            self.clock(),
        )
        self.requests.append(recorded)
        if rec is not None:
            rec.requests.append(recorded)
        for listener in list(self.request_listeners):
            listener(recorded)
        return resp

    def _attributed_interaction(self, req: ApiRequest) -> InteractionRecord | None:
        m = re.match(r"^/(?:interactions/\d+|webhooks/\d+)/([^/]+)", req.path)
        if m and m.group(1) in self._by_token:
            return self._by_token[m.group(1)]
        return current_interaction.get()

    def _dispatch(self, req: ApiRequest) -> ApiResponse:
        for method, pattern, handler, auth in self._routes:
            if method != req.method:
                continue
            m = pattern.match(req.path)
            if m is None:
                continue
            if auth:
                self._check_auth(req)
            return handler(req, *m.groups())
        raise _Reject(404, 0, f"404: Not Found (the fake has no route {req.method} {req.path})")

    def _check_auth(self, req: ApiRequest) -> None:
        auth = {k.lower(): v for k, v in req.headers.items()}.get("authorization")
        if auth != f"Bot {self.token}":
            raise _Reject(401, 0, "401: Unauthorized")

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., ApiResponse], bool]]:
        sf = r"(\d+)"
        table: list[tuple[str, str, Callable[..., ApiResponse], bool]] = [
            ("GET", r"/users/@me", self._get_me, False),
            ("GET", rf"/users/{sf}", self._get_user, True),
            ("POST", r"/users/@me/channels", self._create_dm, True),
            ("GET", r"/oauth2/applications/@me", self._get_application, True),
            ("GET", r"/applications/@me", self._get_application, True),
            ("GET", r"/gateway/bot", self._get_gateway_bot, True),
            ("GET", r"/gateway", self._get_gateway, False),
            ("GET", rf"/applications/{sf}/commands", self._get_commands, True),
            ("PUT", rf"/applications/{sf}/commands", self._put_commands, True),
            ("GET", rf"/applications/{sf}/guilds/{sf}/commands", self._get_commands, True),
            ("PUT", rf"/applications/{sf}/guilds/{sf}/commands", self._put_commands, True),
            ("POST", rf"/interactions/{sf}/([^/]+)/callback", self._callback, False),
            ("GET", rf"/webhooks/{sf}/([^/]+)/messages/(@original|\d+)", self._wh_get, False),
            ("PATCH", rf"/webhooks/{sf}/([^/]+)/messages/(@original|\d+)", self._wh_edit, False),
            ("DELETE", rf"/webhooks/{sf}/([^/]+)/messages/(@original|\d+)", self._wh_delete, False),
            ("POST", rf"/webhooks/{sf}/([^/]+)", self._wh_followup, False),
            ("GET", rf"/channels/{sf}", self._get_channel, True),
            ("POST", rf"/channels/{sf}/typing", self._typing, True),
            ("GET", rf"/channels/{sf}/messages", self._list_messages, True),
            ("POST", rf"/channels/{sf}/messages", self._post_message, True),
            ("GET", rf"/channels/{sf}/messages/{sf}", self._get_message, True),
            ("PATCH", rf"/channels/{sf}/messages/{sf}", self._edit_channel_message, True),
            ("DELETE", rf"/channels/{sf}/messages/{sf}", self._delete_channel_message, True),
            ("PUT", rf"/channels/{sf}/messages/{sf}/reactions/([^/]+)/@me", self._react, True),
            ("DELETE", rf"/channels/{sf}/messages/{sf}/reactions/([^/]+)/@me", self._react, True),
            ("GET", rf"/guilds/{sf}", self._get_guild, True),
            ("GET", rf"/guilds/{sf}/channels", self._get_guild_channels, True),
            ("GET", rf"/guilds/{sf}/roles", self._get_guild_roles, True),
            ("GET", rf"/guilds/{sf}/members/{sf}", self._get_member, True),
            *self.app_emoji.routes(sf),
            *self.activities.routes(sf),
        ]
        return [(m, re.compile(f"^{p}$"), h, a) for m, p, h, a in table]

    # -------------------------------------------------------------------- simple getters
    def _get_me(self, req: ApiRequest) -> ApiResponse:
        """The bot's user with the Bot token; with a user's Bearer token, that user."""
        auth = {k.lower(): v for k, v in req.headers.items()}.get("authorization", "")
        if auth.startswith("Bearer "):
            return ApiResponse(200, self.activities.bearer_user(req))
        self._check_auth(req)
        data = self.bot_user.payload()
        data.update(verified=True, mfa_enabled=False, locale="en-US")
        return ApiResponse(200, data)

    def _get_user(self, req: ApiRequest, uid: str) -> ApiResponse:
        user = self.users.get(int(uid))
        if user is None:
            raise _Reject(404, 10013, "Unknown User")
        return ApiResponse(200, user.payload())

    def _create_dm(self, req: ApiRequest) -> ApiResponse:
        user = self.users.get(int((req.json or {}).get("recipient_id", 0)))
        if user is None:
            raise _Reject(404, 10013, "Unknown User")
        return ApiResponse(200, self.dm_channel(user).payload())

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.username,
            "icon": None,
            "description": "fake application",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.bot_user.payload(),
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "summary": "",
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}, "1": {}},
        }

    def _get_application(self, req: ApiRequest) -> ApiResponse:
        return ApiResponse(200, self.application_payload())

    def _get_gateway(self, req: ApiRequest) -> ApiResponse:
        return ApiResponse(200, {"url": self.gateway_url})

    def _get_gateway_bot(self, req: ApiRequest) -> ApiResponse:
        return ApiResponse(
            200,
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": self.max_concurrency,
                },
            },
        )

    def _channel(self, cid: str | int) -> FakeChannel:
        chan = self.channels.get(int(cid))
        if chan is None:
            raise _Reject(404, 10003, "Unknown Channel")
        return chan

    @staticmethod
    def _bot_is_in(chan: FakeChannel) -> None:
        """The bot reads and writes only channels it is in: not a server that never added
        the app (reached through a user's install), nor a group DM or another user's DM."""
        if chan.is_private_channel or (chan.guild is not None and not chan.guild.installed):
            raise _Reject(403, 50001, "Missing Access (the bot is not in this channel)")

    def _guild(self, gid: str | int) -> FakeGuild:
        guild = self.guilds.get(int(gid))
        if guild is None:
            raise _Reject(404, 10004, "Unknown Guild")
        if not guild.installed:
            raise _Reject(403, 50001, "Missing Access (the app was not added to this server)")
        return guild

    def _get_channel(self, req: ApiRequest, cid: str) -> ApiResponse:
        chan = self._channel(cid)
        self._bot_is_in(chan)
        return ApiResponse(200, chan.payload())

    def _typing(self, req: ApiRequest, cid: str) -> ApiResponse:
        self._bot_is_in(self._channel(cid))
        return ApiResponse(204)

    def _get_guild(self, req: ApiRequest, gid: str) -> ApiResponse:
        data = self._guild(gid).payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key, None)
        return ApiResponse(200, data)

    def _get_guild_channels(self, req: ApiRequest, gid: str) -> ApiResponse:
        return ApiResponse(200, [c.payload() for c in self._guild(gid).channels.values()])

    def _get_guild_roles(self, req: ApiRequest, gid: str) -> ApiResponse:
        return ApiResponse(200, [r.payload() for r in self._guild(gid).roles.values()])

    def _get_member(self, req: ApiRequest, gid: str, uid: str) -> ApiResponse:
        guild = self._guild(gid)
        member = guild.members.get(int(uid))
        if member is None:
            raise _Reject(404, 10007, "Unknown Member")
        return ApiResponse(200, member.payload(with_permissions=False))

    # ---------------------------------------------------------------------- app commands
    def _check_app(self, app_id: str) -> None:
        if int(app_id) != self.application_id:
            raise _Reject(403, 50001, f"Missing Access (application {app_id} is not this bot)")

    def _get_commands(self, req: ApiRequest, app_id: str, gid: str | None = None) -> ApiResponse:
        """Localization dictionaries only with ``?with_localizations=true`` (Discord's docs)."""
        self._check_app(app_id)
        if gid is not None:
            self._guild(gid)  # 403 where the app was not added
        cmds_ = json_copy(self.guild_commands.get(int(gid), []) if gid
                              else self.global_commands)
        if req.query.get("with_localizations") not in ("true", "True", "1"):
            for cmd in cmds_:
                _strip_localizations(cmd)
        return ApiResponse(200, cmds_)

    def _stored_command(self, cmd: dict[str, Any], gid: str | None) -> dict[str, Any]:
        """``cmd`` as Discord holds it: its id (kept per scope, name and type), the app,
        a new version and the defaults Discord fills in."""
        cmd = json_copy(cmd)
        key = (int(gid) if gid else None, cmd["name"], cmd.get("type", 1))
        cid = self._command_ids.setdefault(key, self.snowflake())
        cmd.update(id=str(cid), application_id=str(self.application_id),
                   version=str(self.snowflake()))
        cmd.setdefault("type", 1)
        cmd.setdefault("default_member_permissions", None)
        cmd.setdefault("nsfw", False)
        if gid:
            cmd["guild_id"] = str(gid)
        else:
            cmd.setdefault("contexts", None)
            cmd.setdefault("integration_types", list(cmds.APP_INTEGRATION_TYPES))
        return cmd

    def _put_commands(self, req: ApiRequest, app_id: str, gid: str | None = None) -> ApiResponse:
        self._check_app(app_id)
        if gid is not None:
            self._guild(gid)
        body = req.json
        if not isinstance(body, list):
            raise _form_error([FieldError((), "BASE_TYPE_ARRAY", "Must be an array.")])
        errors = _check_command_schema(body)
        errors += self.activities.entry_point_errors(body, guild=gid is not None)
        if errors:
            raise _form_error(errors)
        if gid is None and not self.activities.keeps_entry_point(self.global_commands, body):
            raise _Reject(400, ENTRY_POINT_REMOVED, ENTRY_POINT_REMOVED_MESSAGE)
        stored = [self._stored_command(cmd, gid) for cmd in body]
        if gid:
            self.guild_commands[int(gid)] = stored
        else:
            self.global_commands = stored
        self.command_syncs += 1
        return ApiResponse(200, json_copy(stored))

    # ---------------------------------------------------------------------- interactions
    def _interaction(self, iid: str, token: str) -> InteractionRecord:
        rec = self.interactions.get(int(iid))
        if rec is None or rec.token != token:
            raise _Reject(404, 10062, "Unknown interaction")
        return rec

    def _callback(self, req: ApiRequest, iid: str, token: str) -> ApiResponse:
        rec = self._interaction(iid, token)
        rec.callback_attempts += 1
        if rec.callback is not None:
            raise _Reject(400, 40060, "Interaction has already been acknowledged.")
        elapsed = self.clock() - rec.created_at
        if rec.expired or elapsed > RESPONSE_DEADLINE:
            rec.expired = True
            raise _Reject(
                404,
                10062,
                f"Unknown interaction (first response came {elapsed:.2f}s "
                f"after the interaction; Discord allows "
                f"{RESPONSE_DEADLINE:.0f}s)",
                body={"code": 10062, "message": "Unknown interaction"},
            )
        body = req.json if isinstance(req.json, dict) else {}
        ctype = body.get("type")
        data = body.get("data") or {}
        if ctype not in ALLOWED_CALLBACKS.get(rec.type, set()) or (
            ctype in (6, 7) and rec.source_message_id is None
        ):
            raise _form_error(
                [
                    FieldError(
                        ("type",),
                        "INTERACTION_RESPONSE_TYPE_INVALID",
                        f"Response type {ctype!r} is not valid for a {rec.type_name} interaction",
                    )
                ]
            )
        if ctype == 4:
            errors = check_message(data, creating=True, has_files=bool(req.files), base=("data",))
        elif ctype == 7:
            errors = check_message(data, creating=False, base=("data",))
        elif ctype == 9:
            errors = check_modal(data)
        elif ctype == 8:
            n = len(data.get("choices") or [])
            errors = (
                []
                if n <= 25
                else [
                    FieldError(
                        ("data", "choices"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 0 and 25 in length.",
                    )
                ]
            )
        else:
            errors = []
        if ctype in (4, 7, 9):
            errors += self.app_emoji.unknown_references(data, ("data",))
        if ctype == LAUNCH_ACTIVITY and not self.activities.enabled:
            errors = [FieldError(("type",), "INTERACTION_RESPONSE_TYPE_INVALID",
                                 "LAUNCH_ACTIVITY is only available for apps with Activities "
                                 "enabled (the EMBEDDED flag)")]
        if errors:
            raise _form_error(errors)
        if ctype in (4, 5) and rec.forced_ephemeral:
            data = {**data, "flags": int(data.get("flags") or 0) | FLAG_EPHEMERAL}

        rec.callback = CallbackRecord(ctype, json_copy(data), self.clock())
        message: FakeMessage | None = None
        if ctype == 4:
            message = self._create_message(
                rec.channel,
                data,
                files=req.files,
                interaction=rec,
                flags=int(data.get("flags") or 0),
            )
            rec.original_message_id = message.id
        elif ctype == 5:
            flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._create_message(
                rec.channel, {"content": ""}, interaction=rec, flags=flags, check_empty=False
            )
            rec.original_message_id = message.id
        elif ctype == 6:
            rec.original_message_id = rec.source_message_id
        elif ctype == 7:
            assert rec.source_message_id is not None
            message = self.messages[rec.source_message_id]
            self._edit_message(message, data, req.files, interaction=rec)
            rec.original_message_id = message.id
        launch = (self.activities.launch(rec.user, rec.channel, rec.id)
                  if ctype == LAUNCH_ACTIVITY else None)
        rec.acknowledged.set()
        if ctype not in (5, 6):
            rec.answered_at = self.clock()

        if req.query.get("with_response") not in ("1", "true", "True"):
            return ApiResponse(204)
        info: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        resource: dict[str, Any] = {"type": ctype}
        if launch is not None:
            info["activity_instance_id"] = launch.instance.instance_id
            resource["activity_instance"] = {"id": launch.instance.instance_id}
        if message is not None:
            info.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            resource["message"] = message.payload()
        return ApiResponse(200, {"interaction": info, "resource": resource})

    def _webhook_interaction(self, app_id: str, token: str) -> InteractionRecord:
        rec = self._by_token.get(token)
        if rec is None or int(app_id) != self.application_id:
            raise _Reject(404, 10015, "Unknown Webhook")
        if self.clock() - rec.created_at > TOKEN_LIFETIME:
            raise _Reject(401, 50027, "Invalid Webhook Token (interaction token expired)")
        if rec.callback is None:
            raise _Reject(
                404,
                10015,
                "Unknown Webhook (the interaction was never acknowledged: "
                "respond or defer before using followups or edits)",
                body={"code": 10015, "message": "Unknown Webhook"},
            )
        return rec

    def _webhook_message(self, rec: InteractionRecord, which: str) -> FakeMessage:
        if which == "@original":
            mid = rec.original_message_id
        else:
            mid = int(which)
            allowed = {rec.original_message_id, rec.source_message_id, *rec.followup_ids}
            if mid not in allowed:
                mid = None
        msg = self.messages.get(mid) if mid is not None else None
        if msg is None or msg.deleted:
            raise _Reject(404, 10008, "Unknown Message")
        return msg

    def _wh_get(self, req: ApiRequest, app_id: str, token: str, which: str) -> ApiResponse:
        rec = self._webhook_interaction(app_id, token)
        return ApiResponse(200, self._webhook_message(rec, which).payload())

    def _wh_edit(self, req: ApiRequest, app_id: str, token: str, which: str) -> ApiResponse:
        rec = self._webhook_interaction(app_id, token)
        msg = self._webhook_message(rec, which)
        data = req.json if isinstance(req.json, dict) else {}
        self._edit_message(msg, data, req.files, interaction=rec)
        rec.answered_at = rec.answered_at or self.clock()
        return ApiResponse(200, msg.payload())

    def _wh_delete(self, req: ApiRequest, app_id: str, token: str, which: str) -> ApiResponse:
        rec = self._webhook_interaction(app_id, token)
        self._delete_message(self._webhook_message(rec, which), interaction=rec)
        return ApiResponse(204)

    def _wh_followup(self, req: ApiRequest, app_id: str, token: str) -> ApiResponse:
        rec = self._webhook_interaction(app_id, token)
        data = req.json if isinstance(req.json, dict) else {}
        errors = check_message(data, creating=True, has_files=bool(req.files))
        errors += self.app_emoji.unknown_references(data)
        if errors:
            raise _form_error(errors)
        if rec.user_install_only and rec.followup_posts >= USER_INSTALL_FOLLOWUPS_MAX:
            raise _Reject(400, 40094, "This interaction has hit the maximum number of follow up "
                                      f"messages ({USER_INSTALL_FOLLOWUPS_MAX} where only a "
                                      "user install authorizes the app)")
        if rec.forced_ephemeral:
            data = {**data, "flags": int(data.get("flags") or 0) | FLAG_EPHEMERAL}
        rec.followup_posts += 1
        rec.answered_at = rec.answered_at or self.clock()
        original = (
            self.messages.get(rec.original_message_id)
            if rec.original_message_id is not None
            else None
        )
        assert rec.callback is not None
        if rec.callback.type == 5 and original is not None and original.loading and (
            not original.deleted
        ):
            # Discord: the first followup after a "thinking" defer edits the deferred message
            # (once the bot deleted it, a followup is a new message, ephemeral if flagged)
            self._edit_message(original, data, req.files, interaction=rec)
            msg = original
        else:
            msg = self._create_message(
                rec.channel,
                data,
                files=req.files,
                interaction=rec,
                flags=int(data.get("flags") or 0),
                followup=True,
            )
            rec.followup_ids.append(msg.id)
        if req.query.get("wait") in ("1", "true", "True"):
            return ApiResponse(200, msg.payload())
        return ApiResponse(204)

    # -------------------------------------------------------------------- channel routes
    def _bot_can(self, chan: FakeChannel, perms: discord.Permissions) -> None:
        self._bot_is_in(chan)
        if chan.guild is None:
            return
        have = chan.guild.bot_permissions
        if have & discord.Permissions.administrator.flag:
            return
        if have & perms.value != perms.value:
            raise _Reject(403, 50013, "Missing Permissions")

    def _post_message(self, req: ApiRequest, cid: str) -> ApiResponse:
        chan = self._channel(cid)
        self._bot_can(chan, discord.Permissions(view_channel=True, send_messages=True))
        data = req.json if isinstance(req.json, dict) else {}
        errors = check_message(data, creating=True, has_files=bool(req.files))
        errors += self.app_emoji.unknown_references(data)
        if errors:
            raise _form_error(errors)
        flags = int(data.get("flags") or 0)
        if flags & FLAG_EPHEMERAL:
            raise _form_error(
                [
                    FieldError(
                        ("flags",),
                        "MESSAGE_FLAGS_INVALID",
                        "Ephemeral messages only exist as interaction responses",
                    )
                ]
            )
        msg = self._create_message(
            chan,
            data,
            files=req.files,
            flags=flags,
            interaction=current_interaction.get(),
            channel_post=True,
        )
        return ApiResponse(200, msg.payload())

    def _channel_message(self, cid: str, mid: str) -> FakeMessage:
        self._bot_is_in(self._channel(cid))
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted or msg.channel_id != int(cid) or msg.ephemeral:
            raise _Reject(404, 10008, "Unknown Message")
        return msg

    def _get_message(self, req: ApiRequest, cid: str, mid: str) -> ApiResponse:
        self._bot_can(
            self._channel(cid), discord.Permissions(view_channel=True, read_message_history=True)
        )
        return ApiResponse(200, self._channel_message(cid, mid).payload())

    def _list_messages(self, req: ApiRequest, cid: str) -> ApiResponse:
        chan = self._channel(cid)
        self._bot_can(chan, discord.Permissions(view_channel=True, read_message_history=True))
        msgs = self.channel_history(chan, include_ephemeral=False)
        limit = max(1, min(100, int(req.query.get("limit", 50))))
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int(req.query["after"])]
            msgs = msgs[:limit]
        msgs = list(reversed(msgs))[:limit]  # newest first, like Discord
        return ApiResponse(200, [m.payload() for m in msgs])

    def _edit_channel_message(self, req: ApiRequest, cid: str, mid: str) -> ApiResponse:
        msg = self._channel_message(cid, mid)
        data = req.json if isinstance(req.json, dict) else {}
        if msg.author.get("id") != str(self.bot_user.id) and set(data) - {"flags"}:
            raise _Reject(403, 50005, "Cannot edit a message authored by another user")
        self._edit_message(msg, data, req.files, interaction=current_interaction.get())
        return ApiResponse(200, msg.payload())

    def _delete_channel_message(self, req: ApiRequest, cid: str, mid: str) -> ApiResponse:
        msg = self._channel_message(cid, mid)
        if msg.author.get("id") != str(self.bot_user.id):
            self._bot_can(self._channel(cid), discord.Permissions(manage_messages=True))
        self._delete_message(msg, interaction=current_interaction.get())
        return ApiResponse(204)

    def _react(self, req: ApiRequest, cid: str, mid: str, emoji: str) -> ApiResponse:
        self._channel_message(cid, mid)
        return ApiResponse(204)

    # ------------------------------------------------------------------ message storage
    def _attachments(self, files: Sequence[tuple[str, int]], chan_id: int) -> list[dict[str, Any]]:
        out = []
        for name, size in files:
            aid = self.snowflake()
            url = f"https://cdn.invalid/attachments/{chan_id}/{aid}/{name}"
            out.append(
                {"id": str(aid), "filename": name, "size": size, "url": url, "proxy_url": url}
            )
        return out

    def _create_message(
        self,
        chan: FakeChannel,
        data: dict[str, Any],
        *,
        files: Sequence[tuple[str, int]] = (),
        interaction: InteractionRecord | None = None,
        flags: int = 0,
        followup: bool = False,
        channel_post: bool = False,
        check_empty: bool = True,
    ) -> FakeMessage:
        flags &= MESSAGE_FLAGS_SETTABLE | FLAG_LOADING
        msg = FakeMessage(
            id=self.snowflake(),
            channel_id=chan.id,
            guild_id=chan.guild_id,
            author=self.bot_user.payload(),
            content=data.get("content") or "",
            embeds=json_copy(data.get("embeds") or []),
            components=number_components(data.get("components") or []),
            attachments=self._attachments(files, chan.id),
            flags=flags,
            tts=bool(data.get("tts")),
        )
        if data.get("message_reference"):
            msg.message_reference = json_copy(data["message_reference"])
            msg.type = 19
        if interaction is not None and not channel_post:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.interaction_id = interaction.id
            msg.type = (
                CHAT_INPUT_MESSAGE_TYPE
                if interaction.type == APPLICATION_COMMAND
                else DEFAULT_MESSAGE_TYPE
            )
            if msg.ephemeral:
                msg.ephemeral_user_id = interaction.user.id
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": interaction.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
            if interaction.source_message_id is not None:
                meta["interacted_message_id"] = str(interaction.source_message_id)
            if followup and interaction.original_message_id is not None:
                meta["original_response_message_id"] = str(interaction.original_message_id)
            if interaction.name:
                meta["name"] = interaction.name
                meta["command_type"] = 1
                msg.interaction = {
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "name": interaction.name,
                    "user": interaction.user.payload(),
                }
            msg.interaction_metadata = meta
        elif interaction is not None:
            msg.interaction_id = interaction.id
        self.messages[msg.id] = msg
        self.channel_messages.setdefault(chan.id, []).append(msg.id)
        self._emit("create", msg, interaction)
        return msg

    def _edit_message(
        self,
        msg: FakeMessage,
        data: dict[str, Any],
        files: Sequence[tuple[str, int]] = (),
        *,
        interaction: InteractionRecord | None = None,
    ) -> None:
        # Discord: an edit may turn a message into a Components V2 one (the first followup
        # of a deferred answer does), never back; the flag then rules every later edit.
        upgrade = int(data.get("flags") or 0) & FLAG_COMPONENTS_V2
        v2 = bool(msg.flags & FLAG_COMPONENTS_V2 or upgrade)
        checked = {**data, "flags": int(data.get("flags") or 0) | (FLAG_COMPONENTS_V2 if v2 else 0)}
        errors = check_message(checked, creating=False, has_files=bool(files))
        errors += self.app_emoji.unknown_references(data)
        merged = {
            "content": data.get("content", msg.content),
            "embeds": data.get("embeds", msg.embeds),
            "components": data.get("components", msg.components),
            "attachments": data.get("attachments", msg.attachments),
        }
        if not errors and v2 and (merged["content"] or merged["embeds"]):
            errors = [FieldError(("content",), V2_LEGACY, "The message uses components v2")]
        if (
            not errors
            and is_empty_message(merged, has_files=bool(files))
            and not (msg.loading and not data)
        ):
            errors = [FieldError((), "EMPTY_MESSAGE", "Cannot send an empty message")]
        if errors:
            raise _form_error(errors)
        was_loading = msg.loading
        if "content" in data:
            msg.content = data["content"] or ""
        if "embeds" in data:
            msg.embeds = json_copy(data["embeds"] or [])
        if "components" in data:
            msg.components = number_components(data["components"] or [])
        if "attachments" in data or files:
            keep = {str(a.get("id")) for a in data.get("attachments") or []}
            kept = (
                [a for a in msg.attachments if a["id"] in keep]
                if "attachments" in data
                else msg.attachments
            )
            msg.attachments = kept + self._attachments(files, msg.channel_id)
        if "flags" in data and data["flags"] is not None:
            keep_bits = msg.flags & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)
            msg.flags = keep_bits | upgrade | (int(data["flags"]) & (1 << 2))
        if was_loading and data:
            msg.flags &= ~FLAG_LOADING
        else:
            msg.edited_timestamp = discord.utils.utcnow()
        msg.revision += 1
        self._emit("edit", msg, interaction)

    def _delete_message(
        self, msg: FakeMessage, *, interaction: InteractionRecord | None = None
    ) -> None:
        msg.deleted = True
        self._emit("delete", msg, interaction)

    def _emit(self, kind: str, msg: FakeMessage, interaction: InteractionRecord | None) -> None:
        if interaction is not None:
            interaction.events.append(MessageEvent(kind, msg.snapshot()))
        for listener in list(self.message_listeners):
            listener(kind, msg)


# ------------------------------------------------------------------------- schema checks
def _strip_localizations(node: dict[str, Any]) -> None:
    """What a GET without ``with_localizations`` leaves of a command: no dictionaries."""
    node.pop("name_localizations", None)
    node.pop("description_localizations", None)
    for child in [*(node.get("options") or []), *(node.get("choices") or [])]:
        _strip_localizations(child)


def _check_command_schema(commands: list[Any]) -> list[FieldError]:
    errors: list[FieldError] = []
    if len(commands) > 100:
        errors.append(FieldError((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
    names: set[tuple[str, int]] = set()
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            errors.append(FieldError((i,), "MODEL_TYPE_CONVERT", "Only dictionaries may be used."))
            continue
        kind = cmd.get("type", 1)
        key = (cmd.get("name"), kind)
        if key in names:
            errors.append(
                FieldError(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique ({key[0]})",
                )
            )
        names.add(key)  # type: ignore[arg-type]
        errors += _check_command_node((i,), cmd, chat_input=kind == 1, depth=0)
    return errors


#: The locales Discord knows (discord.py's enum mirrors Discord's reference).
DISCORD_LOCALES = frozenset(locale.value for locale in discord.Locale)


def _valid_chat_name(name: Any) -> bool:
    r"""Discord's rule for slash command and option names, in every locale:
    ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, in lowercase where the letter has
    a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(
        ch in "-_'" or unicodedata.category(ch)[0] in "LN"
        or "\u0900" <= ch <= "\u097f" or "\u0e00" <= ch <= "\u0e7f"
        for ch in name
    )


def _check_localizations(
    p: tuple[str | int, ...], node: dict[str, Any], *, chat_input: bool
) -> list[FieldError]:
    """``name_localizations`` / ``description_localizations``: known locales only, and each
    value under the same rule as the source field."""
    errors: list[FieldError] = []
    for key in ("name_localizations", "description_localizations"):
        for locale, value in (node.get(key) or {}).items():
            fp = (*p, key, locale)
            if locale not in DISCORD_LOCALES:
                errors.append(FieldError(fp, "LOCALE_INVALID", f"Invalid locale: {locale}"))
            elif key == "name_localizations" and chat_input and not _valid_chat_name(value):
                errors.append(FieldError(fp, "APPLICATION_COMMAND_INVALID_NAME",
                                         f"Command name is invalid: {value!r}"))
            elif key == "description_localizations" and (
                    not isinstance(value, str) or not 1 <= len(value) <= 100):
                errors.append(FieldError(fp, "BASE_TYPE_BAD_LENGTH",
                                         "Must be between 1 and 100 in length."))
    return errors


def command_size(node: dict[str, Any]) -> int:
    """Characters a command counts against Discord's 8,000: names, descriptions and choice
    values, the longest localization of each field counting."""
    def longest(field: str) -> int:
        values = [node.get(field) or "", *(node.get(f"{field}_localizations") or {}).values()]
        return max(len(str(v)) for v in values)

    total = longest("name") + longest("description")
    for choice in node.get("choices") or []:
        total += longest_choice(choice)
    return total + sum(command_size(o) for o in node.get("options") or [])


def longest_choice(choice: dict[str, Any]) -> int:
    names = [choice.get("name") or "", *(choice.get("name_localizations") or {}).values()]
    return max(len(n) for n in names) + len(str(choice.get("value", "")))


def _check_command_node(
    p: tuple[str | int, ...], node: dict[str, Any], *, chat_input: bool, depth: int
) -> list[FieldError]:
    errors: list[FieldError] = []
    name = node.get("name")
    if not isinstance(name, str) or (chat_input and not _valid_chat_name(name)):
        errors.append(
            FieldError(
                (*p, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid: {name!r}",
            )
        )
    if chat_input:
        desc = node.get("description")
        if not isinstance(desc, str) or not 1 <= len(desc) <= 100:
            errors.append(
                FieldError(
                    (*p, "description"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
            )
    errors += _check_localizations(p, node, chat_input=chat_input)
    if depth == 0 and command_size(node) > 8000:
        errors.append(FieldError(p, "APPLICATION_COMMAND_TOO_LARGE",
                                 "Command exceeds maximum size (8000)"))
    options = node.get("options") or []
    if len(options) > 25:
        errors.append(
            FieldError((*p, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        )
    seen_optional = False
    seen: set[str] = set()
    for j, opt in enumerate(options):
        op = (*p, "options", j)
        if opt.get("name") in seen:
            errors.append(
                FieldError(
                    (*op, "name"),
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    "Option names must be unique",
                )
            )
        seen.add(opt.get("name"))
        if opt.get("type") in (1, 2):
            if depth >= 2 or (depth == 1 and opt["type"] == 2):
                errors.append(
                    FieldError(
                        (*op, "type"),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        "Subcommands nested too deeply",
                    )
                )
            errors += _check_command_node(op, opt, chat_input=True, depth=depth + 1)
            continue
        errors += _check_command_node(op, {**opt, "options": []}, chat_input=True, depth=depth)
        if opt.get("required"):
            if seen_optional:
                errors.append(
                    FieldError(
                        (*op, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        for c, choice in enumerate(opt.get("choices") or []):
            for locale, value in (choice.get("name_localizations") or {}).items():
                if locale not in DISCORD_LOCALES or not 1 <= len(str(value)) <= 100:
                    errors.append(FieldError((*op, "choices", c, "name_localizations", locale),
                                             "BASE_TYPE_BAD_LENGTH",
                                             "Must be between 1 and 100 in length."))
        if len(opt.get("choices") or []) > 25:
            errors.append(
                FieldError(
                    (*op, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
            )
    return errors
