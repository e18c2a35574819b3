"""Starting the bot: its settings and its database are checked before discord.py and the
rest of the bot are imported (a second of CPU), so a configuration the bot can't run with is
said, in one line with its exit code, within a fraction of a second."""

from __future__ import annotations

import asyncio
import sys

from .core.config import ConfigError, Settings


def start() -> int:
    """Check the settings in the environment and the database they name, then serve; the
    exit code."""
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        return fail(str(exc), 2)
    from .store import DatabaseUnusable  # the store and the engine: once the settings are
    from .store.probe import check_usable  # usable (a missing token is said at once)
    try:
        asyncio.run(check_usable(settings.database))  # before logging in: said as such
    except DatabaseUnusable as exc:
        return fail(f"{exc}. Nothing was changed.", 2)
    except KeyboardInterrupt:
        return 0
    from .serve import serve  # discord.py and the whole bot: only once both are usable
    return serve(settings)


def fail(message: str, code: int) -> int:
    print(f"mastermind-bot: {message}", file=sys.stderr)
    return code
