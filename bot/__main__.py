"""``python -m bot`` / ``mastermind-bot``: run the Discord bot until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

import aiohttp
import discord

from .app import MastermindBot
from .core.config import ConfigError, Settings

log = logging.getLogger("bot")

REJECTED_TOKEN = (
    "Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer Portal (Bot -> Reset "
    "Token) into .env. No token? `mastermind play` works offline."
)


async def run(bot: MastermindBot, token: str) -> None:
    """Start the bot and stop it cleanly on SIGINT/SIGTERM (closing the database)."""
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
        await bot.close()
        await asyncio.gather(runner, return_exceptions=True)


def main() -> int:
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"mastermind-bot: {exc}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    bot = MastermindBot.from_settings(settings)
    try:
        asyncio.run(run(bot, settings.token))
    except discord.LoginFailure:
        print(f"mastermind-bot: {REJECTED_TOKEN}", file=sys.stderr)
        return 2
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound, discord.HTTPException) as exc:
        print(f"mastermind-bot: could not reach Discord ({type(exc).__name__}): check the "
              f"network connection and try again.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
