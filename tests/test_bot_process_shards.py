"""Shards and several processes: ``python -m bot`` twice against the loopback fake Discord,
``SHARD_COUNT=4`` with shards 0,1 in one process and 2,3 in the other, on one database: a
SQLite file (WAL lets processes on one machine share it) or PostgreSQL (reached as a role
with a password), each test on both.

What must hold across processes lives in the database: games in guilds of different shards
are played at once, the games running are counted in the database (every process's metrics
page says the same), a process killed mid-game is restarted and its games go on, and one
interaction delivered to both processes is stored once: one test, whose two processes
check each of these in turn, on each backend. Also: the start-up line names the shards and
the database (never its password), and ``METRICS_PORT`` serves the Prometheus text format
on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import re
import signal
import socket
from collections.abc import Iterable
from pathlib import Path

import aiohttp
import pytest
from conftest import discord_server
from dbtools import is_postgres
from fake_discord.models import FakeGuild, FakeUser
from fake_discord.server import FakeDiscordServer, GatewaySession, shard_of
from i18n_commands import synced_commands
from prometheus_client.parser import text_string_to_metric_families
from test_bot_process import (
    PASSWORD,
    STEP,
    BotProcess,
    board_rows,
    bot_database,
    bot_process,
    clean_environ,
    connections_left,
    database_env,
    query,
    score,
)

from bot.core.config import describe_database
from bot.features.daily.service import secret_for
from engine import format_code

#: Two processes, each waiting 5 s between its two shards' IDENTIFYs (Discord's rule, kept
#: by discord.py), one of them started twice.
BUDGET = 90.0
SHARDS = 4
#: A guess that is never the secret (the secrets are drawn from 1-6).
CANDIDATES = ("1111", "2222", "3333", "4444", "5555", "6666", "1234")

# The database is the point of every test here, from its very first migration.
pytestmark = [pytest.mark.both_databases, pytest.mark.new_database]


def misses(*secrets: str) -> tuple[str, ...]:
    """Codes that break none of these secrets (the bot draws them at random)."""
    return tuple(c for c in CANDIDATES if c not in secrets)


def shard_env(server: FakeDiscordServer, db: Path | str, shard_ids: str, **extra: str
              ) -> dict[str, str]:
    env = server.env(clean_environ())
    env.update(DISCORD_TOKEN=server.state.token, LOG_LEVEL="INFO", SHARD_COUNT=str(SHARDS),
               SHARD_IDS=shard_ids, **database_env(db))
    env.update(extra)
    return env


def shared_db(tmp_path: Path, db_path: Path | str, name: str) -> Path | str:
    """The test's PostgreSQL database (as a role with a password), or a SQLite file ``name``."""
    return bot_database(db_path) if is_postgres(db_path) else tmp_path / name


def sessions_of(server: FakeDiscordServer, shard_ids: Iterable[int]) -> list[GatewaySession]:
    return [s for s in server.sessions
            if s.identified.is_set() and s.shard[0] in shard_ids and s.shard[1] == SHARDS]


async def wait_shards(server: FakeDiscordServer, bot: BotProcess, shard_ids: tuple[int, ...]
                      ) -> None:
    """The process identified on each of its shards and handled their READY."""
    await server.wait_until(
        lambda: bot.returncode is not None or len(sessions_of(server, shard_ids)) == len(
            shard_ids), timeout=3 * STEP, what=f"shards {shard_ids} to IDENTIFY")
    for shard in shard_ids:
        await bot.wait_for_log(f"Shard ID {shard} has connected to Gateway", timeout=STEP)
    await server.wait_until(
        lambda: {"mastermind", "guess"} <= {c["name"] for c in server.state.global_commands},
        timeout=STEP, what="the global commands")


def secret(db: Path | str, guild: FakeGuild) -> str:
    channel = next(iter(guild.channels.values()))
    ((code,),) = query(db, "SELECT secret FROM games WHERE channel_id = ? AND status = 'active'",
                       channel.id)
    return code


async def guess(server: FakeDiscordServer, guild: FakeGuild, user: FakeUser, code: str
                ) -> dict:
    res = await server.slash("guess", user=user, guild=guild, code=code)
    assert res.response is not None and not res.response.ephemeral, res.embeds
    return res.embeds[0]


def routed(server: FakeDiscordServer, guild: FakeGuild) -> set[tuple[int, int]]:
    """The shards that got an interaction from ``guild``."""
    return {s.shard for s in server.sessions for m in s.sent
            if m["t"] == "INTERACTION_CREATE" and m["d"].get("guild_id") == str(guild.id)}


async def test_two_processes_four_shards_games_running_kill_restart_and_one_interaction_twice(
        tmp_path: Path, db_path: Path | str) -> None:
    db = shared_db(tmp_path, db_path, "shared.sqlite3")
    ports = free_port(), free_port()
    async with asyncio.timeout(BUDGET), discord_server() as server:
        state = server.state
        # an app whose every shard is a bucket of its own: a process's second shard identifies
        # at once instead of 5 s after its first (bot/identify_pacing.py)
        state.max_concurrency = SHARDS
        guilds = [state.create_guild(f"Shard {k}", shard=(k, SHARDS)) for k in range(SHARDS)]
        assert [shard_of(g.id, SHARDS) for g in guilds] == [0, 1, 2, 3]
        arena = state.create_channel(guilds[0], "arena")  # A's, for a match
        side = state.create_channel(guilds[2], "side")  # B's, for a challenge
        alice, bob = state.create_user("alice"), state.create_user("bob")
        players = {"alice": alice.id, "bob": bob.id}
        env_a = shard_env(server, db, "0,1", METRICS_PORT=str(ports[0]))
        env_b = shard_env(server, db, "2-3", METRICS_PORT=str(ports[1]))

        async with contextlib.AsyncExitStack() as stack:
            http = await stack.enter_async_context(aiohttp.ClientSession())
            # ---- A and B each identify on their two shards and say what they serve. B starts
            # once A has migrated the new file (two first starts at once race to migrate it).
            bot_a = await stack.enter_async_context(bot_process(env_a, tmp_path))
            await bot_a.wait_for_log("serving shards")
            bot_b = await stack.enter_async_context(bot_process(env_b, tmp_path))
            await wait_shards(server, bot_a, (0, 1))
            await wait_shards(server, bot_b, (2, 3))
            named = describe_database(db)  # the path, or the URL with its password masked
            assert (":***@" in named) == is_postgres(db)
            assert f"serving shards 0, 1 of 4 from database {named} at" in bot_a.output
            assert f"serving shards 2, 3 of 4 from database {named} at" in bot_b.output
            # one process syncs the commands: the one that runs shard 0
            assert "commands: not synced here" in bot_b.output
            assert re.search(r"commands: \d+ synced \(global;", bot_a.output)

            # ---- a game in each guild, all started and played at once
            starts = await asyncio.gather(*(
                server.slash("mastermind new", user=alice, guild=g) for g in guilds))
            assert all(r.embeds[0]["title"] == "Mastermind: break the code!" for r in starts)
            for k, g in enumerate(guilds):
                assert routed(server, g) == {(k, SHARDS)}, "only the guild's shard gets it"
            secrets = {g.id: secret(db, g) for g in guilds}
            wrong = misses(*secrets.values())
            expected: dict[int, list[tuple[int, str, int, int, int]]] = {g.id: [] for g in guilds}
            for turn, (code, player) in enumerate(zip(wrong[:2], (alice, bob), strict=True), 1):
                boards = await asyncio.gather(*(
                    guess(server, g, player, code) for g in guilds))
                for g, board in zip(guilds, boards, strict=True):
                    expected[g.id].append((turn, code, *score(secrets[g.id], code), player.id))
                    assert board_rows(board, players) == expected[g.id]

            # ---- the games running, counted in the database: each page counts the games of
            # both processes, by kind, and a game ended in one is gone from the other's next
            # scrape. A serves a match (its first half is a game), B a challenge and a daily
            # play started from its guild.
            breakers = {**NOTHING_RUNNING, "breaker": SHARDS}
            for port in ports:
                assert running(await scrape(http, port)) == breakers, port
            opened = [
                await server.slash("match", user=bob, guild=guilds[0], channel=arena),
                await server.slash("challenge", user=alice, guild=guilds[2], channel=side),
                await server.slash("daily play", user=bob, guild=guilds[3],
                                   guess=daily_miss(db)),
            ]
            assert all(r.response is not None for r in opened)
            assert routed(server, guilds[0]) == {(0, SHARDS)}, "the match: A's shard 0"
            everything = {"breaker": SHARDS, "challenge": 1, "match": 1, "daily": 1}
            for port in ports:
                assert running(await scrape(http, port)) == everything, port
            assert query(db, "SELECT COUNT(*) FROM games WHERE status = 'active'") == [
                (SHARDS + 2,)]
            quit_ = await server.slash("mastermind quit", user=alice, guild=guilds[2],
                                       channel=side)
            assert quit_.response is not None and not quit_.response.ephemeral, quit_.embeds
            assert running(await scrape(http, ports[0])) == {**everything, "challenge": 0}, (
                "B's challenge ended: A's very next scrape says so")

            # ---- kill A mid-game: B's games go on meanwhile
            bot_a.proc.kill()
            assert await bot_a.finish() == -signal.SIGKILL
            await server.wait_until(lambda: not sessions_of(server, (0, 1)), timeout=STEP,
                                    what="A's shards to disconnect")
            board = await guess(server, guilds[2], alice, wrong[2])
            expected[guilds[2].id].append((3, wrong[2], *score(secrets[guilds[2].id],
                                                               wrong[2]), alice.id))
            assert board_rows(board, players) == expected[guilds[2].id]

            # ---- A again on the same file: its games are where they were
            async with bot_process(shard_env(server, db, "0,1"), tmp_path) as bot_a2:
                await wait_shards(server, bot_a2, (0, 1))
                await bot_a2.wait_for_log("commands: ")
                assert state.command_syncs == 1, "a restart finds them as they are"
                for g in guilds[:2]:
                    res = await server.slash("mastermind board", user=bob, guild=g)
                    assert board_rows(res.embeds[0], players) == expected[g.id]

                # ---- one interaction delivered to both processes is stored once
                target = guilds[3]
                rec = state.new_command_interaction(
                    "guess", user=bob, channel=next(iter(target.channels.values())),
                    guild=target, options={"code": wrong[2]},
                    context_keywords=["user", "channel", "guild"])
                to_b = sessions_of(server, (3,))[0]
                to_a = sessions_of(server, (0,))[0]
                await asyncio.gather(server.send_interaction(rec, session=to_b),
                                     server.send_interaction(rec, session=to_a))
                await server.wait_until(lambda: rec.callback_attempts >= 2, timeout=STEP,
                                        what="both processes to answer")
                assert query(db, "SELECT COUNT(*) FROM guesses WHERE interaction_id = ?",
                             rec.id) == [(1,)]
                # Two processes starting at once may both upload a missing peg: Discord refuses
                # the second by its name, and that process reads the app's emoji again.
                raced = [v for v in state.violations if v.path.endswith("/emojis")]
                assert all(v.code == 50035 and v.method == "POST" for v in raced), raced
                assert {v.code for v in state.violations if v not in raced} == {40060}, (
                    state.violations)
                assert len(state.violations) - len(raced) == 1, (
                    "Discord took one answer, refused the other")
                expected[target.id].append((3, wrong[2], *score(secrets[target.id], wrong[2]),
                                            bob.id))
                res = await server.slash("mastermind board", user=alice, guild=target)
                assert board_rows(res.embeds[0], players) == expected[target.id]

                # ---- every game won, in whichever process serves its guild
                boards = await asyncio.gather(*(
                    guess(server, g, alice, secrets[g.id]) for g in guilds))
                assert all(b["title"].startswith("Code broken in") for b in boards), boards
                firsts = [next(iter(g.channels.values())).id for g in guilds]
                assert query(db, "SELECT status, COUNT(*) FROM games WHERE channel_id IN"
                                 " (?, ?, ?, ?) GROUP BY 1", *firsts) == [("won", SHARDS)]
                assert await bot_a2.stop(signal.SIGTERM) == 0
            assert await bot_b.stop(signal.SIGTERM) == 0
        outputs = (bot_a.output, bot_a2.output, bot_b.output)
    for output in outputs:
        assert "Traceback" not in output, output
        assert state.token not in output and PASSWORD not in output
        assert "games running not read" not in output
    assert "database closed" in bot_a2.output and "database closed" in bot_b.output
    if is_postgres(db):
        assert connections_left(db) == 0, "both processes closed their pools"
    else:
        assert not Path(f"{db}-wal").exists(), "the last process to close removes the WAL"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def samples(page: str) -> dict[str, float]:
    """``name{label="value",...}`` (labels sorted by name) -> value for each sample of a
    Prometheus text page, read by prometheus_client's own parser (it refuses a malformed
    page)."""
    out = {}
    for family in text_string_to_metric_families(page):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            out[sample.name + (f"{{{labels}}}" if labels else "")] = sample.value
    return out


def total(values: dict[str, float], metric: str, **labels: str) -> float:
    """The sum of ``metric``'s samples that carry ``labels`` (whatever their other ones)."""
    wanted = [f'{k}="{v}"' for k, v in labels.items()]
    return sum(value for key, value in values.items()
               if key.split("{")[0] == metric and all(w in key for w in wanted))


async def test_metrics_endpoint_on_loopback(tmp_path: Path) -> None:
    db = tmp_path / "metrics.sqlite3"
    port = free_port()
    async with asyncio.timeout(BUDGET), FakeDiscordServer(heartbeat_interval_ms=200) as server:
        state = server.state
        guild = state.create_guild("Metrics", shard=(1, SHARDS))
        alice = state.create_user("alice")
        # Shard 0's process syncs the commands (not started here): Discord holds them.
        state.global_commands = await synced_commands(tmp_path / "synced.sqlite3")
        env = shard_env(server, db, "1", METRICS_PORT=str(port))
        async with bot_process(env, tmp_path) as bot, aiohttp.ClientSession() as http:
            await wait_shards(server, bot, (1,))
            assert f"metrics at http://127.0.0.1:{port}/metrics" in bot.output
            await server.slash("mastermind new", user=alice, guild=guild)
            await server.slash("guess", user=alice, guild=guild, code="9999")  # refused: 1-6
            await guess(server, guild, alice, misses(secret(db, guild))[0])
            await server.wait_until(lambda: server.sessions[0].heartbeats > 0, timeout=STEP,
                                    what="a heartbeat")
            async with http.get(f"http://127.0.0.1:{port}/metrics") as resp:
                assert resp.status == 200
                assert resp.headers["Content-Type"].startswith("text/plain; version=0.0.4")
                page = await resp.text()
            values = samples(page)
            assert "# TYPE mastermind_reply_seconds histogram" in page
            new, guessed = {"kind": "command", "name": "mastermind new"}, {
                "kind": "command", "name": "guess"}
            assert total(values, "mastermind_interactions_total", **new) == 1
            assert total(values, "mastermind_interactions_total", **guessed) == 2
            assert total(values, "mastermind_reply_seconds_count", **guessed) == 2
            assert values['mastermind_reply_seconds_bucket{kind="command",le="+Inf",'
                          'name="guess"}'] == 2
            assert 0 < total(values, "mastermind_reply_seconds_sum") < 3 * STEP
            assert values['mastermind_interaction_errors_total{kind="bug"}'] == 0
            assert values['mastermind_player_mistakes_total{error="BadCode"}'] == 1
            assert 0 <= values['mastermind_gateway_latency_seconds{shard="1"}'] < STEP
            assert values['mastermind_guilds{shard="1"}'] == 1
            assert values["process_resident_memory_bytes"] > 0
            assert total(values, "mastermind_rest_requests_total", kind="needed") >= 1
            assert total(values, "mastermind_db_lock_wait_seconds_count") >= 2
            assert running(values) == {**NOTHING_RUNNING, "breaker": 1}
            assert await bot.stop(signal.SIGTERM) == 0
    assert "Traceback" not in bot.output, bot.output


NOTHING_RUNNING = {"breaker": 0, "challenge": 0, "match": 0, "daily": 0}


def running(values: dict[str, float]) -> dict[str, float]:
    """``mastermind_games_running`` by kind."""
    return {key.split('"')[1]: value for key, value in values.items()
            if key.startswith("mastermind_games_running{")}


async def scrape(http: aiohttp.ClientSession, port: int) -> dict[str, float]:
    async with http.get(f"http://127.0.0.1:{port}/metrics") as resp:
        assert resp.status == 200
        return samples(await resp.text())


def daily_miss(db: Path | str) -> str:
    """A guess that is not today's daily code (worked out from the stored seed, as the bot
    does)."""
    ((seed,),) = query(db, "SELECT value FROM bot_settings WHERE name = 'daily_seed'")
    code = format_code(secret_for(seed, dt.datetime.now(dt.UTC).date().isoformat()))
    return misses(code)[0]


async def test_a_taken_metrics_port_exits_2_with_one_line(tmp_path: Path) -> None:
    async with asyncio.timeout(BUDGET), discord_server() as server:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            env = shard_env(server, tmp_path / "m.sqlite3", "", METRICS_PORT=str(port))
            async with bot_process(env, tmp_path) as bot:
                assert await bot.finish() == 2
    ours = [line for line in bot.stderr if line.startswith("mastermind-bot:")]
    assert len(ours) == 1, bot.output
    assert f"METRICS_PORT {port} can't be used on 127.0.0.1" in ours[0]
    assert "choose another port" in ours[0]
    assert "Traceback" not in bot.output, bot.output


async def test_too_few_shards_exits_2_saying_to_raise_shard_count(tmp_path: Path) -> None:
    async with asyncio.timeout(BUDGET), discord_server() as server:
        server.state.required_shards = 2
        env = shard_env(server, tmp_path / "s.sqlite3", "", SHARD_COUNT="1")
        async with bot_process(env, tmp_path) as bot:
            assert await bot.finish() == 2
    ours = [line for line in bot.stderr if line.startswith("mastermind-bot:")]
    assert len(ours) == 1, bot.output
    assert "raise SHARD_COUNT" in ours[0] and "(gateway closed with 4011)" in ours[0]
    assert "Traceback" not in bot.output, bot.output
