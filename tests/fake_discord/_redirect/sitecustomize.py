"""Point discord.py at a fake Discord server when FAKE_DISCORD_API_BASE is set.

``FakeDiscordServer.env()`` puts this directory on PYTHONPATH, so Python imports this module at
start-up in the child process (``python -m bot``). Without the variables it does nothing.
"""

import os

_api = os.environ.get("FAKE_DISCORD_API_BASE")
_gateway = os.environ.get("FAKE_DISCORD_GATEWAY")
if _api and _gateway:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = _api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(_gateway)
