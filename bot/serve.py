"""Running the bot until SIGINT or SIGTERM, and the one line (and exit code) that says why it
stopped when an operator must act. Imported only to serve, once :mod:`bot.start` found the
settings and the database usable: ``--check``, ``copy-db`` and a configuration the bot can't
run with start without discord.py, aiohttp or the engine (a second of CPU less each)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import aiohttp
import discord

from .app import MastermindBot
from .core.config import Settings
from .metrics_endpoint import MetricsPortUnusable
from .start import fail
from .store import DatabaseUnusable, MigrationError
from .ui.command_sync import CommandSyncRefused
from .ui.redaction import redact_logs

log = logging.getLogger("bot")

REJECTED_TOKEN = (
    "Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer Portal (Bot -> Reset "
    "Token) into .env. No token? `mastermind play` works offline."
)
#: Gateway close codes that no retry can fix: the operator must change something.
FATAL_CLOSES = {
    4004: REJECTED_TOKEN,
    4010: "Discord refused the shard settings (invalid shard): check SHARD_COUNT and SHARD_IDS.",
    4011: "Discord requires more shards for this many servers: raise SHARD_COUNT, or leave it "
          "empty to use as many as Discord recommends.",
    4012: "Discord refused the gateway version: update discord.py.",
    4013: "Discord refused the requested intents (invalid intents).",
    4014: "Discord refused a privileged intent: enable it in the Developer Portal or drop it.",
}


async def run(bot: MastermindBot, token: str) -> None:
    """Start the bot; on SIGINT/SIGTERM let running interactions finish, then close."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(token))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            stopper.cancel()
            runner.result()  # re-raise a login failure
            return
        log.info("shutting down")
        await bot.shutdown()
        await asyncio.gather(runner, return_exceptions=True)


def serve(settings: Settings) -> int:
    """Run the bot with these settings; the exit code."""
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    redact_logs(settings.token)
    bot = MastermindBot.from_settings(settings)
    try:
        asyncio.run(run(bot, settings.token))
    except KeyboardInterrupt:
        pass
    except Exception as exc:
        stopped = why_stopped(exc)
        if stopped is None:  # a bug: its traceback is the report
            raise
        return fail(*stopped)
    return 0


def why_stopped(error: Exception) -> tuple[str, int] | None:
    """The one line and exit code for what stopped the bot, or None for a bug."""
    if isinstance(error, discord.LoginFailure):
        return REJECTED_TOKEN, 2
    if isinstance(error, discord.PrivilegedIntentsRequired):  # discord.py's close 4014
        return f"{FATAL_CLOSES[4014]} (gateway closed with 4014)", 2
    if isinstance(error, discord.ConnectionClosed):
        if error.code in FATAL_CLOSES:
            return f"{FATAL_CLOSES[error.code]} (gateway closed with {error.code})", 2
        return f"Discord closed the connection ({error.code}): try again in a moment.", 1
    if isinstance(error, DatabaseUnusable):
        return f"{error}. Nothing was changed.", 2
    if isinstance(error, MigrationError):
        return f"{error}. It was rolled back; the migrations before it stay applied.", 2
    if isinstance(error, MetricsPortUnusable):
        return str(error), 2
    if isinstance(error, CommandSyncRefused | discord.HTTPException):
        return discord_said(error)
    if isinstance(error, aiohttp.ClientError | OSError | discord.GatewayNotFound):
        return (f"could not reach Discord ({type(error).__name__}): check the network "
                f"connection and try again.", 1)
    return None


def discord_said(error: CommandSyncRefused | discord.HTTPException) -> tuple[str, int]:
    """Discord answered, so it was reached: its code and message say what went wrong; a
    refusal needs the operator (exit 2), a server error only time (exit 1)."""
    if isinstance(error, CommandSyncRefused):
        return str(error), 2
    if isinstance(error, discord.DiscordServerError):
        return (f"Discord had a problem (HTTP {error.status}, code {error.code}): try again "
                f"in a moment.", 1)
    text = " ".join(str(error.text).split()) or "no message"
    return (f"Discord refused a request at start-up (HTTP {error.status}, code {error.code}: "
            f"{text}).", 2)
