"""Who is asking, from Discord: the OAuth2 code exchanged for a token (with the client
secret), the user behind a token (``GET /users/@me``, Bearer), and who is in an Activity
instance (``GET /applications/{app}/activity-instances/{id}``, with the bot token).

Every request goes to the API base discord.py uses (``discord.http.Route.BASE``, read at each
request), so pointing the bot at a test double points these too. What Discord said is kept
briefly (a user for a minute, an instance for a few seconds, a refused token for a minute),
keyed by a hash of the token: the tokens themselves are never kept, logged or sent on.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import aiohttp
from discord.http import Route

from .errors import ActivityError

log = logging.getLogger(__name__)

#: Seconds a user behind a token, an instance's members, a user found in an instance, a
#: refused token are remembered.
USER_TTL = 60.0
INSTANCE_TTL = 5.0
MEMBER_TTL = 60.0
REFUSED_TTL = 60.0
#: Seconds Discord gets to answer one request.
DISCORD_TIMEOUT = 5.0
#: At most this many requests to Discord at once for tokens not yet known (a flood of
#: forged tokens waits here, not in Discord's rate limits).
CONCURRENT_CHECKS = 8
CACHE_SIZE = 10_000

T = TypeVar("T")


@dataclass(frozen=True)
class User:
    id: int
    name: str
    #: The user's Discord locale (``en-US``, ``pt-BR``...), or None.
    locale: str | None


@dataclass(frozen=True)
class Instance:
    instance_id: str
    channel_id: int
    guild_id: int | None
    users: frozenset[int]


class _Expiring(Generic[T]):
    """A bounded map whose entries expire (the oldest go first when full)."""

    def __init__(self, ttl: float, size: int = CACHE_SIZE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl, self.size, self.clock = ttl, size, clock
        self._items: OrderedDict[str, tuple[float, T]] = OrderedDict()

    def get(self, key: str) -> T | None:
        found = self._items.get(key)
        if found is None or found[0] < self.clock():
            self._items.pop(key, None)
            return None
        return found[1]

    def put(self, key: str, value: T) -> None:
        self._items[key] = (self.clock() + self.ttl, value)
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def drop(self, key: str) -> None:
        self._items.pop(key, None)


def token_key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _display_name(data: dict[str, Any]) -> str:
    return str(data.get("global_name") or data.get("username") or data.get("id"))


class DiscordAuth:
    """Asks Discord, on ``session`` (an ``aiohttp.ClientSession`` the feature opens)."""

    def __init__(self, session: aiohttp.ClientSession, *, application_id: int,
                 client_secret: str, bot_token: str) -> None:
        self.session = session
        self.application_id = application_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._users: _Expiring[User] = _Expiring(USER_TTL)
        self._refused: _Expiring[bool] = _Expiring(REFUSED_TTL)
        self._instances: _Expiring[Instance | None] = _Expiring(INSTANCE_TTL)
        self._members: _Expiring[Instance] = _Expiring(MEMBER_TTL)
        self._checks = asyncio.Semaphore(CONCURRENT_CHECKS)

    def __repr__(self) -> str:  # never the secret nor the bot token
        return f"DiscordAuth(application_id={self.application_id})"

    async def _call(self, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
        """(status, JSON body or None) of one request to Discord's API."""
        url = Route.BASE + path
        try:
            async with asyncio.timeout(DISCORD_TIMEOUT), self.session.request(
                    method, url, **kwargs) as response:
                text = await response.text()
                status = response.status
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            log.warning("activity: Discord did not answer %s %s (%s)", method, path,
                        type(exc).__name__)
            raise ActivityError("discord_unreachable", 503) from None
        try:
            return status, json.loads(text) if text else None
        except ValueError:
            return status, None

    async def exchange(self, code: str) -> str:
        """The user's access token for an authorization code from ``commands.authorize``."""
        status, body = await self._call("POST", "/oauth2/token", data={
            "client_id": str(self.application_id), "client_secret": self._secret,
            "grant_type": "authorization_code", "code": code})
        token = body.get("access_token") if isinstance(body, dict) else None
        if status == 200 and isinstance(token, str) and token:
            return token
        if 400 <= status < 500:
            raise ActivityError("bad_code", 400)
        log.warning("activity: Discord's token endpoint answered %s", status)
        raise ActivityError("discord_unreachable", 503)

    def known_user(self, token: str) -> User | None:
        """The user behind a token asked about within the last minute, without asking."""
        return self._users.get(token_key(token))

    def refused_lately(self, token: str) -> bool:
        return self._refused.get(token_key(token)) is not None

    async def user(self, token: str) -> User:
        """The user a Bearer token belongs to (``/users/@me``), remembered for a minute."""
        key = token_key(token)
        if (known := self._users.get(key)) is not None:
            return known
        if self._refused.get(key) is not None:
            raise ActivityError("bad_token", 401)
        async with self._checks:
            status, body = await self._call("GET", "/users/@me",
                                            headers={"Authorization": f"Bearer {token}"})
        if status == 200 and isinstance(body, dict) and str(body.get("id", "")).isdigit():
            found = User(int(body["id"]), _display_name(body), body.get("locale"))
            self._users.put(key, found)
            return found
        if status in (401, 403):
            self._refused.put(key, True)
            raise ActivityError("bad_token", 401)
        raise _unanswered(status)

    async def instance(self, instance_id: str, *, fresh: bool = False) -> Instance | None:
        """The instance and who is in it (None: Discord knows no such running instance),
        remembered a few seconds unless ``fresh``."""
        if not fresh and (known := self._instances.get(instance_id)) is not None:
            return known
        async with self._checks:
            status, body = await self._call(
                "GET", f"/applications/{self.application_id}/activity-instances/{instance_id}",
                headers={"Authorization": f"Bot {self._bot_token}"})
        found: Instance | None = None
        if status == 200 and isinstance(body, dict):
            found = _instance(instance_id, body)
        elif status != 404:
            raise _unanswered(status)
        self._instances.put(instance_id, found)
        return found

    async def member(self, instance_id: str, user: User) -> Instance:
        """The instance, if ``user`` is in it (asked again once when they seem not to be: they
        may have just joined). A user found in it stays known there for a minute, so their
        moves need no question to Discord however busy it is."""
        key = f"{instance_id}:{user.id}"
        if (known := self._members.get(key)) is not None:
            return known
        found = await self.instance(instance_id)
        if found is None or user.id not in found.users:
            found = await self.instance(instance_id, fresh=True)
        if found is None:
            raise ActivityError("no_instance", 404)
        if user.id not in found.users:
            raise ActivityError("not_in_instance", 403)
        self._members.put(key, found)
        return found


def _unanswered(status: int) -> ActivityError:
    """Discord did not say: rate limited (the player may try again in a moment), or down."""
    return ActivityError("too_many", 429) if status == 429 else ActivityError(
        "discord_unreachable", 503)


def _instance(instance_id: str, body: dict[str, Any]) -> Instance | None:
    location = body.get("location") or {}
    channel = str(location.get("channel_id", ""))
    guild = location.get("guild_id")
    if not channel.isdigit():
        return None
    return Instance(instance_id, int(channel), int(guild) if guild else None,
                    frozenset(int(u) for u in body.get("users", ()) if str(u).isdigit()))
