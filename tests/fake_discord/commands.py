"""Build slash-command interaction options from the command schema the bot synced.

Discord's client validates options before it sends an interaction, and discord.py does not
re-check them, so the fake must: anything the client would refuse raises
:class:`InvalidInteraction` in the test instead of reaching the bot.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from discord import app_commands

from .errors import InvalidInteraction

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
TYPE_NAMES = {
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}
STRING_MAX = 6000
SAFE_INT = 2**53

# Where a command can be used (interaction context types) and installed (integration types).
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
CONTEXT_NAMES = {GUILD: "a server", BOT_DM: "a DM with the bot",
                 PRIVATE_CHANNEL: "a group DM or a DM between users"}
GUILD_INSTALL, USER_INSTALL = 0, 1
#: The fake application is configured for both installation contexts.
APP_INTEGRATION_TYPES = (GUILD_INSTALL, USER_INSTALL)


def integration_types(command: Mapping[str, Any]) -> list[int]:
    """Where a synced command is installed: its own ``integration_types``, else the app's.
    Guild commands exist only where the app was added to that server."""
    if command.get("guild_id"):
        return [GUILD_INSTALL]
    return list(command.get("integration_types") or APP_INTEGRATION_TYPES)


def contexts(command: Mapping[str, Any]) -> list[int]:
    """Where a synced command can be used. Without ``contexts``, Discord falls back on the
    deprecated ``dm_permission`` for bot DMs, and private channels need a user install."""
    if command.get("guild_id"):
        return [GUILD]
    if command.get("contexts") is not None:
        return list(command["contexts"])
    found = [GUILD]
    if command.get("dm_permission") is not False:
        found.append(BOT_DM)
    if USER_INSTALL in integration_types(command):
        found.append(PRIVATE_CHANNEL)
    return found

# resolve(kind, value) -> (snowflake string, {"users": {...}, "members": {...}, ...})
Resolver = Callable[[int, Any], tuple[str, dict[str, dict[str, Any]]]]


def _fmt(path: Sequence[str]) -> str:
    return "/" + " ".join(path)


def lookup(
    commands: Sequence[dict[str, Any]], path: str | Sequence[str]
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Find ``"group sub"``-style ``path`` in synced ``commands``.

    Returns ``(top_level_command, chain_of_subcommand_option_dicts, leaf_option_definitions)``.
    """
    parts = path.split() if isinstance(path, str) else list(path)
    if not parts:
        raise InvalidInteraction("empty command name")
    top = next((c for c in commands if c["name"] == parts[0] and c.get("type", 1) == 1), None)
    if top is None:
        known = sorted(_all_paths(commands))
        raise InvalidInteraction(f"unknown command {_fmt(parts[:1])}; synced commands: {known}")
    node: dict[str, Any] = top
    chain: list[dict[str, Any]] = []
    for depth, name in enumerate(parts[1:], start=1):
        subs = [
            o for o in node.get("options") or [] if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
        ]
        if not subs:
            raise InvalidInteraction(
                f"{_fmt(parts[:depth])} has no subcommands, so {_fmt(parts)} does not exist"
            )
        found = next((o for o in subs if o["name"] == name), None)
        if found is None:
            raise InvalidInteraction(
                f"unknown subcommand {_fmt(parts[: depth + 1])}; "
                f"{_fmt(parts[:depth])} has {sorted(o['name'] for o in subs)}"
            )
        chain.append(found)
        node = found
    leaf_defs = node.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in leaf_defs):
        raise InvalidInteraction(
            f"{_fmt(parts)} is a group; pick one of "
            f"{sorted(o['name'] for o in leaf_defs)} (Discord can't invoke groups)"
        )
    return top, chain, leaf_defs


def _all_paths(commands: Sequence[dict[str, Any]]) -> set[str]:
    out: set[str] = set()

    def walk(prefix: str, node: dict[str, Any]) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
        if not subs:
            out.add(prefix)
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub)

    for cmd in commands:
        if cmd.get("type", 1) == 1:
            walk("/" + cmd["name"], cmd)
    return out


def build_options(
    path: Sequence[str],
    chain: Sequence[dict[str, Any]],
    leaf_defs: Sequence[dict[str, Any]],
    values: Mapping[str, Any],
    resolve: Resolver,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Validate ``values`` against ``leaf_defs`` and nest them under the subcommand ``chain``.

    Returns ``(options, resolved)`` ready for the interaction's ``data``.
    """
    by_name = {o["name"]: o for o in leaf_defs}
    unknown = sorted(set(values) - set(by_name))
    if unknown:
        raise InvalidInteraction(
            f"{_fmt(path)} has no option(s) {unknown}; it takes {sorted(by_name)}"
        )
    resolved: dict[str, dict[str, Any]] = {}
    leaf: list[dict[str, Any]] = []
    for opt in leaf_defs:  # Discord's client keeps the declared order
        name = opt["name"]
        if name not in values or values[name] is None:
            if opt.get("required"):
                raise InvalidInteraction(f"{_fmt(path)}: missing required option {name!r}")
            continue
        value = _check_value(path, opt, values[name])
        if opt["type"] == CHANNEL and hasattr(value, "type"):
            check_channel_type(path, opt, value.type)
        if opt["type"] in (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT):
            value, extra = resolve(opt["type"], value)
            for section, items in extra.items():
                resolved.setdefault(section, {}).update(items)
        leaf.append({"name": name, "type": opt["type"], "value": value})
    options: list[dict[str, Any]] = leaf
    for sub in reversed(chain):
        options = [{"name": sub["name"], "type": sub["type"], "options": options}]
    return options, resolved


def _check_value(path: Sequence[str], opt: dict[str, Any], value: Any) -> Any:
    kind = opt["type"]
    where = f"{_fmt(path)} option {opt['name']!r}"
    if isinstance(value, app_commands.Choice):
        value = value.value
    if kind == STRING:
        if not isinstance(value, str):
            raise InvalidInteraction(f"{where}: expected a string, got {value!r}")
        if not value:
            # (whitespace-only values are let through: the bot should cope with them anyway)
            raise InvalidInteraction(f"{where}: Discord's client never sends an empty string")
        lo = opt.get("min_length", 0) or 0
        hi = opt.get("max_length", STRING_MAX) or STRING_MAX
        if len(value) < lo:
            raise InvalidInteraction(f"{where}: {value!r} is shorter than min_length={lo}")
        if len(value) > hi:
            raise InvalidInteraction(f"{where}: length {len(value)} exceeds max_length={hi}")
    elif kind in (INTEGER, NUMBER):
        ok = isinstance(value, int) if kind == INTEGER else isinstance(value, int | float)
        if isinstance(value, bool) or not ok:
            raise InvalidInteraction(f"{where}: expected {TYPE_NAMES[kind]}, got {value!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInteraction(f"{where}: {value!r} is not a finite number")
        if not -SAFE_INT < value < SAFE_INT:
            raise InvalidInteraction(f"{where}: {value!r} is outside Discord's number range")
        lo, hi = opt.get("min_value"), opt.get("max_value")
        if lo is not None and value < lo:
            raise InvalidInteraction(f"{where}: {value!r} is below min_value={lo}")
        if hi is not None and value > hi:
            raise InvalidInteraction(f"{where}: {value!r} is above max_value={hi}")
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise InvalidInteraction(f"{where}: expected a boolean, got {value!r}")
    elif kind == ATTACHMENT:
        raise InvalidInteraction(f"{where}: attachment options are not supported by the fake")
    choices = opt.get("choices")
    if choices and not opt.get("autocomplete"):
        allowed = [c["value"] for c in choices]
        if value not in allowed:
            raise InvalidInteraction(f"{where}: {value!r} is not one of the choices {allowed}")
    return value


def check_channel_type(path: Sequence[str], opt: dict[str, Any], channel_type: int) -> None:
    allowed = opt.get("channel_types")
    if allowed and channel_type not in allowed:
        raise InvalidInteraction(
            f"{_fmt(path)} option {opt['name']!r}: channel type {channel_type} not in {allowed}"
        )
