"""``mastermind-bot --check`` as a real process: one line per finding, exit 0 or 2, the token
never printed, nothing created or written; and the bot itself checking its database before
it logs in, so a bad ``DATABASE_URL`` is named even with Discord out of reach."""

from __future__ import annotations

import asyncio
import base64
import io
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from dbtools import is_postgres
from test_bot_process import (
    BOT_VARIABLES,
    PASSWORD,
    STEP,
    bot_database,
    clean_environ,
    database_env,
)
from test_bot_process_faults import missing_database, old_database, unreachable_server

from bot.check import main as check_main
from bot.core.config import describe_database
from bot.store import Database
from bot.store.db import MIGRATIONS_DIR, migration_files

# The database is the point of every test here, from its very first migration.
pytestmark = [pytest.mark.both_databases, pytest.mark.new_database]

BOT_ID = 1234567890123456789
#: Shaped like a bot token: the bot's id in base64, a timestamp, a signature.
TOKEN = (base64.b64encode(str(BOT_ID).encode()).decode().rstrip("=") + ".GxY2zA."
         + "s3cr3t-Signature_0123456789abcdefghijklmn")
MIGRATIONS = len(migration_files(MIGRATIONS_DIR))


def check(tmp_path: Path, **variables: str) -> tuple[int, list[str], str]:
    """Run ``python -m bot --check`` in ``tmp_path`` (no .env there) with these settings."""
    env = {**clean_environ(), **variables}
    # 120 s: a guard against a hang; a cold start under load 17 on 2 cores took over 30 s.
    done = subprocess.run([sys.executable, "-m", "bot", "--check"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout.splitlines(), done.stdout + done.stderr


def line_about(lines: list[str], words: str) -> str:
    found = [line for line in lines if words in line]
    assert len(found) == 1, (words, lines)
    return found[0]


def test_a_fine_configuration_is_ok_line_by_line_and_creates_nothing(tmp_path):
    code, lines, output = check(tmp_path, DISCORD_TOKEN=TOKEN, SHARD_COUNT="4",
                                SHARD_IDS="0-1", DATABASE_URL="sqlite:///data/games.sqlite3")
    assert code == 0, output
    assert len(lines) == 6 and all(line.startswith("ok: ") for line in lines), lines
    assert str(BOT_ID) in line_about(lines, "DISCORD_TOKEN")
    assert f"applies {MIGRATIONS} migrations" in line_about(lines, "data/games.sqlite3")
    assert "shards 0, 1 of 4; run 2, 3 in other processes" in line_about(lines, "shards")
    assert TOKEN not in output and TOKEN.split(".")[2] not in output
    assert list(tmp_path.iterdir()) == [], "the check creates nothing"


def test_every_problem_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "notes").write_text("a file, not a folder")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, lines, output = check(tmp_path, DISCORD_TOKEN="Bot " + TOKEN, SHARD_COUNT="2",
                                    SHARD_IDS="1,2", METRICS_PORT=str(port),
                                    DATABASE_URL="sqlite:///notes/games.sqlite3",
                                    IDLE_TIMEOUT_HOURS="soon", ACTIVITY_PORT=str(port),
                                    DISCORD_CLIENT_SECRET="s3cret")
    assert code == 2, output
    problems = [line for line in lines if line.startswith("problem: ")]
    assert len(problems) == 6 and len(lines) == 6, lines
    assert f"ACTIVITY_PORT {port} can't be used" in line_about(lines, "ACTIVITY_PORT")
    assert "give the token alone" in line_about(lines, "DISCORD_TOKEN")
    assert "notes is a file, not a folder" in line_about(lines, "games.sqlite3")
    assert "SHARD_IDS must list shard numbers from 0 to 1" in line_about(lines, "SHARD_IDS")
    assert f"METRICS_PORT {port} can't be used" in line_about(lines, "METRICS_PORT")
    assert "IDLE_TIMEOUT_HOURS must be a number" in line_about(lines, "IDLE_TIMEOUT_HOURS")
    assert TOKEN not in output and "Traceback" not in output


@pytest.mark.parametrize(("token", "words"), [
    ("", "DISCORD_TOKEN is not set"),
    ("123456789012345678", "that is an id"),
    ("0123456789abcdef0123456789abcdef", "not shaped like a bot token"),
    (f'"{TOKEN}"', "in quotes"),
    (TOKEN.replace(".", "", 1), "not shaped like a bot token"),
])
def test_a_token_of_the_wrong_shape_is_named_never_shown(tmp_path, monkeypatch, token, words):
    """``--check``'s own ``main``, run here: the process around it (one line per finding on
    stdout, exit 2, a token that is not printed anywhere) is the one of
    :func:`test_every_problem_is_one_line_and_exit_2`, whose token starts with 'Bot '."""
    for variable in BOT_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", token)
    monkeypatch.chdir(tmp_path)  # no .env here
    printed = io.StringIO()
    code = check_main(printed)
    output = printed.getvalue()
    lines = output.splitlines()
    assert code == 2, output
    line = line_about(lines, "DISCORD_TOKEN")
    assert line.startswith("problem: ") and words in line, line
    assert not token or token not in output


@pytest.mark.sqlite_only
def test_an_old_sqlite_database_says_how_many_migrations_would_apply_and_stays_as_is(
        tmp_path, backend):
    db = tmp_path / "old.sqlite3"
    old_database(db)
    before = db.read_bytes()
    code, lines, output = check(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(db))
    assert code == 0, output
    assert (f"at schema version 1: the bot applies {MIGRATIONS - 1} migrations"
            in line_about(lines, str(db))), lines
    assert db.read_bytes() == before and sorted(tmp_path.iterdir()) == [db]


@pytest.mark.sqlite_only
def test_a_database_that_is_not_one_or_from_a_newer_bot_is_a_problem(tmp_path, backend):
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all " * 100)
    code, lines, _ = check(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(garbage))
    assert code == 2 and "not an SQLite database" in line_about(lines, str(garbage))
    newer = tmp_path / "newer.sqlite3"
    old_database(newer)
    with closing(sqlite3.connect(newer)) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (999, '999_future', 0)")
        conn.commit()
    code, lines, _ = check(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(newer))
    assert code == 2 and "up to 999" in line_about(lines, str(newer)), lines


async def test_the_database_is_checked_before_and_after_migrating(tmp_path, db_path):
    db = bot_database(db_path if is_postgres(db_path) else tmp_path / "games.sqlite3")
    settings = {"DISCORD_TOKEN": TOKEN, **database_env(db)}
    named = describe_database(db)
    code, lines, output = await asyncio.to_thread(check, tmp_path, **settings)
    assert code == 0, output
    fresh = line_about(lines, named)
    assert f"applies {MIGRATIONS} migrations" in fresh, fresh
    opened = await Database.open(db)
    await opened.close()
    code, lines, output = await asyncio.to_thread(check, tmp_path, **settings)
    assert code == 0, output
    newest = max(version for version, _, _ in migration_files(MIGRATIONS_DIR))
    assert f"reachable and migrated (schema version {newest})" in line_about(lines, named)
    assert PASSWORD not in output


@pytest.mark.postgresql_only
@pytest.mark.parametrize(("make", "words"), [(missing_database, "does not exist"),
                                             (unreachable_server, "can't be reached")])
async def test_an_unusable_postgresql_is_a_problem_without_its_password(
        tmp_path, db_path, make, words):
    url = make(str(bot_database(db_path)))
    code, lines, output = await asyncio.to_thread(check, tmp_path, DISCORD_TOKEN=TOKEN,
                                                  DATABASE_URL=url)
    assert code == 2, output
    assert words in line_about(lines, describe_database(url))
    assert PASSWORD not in output


async def test_a_bad_database_is_named_before_logging_in_even_offline(tmp_path, db_path):
    """Issue 20: with no network the bot said only "could not reach Discord"."""
    if is_postgres(db_path):
        url = unreachable_server(str(bot_database(db_path)))
        words = "can't be reached"
    else:
        (tmp_path / "notes").write_text("a file")
        url, words = f"sqlite:///{tmp_path}/notes/games.sqlite3", "notes is a file"
    with socket.socket() as sock:  # a Discord that is not there
        sock.bind(("127.0.0.1", 0))
        dead = f"127.0.0.1:{sock.getsockname()[1]}"
    env = {**clean_environ(), "DISCORD_TOKEN": TOKEN, "DATABASE_URL": url,
           "FAKE_DISCORD_API_BASE": f"http://{dead}/api/v10",
           "FAKE_DISCORD_GATEWAY": f"ws://{dead}/gateway/",
           "PYTHONPATH": str(Path(__file__).parent / "fake_discord" / "_redirect")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), STEP * 2)
    lines = [line for line in err.decode().splitlines() if line.startswith("mastermind-bot:")]
    assert proc.returncode == 2, err.decode()
    assert len(lines) == 1 and words in lines[0] and "Discord" not in lines[0], lines
    assert "logging in" not in err.decode(), "the database is checked before logging in"
    assert PASSWORD not in err.decode() and "Traceback" not in err.decode()
    if not is_postgres(db_path):
        assert (tmp_path / "notes").read_text() == "a file"
