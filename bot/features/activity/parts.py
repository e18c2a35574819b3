"""The Activity's parts, built from the bot: the feature's service (``bot.services.activity``,
built in ``bot/wiring.py``), Discord's answers about users and instances, the live hub, the
client's files."""

from __future__ import annotations

from typing import TYPE_CHECKING

import aiohttp

from . import assets
from .auth import DiscordAuth
from .live import LiveHub
from .server import ActivityServer

if TYPE_CHECKING:
    from ...app import MastermindBot


def build_server(bot: MastermindBot) -> ActivityServer:
    games = bot.services.activity
    application_id = bot.application_id
    assert application_id is not None and bot.http.token is not None
    assert bot.client_secret is not None, "ACTIVITY_PORT needs DISCORD_CLIENT_SECRET"
    auth = DiscordAuth(aiohttp.ClientSession(), application_id=application_id,
                       client_secret=bot.client_secret, bot_token=bot.http.token)
    return ActivityServer(games=games, auth=auth, hub=LiveHub(games, str(bot.database)),
                          assets=assets.load(application_id), closing=lambda: bot.closing)
