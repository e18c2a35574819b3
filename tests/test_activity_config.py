"""The Activity's settings: ``ACTIVITY_PORT`` off when unset, the client secret it needs,
what ``mastermind-bot --check`` says of them (the secret never shown), and that the sign-in
never logs the secret or a player's token."""

from __future__ import annotations

import logging
import socket

import aiohttp
import pytest
from activity_kit import Player, base_url, start_activity_bot
from test_bot_check import TOKEN, check, line_about

from bot.core.config import ConfigError, _activity

SECRET = "Sup3r-s3cret_client-secret-value"


def test_the_activity_is_off_unless_its_port_is_set():
    assert _activity("", "", "")["activity_port"] is None
    assert _activity("8080", "", SECRET) == {"activity_port": 8080, "activity_host": "127.0.0.1",
                                             "client_secret": SECRET}
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_SECRET is not"):
        _activity("8080", "", "")
    with pytest.raises(ConfigError, match="ACTIVITY_PORT must be a port number"):
        _activity("80a", "", SECRET)


@pytest.mark.sqlite_only
def test_check_says_whether_the_port_is_free_and_never_shows_the_secret(tmp_path):
    code, lines, output = check(tmp_path, DISCORD_TOKEN=TOKEN, ACTIVITY_PORT="0")
    assert code == 2 and "ACTIVITY_PORT must be a port number" in output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, lines, output = check(tmp_path, DISCORD_TOKEN=TOKEN, ACTIVITY_PORT=str(port),
                                    DISCORD_CLIENT_SECRET=SECRET)
    assert code == 2 and "can't be used" in line_about(lines, "ACTIVITY_PORT")
    code, lines, output = check(tmp_path, DISCORD_TOKEN=TOKEN, ACTIVITY_PORT=str(port),
                                DISCORD_CLIENT_SECRET=SECRET)
    assert code == 0, output
    assert "is free" in line_about(lines, "ACTIVITY_PORT") and SECRET not in output


async def test_the_sign_in_logs_neither_the_secret_nor_a_token(
        fake_discord, start_bot, world, caplog):
    caplog.set_level(logging.DEBUG)
    bot = await start_activity_bot(start_bot, fake_discord)
    instance = fake_discord.state.start_activity(world.general, world.alice.user)
    async with aiohttp.ClientSession() as http:
        alice = await Player.sign_in(http, bot, fake_discord, world.alice, instance.instance_id)
        assert (await alice.call("GET", "/api/state")).status == 200
        async with http.post(base_url(bot) + "/api/token", json={"code": "wrong"}) as refused:
            body = await refused.text()
    logged = "\n".join(r.getMessage() for r in caplog.records) + repr(bot.get_cog("activity")
                                                                        .server.auth)
    secret = fake_discord.state.client_secret
    assert secret not in logged and alice.token not in logged
    assert secret not in body
