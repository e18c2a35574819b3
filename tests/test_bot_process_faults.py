"""Faults of a real ``python -m bot`` process against the loopback fake Discord: a bad
database at start, a fatal gateway close while a move waits to write (the token reset
while running: close 4004), SIGTERM under a burst of interactions. (Tokens and the
database password kept out of the logs at DEBUG: ``test_bot_process.py``, with the
``.env`` test.)

A damaged, read-only or full SQLite file is SQLite's own (``sqlite_only``); PostgreSQL's
equivalents are a database that does not exist and a server out of reach. A fatal close
mid-move runs once on each backend, a different close on each; the burst runs on both."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sqlite3
import subprocess
from pathlib import Path

import pytest
from conftest import discord_server
from dbtools import is_postgres
from test_bot_process import (
    PASSWORD,
    STEP,
    TEST_BUDGET,
    bot_database,
    bot_env,
    bot_process,
    query,
    wait_ready,
)

from bot.core.config import describe_database
from bot.store.db import MIGRATIONS_DIR

# The database is the point of every test here, from its very first migration.
pytestmark = [pytest.mark.both_databases, pytest.mark.new_database]


def our_lines(bot) -> list[str]:
    return [line for line in bot.stderr if line.startswith("mastermind-bot:")]


async def exit_of(tmp_path: Path, db: Path | str) -> tuple[int, list[str], str]:
    async with asyncio.timeout(TEST_BUDGET), discord_server() as server:
        guild = server.state.create_guild("Guild")
        async with bot_process(bot_env(server, db, guild), tmp_path) as bot:
            code = await bot.finish()
    return code, our_lines(bot), bot.output


def garbage(path: Path) -> Path:
    path.write_bytes(b"this is not a database, just some text " * 100)
    return path


def truncated(path: Path) -> Path:
    import sqlite3

    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
    conn.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3 + 100])
    return path


def directory(path: Path) -> Path:
    path.mkdir()
    return path


def under_a_file(path: Path) -> Path:
    """A database whose folder is a file (a typo in DATABASE_URL, say)."""
    blocker = path.parent / "notes.txt"
    blocker.write_text("a file, not a folder")
    return blocker / path.name


@pytest.mark.sqlite_only
@pytest.mark.parametrize(("make", "words"), [
    (garbage, "not an SQLite database"),
    (truncated, "not an SQLite database"),
    (directory, "is a directory"),
    (under_a_file, "notes.txt is a file, not a folder"),
])
async def test_a_bad_database_is_one_line_and_exit_2_and_left_untouched(tmp_path, make, words,
                                                                        backend):
    db = make(tmp_path / "games.sqlite3")
    before = db.read_bytes() if db.is_file() else None
    code, ours, output = await exit_of(tmp_path, db)
    assert code == 2, output
    assert len(ours) == 1 and str(db) in ours[0] and words in ours[0], output
    assert "Traceback" not in output, output
    if before is not None:
        assert db.read_bytes() == before


@pytest.mark.sqlite_only
async def test_a_database_url_under_a_file_names_the_file(tmp_path, backend):
    """Issue 20: a raw traceback ending "Event loop is closed" came after the line."""
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    url = f"sqlite:///{blocker}/games.sqlite3"
    async with asyncio.timeout(TEST_BUDGET), discord_server() as server:
        guild = server.state.create_guild("Guild")
        env = {k: v for k, v in bot_env(server, "unused", guild).items()
               if k != "DATABASE_PATH"}
        async with bot_process({**env, "DATABASE_URL": url}, tmp_path) as bot:
            code = await bot.finish()
    ours = our_lines(bot)
    assert code == 2, bot.output
    assert ours == [f"mastermind-bot: the database {blocker}/games.sqlite3 can't be created: "
                    f"{blocker} is a file, not a folder. Nothing was changed."], bot.output
    assert "Traceback" not in bot.output and "Event loop is closed" not in bot.output
    assert blocker.read_text() == "not a folder"


def missing_database(url: str) -> str:
    """The server of ``url``, a database on it that does not exist."""
    head, _, query_string = url.partition("?")
    return f"{head.rsplit('/', 1)[0]}/no_such_database?{query_string}"


def unreachable_server(url: str) -> str:
    """A server that is not there: a port on 127.0.0.1 nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    credentials = url.split("://", 1)[1].split("@", 1)[0]
    return f"postgresql://{credentials}@127.0.0.1:{port}/mastermind"


@pytest.mark.postgresql_only
@pytest.mark.parametrize(("make", "words"), [
    (missing_database, "does not exist"),
    (unreachable_server, "can't be reached"),
])
async def test_an_unusable_postgresql_is_one_line_and_exit_2_without_the_password(
        tmp_path, db_path, make, words):
    url = make(str(bot_database(db_path)))
    code, ours, output = await exit_of(tmp_path, url)
    assert code == 2, output
    assert len(ours) == 1 and words in ours[0], output
    assert describe_database(url) in ours[0] and ":***@" in ours[0], ours
    assert PASSWORD not in output, output
    assert "Traceback" not in output, output


@contextlib.contextmanager
def small_disk(tmp_path: Path, size: str = "512k"):
    """A small tmpfs of our own (where the machine lets tests mount one)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"can't mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def old_database(path: Path) -> None:
    """A database of the first schema version: starting the bot migrates it (writes)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.executescript((MIGRATIONS_DIR / "001_games.sql").read_text())
        conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT"
                     " NOT NULL, applied_at REAL NOT NULL)")
        conn.execute("INSERT INTO schema_migrations VALUES (1, '001_games', 0)")
        conn.commit()


@pytest.mark.sqlite_only
async def test_a_migration_that_fails_is_one_line_and_exit_2(tmp_path, backend):
    db = tmp_path / "clash.sqlite3"
    old_database(db)
    with contextlib.closing(sqlite3.connect(db)) as conn:  # a table migration 002 creates
        conn.execute("CREATE TABLE players (someone TEXT)")
        conn.commit()
    code, ours, output = await exit_of(tmp_path, db)
    assert code == 2 and len(ours) == 1, output
    assert "migration 002_board_and_players.sql failed" in ours[0] and "rolled back" in ours[0]
    assert "Traceback" not in output, output
    assert query(db, "SELECT MAX(version) FROM schema_migrations") == [(1,)]


@pytest.mark.sqlite_only
async def test_a_read_only_database_is_one_line_and_exit_2(tmp_path, backend):
    with small_disk(tmp_path) as disk:
        db = disk / "games.sqlite3"
        old_database(db)
        before = db.read_bytes()
        remount = subprocess.run(["mount", "-o", "remount,ro", str(disk)], capture_output=True)
        if remount.returncode != 0:
            pytest.skip("can't remount the tmpfs read-only here")
        code, ours, output = await exit_of(tmp_path, db)
        assert db.read_bytes() == before
    assert code == 2 and len(ours) == 1 and "read-only" in ours[0], output
    assert "Traceback" not in output, output


@pytest.mark.sqlite_only
async def test_a_full_disk_at_start_is_one_line_and_exit_2(tmp_path, backend):
    with small_disk(tmp_path, "256k") as disk:
        db = disk / "games.sqlite3"
        old_database(db)
        with contextlib.suppress(OSError), open(disk / "filler", "wb") as out:
            while True:
                out.write(b"\0" * 4096)
                out.flush()
        before = db.read_bytes()
        code, ours, output = await exit_of(tmp_path, db)
        assert db.read_bytes() == before
    assert code == 2 and len(ours) == 1 and "disk is full" in ours[0], output
    assert "Traceback" not in output, output


def process_db(tmp_path: Path, db_path: Path | str, name: str) -> Path | str:
    """The test's PostgreSQL database (as a role with a password), or a SQLite file ``name``."""
    return bot_database(db_path) if is_postgres(db_path) else tmp_path / name


#: The fatal close each backend's run gets: each close once, each backend's held write
#: lock once.
FATAL_CLOSE = {"sqlite": (4004, "rejected DISCORD_TOKEN"),
               "postgresql": (4014, "refused a privileged intent")}


async def test_a_fatal_close_mid_move_drains_like_sigterm_then_says_one_line(
        tmp_path, db_path, backend):
    """Issue 20: a token reset while a move ran gave tracebacks (the move's work after its
    answer met a closed database, its report a closed HTTP session) and lost its board."""
    from test_bot_faults import HeldLock  # another process holding the write lock

    close, words = FATAL_CLOSE[backend]
    db = process_db(tmp_path, db_path, "fatal.sqlite3")
    async with asyncio.timeout(TEST_BUDGET * 2), discord_server() as server:
        state = server.state
        guild = state.create_guild("Guild")
        alice = state.create_user("alice")
        async with bot_process(bot_env(server, db, guild), tmp_path) as bot:
            await wait_ready(server, bot, guild)
            opened = await server.slash("mastermind new", user=alice, guild=guild)
            first_board = opened.record.original_message_id
            ((secret,),) = query(db, "SELECT secret FROM games")
            code = next(c for c in ("1122", "3344", "5566") if c != secret)
            lock = HeldLock(db_path if is_postgres(db_path) else db)
            try:
                rec = state.new_command_interaction(
                    "guess", user=alice, guild=guild, options={"code": code},
                    context_keywords=["user", "guild"])
                session = await server.wait_for_session(STEP)
                session.dispatch("INTERACTION_CREATE", rec.payload)
                await server.wait_until(lambda: rec.callback is not None, timeout=STEP,
                                        what="the guess to be deferred behind the lock")
                await session.close(close, "fatal")  # the move is still waiting to write
                # the bot took the close and drains while the move still waits for the lock
                await bot.wait_for_log("waiting for 1 running interactions")
            finally:
                lock.release()
            assert await bot.finish() == 2
    ours = our_lines(bot)
    assert len(ours) == 1 and words in ours[0] and str(close) in ours[0], bot.output
    assert "Traceback" not in bot.output and "Event loop is closed" not in bot.output, (
        bot.output)
    # The move was stored, answered with its board, and the board it replaced shrank.
    assert query(db, "SELECT code FROM guesses") == [(code,)]
    answer = state.messages[rec.original_message_id]
    assert not answer.loading and code in answer.embeds[0]["description"], answer
    shrunk = state.messages[first_board]
    assert shrunk.embeds == [] and shrunk.content, shrunk  # one line, the board gone
    assert "waiting for 1 running interactions" in bot.output


async def test_sigterm_under_a_burst_answers_everything_and_exits_cleanly(tmp_path, db_path):
    db = process_db(tmp_path, db_path, "burst.sqlite3")
    async with asyncio.timeout(TEST_BUDGET * 2), discord_server() as server:
        state = server.state
        guild = state.create_guild("Burst Guild")
        channels = [state.create_channel(guild, f"c{k}") for k in range(25)]
        players = [state.create_user(f"p{k}") for k in range(25)]
        async with bot_process(bot_env(server, db, guild), tmp_path) as bot:
            await wait_ready(server, bot, guild)
            session = await server.wait_for_session(STEP)
            server._send_guild(session, guild)
            burst = []
            for channel, player in zip(channels, players, strict=True):
                for command, options in (("mastermind new", {}), ("guess", {"code": "1234"})):
                    rec = state.new_command_interaction(
                        command, user=player, channel=channel, guild=guild, options=options,
                        context_keywords=["user", "channel", "guild"])
                    session.dispatch("INTERACTION_CREATE", rec.payload)
                    burst.append(rec)
            # the burst is on the wire, and handled: the first answers are in
            await server.wait_until(lambda: any(r.callback for r in burst), timeout=STEP,
                                    what="the burst's first answer")
            assert await bot.stop(signal.SIGTERM) == 0
        unanswered = [r for r in burst if r.callback is None]
        # Still "thinking..." where players see it (a refusal after a defer deletes that
        # placeholder and answers privately: a deleted one shows nothing).
        loading = [r for r in burst if r.original_message_id is not None
                   and state.messages[r.original_message_id].loading
                   and not state.messages[r.original_message_id].deleted]
        untold = [r for r in burst if r.original_message_id is not None
                  and state.messages[r.original_message_id].deleted and not r.followup_ids]
        assert len(burst) == 50
        assert unanswered == loading == untold == [], (unanswered, loading, untold, bot.output)
        assert "Traceback" not in bot.output, bot.output
        # What players were told matches what was stored.
        boards = [r for r in burst if r.callback and not r.callback.ephemeral
                  and r.name == "mastermind new"]
        assert query(db, "SELECT COUNT(*) FROM games") == [(len(boards),)]
