"""Settings from the environment (and a ``.env`` file), read once at start-up."""

from __future__ import annotations

import os
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

    def __repr__(self) -> str:  # never show the token, even in a traceback or a log line
        return (
            f"Settings(token=<hidden>, database={describe_database(self.database)!r}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level!r}, "
            f"idle_timeout={self.idle_timeout}, memory_budget={self.memory_budget}, "
            f"shard_count={self.shard_count}, shard_ids={self.shard_ids}, "
            f"metrics_port={self.metrics_port})"
        )

    __str__ = __repr__

    @classmethod
    def from_env(cls, env_file: str | os.PathLike | None = ".env") -> Settings:
        if env_file is not None:
            load_dotenv(env_file, override=False)
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example) or the "
                "environment. No token? `mastermind play` works offline."
            )
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), got {guild!r}")
        hours = os.environ.get("IDLE_TIMEOUT_HOURS", "").strip() or str(DEFAULT_IDLE_HOURS)
        try:
            idle = float(hours) * 3600
        except ValueError:
            raise ConfigError(f"IDLE_TIMEOUT_HOURS must be a number, got {hours!r}") from None
        if idle <= 0:
            raise ConfigError("IDLE_TIMEOUT_HOURS must be more than 0")
        level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}")
        memory = os.environ.get("MEMORY_BUDGET_MB", "").strip() or str(DEFAULT_MEMORY_MB)
        if not memory.isdigit() or int(memory) < MIN_MEMORY_MB:
            raise ConfigError(
                f"MEMORY_BUDGET_MB must be a whole number of MiB, at least {MIN_MEMORY_MB}, "
                f"got {memory!r}")
        return cls(
            token=token,
            database=_database(os.environ.get("DATABASE_URL", ""),
                               os.environ.get("DATABASE_PATH", "")),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            idle_timeout=idle,
            memory_budget=int(memory) * 2**20,
            **_shards(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", "")),
            metrics_port=_metrics_port(os.environ.get("METRICS_PORT", "")),
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
