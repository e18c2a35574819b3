"""The slash commands synced as a deploy wants them: only when what the bot would send
differs from what Discord holds, keeping the commands Discord made itself.

discord.py's ``CommandTree.sync`` overwrites the commands at every start. Discord counts
each new command against a daily limit, and once an application has Activities on, Discord
holds an Entry Point command (``PRIMARY_ENTRY_POINT``, type 4) that the tree doesn't know:
a bulk overwrite leaving it out is refused whole (400, code 50240). So the held commands
are read first (``GET`` with their localizations), compared with the tree's payload (its
translations included), and only a difference is written, with the Entry Point command
re-sent as Discord returned it (``handler``, ``contexts`` and ``integration_types`` kept).
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.http import Route

#: ``PRIMARY_ENTRY_POINT``: the command that opens the app's Activity.
ENTRY_POINT = 4
#: What Discord adds to a command it holds: not part of what the bot declares.
_HELD_ONLY = frozenset({"id", "application_id", "version", "guild_id", "name_localized",
                        "description_localized"})
#: Fields whose absence means this value (Discord fills some, discord.py sends others).
_DEFAULTS: dict[str, Any] = {"type": 1, "nsfw": False, "dm_permission": True,
                             "required": False, "autocomplete": False}
#: Lists whose order means nothing.
_SETS = frozenset({"contexts", "integration_types", "channel_types"})


@dataclass(frozen=True)
class CommandSync:
    """What start-up did with the commands."""

    #: "global", or "server <id>" for the development server.
    scope: str
    #: The commands the bot declares.
    declared: int
    #: Whether they were written (False: Discord already held them as they are).
    written: bool
    #: Names of the commands Discord made that were kept (the Entry Point command).
    kept: tuple[str, ...]


class CommandSyncRefused(Exception):
    """Discord refused to give or take the commands: its code and message say why, and no
    retry will change that."""

    def __init__(self, scope: str, error: discord.HTTPException) -> None:
        self.scope, self.error = scope, error
        reason = getattr(error.response, "reason", "") or ""
        text = " ".join(str(error.text).split()) or "no message"
        super().__init__(f"Discord refused the command sync ({scope}): HTTP {error.status} "
                         f"{reason}, code {error.code}: {text}".replace("  ", " "))


async def sync_commands(tree: app_commands.CommandTree[Any],
                        guild: discord.abc.Snowflake | None = None) -> CommandSync:
    """Write the tree's commands (global, or ``guild``'s) when Discord holds others.

    Raises :class:`CommandSyncRefused` for Discord's refusals (4xx); its server errors
    (:class:`discord.DiscordServerError`) and network errors pass through."""
    client = tree.client
    if client.application_id is None:
        raise app_commands.MissingApplicationID
    scope = "global" if guild is None else f"server {guild.id}"
    declared, canonical = await _declared(tree, guild)
    try:
        held = await _held(client.http, client.application_id, guild)
        kept = [c for c in held if c.get("type") == ENTRY_POINT]
        if canonical == _held_form([c for c in held if c not in kept]):
            return CommandSync(scope, len(canonical), False, _names(kept))
        if guild is None:
            await client.http.bulk_upsert_global_commands(client.application_id,
                                                          declared() + kept)
        else:
            await client.http.bulk_upsert_guild_commands(client.application_id, guild.id,
                                                         declared())
    except discord.DiscordServerError:
        raise
    except discord.HTTPException as exc:
        raise CommandSyncRefused(scope, exc) from exc
    return CommandSync(scope, len(canonical), True, _names(kept))


#: Translated payloads and their canonical forms, by the untranslated payload (at most
#: :data:`_REMEMBERED`): discord.py asks the translator about 6,000 times for one payload
#: (70 ms of CPU), the same at every start of a client in one process (the suite starts
#: hundreds).
_translated: dict[str, tuple[bytes, list[Any]]] = {}
#: The canonical forms of the commands Discord held, by their marshalled bytes: the same
#: commands at every start, whose canonical form took 3 ms of CPU to make, 0.3 ms to find.
_held_forms: dict[bytes, list[Any]] = {}
_REMEMBERED = 4


def _remember(memory: dict[Any, Any], key: Any, value: Any) -> Any:
    while len(memory) >= _REMEMBERED:
        del memory[next(iter(memory))]
    memory[key] = value
    return value


def _held_form(commands: list[dict[str, Any]]) -> list[Any]:
    """:func:`_canonical` of the commands Discord holds, remembered (compared, never changed),
    by what the canonical form keeps of each: their ids and versions change at each write."""
    key = marshal.dumps([{k: v for k, v in c.items() if k not in _HELD_ONLY}
                         for c in commands])
    form = _held_forms.get(key)
    return form if form is not None else _remember(_held_forms, key, _canonical(commands))


async def _declared(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
                    ) -> tuple[Callable[[], list[dict[str, Any]]], list[Any]]:
    """The payload ``CommandTree.sync`` would send, translations included (a function giving
    a copy of its own: only a write needs one, 2.5 ms of CPU), and its canonical form."""
    commands = tree._get_all_commands(guild=guild)
    translator = tree.translator
    plain = [command.to_dict(tree) for command in commands]
    if translator is None:
        return lambda: plain, _canonical(plain)
    key = f"{type(translator).__qualname__} {json.dumps(plain, sort_keys=True)}"
    if key not in _translated:
        payload = [await command.get_translated_payload(tree, translator)
                   for command in commands]
        _remember(_translated, key, (marshal.dumps(payload), _canonical(payload)))
    payload_bytes, canonical = _translated[key]
    return lambda: marshal.loads(payload_bytes), canonical


async def _held(http: discord.http.HTTPClient, application_id: int,
                guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """The commands Discord holds, with their whole localization dictionaries."""
    if guild is None:
        route = Route("GET", "/applications/{application_id}/commands",
                      application_id=application_id)
    else:
        route = Route("GET", "/applications/{application_id}/guilds/{guild_id}/commands",
                      application_id=application_id, guild_id=guild.id)
    return list(await http.request(route, params={"with_localizations": "true"}))


def _canonical(commands: list[dict[str, Any]]) -> list[Any]:
    """Commands in a form where what Discord and discord.py write differently compares
    equal: by type and name, without what Discord adds, defaults and empty values left out."""
    return sorted((_plain(c) for c in commands),
                  key=lambda c: (c.get("type", 1), c.get("name", "")))


def _plain(node: Any, key: str = "") -> Any:
    if isinstance(node, dict):
        out = {}
        for field, value in node.items():
            value = _plain(value, field)
            if field in _HELD_ONLY or value in (None, [], {}) or (
                    field in _DEFAULTS and value == _DEFAULTS[field]
                    and type(value) is type(_DEFAULTS[field])):
                continue
            out[field] = value
        return out
    if isinstance(node, list):
        items = [_plain(item) for item in node]
        return sorted(items) if key in _SETS else items
    return node


def _names(commands: list[dict[str, Any]]) -> tuple[str, ...]:
    return tuple(str(c.get("name")) for c in commands)
