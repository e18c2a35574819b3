"""The store on both databases: migrations on empty and old databases, transactions,
settings; and what only SQLite has (WAL, a file that two processes create at once)."""

from __future__ import annotations

import asyncio
import contextlib
import shutil

import dbtools
import pytest

from bot.core.config import ConfigError, Settings
from bot.store import INTEGRITY_ERRORS, Database, DatabaseUnusable, MigrationError
from bot.store.db import MIGRATIONS_DIR, PG_MIGRATIONS_DIR, migration_files

# The database is the point of every test here, from its very first migration.
pytestmark = [pytest.mark.both_databases, pytest.mark.new_database]


def versions(path) -> list[int]:
    with contextlib.closing(dbtools.connect(path)) as conn:
        return [r[0] for r in
                conn.execute("SELECT version FROM schema_migrations ORDER BY 1").fetchall()]


def all_versions() -> list[int]:
    return [v for v, _, _ in migration_files()]


async def test_empty_database_gets_every_migration(db_path):
    db = await Database.open(db_path)
    try:
        assert await db.schema_version() == all_versions()[-1]
    finally:
        await db.close()
    assert versions(db_path) == all_versions()
    assert {"games", "guesses", "players", "schema_migrations"} <= dbtools.table_names(db_path)


def test_both_dialects_have_the_same_migrations():
    """Every migration exists in both dialects, under the same number and name, and creates
    the same tables (a new one written for one database only fails here)."""
    sqlite_side = [(v, name) for v, name, _ in migration_files(MIGRATIONS_DIR)]
    postgres_side = [(v, name) for v, name, _ in migration_files(PG_MIGRATIONS_DIR)]
    assert sqlite_side == postgres_side


@pytest.mark.sqlite_only
async def test_sqlite_runs_in_wal_with_foreign_keys(db_path):
    db = await Database.open(db_path)
    try:
        async with db.connection.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        async with db.connection.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
    finally:
        await db.close()


async def test_previous_schema_version_upgrades_itself(db_path, tmp_path):
    old = tmp_path / "old_migrations"
    old.mkdir()
    shutil.copy(dbtools.migrations_dir(db_path) / "001_games.sql", old)
    db = await Database.open(db_path, migrations=old)
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, pegs, colors, max_guesses, repeats,"
            " secret, started_by, created_at, updated_at) VALUES (7, 1, 2, 4, 6, 10, 1, '1234',"
            " 3, 100.0, 100.0)"
        )
        await conn.execute(
            "INSERT INTO guesses VALUES (7, 1, 3, '1122', 1, 0, 101.0)"
        )
    await db.close()
    assert versions(db_path) == [1]

    db = await Database.open(db_path)  # the real migrations folder: applies 002 and later
    await db.close()
    assert versions(db_path) == all_versions()
    with dbtools.connect(db_path) as conn:
        game = conn.execute("SELECT secret, board_message_id FROM games WHERE id = 7").fetchone()
        guess = conn.execute("SELECT code, black, white FROM guesses").fetchone()
    assert game == ("1234", None)
    assert guess == ("1122", 1, 0)

    again = await Database.open(db_path)  # nothing left to apply
    assert await again.migrate() == []
    await again.close()


async def test_a_failing_migration_changes_nothing(db_path, tmp_path):
    bad = tmp_path / "bad_migrations"
    shutil.copytree(dbtools.migrations_dir(db_path), bad)
    (bad / "900_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(MigrationError, match=r"900_broken\.sql failed"):
        await Database.open(db_path, migrations=bad)
    assert versions(db_path) == all_versions()
    assert "half_done" not in dbtools.table_names(db_path)


def test_misnamed_migration_is_refused(tmp_path):
    (tmp_path / "1_oops.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match=r"NNN_name\.sql"):
        migration_files(tmp_path)


async def test_transaction_rolls_back_on_error(db_path):
    db = await Database.open(db_path)
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO players (user_id, display_name, updated_at) VALUES (1, 'a', 0)"
            )
            raise RuntimeError("boom")
    async with (await db.reader()).execute("SELECT COUNT(*) FROM players") as cur:
        assert (await cur.fetchone())[0] == 0
    await db.close()


def test_one_running_game_per_channel_is_enforced_by_the_schema(db_path):
    import asyncio

    asyncio.run(_open_close(db_path))
    with dbtools.connect(db_path) as conn:
        insert = (
            "INSERT INTO games (guild_id, channel_id, pegs, colors, max_guesses, repeats,"
            " secret, started_by, created_at, updated_at) VALUES (1, 5, 4, 6, 10, 1, '1234', 1,"
            " 0, 0)"
        )
        conn.execute(insert)
        with pytest.raises(INTEGRITY_ERRORS):
            conn.execute(insert)


async def _open_close(path):
    db = await Database.open(path)
    await db.close()


def test_database_url_picks_the_store_and_hides_its_password(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    for url in ("sqlite:///data/bot.sqlite3", "postgresql://bot:hunter2@db:5432/mastermind"):
        monkeypatch.setenv("DATABASE_URL", url)
        settings = Settings.from_env(env_file=None)
        assert settings.database == url
        assert "hunter2" not in repr(settings)
    monkeypatch.setenv("DATABASE_URL", "mysql://bot:hunter2@db/mastermind")
    with pytest.raises(ConfigError, match="DATABASE_URL must be sqlite") as refused:
        Settings.from_env(env_file=None)
    assert "hunter2" not in str(refused.value)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///a.sqlite3")
    monkeypatch.setenv("DATABASE_PATH", "b.sqlite3")
    with pytest.raises(ConfigError, match="both set"):
        Settings.from_env(env_file=None)


async def test_an_unreachable_postgresql_is_named_without_its_password():
    url = "postgresql://bot:hunter2@127.0.0.1:1/mastermind"  # port 1: nothing listens
    with pytest.raises(DatabaseUnusable) as refused:
        await Database.open(url)
    assert "can't be reached" in str(refused.value)
    assert "hunter2" not in str(refused.value) and "bot:***@127.0.0.1:1" in str(refused.value)


@pytest.mark.postgresql_only
async def test_a_missing_postgresql_database_says_to_create_it(db_path):
    missing = db_path.replace("/test_", "/missing_", 1)
    with pytest.raises(DatabaseUnusable, match="does not exist"):
        await Database.open(missing)


def test_settings_from_environment(monkeypatch, tmp_path):
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL",
                 "IDLE_TIMEOUT_HOURS"):
        monkeypatch.setenv(name, "")  # recorded, so load_dotenv's writes are undone too
        monkeypatch.delenv(name)
    with pytest.raises(ConfigError, match=r"DISCORD_TOKEN is not set.*mastermind play"):
        Settings.from_env(env_file=None)
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc.def.ghi\nDEV_GUILD_ID=123\nIDLE_TIMEOUT_HOURS=2\n")
    settings = Settings.from_env(env_file=env)
    assert settings.token == "abc.def.ghi"
    assert settings.dev_guild_id == 123
    assert settings.idle_timeout == 7200
    assert str(settings.database) == "mastermind.sqlite3"
    assert "abc.def.ghi" not in repr(settings) and "abc.def.ghi" not in str(settings)
    monkeypatch.setenv("DEV_GUILD_ID", "general")
    with pytest.raises(ConfigError, match="DEV_GUILD_ID must be a server id"):
        Settings.from_env(env_file=None)


async def test_two_processes_starting_at_once_apply_each_migration_once(db_path):
    """Two bot processes on one new database: both open it at the same moment; each
    migration is applied once, by whichever takes the write lock first, and neither fails."""
    first, second = await asyncio.gather(Database.open(db_path), Database.open(db_path))
    try:
        assert await first.schema_version() == await second.schema_version() > 0
        assert versions(db_path) == all_versions()
    finally:
        await first.close()
        await second.close()
