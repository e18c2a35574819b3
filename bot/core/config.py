"""Settings from the environment (and a ``.env`` file), read once at start-up."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dotenv import load_dotenv

DEFAULT_DATABASE = "mastermind.sqlite3"
DEFAULT_IDLE_HOURS = 24.0
#: The solver's memory: the engine (the tables it keeps and each move's temporaries) and
#: the challenges' solver sessions, half each. The process stays within it plus 128 MiB
#: (bench/memory_bench.py), whatever sizes are played.
DEFAULT_MEMORY_MB = 256
MIN_MEMORY_MB = 64
#: The metrics endpoint listens on loopback only (a scraper on the same machine).
METRICS_HOST = "127.0.0.1"
DEFAULT_ACTIVITY_HOST = "127.0.0.1"
#: Discord's largest shard count for ordinary bots (the gateway refuses more than it needs).
MAX_SHARDS = 4096


class ConfigError(Exception):
    """A setting is missing or malformed; the message says what to do."""


@dataclass(frozen=True)
class Settings:
    token: str
    #: A SQLite file path (or ``sqlite:///path``), or a ``postgresql://`` URL.
    database: str
    dev_guild_id: int | None
    log_level: str
    idle_timeout: float  # seconds
    memory_budget: int = DEFAULT_MEMORY_MB * 2**20  # bytes
    #: Shards in all (None: one connection, as many shards as Discord recommends) and the
    #: ones this process runs (None: all of them).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: Local port of the Prometheus metrics endpoint (None: off).
    metrics_port: int | None = None
    #: The Activity's web server (None: off), the address it listens on, and the OAuth2
    #: client secret its token exchange needs (never logged, never in a repr).
    activity_port: int | None = None
    activity_host: str = DEFAULT_ACTIVITY_HOST
    client_secret: str | None = None

    def __repr__(self) -> str:  # never show the token, even in a traceback or a log line
        return (
            f"Settings(token=<hidden>, database={describe_database(self.database)!r}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level!r}, "
            f"idle_timeout={self.idle_timeout}, memory_budget={self.memory_budget}, "
            f"shard_count={self.shard_count}, shard_ids={self.shard_ids}, "
            f"metrics_port={self.metrics_port}, activity_port={self.activity_port}, "
            f"activity_host={self.activity_host!r}, client_secret="
            f"{'<hidden>' if self.client_secret else None})"
        )

    __str__ = __repr__

    @classmethod
    def from_env(cls, env_file: str | os.PathLike | None = ".env") -> Settings:
        """The settings, or the first problem (``--check`` lists them all: :func:`read_env`)."""
        values, problems = read_env(env_file)
        if problems:
            raise next(iter(problems.values()))
        return cls(**values)


Env = Mapping[str, str]


def read_env(env_file: str | os.PathLike | None = ".env"
             ) -> tuple[dict[str, Any], dict[str, ConfigError]]:
    """Every setting from the environment (and ``env_file``, which never overrides it): the
    fields read, and the problem of each setting that can't be read, by its variable."""
    if env_file is not None:
        load_dotenv(env_file, override=False)
    values: dict[str, Any] = {}
    problems: dict[str, ConfigError] = {}
    for variable, reader in _READERS:
        try:
            values.update(reader(os.environ))
        except ConfigError as exc:
            problems[variable] = exc
    return values, problems


def _token(env: Env) -> dict[str, Any]:
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example) or the "
            "environment. No token? `mastermind play` works offline."
        )
    return {"token": token}


def _dev_guild(env: Env) -> dict[str, Any]:
    guild = env.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), got {guild!r}")
    return {"dev_guild_id": int(guild) if guild else None}


def _idle(env: Env) -> dict[str, Any]:
    hours = env.get("IDLE_TIMEOUT_HOURS", "").strip() or str(DEFAULT_IDLE_HOURS)
    try:
        idle = float(hours) * 3600
    except ValueError:
        raise ConfigError(f"IDLE_TIMEOUT_HOURS must be a number, got {hours!r}") from None
    if idle <= 0:
        raise ConfigError("IDLE_TIMEOUT_HOURS must be more than 0")
    return {"idle_timeout": idle}


def _log_level(env: Env) -> dict[str, Any]:
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}")
    return {"log_level": level}


def _memory(env: Env) -> dict[str, Any]:
    memory = env.get("MEMORY_BUDGET_MB", "").strip() or str(DEFAULT_MEMORY_MB)
    if not memory.isdigit() or int(memory) < MIN_MEMORY_MB:
        raise ConfigError(
            f"MEMORY_BUDGET_MB must be a whole number of MiB, at least {MIN_MEMORY_MB}, "
            f"got {memory!r}")
    return {"memory_budget": int(memory) * 2**20}


def _database_env(env: Env) -> dict[str, Any]:
    return {"database": _database(env.get("DATABASE_URL", ""), env.get("DATABASE_PATH", ""))}


def _shards_env(env: Env) -> dict[str, Any]:
    return _shards(env.get("SHARD_COUNT", ""), env.get("SHARD_IDS", ""))


def _metrics_env(env: Env) -> dict[str, Any]:
    return {"metrics_port": _metrics_port(env.get("METRICS_PORT", ""))}


def _activity_env(env: Env) -> dict[str, Any]:
    return _activity(env.get("ACTIVITY_PORT", ""), env.get("ACTIVITY_HOST", ""),
                     env.get("DISCORD_CLIENT_SECRET", ""))


#: Each setting's variable (as ``--check`` names it) and its reader, in the order checked.
_READERS: tuple[tuple[str, Callable[[Env], dict[str, Any]]], ...] = (
    ("DISCORD_TOKEN", _token), ("DEV_GUILD_ID", _dev_guild), ("IDLE_TIMEOUT_HOURS", _idle),
    ("LOG_LEVEL", _log_level), ("MEMORY_BUDGET_MB", _memory), ("DATABASE_URL", _database_env),
    ("SHARD_COUNT", _shards_env), ("METRICS_PORT", _metrics_env),
    ("ACTIVITY_PORT", _activity_env),
)


def _database(url: str, path: str) -> str:
    """``DATABASE_URL`` (``sqlite:///file``, ``postgresql://...``) or, as before,
    ``DATABASE_PATH`` (a file); the default is ``mastermind.sqlite3`` here."""
    url, path = url.strip(), path.strip()
    if url and path:
        raise ConfigError("DATABASE_URL and DATABASE_PATH are both set: keep one (DATABASE_URL "
                          "takes a file as sqlite:///path)")
    if not url:
        return path or DEFAULT_DATABASE
    if url.startswith(("postgresql://", "postgres://", "sqlite:///")) or "://" not in url:
        return url
    raise ConfigError(f"DATABASE_URL must be sqlite:///path/to/file or postgresql://user:"
                      f"password@host/database, got {describe_database(url)!r}")


def _shards(count_text: str, ids_text: str) -> dict[str, Any]:
    """``SHARD_COUNT`` (shards in all) and ``SHARD_IDS`` (this process's: ``0,1`` or ``0-3``)."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all)")
        return {"shard_count": None, "shard_ids": None}
    if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARDS:
        raise ConfigError(f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, "
                          f"got {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return {"shard_count": count, "shard_ids": None}
    ids = _shard_ids(ids_text)
    if ids is None or any(i >= count for i in ids):
        raise ConfigError(f"SHARD_IDS must list shard numbers from 0 to {count - 1} (like "
                          f"0,1 or 0-3), got {ids_text!r}")
    return {"shard_count": count, "shard_ids": ids}


def _shard_ids(text: str) -> tuple[int, ...] | None:
    """``0,1`` / ``2-3`` / ``0, 4-5`` -> sorted unique ids, or None if malformed."""
    ids: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            return None
        ids.update(range(int(low), int(high if dash else low) + 1))
    return tuple(sorted(ids)) or None


def _metrics_port(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConfigError(f"METRICS_PORT must be a port number (1-65535), or empty for no "
                          f"metrics, got {text!r}")
    return int(text)


def _activity(port_text: str, host: str, secret: str) -> dict[str, Any]:
    """``ACTIVITY_PORT`` (empty: no Activity), ``ACTIVITY_HOST`` and the client secret the
    Activity's sign-in needs (``DISCORD_CLIENT_SECRET``)."""
    port_text, host, secret = port_text.strip(), host.strip(), secret.strip()
    if not port_text:
        return {"activity_port": None, "activity_host": host or DEFAULT_ACTIVITY_HOST,
                "client_secret": secret or None}
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(f"ACTIVITY_PORT must be a port number (1-65535), or empty for no "
                          f"Activity, got {port_text!r}")
    if not secret:
        raise ConfigError("ACTIVITY_PORT is set but DISCORD_CLIENT_SECRET is not: the Activity "
                          "signs players in with it (Developer Portal -> OAuth2 -> Client "
                          "Secret), or leave ACTIVITY_PORT empty for no Activity")
    return {"activity_port": int(port_text), "activity_host": host or DEFAULT_ACTIVITY_HOST,
            "client_secret": secret}


def describe_database(target: str | os.PathLike) -> str:
    """How a log line names a database: a file path as it is, a URL with its password
    masked (``postgresql://bot:***@db/mastermind``)."""
    text = str(target)
    scheme, sep, rest = text.partition("://")
    if not sep:
        return text
    credentials, at, host = rest.rpartition("@")
    user, colon, _password = credentials.partition(":")
    if not at or not colon:
        return text
    return f"{scheme}://{user}:***@{host}"
