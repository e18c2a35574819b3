"""Activities (embedded web apps) with Discord's rules, from Discord's docs: the Entry Point
command (interactions/application-commands, "Entry Point Commands"), the ``LAUNCH_ACTIVITY``
callback (interactions/receiving-and-responding), OAuth2's token exchange (topics/oauth2),
``GET /users/@me`` with a user's Bearer token (resources/user) and activity instances
(resources/application, "Get Application Activity Instance").

Off until a test calls ``DiscordState.enable_activities()`` (the portal's "Activities" switch):
then the application carries the ``EMBEDDED`` flag and Discord holds the Entry Point command
"Launch" (handler 2, ``DISCORD_LAUNCH_ACTIVITY``). The Embedded App SDK's
``commands.authorize`` is :meth:`ActivityStore.authorize` (a single-use code, short-lived);
a user in an Activity is :meth:`ActivityStore.start` / :meth:`ActivityInstance.join`.

Refusals about what a client sent (a wrong code, a forged token, an unknown instance) are
answers, not the bot breaking Discord's rules: they are not recorded as violations. A wrong
client secret, a sync that drops the Entry Point command and ``LAUNCH_ACTIVITY`` without
Activities are.
"""

from __future__ import annotations

import base64
import binascii
import copy
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .api import ApiRequest, ApiResponse, Reject
from .limits import FieldError
from .models import FakeChannel, FakeGuild, FakeUser, Snowflakes

EMBEDDED = 1 << 17  # application flag: the app has an Activity
PRIMARY_ENTRY_POINT = 4
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2
LAUNCH_ACTIVITY = 12  # interaction callback type
ENTRY_POINT_REMOVED = 50240
ENTRY_POINT_REMOVED_MESSAGE = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please "
    "include the Entry Point command in your update request or delete it separately.")
#: The command Discord creates when Activities are switched on (docs: "Default Entry Point
#: command"): named "Launch", handler 2, everywhere the app can be installed and used.
DEFAULT_ENTRY_POINT: dict[str, Any] = {
    "type": PRIMARY_ENTRY_POINT,
    "name": "Launch",
    "description": "",
    "handler": DISCORD_LAUNCH_ACTIVITY,
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}
ACCESS_TOKEN_LIFETIME = 604800  # seconds, Discord's ``expires_in``
#: How long an authorization code is good for: Discord does not document it; OAuth2
#: (RFC 6749 4.1.2) recommends at most 10 minutes.
CODE_LIFETIME = 600.0
FORM = "application/x-www-form-urlencoded"
GRANT_TYPES = ("authorization_code", "refresh_token")


@dataclass
class Grant:
    """What a code or a token stands for."""

    user: FakeUser
    scopes: list[str]
    expires_at: float
    redirect_uri: str | None = None


@dataclass(eq=False)
class ActivityInstance:
    """One running Activity in a channel; everyone who joins there shares it until all left."""

    instance_id: str
    launch_id: int
    channel: FakeChannel
    guild: FakeGuild | None
    users: list[FakeUser] = field(default_factory=list)
    ended: bool = False

    @property
    def location_id(self) -> str:
        if self.guild is not None:
            return f"gc-{self.guild.id}-{self.channel.id}"
        return f"pc-{self.channel.id}"

    def join(self, user: FakeUser) -> ActivityInstance:
        if self.ended:
            raise ValueError(f"{self.instance_id} has ended")
        if user not in self.users:
            self.users.append(user)
        return self

    def leave(self, user: FakeUser) -> None:
        """``user`` closes the Activity; when the last one leaves, the instance ends."""
        if user in self.users:
            self.users.remove(user)
        if not self.users:
            self.ended = True

    def payload(self, application_id: int) -> dict[str, Any]:
        location: dict[str, Any] = {"id": self.location_id,
                                    "kind": "gc" if self.guild is not None else "pc",
                                    "channel_id": str(self.channel.id)}
        if self.guild is not None:
            location["guild_id"] = str(self.guild.id)
        return {"application_id": str(application_id), "instance_id": self.instance_id,
                "launch_id": str(self.launch_id), "location": location,
                "users": [str(u.id) for u in self.users]}


@dataclass
class ActivityLaunch:
    """Discord launched the Activity for ``user`` in ``channel``: answering ``interaction_id``
    with ``LAUNCH_ACTIVITY``, or from the Entry Point command with handler 2 (no interaction)."""

    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    instance: ActivityInstance
    interaction_id: int | None
    at: float


def oauth_error(status: int, error: str, description: str | None = None) -> Reject:
    """OAuth2's error body (RFC 6749 5.2), as Discord's token endpoint answers."""
    body: dict[str, Any] = {"error": error}
    if description is not None:
        body["error_description"] = description
    return Reject(status, 0, description or error, record=False, body=body)


class ActivityStore:
    """The application's Activity: switch, secret, codes, tokens, instances and launches."""

    def __init__(self, snowflake: Snowflakes, application_id: int,
                 clock: Callable[[], float]) -> None:
        self.snowflake = snowflake
        self.application_id = application_id
        self.clock = clock
        self.enabled = False
        #: The application's client secret (the portal's OAuth2 page).
        self.client_secret = secrets.token_urlsafe(24)
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, Grant] = {}
        self.refresh_tokens: dict[str, Grant] = {}
        self.instances: dict[str, ActivityInstance] = {}
        self.launches: list[ActivityLaunch] = []

    # ------------------------------------------------------------------ test helpers
    def authorize(self, user: FakeUser, scopes: Sequence[str] = ("identify",), *,
                  redirect_uri: str | None = None) -> str:
        """What the SDK's ``commands.authorize`` gives the client: a code for ``user``."""
        code = secrets.token_urlsafe(20)
        self.codes[code] = Grant(user, list(scopes), self.clock() + CODE_LIFETIME, redirect_uri)
        return code

    def access_token(self, user: FakeUser, scopes: Sequence[str] = ("identify",)) -> str:
        """A Bearer token for ``user`` as if a code had been exchanged."""
        return self._mint(Grant(user, list(scopes), 0.0))["access_token"]

    def running_in(self, channel: FakeChannel) -> ActivityInstance | None:
        return next((i for i in self.instances.values()
                     if i.channel is channel and not i.ended), None)

    def start(self, channel: FakeChannel, *users: FakeUser) -> ActivityInstance:
        """``users`` open the Activity in ``channel`` (a server channel, a DM or a group DM):
        they join the instance running there, or a new one starts."""
        instance = self.running_in(channel)
        if instance is None:
            launch_id = self.snowflake()
            instance = ActivityInstance("", launch_id, channel, channel.guild)
            instance.instance_id = f"i-{launch_id}-{instance.location_id}"
            self.instances[instance.instance_id] = instance
        for user in users:
            instance.join(user)
        return instance

    def end(self, instance: ActivityInstance) -> None:
        instance.ended = True
        instance.users.clear()

    def launch(self, user: FakeUser, channel: FakeChannel,
               interaction_id: int | None = None) -> ActivityLaunch:
        launch = ActivityLaunch(user, channel, channel.guild, self.start(channel, user),
                                interaction_id, self.clock())
        self.launches.append(launch)
        return launch

    # ------------------------------------------------------------------------- routes
    def routes(self, sf: str) -> list[tuple[str, str, Callable[..., Any], bool]]:
        return [
            ("POST", r"/oauth2/token", self.token, False),
            ("GET", rf"/applications/{sf}/activity-instances/([^/]+)", self.get_instance, True),
        ]

    def token(self, req: ApiRequest) -> ApiResponse:
        """``POST /oauth2/token``: form-encoded only; the client authenticates with
        ``client_id``/``client_secret`` in the form or HTTP Basic."""
        form = req.json if _content_type(req) == FORM and isinstance(req.json, Mapping) else {}
        grant_type = form.get("grant_type")
        if grant_type not in GRANT_TYPES:  # Discord's answer to a JSON body too
            raise oauth_error(400, "unsupported_grant_type",
                              f"Grant type {grant_type} is not supported")
        client_id, secret = _client_credentials(req, form)
        if client_id != str(self.application_id) or secret != self.client_secret:
            raise Reject(401, 0, "invalid_client (wrong client id or secret)",
                         body={"error": "invalid_client"})
        if grant_type == "refresh_token":
            return ApiResponse(200, self._refresh(form.get("refresh_token")))
        code = form.get("code")
        if not code:
            raise oauth_error(400, "invalid_request", 'Missing "code" in request.')
        grant = self.codes.pop(code, None)  # single use, even when refused below
        if grant is None or grant.expires_at < self.clock():
            raise oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        uri = form.get("redirect_uri")
        if uri is not None and grant.redirect_uri is not None and uri != grant.redirect_uri:
            raise oauth_error(400, "invalid_grant", 'Invalid "redirect_uri" in request.')
        return ApiResponse(200, self._mint(grant))

    def _refresh(self, token: Any) -> dict[str, Any]:
        grant = self.refresh_tokens.pop(str(token), None)
        if grant is None:
            raise oauth_error(400, "invalid_grant", 'Invalid "refresh_token" in request.')
        return self._mint(grant)

    def _mint(self, grant: Grant) -> dict[str, Any]:
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        minted = Grant(grant.user, grant.scopes, self.clock() + ACCESS_TOKEN_LIFETIME)
        self.tokens[access] = minted
        self.refresh_tokens[refresh] = minted
        return {"access_token": access, "token_type": "Bearer",
                "expires_in": ACCESS_TOKEN_LIFETIME, "refresh_token": refresh,
                "scope": " ".join(grant.scopes)}

    def bearer_user(self, req: ApiRequest) -> dict[str, Any]:
        """``GET /users/@me`` with ``Authorization: Bearer``: the token's user, needing the
        ``identify`` scope (``email`` adds the address)."""
        auth = {k.lower(): v for k, v in req.headers.items()}.get("authorization", "")
        grant = self.tokens.get(auth[len("Bearer "):]) if auth.startswith("Bearer ") else None
        if grant is None or grant.expires_at < self.clock() or "identify" not in grant.scopes:
            raise Reject(401, 0, "401: Unauthorized", record=False)
        data = grant.user.payload()
        data.pop("bot")
        data.update(locale=grant.user.locale, mfa_enabled=False, premium_type=0,
                    banner=None, accent_color=None)
        if "email" in grant.scopes:
            data.update(email=f"{grant.user.username}@example.invalid", verified=True)
        return data

    def get_instance(self, req: ApiRequest, app_id: str, instance_id: str) -> ApiResponse:
        """Discord's docs: the instance, or ``404: Not Found`` (code 0) once none runs."""
        if int(app_id) != self.application_id:
            raise Reject(403, 50001, f"Missing Access (application {app_id} is not this bot)")
        instance = self.instances.get(instance_id)
        if instance is None or instance.ended:
            raise Reject(404, 0, "404: Not Found", record=False)
        return ApiResponse(200, instance.payload(self.application_id))

    # -------------------------------------------------------------------- commands
    def entry_point_errors(self, commands: Sequence[Any], *, guild: bool) -> list[FieldError]:
        """Discord's rules for type 4: global only, no options, one per app, a ``handler``
        of 1 or 2, and ``handler`` only on type 4 of an app with Activities."""
        errors: list[FieldError] = []
        seen = 0
        for i, cmd in enumerate(commands):
            if not isinstance(cmd, dict):
                continue
            if cmd.get("type", 1) != PRIMARY_ENTRY_POINT:
                if cmd.get("handler") is not None:
                    errors.append(FieldError((i, "handler"), "APPLICATION_COMMAND_INVALID",
                                             "handler is only for PRIMARY_ENTRY_POINT commands"))
                continue
            seen += 1
            errors += self._entry_point_field_errors(i, cmd, guild=guild, extra=seen > 1)
        return errors

    def _entry_point_field_errors(self, i: int, cmd: dict[str, Any], *, guild: bool,
                                  extra: bool) -> list[FieldError]:
        checks = [
            (not self.enabled, "type", "PRIMARY_ENTRY_POINT commands need an app with "
                                       "Activities (the EMBEDDED flag)"),
            (guild, "type", "An app cannot have a PRIMARY_ENTRY_POINT guild command"),
            (extra, "type", "An app can have only one PRIMARY_ENTRY_POINT command"),
            (bool(cmd.get("options")), "options", "Options can only be set for CHAT_INPUT "
                                                  "commands"),
            (cmd.get("handler", APP_HANDLER) not in (APP_HANDLER, DISCORD_LAUNCH_ACTIVITY),
             "handler", f"Value must be one of {{{APP_HANDLER}, {DISCORD_LAUNCH_ACTIVITY}}}."),
        ]
        return [FieldError((i, key), "APPLICATION_COMMAND_INVALID", message)
                for failed, key, message in checks if failed]

    @staticmethod
    def keeps_entry_point(held: Iterable[dict[str, Any]], body: Sequence[Any]) -> bool:
        """A bulk overwrite keeps the held Entry Point command when it re-sends a type-4
        command with its id or, without an id, its name."""
        entry = next((c for c in held if c.get("type") == PRIMARY_ENTRY_POINT), None)
        if entry is None:
            return True
        for cmd in body:
            if isinstance(cmd, dict) and cmd.get("type") == PRIMARY_ENTRY_POINT and (
                    str(cmd.get("id")) == entry["id"]
                    or ("id" not in cmd and cmd.get("name") == entry["name"])):
                return True
        return False

    @staticmethod
    def default_entry_point() -> dict[str, Any]:
        return copy.deepcopy(DEFAULT_ENTRY_POINT)


def _content_type(req: ApiRequest) -> str:
    value = {k.lower(): v for k, v in req.headers.items()}.get("content-type", "")
    return value.split(";")[0].strip().lower()


def _client_credentials(req: ApiRequest, form: Mapping[str, Any]) -> tuple[str | None,
                                                                            str | None]:
    auth = {k.lower(): v for k, v in req.headers.items()}.get("authorization", "")
    if auth.startswith("Basic "):
        try:
            client_id, _, secret = base64.b64decode(auth[6:]).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return None, None
        return client_id, secret
    return form.get("client_id"), form.get("client_secret")
