"""What only the PostgreSQL store has to prove: a write that names nothing it touches holds
the whole database, so such writes from several processes (here, several ``Database``
objects with pools of their own) never interleave; and connections the server dropped are
replaced without losing or doubling a move. (Writes that name their channel or player, and
run at once: tests/test_store_races.py.)"""

from __future__ import annotations

import asyncio
import getpass
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import asyncpg
import dbtools
import pytest
from conftest import secret_of, snapshot

from bot.app import MastermindBot
from bot.store import Database
from bot.store.postgres import READ_POOL_SIZE, WRITE_POOL_SIZE, PostgresDatabase

pytestmark = [pytest.mark.postgresql_only, pytest.mark.new_database]


async def test_writes_from_several_processes_take_turns(db_path):
    """Each write reads the number of guesses and stores the next turn, naming no key: it
    holds the whole database, so 3 "processes" x 20 writes at once give 60 turns and no
    clash on (game, turn)."""
    databases = [await Database.open(db_path) for _ in range(3)]
    try:
        async with databases[0].transaction() as conn, conn.execute(
            "INSERT INTO games (channel_id, pegs, colors, max_guesses, repeats, secret,"
            " started_by, created_at, updated_at) VALUES (1, 4, 6, 20, 1, '1234', 1, 0, 0)"
            " RETURNING id"
        ) as cur:
            game_id = (await cur.fetchone())[0]

        async def next_turn(db: Database, player: int) -> None:
            async with db.transaction() as conn:
                async with conn.execute(
                    "SELECT COUNT(*) FROM guesses WHERE game_id = ?", (game_id,)) as cur:
                    turn = (await cur.fetchone())[0] + 1
                await asyncio.sleep(0)  # let every other writer run up to its own lock
                await conn.execute(
                    "INSERT INTO guesses (game_id, turn, player_id, code, black, white,"
                    " created_at) VALUES (?, ?, ?, '1122', 0, 0, 0)", (game_id, turn, player))

        await asyncio.gather(*(next_turn(db, i) for i, db in enumerate(databases)
                               for _ in range(20)))
    finally:
        for db in databases:
            await db.close()
    turns = [row[0] for row in dbtools.connect(db_path).execute(
        "SELECT turn FROM guesses ORDER BY turn").fetchall()]
    assert turns == list(range(1, 61))


async def test_dropped_connections_are_replaced_and_the_move_stored_once(
    fake_discord, start_bot, world, db_path, postgres_server
):
    """The server drops every connection of the bot (as a restart or failover would): the
    next guess and board are answered as usual, and the guess is stored once."""
    bot = await start_bot()
    started = await fake_discord.slash(bot, "mastermind new", user=world.alice,
                                       channel=world.general, guild=world.guild)
    assert not started.ephemeral
    secret = secret_of(db_path, world.general.id)
    wrong = "".join("1" if c != "1" else "2" for c in secret)
    database = postgres_server.database_name(db_path)
    dropped = dbtools.connect(postgres_server.admin_url).execute(
        "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = ?"
        " AND pid != pg_backend_pid()", (database,)).fetchone()[0]
    assert dropped >= 1
    played = await fake_discord.slash(bot, "guess", code=wrong, user=world.bob,
                                      channel=world.general, guild=world.guild)
    assert not played.ephemeral and wrong in played.embed["description"]
    shown = await fake_discord.slash(bot, "mastermind board", user=world.bob,
                                     channel=world.general, guild=world.guild)
    assert not shown.ephemeral
    assert [g["code"] for g in snapshot(db_path)["guesses"]] == [wrong]


async def test_a_database_out_of_reach_is_told_and_nothing_changes(
    fake_discord, start_bot, world, db_path, postgres_server
):
    """The server refuses the bot's database (dropped connections, no new ones allowed):
    a guess is told the database is out of reach; once it is back, the game goes on."""
    bot = await start_bot()
    await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                             guild=world.guild)
    secret = secret_of(db_path, world.general.id)
    wrong = "".join("1" if c != "1" else "2" for c in secret)
    database = postgres_server.database_name(db_path)
    admin = dbtools.connect(postgres_server.admin_url)
    admin.execute(f"ALTER DATABASE {database} ALLOW_CONNECTIONS false")
    admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?",
                  (database,))
    try:
        told = await fake_discord.slash(bot, "guess", code=wrong, user=world.bob,
                                        channel=world.general, guild=world.guild)
    finally:
        admin.execute(f"ALTER DATABASE {database} ALLOW_CONNECTIONS true")
        admin.close()
    assert told.ephemeral and told.embed["title"] == "The database is out of reach"
    assert snapshot(db_path)["guesses"] == []
    played = await fake_discord.slash(bot, "guess", code=wrong, user=world.bob,
                                      channel=world.general, guild=world.guild)
    assert not played.ephemeral and [g["code"] for g in snapshot(db_path)["guesses"]] == [wrong]


async def test_a_second_pytest_beside_the_suite_leaves_its_server_working(
    fake_discord, start_bot, world, db_path, postgres_server, tmp_path, wall_clock
):
    """Issue 20: every pytest started as root resets pytest's temporary root to mode 0700;
    the suite's server kept its data there, and its own system user lost access mid-run
    (77 errors). Its data lives elsewhere now: another pytest starting beside the suite,
    with a test of its own using tmp_path, leaves the server serving old and new databases."""
    pgdata = Path(postgres_server._server.pgdata)
    temp_root = Path(tempfile.gettempdir()) / f"pytest-of-{getpass.getuser()}"
    assert not pgdata.resolve().is_relative_to(temp_root.resolve()), pgdata
    bot = await start_bot()
    await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                             guild=world.guild)
    secret = secret_of(db_path, world.general.id)
    misses = [c for c in ("1122", "3344", "5566") if c != secret]

    beside = tmp_path / "beside"
    beside.mkdir()
    (beside / "test_tiny.py").write_text(
        "def test_a_temporary_folder(tmp_path):\n    assert tmp_path.is_dir()\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                         str(beside)], cwd=beside, env=env, capture_output=True, text=True,
        timeout=120)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
    assert stat.S_IMODE(temp_root.stat().st_mode) == 0o700  # what locked the server out

    # The database the suite made before, and its bot's pooled connections, still serve...
    played = await fake_discord.slash(bot, "guess", code=misses[0], user=world.bob,
                                      channel=world.general, guild=world.guild)
    assert not played.ephemeral and misses[0] in played.embed["description"]
    # ...and the server fixture still makes new databases a new bot plays on.
    url = postgres_server.new_database()
    try:
        fresh = MastermindBot(database=url, clock=wall_clock)
        await fake_discord.login(fresh)
        await fake_discord.slash(fresh, "mastermind new", user=world.alice,
                                 channel=world.other, guild=world.guild)
        code = next(c for c in misses if c != secret_of(url, world.other.id))
        again = await fake_discord.slash(fresh, "guess", code=code, user=world.bob,
                                         channel=world.other, guild=world.guild)
        assert not again.ephemeral
        assert [g["code"] for g in snapshot(url)["guesses"]] == [code]
        await fresh.close()
    finally:
        postgres_server.drop_database(url)
    assert [g["code"] for g in snapshot(db_path)["guesses"]] == [misses[0]]




async def test_a_write_cancelled_while_it_waits_gives_its_connection_back_clean(db_path):
    """A handler cancelled inside a write (the fake Discord's hang detector, a shutdown's
    grace running out), whether its BEGIN waits for another write's lock or its statement
    runs on the server, rolls back, and its connection never goes back to the pool inside
    a transaction (asyncpg's "Resetting connection with an active transaction": the ERROR
    the suite met at teardown under load); the writes after it run as usual."""
    db = await Database.open(db_path)
    loop = asyncio.get_running_loop()
    reported: list[dict] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    holding, release = asyncio.Event(), asyncio.Event()

    async def write(user_id: int, then=None) -> None:
        async with db.transaction() as conn:  # names nothing: holds the whole database
            await conn.execute("INSERT INTO players (user_id, display_name, updated_at)"
                               " VALUES (?, 'a', 1.0)", (user_id,))
            if then is not None:
                await then(conn)

    async def hold(conn) -> None:
        holding.set()
        await release.wait()

    async def run_on_the_server(conn) -> None:
        holding.set()
        await conn.execute("SELECT pg_sleep(30)")

    async def cancelled(task: asyncio.Task) -> None:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        holder = asyncio.create_task(write(1, hold))
        await holding.wait()
        waiter = asyncio.create_task(write(2))  # its BEGIN waits for the holder's lock
        await until_a_session_waits(db_path, "wait_event_type = 'Lock'")
        await cancelled(waiter)
        release.set()
        await holder
        holding.clear()
        busy = asyncio.create_task(write(3, run_on_the_server))
        await holding.wait()
        await until_a_session_waits(db_path, "query LIKE '%pg_sleep%' AND state = 'active'")
        await cancelled(busy)
        for n in range(4, 14):  # more writes than the pool has connections: each is clean
            await write(n)
        await db.close()
    finally:
        loop.set_exception_handler(None)
    assert reported == []
    stored = [row[0] for row in dbtools.connect(db_path).execute(
        "SELECT user_id FROM players ORDER BY 1").fetchall()]
    assert stored == [1, *range(4, 14)]


async def until_a_session_waits(url: str, condition: str) -> None:
    """Until PostgreSQL shows another session of this database in ``condition`` (an
    event, not a sleep that guesses the machine's speed)."""
    conn = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(30):
            while not await conn.fetchval(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                    f" AND pid <> pg_backend_pid() AND {condition}"):
                await asyncio.sleep(0.01)
    finally:
        await conn.close()


async def test_closing_a_connection_the_server_dropped_is_quiet(db_path):
    """After ``expire_connections`` asyncpg closes each old connection in a task of its own;
    one the server had dropped answered that close with a broken pipe, an error in a task
    nobody awaits (a CI run's one failure). The pool's connections close quietly instead."""
    import socket

    from bot.store.postgres import DroppableConnection

    conn = await asyncpg.connect(db_path, connection_class=DroppableConnection)
    conn._transport.get_extra_info("socket").shutdown(socket.SHUT_WR)  # sends now fail
    with pytest.raises(OSError):  # what a plain connection does with that socket
        await asyncpg.Connection.close(conn)
    conn = await asyncpg.connect(db_path, connection_class=DroppableConnection)
    conn._transport.get_extra_info("socket").shutdown(socket.SHUT_WR)
    await conn.close(timeout=2)
    assert conn.is_closed()


async def test_the_bot_opens_every_pooled_connection_at_start(db_path, monkeypatch):
    """The bot's way (the suite opens them as needed: tests/conftest.py): every pooled
    connection is open before the first move, so none is opened in the middle of a burst."""
    monkeypatch.setattr(PostgresDatabase, "open_all_at_start", True)
    db = await Database.open(db_path)
    try:
        assert isinstance(db, PostgresDatabase)
        assert (db.pool.get_size(), db.writes.get_size()) == (READ_POOL_SIZE, WRITE_POOL_SIZE)
    finally:
        await db.close()
    monkeypatch.setattr(PostgresDatabase, "open_all_at_start", False)
    lazy = await Database.open(db_path)
    try:
        assert isinstance(lazy, PostgresDatabase)
        assert (lazy.pool.get_size(), lazy.writes.get_size()) == (1, 1)
        async with asyncio.timeout(10):  # more are opened as writes run at once, up to 8
            await asyncio.gather(*(write_then_wait(lazy) for _ in range(WRITE_POOL_SIZE)))
        assert lazy.writes.get_size() == WRITE_POOL_SIZE
    finally:
        await lazy.close()


async def write_then_wait(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("SELECT pg_sleep(0.2)")
