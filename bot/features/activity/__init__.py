"""Mastermind as a Discord Activity: the board in a web view inside Discord, live for
everyone in the instance (issue 33; the HTTP contract: docs/activity.md). The board's button
that opens it is there when the application has Activities on; the web server runs when
``ACTIVITY_PORT`` is set."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import ActivityCog
    from .parts import build_server

    server = build_server(bot) if bot.activity_port is not None else None
    await bot.add_cog(ActivityCog(bot, launchable=bot.application_flags.embedded,
                                  server=server, host=bot.activity_host,
                                  port=bot.activity_port or 0))
