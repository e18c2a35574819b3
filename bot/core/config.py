"""Settings from the environment (and a ``.env`` file), read once at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_DATABASE = "mastermind.sqlite3"
DEFAULT_IDLE_HOURS = 24.0
#: Memory for the solver's caches together: the code spaces and tables the engine keeps,
#: and the challenges' solver sessions (half each). Games of any size stay within it.
DEFAULT_MEMORY_MB = 512
MIN_MEMORY_MB = 64


class ConfigError(Exception):
    """A setting is missing or malformed; the message says what to do."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    idle_timeout: float  # seconds
    memory_budget: int = DEFAULT_MEMORY_MB * 2**20  # bytes

    def __repr__(self) -> str:  # never show the token, even in a traceback or a log line
        return (
            f"Settings(token=<hidden>, database_path={str(self.database_path)!r}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level!r}, "
            f"idle_timeout={self.idle_timeout}, memory_budget={self.memory_budget})"
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
            database_path=Path(os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            idle_timeout=idle,
            memory_budget=int(memory) * 2**20,
        )
