"""Start-up's command sync (bot/ui/command_sync.py) through the fake Discord: written only
when Discord holds something else, the Entry Point command of an app with Activities kept,
one process syncing (the one running shard 0), and a refusal reported with Discord's code
and message as exit 2. The same through a real process: tests/test_bot_process.py (a second
start writes nothing, DEV_GUILD_ID of a server without the app exits 2) and
tests/test_bot_process_shards.py (only shard 0's process writes)."""

from __future__ import annotations

import logging
import re

import discord
import pytest

from bot.serve import why_stopped
from bot.ui.command_sync import CommandSyncRefused

#: Each test starts as the app's very first run: Discord holds none of its commands.
pytestmark = pytest.mark.fresh_app

COMMANDS = r"^/applications/\d+/(guilds/\d+/)?commands$"


def writes(fake) -> list:
    return [r for r in fake.requests if r.method == "PUT" and re.match(COMMANDS, r.path)]


def reads(fake) -> list:
    return [r for r in fake.requests if r.method == "GET" and re.match(COMMANDS, r.path)]


def said(caplog, words: str) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name.startswith("bot") and words in r.getMessage()]


async def test_a_second_start_writes_nothing(fake_discord, start_bot, caplog) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    await start_bot()
    (first,) = writes(fake_discord)
    assert {"mastermind", "guess"} <= {c["name"] for c in first.json}
    assert reads(fake_discord)[0].query == {"with_localizations": "true"}
    synced = list(fake_discord.commands)
    await start_bot()
    assert len(writes(fake_discord)) == 1 and fake_discord.commands == synced
    assert said(caplog, "unchanged (global), not synced")


@pytest.mark.parametrize("change", ["a command dropped", "a description", "a translation",
                                    "an option", "where it is offered"])
async def test_a_changed_command_is_written_once(fake_discord, start_bot, change) -> None:
    await start_bot()
    older = fake_discord.state.global_commands  # as an older version left them
    guess = next(c for c in older if c["name"] == "guess")
    if change == "a command dropped":
        older.remove(guess)
    elif change == "a description":
        guess["description"] = "Guess the code"
    elif change == "a translation":
        guess["description_localizations"]["de"] = "Rate den Code"
    elif change == "an option":
        guess["options"][0]["max_length"] = 99
    else:
        guess["contexts"] = [0]
    await start_bot()
    (_, second) = writes(fake_discord)
    assert next(c for c in second.json if c["name"] == "guess") == next(
        c for c in writes(fake_discord)[0].json if c["name"] == "guess")
    await start_bot()
    assert len(writes(fake_discord)) == 2


async def test_the_entry_point_survives_a_sync(fake_discord, start_bot, caplog) -> None:
    """Issue 33: with Activities on, the bot's sync dropped Discord's Entry Point command and
    Discord refused it whole (50240); the bot then said it "could not reach Discord"."""
    caplog.set_level(logging.INFO, logger="bot")
    entry = fake_discord.enable_activities()
    await start_bot()
    (write,) = writes(fake_discord)
    (resent,) = [c for c in write.json if c["type"] == 4]
    assert resent == entry  # as Discord returned it: id, handler, contexts, integration types
    (held,) = [c for c in fake_discord.commands if c["type"] == 4]
    assert (held["id"], held["name"], held["handler"]) == (entry["id"], "Launch", 2)
    assert held["contexts"] == [0, 1, 2] and held["integration_types"] == [0, 1]
    assert said(caplog, "kept Discord's Launch")
    await start_bot()
    assert len(writes(fake_discord)) == 1, "the entry point is no difference"
    assert fake_discord.violations == []


async def test_a_refused_sync_is_discord_s_code_and_message_and_exit_2(
        fake_discord, start_bot) -> None:
    fake_discord.state.fail_next("PUT", r"/commands$", 400, 50035,
                                 "Invalid Form Body (In 0.name: Command name is invalid)")
    with pytest.raises(CommandSyncRefused) as refused:
        await start_bot()
    message, code = why_stopped(refused.value)
    assert code == 2
    assert message == ("Discord refused the command sync (global): HTTP 400 Bad Request, "
                       "code 50035: Invalid Form Body (In 0.name: Command name is invalid)")
    assert "could not reach" not in message


async def test_other_refusals_at_start_are_not_called_unreachable() -> None:
    class Response:
        status, reason = 403, "Forbidden"

    refused = discord.Forbidden(Response(), {"code": 50001, "message": "Missing Access"})
    assert why_stopped(refused) == (
        "Discord refused a request at start-up (HTTP 403, code 50001: Missing Access).", 2)
    Response.status, Response.reason = 503, "Service Unavailable"
    down = discord.DiscordServerError(Response(), {"code": 0, "message": "upstream"})
    assert why_stopped(down) == (
        "Discord had a problem (HTTP 503, code 0): try again in a moment.", 1)


async def test_only_the_process_running_shard_0_syncs(fake_discord, start_bot, caplog) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    await start_bot(shard_count=4, shard_ids=(2, 3))
    assert reads(fake_discord) == [] and writes(fake_discord) == []
    assert said(caplog, "not synced here; the process that runs shard 0 syncs them")
    await start_bot(shard_count=4, shard_ids=(0, 1))
    assert len(writes(fake_discord)) == 1
