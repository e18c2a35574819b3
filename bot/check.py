"""``mastermind-bot --check``: the configuration checked without Discord, one line per
finding, exit 0 when everything is fine and 2 otherwise.

It reads the settings as the bot does (environment, then ``.env``) and checks: the token is
set and shaped like a bot token (it is never printed, nor sent anywhere); the database can
be used and is migrated, or says how many migrations the bot would apply (nothing is
created or written); the shard settings fit together; the metrics port is free; the other
settings read. Discord itself is not asked: a token of the right shape may still have been
reset, which only logging in tells."""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
import socket
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from .core.config import METRICS_HOST as HOST
from .core.config import ConfigError, read_env
from .store.probe import Probe, probe

#: A bot token: the bot's id in base64, a timestamp, a signature (dot-separated, url-safe).
TOKEN_SHAPE = re.compile(r"(?P<id>[A-Za-z0-9_-]{16,40})\.[A-Za-z0-9_-]{4,10}\.[A-Za-z0-9_-]{20,}")


@dataclass(frozen=True)
class Finding:
    ok: bool
    text: str

    def __str__(self) -> str:
        return f"{'ok' if self.ok else 'problem'}: {self.text}"


def check_token(token: str) -> Finding:
    """Is it shaped like a bot token? Says which bot it names, never the token itself."""
    if token.lower().startswith("bot "):
        return Finding(False, "DISCORD_TOKEN starts with 'Bot ': give the token alone")
    if token[:1] in "\"'" and token[-1:] == token[:1]:
        return Finding(False, "DISCORD_TOKEN is in quotes inside its value: drop them")
    if token.isdigit():
        return Finding(False, "DISCORD_TOKEN is all digits: that is an id (the application "
                              "id?), not the bot token (Bot -> Reset Token)")
    found = TOKEN_SHAPE.fullmatch(token)
    bot_id = _bot_id(found["id"]) if found else None
    if bot_id is None:
        return Finding(False, f"DISCORD_TOKEN ({len(token)} characters) is not shaped like a "
                              f"bot token (three parts joined by dots, the first the bot's id): "
                              f"copy it again from the Developer Portal (Bot -> Reset Token); "
                              f"the client secret is not it")
    return Finding(True, f"DISCORD_TOKEN is set and shaped like the token of bot {bot_id} "
                         f"(only logging in tells whether Discord still takes it)")


def _bot_id(part: str) -> int | None:
    try:
        text = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isdigit() and 15 <= len(text) <= 20 else None


def describe_probe(found: Probe) -> Finding:
    """The database's line: usable, and migrated or how many migrations would apply."""
    if found.problem is not None:
        return Finding(False, found.problem)
    if not found.exists:
        return Finding(True, f"the database {found.name} does not exist yet: the bot creates "
                             f"it and applies {_migrations(len(found.pending))}")
    if found.unknown:
        newest = max(found.unknown)
        return Finding(False, f"the database {found.name} has migrations this version doesn't "
                              f"know (up to {newest:03d}): a newer version of the bot used it; "
                              f"run that version, or restore a backup")
    version = max(found.applied, default=0)
    if not found.applied:
        return Finding(True, f"the database {found.name} holds no tables of the bot yet: it "
                             f"applies {_migrations(len(found.pending))} when it starts")
    if found.pending:
        return Finding(True, f"the database {found.name} is at schema version {version}: "
                             f"the bot applies {_migrations(len(found.pending))} when it starts")
    return Finding(True, f"the database {found.name} is reachable and migrated (schema "
                         f"version {version})")


def _migrations(count: int) -> str:
    return f"{count} migration{'' if count == 1 else 's'}"


def check_shards(count: int | None, ids: tuple[int, ...] | None) -> Finding:
    if count is None:
        return Finding(True, "SHARD_COUNT is not set: one connection, with as many shards as "
                             "Discord recommends")
    if ids is None or len(ids) == count:
        return Finding(True, f"this process runs all {count} shard{'s' * (count != 1)}")
    others = [str(i) for i in range(count) if i not in ids]
    return Finding(True, f"this process runs shards {', '.join(map(str, ids))} of {count}; "
                         f"run {', '.join(others)} in other processes (SHARD_IDS)")


def _unusable(host: str, port: int) -> str | None:
    """Why ``port`` can't be listened on at ``host`` now (None: it can), bound as aiohttp
    binds it."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp listens
        try:
            sock.bind((host, port))
        except OSError as exc:
            return str(exc.strerror or exc)
    return None


def check_metrics_port(port: int | None) -> Finding:
    if port is None:
        return Finding(True, "METRICS_PORT is not set: no metrics endpoint")
    if (why := _unusable(HOST, port)) is not None:
        return Finding(False, f"METRICS_PORT {port} can't be used on {HOST} ({why}): choose "
                              f"another port, or leave METRICS_PORT empty for no metrics")
    return Finding(True, f"METRICS_PORT {port} is free on {HOST}")


def check_activity(port: int | None, host: str, secret: str | None) -> Finding:
    """The Activity's port is free where it listens, with the client secret it needs (the
    secret's value is never printed)."""
    if port is None:
        return Finding(True, "ACTIVITY_PORT is not set: no Activity (web server off)")
    if (why := _unusable(host, port)) is not None:
        return Finding(False, f"ACTIVITY_PORT {port} can't be used on {host} ({why}): choose "
                              f"another port, or leave ACTIVITY_PORT empty for no Activity")
    return Finding(True, f"ACTIVITY_PORT {port} is free on {host}, and DISCORD_CLIENT_SECRET "
                         f"is set ({len(secret or '')} characters)")


async def _token(values: dict[str, Any]) -> Finding:
    return check_token(values["token"])


async def _database(values: dict[str, Any]) -> Finding:
    return describe_probe(await probe(values["database"]))


async def _shards(values: dict[str, Any]) -> Finding:
    return check_shards(values["shard_count"], values["shard_ids"])


async def _metrics(values: dict[str, Any]) -> Finding:
    return check_metrics_port(values["metrics_port"])


async def _activity(values: dict[str, Any]) -> Finding:
    return check_activity(values["activity_port"], values["activity_host"],
                          values["client_secret"])


#: The settings checked beyond reading them, each by the variable its problems name.
CHECKS = (("DISCORD_TOKEN", _token), ("DATABASE_URL", _database), ("SHARD_COUNT", _shards),
          ("METRICS_PORT", _metrics), ("ACTIVITY_PORT", _activity))


async def findings(values: dict[str, Any], problems: dict[str, ConfigError]) -> list[Finding]:
    """Every line: a setting that can't be read says why, the others are checked."""
    lines = [Finding(False, str(problems[variable])) if variable in problems
             else await check(values) for variable, check in CHECKS]
    checked = {variable for variable, _ in CHECKS}
    rest = [Finding(False, str(error)) for variable, error in problems.items()
            if variable not in checked]
    lines.extend(rest or [Finding(True, "LOG_LEVEL, IDLE_TIMEOUT_HOURS, MEMORY_BUDGET_MB and "
                                        "DEV_GUILD_ID are fine")])
    return lines


def main(out: TextIO = sys.stdout) -> int:
    """Print every finding; 0 when all are fine, 2 otherwise."""
    values, problems = read_env()
    found = asyncio.run(findings(values, problems))
    for finding in found:
        print(finding, file=out)
    return 0 if all(f.ok for f in found) else 2
