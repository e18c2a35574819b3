"""``python -m bot`` as a real process against the loopback fake Discord (tests/fake_discord).

These tests run the bot exactly as it runs in production: settings from the environment and
``.env``, a real websocket gateway and REST API (on 127.0.0.1), a real database (a SQLite file,
or a PostgreSQL database reached with a password: :func:`bot_database`), and real signals.
They check what unit tests can't: start-up, the exit codes and messages of a bad configuration,
that every guess is committed before its reply (the process is SIGKILLed and restarted), and
that SIGTERM/SIGINT shut the bot down cleanly with the database closed.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager, closing
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from conftest import discord_server
from dbtools import connect, is_postgres, run
from fake_discord.models import FakeGuild
from fake_discord.server import FakeDiscordServer

from bot.core.config import describe_database

#: How long any one step (start-up, a reply, shutting down) may take before the test calls
#: it hung. Not a measure (bench/ measures): a start took over 10 s with another suite and
#: two benchmarks running on the 2 cores (load 6).
STEP = 30.0
#: Longest log line read from the bot: at DEBUG discord.py logs whole payloads on one line
#: (the synced commands with their localizations pass asyncio's 64 KiB default, and a reader
#: that stops reading would leave the bot blocked on a full pipe).
LINE_LIMIT = 16 * 2**20
#: Upper bound for a whole test (a hang detector too).
TEST_BUDGET = 90.0

#: Settings the bot reads; never inherited from the developer's shell.
BOT_VARIABLES = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "IDLE_TIMEOUT_HOURS",
    "SHARD_COUNT",
    "SHARD_IDS",
    "METRICS_PORT",
    "ACTIVITY_PORT",
    "ACTIVITY_HOST",
    "DISCORD_CLIENT_SECRET",
)

#: ANSI colour codes (discord.py colours its log lines on a tty, and always inside Docker).
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: A log record line: ``[2026-01-01 12:00:00] [INFO    ] discord.client: ...`` (brackets are
#: left out when coloured).
LOG_RECORD = re.compile(r"^\[?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\]? \[?([A-Z]+)\s*\]? ")
ROW = re.compile(r"^(?:-# )?`\s*(\d+)` \S+ `(\d+)` `(?:(\d+)●)?(?:(\d+)○)?–?` (.+)$")

# The database is the point of every test here, from its very first migration.
pytestmark = [pytest.mark.both_databases, pytest.mark.new_database]


#: Left out too: the bot processes keep their compiled modules in ``__pycache__``, as an
#: installed bot does (pip compiles them). With it set (some shells and CI machines do),
#: every process compiled again the 60-odd modules no earlier one had written: 0.35 s of
#: CPU a start.
NO_BYTECODE = "PYTHONDONTWRITEBYTECODE"


def clean_environ() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in (*BOT_VARIABLES, NO_BYTECODE)}


def score(secret: str, guess: str) -> tuple[int, int]:
    """(black, white), computed independently of the engine."""
    black = sum(s == g for s, g in zip(secret, guess, strict=True))
    common = sum((Counter(secret) & Counter(guess)).values())
    return black, common - black


def board_rows(embed: dict[str, Any], players: Mapping[str, int] | None = None
               ) -> list[tuple[int, str, int, int, int]]:
    """``(turn, code, black, white, player_id)`` for each guess row of a board embed (rows
    name their player: ``players`` maps names to ids)."""
    rows = []
    for line in embed["description"].splitlines():
        if match := ROW.match(line):
            turn, code, black, white, player = match.groups()
            rows.append((int(turn), code, int(black or 0), int(white or 0),
                         (players or {}).get(player, 0)))
    return rows


def guesses_left(embed: dict[str, Any]) -> str:
    """``7 of 10`` from a board's footer."""
    found = re.search(r"(\d+ of \d+) guesses left", embed["footer"]["text"])
    return found[1] if found else embed["footer"]["text"]


def query(db: Path | str, sql: str, *params: Any) -> list[tuple]:
    """Rows (as tuples) from a connection closed at once, on either backend. (conftest's
    ``snapshot``/``secret_of`` leave theirs to the garbage collector, which would keep the WAL
    file alive after the bot closes.)"""
    with closing(connect(db)) as conn:
        return [tuple(row) for row in conn.execute(sql, params).fetchall()]


#: The password of the role the process tests' bots log in to PostgreSQL with: it must never
#: show in their output (the start-up line names the database with it masked).
PASSWORD = "hunter2"


def bot_database(db_path: Path | str) -> Path | str:
    """Where a process test's bot keeps its data: the SQLite file as it is, or for PostgreSQL
    the test's database reached as a role of its own that logs in with :data:`PASSWORD` (and
    owns the database), so every log line can be checked for the password."""
    if not is_postgres(db_path):
        return db_path
    url = str(db_path)
    database = url.split("?", 1)[0].rsplit("/", 1)[1]
    role = f"bot_{database}"

    async def create() -> None:
        conn = await asyncpg.connect(url)  # the server's superuser, like the fixture
        try:
            exists = await conn.fetchval("SELECT 1 FROM pg_roles WHERE rolname = $1", role)
            verb = "ALTER" if exists else "CREATE"
            await conn.execute(f"{verb} ROLE {role} LOGIN PASSWORD '{PASSWORD}'")
            await conn.execute(f"ALTER DATABASE {database} OWNER TO {role}")
        finally:
            await conn.close()

    run(create())
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{role}:{PASSWORD}@{rest.split('@', 1)[1]}"


def database_env(db: Path | str) -> dict[str, str]:
    """The variable that points a bot process at ``db``: ``DATABASE_URL`` for PostgreSQL,
    ``DATABASE_PATH`` for a SQLite file (as before)."""
    return {"DATABASE_URL": str(db)} if is_postgres(db) else {"DATABASE_PATH": str(db)}


def connections_left(db: Path | str) -> int:
    """PostgreSQL sessions still open on the database besides this one (a bot that closed its
    database leaves none)."""
    ((left,),) = query(db, "SELECT COUNT(*) FROM pg_stat_activity WHERE datname ="
                           " current_database() AND pid <> pg_backend_pid()")
    return left


class BotProcess:
    """A ``python -m bot`` child process whose stdout and stderr are collected as it runs."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        #: Set by the pumps at each line read and at the end of the output.
        self._more = asyncio.Event()
        self._pumps = [
            asyncio.create_task(self._pump(proc.stdout, self.stdout)),
            asyncio.create_task(self._pump(proc.stderr, self.stderr)),
        ]

    @classmethod
    async def start(cls, env: Mapping[str, str], cwd: Path) -> BotProcess:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=cwd,
            env=dict(env),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
        )
        return cls(proc)

    async def _pump(self, stream: asyncio.StreamReader | None, into: list[str]) -> None:
        assert stream is not None
        try:
            while line := await stream.readline():
                into.append(ANSI.sub("", line.decode(errors="replace")).rstrip("\n"))
                self._more.set()
        finally:
            self._more.set()

    @property
    def output(self) -> str:
        return "\n".join(self.stdout + self.stderr)

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    async def wait_for_log(self, text: str, timeout: float = STEP) -> None:
        """Wait until a line holding ``text`` is output (fails early if the process exits).
        Woken by each line read, each looked at once (a DEBUG log runs to megabytes)."""
        read = {"stdout": 0, "stderr": 0}
        async with asyncio.timeout(timeout):
            while True:
                for name, lines in (("stdout", self.stdout), ("stderr", self.stderr)):
                    start, read[name] = read[name], len(lines)
                    if any(text in line for line in lines[start:]):
                        return
                if all(pump.done() for pump in self._pumps):  # its output ended: it exited
                    await self.finish()
                    raise AssertionError(f"bot exited ({self.returncode}):\n{self.output}")
                self._more.clear()
                await self._more.wait()

    async def finish(self, timeout: float = STEP) -> int:
        """Wait for the process to exit and for all of its output."""
        async with asyncio.timeout(timeout):
            code = await self.proc.wait()
            await asyncio.gather(*self._pumps)
        return code

    async def stop(self, sig: int = signal.SIGTERM) -> int:
        self.proc.send_signal(sig)
        return await self.finish()

    async def kill(self) -> None:
        """Always safe (used in ``finally``): SIGKILL if still running, then reap."""
        if self.proc.returncode is None:
            self.proc.kill()
        try:
            await self.finish(5)
        except TimeoutError:
            for pump in self._pumps:
                pump.cancel()


@asynccontextmanager
async def bot_process(env: Mapping[str, str], cwd: Path) -> AsyncIterator[BotProcess]:
    bot = await BotProcess.start(env, cwd)
    try:
        yield bot
    finally:
        await bot.kill()


def bot_env(server: FakeDiscordServer, db: Path | str, guild: FakeGuild, **extra: str
            ) -> dict[str, str]:
    env = server.env(clean_environ())
    env.update(
        DISCORD_TOKEN=server.state.token,
        DEV_GUILD_ID=str(guild.id),
        LOG_LEVEL="INFO",
        **database_env(db),
    )
    env.update(extra)
    return env


async def wait_ready(server: FakeDiscordServer, bot: BotProcess, guild: FakeGuild) -> None:
    """The bot synced its commands to the guild (or found them there), identified, and
    processed READY."""
    state = server.state

    def synced() -> bool:
        names = {c["name"] for c in state.guild_commands.get(guild.id, [])}
        return "commands: " in bot.output and {"mastermind", "guess"} <= names

    def identified() -> bool:
        return any(s.identified.is_set() for s in server.sessions)

    try:
        await server.wait_until(
            lambda: bot.returncode is not None or (synced() and identified()),
            timeout=STEP,
            what="the bot to sync its commands and IDENTIFY",
        )
    except TimeoutError:
        raise AssertionError(f"bot not ready after {STEP} s:\n{bot.output}") from None
    if bot.returncode is not None:
        await bot.finish()
        raise AssertionError(f"bot exited ({bot.returncode}) before it was ready:\n{bot.output}")
    # (Discord's own Entry Point command, type 4, stays global where Activities are on)
    assert [c for c in state.global_commands if c.get("type") != 4] == [], (
        "DEV_GUILD_ID set: commands belong to the guild only")
    # discord.py logs this once it has handled READY
    await bot.wait_for_log("has connected to Gateway")


#: How the second run of the smoke test is stopped: each signal once, each backend's close
#: once (the bot handles both signals alike: ``bot/serve.py``'s ``run``).
STOP_SIGNAL = {"sqlite": signal.SIGINT, "postgresql": signal.SIGTERM}


async def test_play_kill_restart_and_win(tmp_path: Path, db_path: Path | str,
                                         backend: str) -> None:
    """The smoke test: play, SIGKILL mid-game, restart on the same database, win, then
    SIGINT (SQLite) or SIGTERM (PostgreSQL): either shuts down cleanly and closes the
    database. (SQLite: in a folder not made yet.)"""
    db = bot_database(db_path if is_postgres(db_path) else tmp_path / "data" / "games.sqlite3")
    logs: list[str] = []
    async with asyncio.timeout(TEST_BUDGET), discord_server() as server:
        state = server.state
        guild = state.create_guild("Smoke Guild")
        channel = next(iter(guild.channels.values()))
        alice, bob = state.create_user("alice"), state.create_user("bob")
        players = {"alice": alice.id, "bob": bob.id}
        env = bot_env(server, db, guild)

        # ---- first run: start a game and make three wrong guesses
        async with bot_process(env, tmp_path) as bot:
            await wait_ready(server, bot, guild)
            assert re.search(rf"commands: \d+ synced \(server {guild.id};", bot.output)
            # the start-up line names the database, a password masked
            named = describe_database(db)
            assert f"from database {named} at schema version" in bot.output
            assert (":***@" in named) == is_postgres(db)

            res = await server.slash("mastermind new", user=alice, guild=guild)
            assert res.response is not None and res.response.type == 4
            assert not res.response.ephemeral
            board = res.embeds[0]
            assert board["title"] == "Mastermind: break the code!"
            assert "10 guesses in all" in board["description"]
            assert board_rows(board) == []

            sql = "SELECT secret FROM games WHERE channel_id = ? AND status = 'active'"
            ((secret,),) = query(db, sql, channel.id)
            assert re.fullmatch(r"[1-6]{4}", secret)
            wrong = [c for c in ("1122", "3344", "5566", "1234", "6543") if c != secret][:3]
            expected: list[tuple[int, str, int, int, int]] = []
            for turn, (code, player) in enumerate(zip(wrong, (alice, bob, alice), strict=True), 1):
                res = await server.slash("guess", user=player, guild=guild, code=code)
                assert res.response is not None and not res.response.ephemeral, res.embeds
                expected.append((turn, code, *score(secret, code), player.id))
                board = res.embeds[0]
                assert board["title"] == "Mastermind: break the code!"
                assert board_rows(board, players) == expected
                assert guesses_left(board) == f"{10 - turn} of 10"
            last_board = board

            bot.proc.kill()  # no chance to flush or close anything
            assert await bot.finish() == -signal.SIGKILL
            logs.append(bot.output)

        # every guess answered was already committed
        assert query(db, "SELECT secret, status FROM games") == [(secret, "active")]
        rows = query(db, "SELECT turn, code, black, white, player_id FROM guesses ORDER BY turn")
        assert rows == expected
        assert query(db, "SELECT user_id FROM players ORDER BY 1") == [(alice.id,), (bob.id,)]
        await server.wait_until(
            lambda: not server.sessions,
            timeout=STEP,
            what="the killed bot's gateway connection to close",
        )

        # ---- second run on the same database: the board survived; win the game
        syncs = state.command_syncs
        async with bot_process(env, tmp_path) as bot:
            await wait_ready(server, bot, guild)
            # the commands Discord holds are the bot's: nothing written
            assert re.search(rf"commands: \d+ unchanged \(server {guild.id}\)", bot.output)
            assert state.command_syncs == syncs

            res = await server.slash("mastermind board", user=bob, guild=guild)
            board = res.embeds[0]
            assert board_rows(board, players) == expected
            assert board["description"] == last_board["description"]
            assert guesses_left(board) == "7 of 10"

            res = await server.slash("guess", user=bob, guild=guild, code=secret)
            board = res.embeds[0]
            assert board["title"] == "Code broken in 4 guesses!"
            assert f"<@{bob.id}> cracked it" in board["description"]
            assert board_rows(board, players) == [*expected, (4, secret, 4, 0, bob.id)]
            assert query(db, "SELECT status, winner_id FROM games") == [("won", bob.id)]
            if is_postgres(db):
                assert connections_left(db) > 0  # the bot's pool
            else:
                assert Path(f"{db}-wal").exists()  # the bot has the database open in WAL mode

            stop = STOP_SIGNAL[backend]
            assert await bot.stop(stop) == 0, f"{stop.name}:\n{bot.output}"
            logs.append(bot.output)
            assert "shutting down" in bot.output and "database closed" in bot.output, (
                stop.name, bot.output)
            assert "KeyboardInterrupt" not in bot.output, bot.output
        await server.wait_until(
            lambda: not server.sessions, timeout=STEP, what="the gateway connection to close"
        )

        assert state.violations == [], state.violations
    for output in logs:
        assert "Traceback" not in output, output
        assert state.token not in output, "the token leaked into the output"
        assert PASSWORD not in output, "the database password leaked into the output"
    if is_postgres(db):
        assert connections_left(db) == 0, f"every connection of the pool is closed on {stop.name}"
    else:
        assert not Path(f"{db}-wal").exists(), (
            f"the WAL is checkpointed and removed on {stop.name}")
        assert query(db, "PRAGMA integrity_check") == [("ok",)]
    assert query(db, "SELECT COUNT(*) FROM guesses") == [(4,)]


async def test_no_token_exits_2_with_one_line(tmp_path: Path) -> None:
    env = {k: os.environ[k] for k in ("PATH", "SYSTEMROOT", "LANG") if k in os.environ}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), STEP)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 2
    assert out == b""
    lines = err.decode().splitlines()
    assert len(lines) == 1, lines
    assert "DISCORD_TOKEN" in lines[0] and "mastermind play" in lines[0]
    assert "Traceback" not in lines[0]
    assert list(tmp_path.iterdir()) == [], "no database is created without a token"


def tables(db: Path | str) -> list[tuple]:
    """The tables of a PostgreSQL database (none until the bot first opens it)."""
    return query(db, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")


@pytest.mark.postgresql_only
async def test_rejected_token_exits_2_without_leaking_it(tmp_path: Path, db_path: Path | str
                                                         ) -> None:
    """Once, on PostgreSQL: the database checked before logging in is left without a table.
    (A SQLite file is judged by its folder and not created: the same check, in
    test_bot_check.py's fine configuration that creates nothing.)"""
    token = "MTIzNDU2Nzg5.rejected.sEcReT-t0ken-value"
    db = bot_database(db_path if is_postgres(db_path) else tmp_path / "db.sqlite3")
    async with asyncio.timeout(TEST_BUDGET), discord_server() as server:
        guild = server.state.create_guild("Guild")
        env = bot_env(server, db, guild, DISCORD_TOKEN=token)
        async with bot_process(env, tmp_path) as bot:
            assert await bot.finish() == 2
        # it asked the fake Discord (not discord.com), which refused the token
        assert any(r.status == 401 for r in server.state.requests), server.state.requests
        assert server.sessions == []
    if is_postgres(db):
        assert tables(db) == [], "the database is opened only after login"
    else:
        assert not Path(db).exists(), "the database is opened only after login"
    assert token not in bot.output
    assert "Traceback" not in bot.output, bot.output
    ours = [line for line in bot.stderr if line.startswith("mastermind-bot:")]
    assert len(ours) == 1, bot.stderr
    assert "rejected DISCORD_TOKEN" in ours[0] and "Developer Portal" in ours[0]
    assert bot.stdout == []
    # everything else is ordinary log records (no errors)
    levels = [LOG_RECORD.match(line) for line in bot.stderr if line not in ours]
    assert all(m and m.group(1) in ("DEBUG", "INFO", "WARNING") for m in levels), bot.stderr


async def test_a_refused_command_sync_is_discord_s_words_and_exit_2(tmp_path: Path) -> None:
    """DEV_GUILD_ID of a server the app was not added to: Discord refuses its commands
    (403, 50001). Said with Discord's code and message, never as a network problem. (Once:
    the database plays no part.)"""
    db = bot_database(tmp_path / "refused.sqlite3")
    async with asyncio.timeout(TEST_BUDGET), discord_server() as server:
        elsewhere = server.state.create_guild("Not Added", installed=False)
        env = bot_env(server, db, elsewhere)
        async with bot_process(env, tmp_path) as bot:
            assert await bot.finish() == 2, bot.output
    ours = [line for line in bot.stderr if line.startswith("mastermind-bot:")]
    assert ours == [f"mastermind-bot: Discord refused the command sync (server {elsewhere.id}): "
                    "HTTP 403 Forbidden, code 50001: Missing Access (the app was not added to "
                    "this server)"], bot.output
    assert "could not reach" not in bot.output and "Traceback" not in bot.output, bot.output


@pytest.mark.postgresql_only
async def test_settings_from_dotenv_and_no_secret_in_the_debug_log(tmp_path: Path,
                                                                   db_path: Path | str) -> None:
    """Every setting from a ``.env`` file (none in the environment), LOG_LEVEL=DEBUG among
    them: the bot answers, and neither its token, the interactions' tokens (discord.py logs
    the webhook URLs at DEBUG) nor the database password reaches the log. Once, on
    PostgreSQL: the backend with a password (a ``.env`` is read alike for either)."""
    db = bot_database(db_path)
    async with asyncio.timeout(TEST_BUDGET), discord_server() as server:
        state = server.state
        guild = state.create_guild("Dotenv Guild")
        alice = state.create_user("alice")
        (tmp_path / ".env").write_text(
            "# settings\n"
            f"DISCORD_TOKEN={state.token}\n"
            f"DATABASE_URL={db}\n"
            f"DEV_GUILD_ID={guild.id}\n"
            "LOG_LEVEL=DEBUG\n"
        )
        env = server.env(clean_environ())  # no DISCORD_TOKEN in the environment
        assert "DISCORD_TOKEN" not in env
        async with bot_process(env, tmp_path) as bot:
            await wait_ready(server, bot, guild)
            started = await server.slash("challenge", user=alice, guild=guild)
            res = await server.slash("mastermind help", user=alice, guild=guild)
            assert res.response is not None and res.response.ephemeral
            assert res.embeds[0]["title"] == "How to play Mastermind"
            assert await bot.stop(signal.SIGTERM) == 0
        tokens = list(state._by_token)
    assert ("schema_migrations",) in tables(db), "the database the .env names is the bot's"
    assert started.record.token in tokens
    assert "webhooks/" in bot.output, "LOG_LEVEL=DEBUG from .env: discord.py logs the URLs..."
    for token in [state.token, *tokens]:
        assert token not in bot.output, "...with the tokens masked"
    assert PASSWORD not in bot.output
    assert "Traceback" not in bot.output, bot.output
