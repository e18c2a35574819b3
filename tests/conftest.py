"""Shared fixtures: the fake Discord (tests/fake_discord), a movable wall clock, and a real
database: every test that uses one runs on SQLite and on PostgreSQL (a real server the
session starts; ``TEST_DATABASES=sqlite`` runs SQLite only). A test of something only one
backend has is marked ``sqlite_only`` or ``postgresql_only``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import hashlib
import importlib.util
import os
import random
import re
import shutil
import sqlite3
import tempfile
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from dbtools import PostgresServer, connect
from discord import app_commands
from fake_discord.server import FakeDiscordServer
from fake_discord.state import DiscordState
from virtual_time import VirtualTime

from bot.app import MastermindBot
from bot.core.errors import UserError
from bot.store import Database
from bot.store.postgres import PostgresDatabase
from bot.store.transaction import PgTransaction
from bot.ui.app_emoji import emoji_name
from bot.ui.command_sync import ENTRY_POINT
from bot.ui.peg_images import peg_images
from engine import codes

pytest_plugins = ["fake_discord.pytest_plugin", "service_kit"]


class WallClock:
    """The bot's idea of "now" (unix seconds); tests move it to make games go idle."""

    def __init__(self, start: float = 1_790_000_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_discord_options():
    """Players' mistakes and commands changed since a client loaded them are normal flow;
    anything the bot logs at ERROR fails the test."""
    return {
        "ignore_errors": (app_commands.CheckFailure, app_commands.CommandNotFound,
                          app_commands.CommandSignatureMismatch, UserError),
        "error_loggers": ("discord", "bot"),
    }


@pytest.fixture(autouse=True)
def pools_opened_as_needed(monkeypatch):
    """The tests' databases open pooled connections as they are needed, up to the bot's
    sizes, instead of all twelve at once (about 80 ms of CPU, client and server, for each
    of the suite's 500-odd PostgreSQL databases); ``test_store_postgres.py`` checks the
    bot's own way."""
    monkeypatch.setattr(PostgresDatabase, "open_all_at_start", False)


@pytest.fixture(autouse=True)
def locks_in_order(monkeypatch):
    """A write taking its PostgreSQL locks in an order that could make two transactions
    wait for each other (bot/store/locks.py) fails the test, wherever it is caught."""

    def fail(problem: str) -> None:
        raise AssertionError(f"write locks out of order: {problem}")

    monkeypatch.setattr(PgTransaction, "out_of_order", staticmethod(fail))


@pytest.fixture(autouse=True)
def reproducible_secrets(request, monkeypatch):
    """The secrets a test draws come from a generator seeded by the test's name, not from
    the OS: a test that guesses a fixed code cannot meet, one run in 1,296, a secret that
    happens to be that code (two fresh clones of 28 November failed so), and any failure
    comes back on every run. The bot itself draws from the OS (engine/codes.py)."""
    seed = int.from_bytes(hashlib.blake2b(request.node.nodeid.encode(), digest_size=8).digest())
    drawn = random.Random(seed)
    monkeypatch.setattr(codes, "secrets", SimpleNamespace(SystemRandom=lambda: drawn))


def holding_the_pegs(state: DiscordState) -> DiscordState:
    """``state`` as Discord keeps it for an app that has run before: with the drawn pegs."""
    for image in peg_images():
        state.app_emoji.add(emoji_name(image), image.png)
    return state


def discord_server() -> FakeDiscordServer:
    """The loopback fake Discord that ``python -m bot`` connects to, for an app that has run
    before (:func:`holding_the_pegs`)."""
    return FakeDiscordServer(holding_the_pegs(DiscordState()))


#: The global commands a bot in this test process last wrote (its accepted PUT's body):
#: what Discord holds for an app that has run before.
_synced_commands: list[dict] | None = None
_COMMANDS_PATH = re.compile(r"^/applications/\d+/commands$")


@pytest.fixture
def fake_discord(fake_discord, request):
    """The plugin's fake Discord, of an app that has run before: it already holds the drawn
    pegs and the commands as an earlier start synced them, as every start but the very
    first finds them (a first start uploads 10 emoji, which the REST budget paces over most
    of a second, and writes its commands: Discord's checks of that write cost 40 ms a test).
    A test of that first start is marked ``fresh_app``."""
    global _synced_commands
    fresh = request.node.get_closest_marker("fresh_app") is not None
    if not fresh:
        holding_the_pegs(fake_discord.state)
        if _synced_commands is not None:
            fake_discord.state.hold_commands(_synced_commands)
    yield fake_discord
    written = [r.json for r in fake_discord.requests
               if r.method == "PUT" and r.status == 200 and _COMMANDS_PATH.match(r.path)]
    if written:  # Discord's own Entry Point command comes with Activities, not from a bot
        _synced_commands = [c for c in written[-1] if c.get("type") != ENTRY_POINT]


@pytest.fixture
def wall_clock() -> WallClock:
    return WallClock()


BACKENDS = tuple(os.environ.get("TEST_DATABASES", "sqlite,postgresql").replace(" ", "")
                 .split(","))
#: ``TEST_E2E_EVERYWHERE=1``: every test through the fake Discord on every backend, as
#: before the service layer (about twice the time).
E2E_EVERYWHERE = os.environ.get("TEST_E2E_EVERYWHERE", "") not in ("", "0")


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only: tests something only SQLite has")
    config.addinivalue_line("markers", "postgresql_only: tests something only PostgreSQL has")
    config.addinivalue_line("markers", "both_databases: a test through the fake Discord "
                            "whose point is the database (races, locks, restarts, processes, "
                            "SQL only it reaches): it runs on every backend")
    config.addinivalue_line("markers", "real_time_pacing: the bot's REST budget keeps real "
                            "time (tests of its pacing against Discord's global limit)")
    config.addinivalue_line("markers", "fresh_app: the app has never run: Discord holds none "
                            "of its emoji and none of its commands")
    config.addinivalue_line("markers", "new_database: a database no migration has touched "
                            "(migrations, start-up checks, processes): a SQLite file not yet "
                            "made, or a PostgreSQL database of its own, instead of a copy of "
                            "the worker's migrated file or its migrated database emptied "
                            "(0.5 s instead of 0.03 s a test)")
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        _rewrite_test_modules_once(config)


def _rewrite_test_modules_once(config) -> None:
    """Before the workers start: each worker's collection rewrote the asserts of every test
    module and of every module of the pytest plugins' packages (hypothesis: 1.7 s of CPU a
    worker), because this machine's ``PYTHONDONTWRITEBYTECODE`` keeps pytest from keeping
    what it rewrote. Rewritten once here into the cache pytest's import hook reads (checked
    against each source, beside it, ignored by git), the workers load it. Through pytest's
    own functions: should they change, the workers rewrite as before."""
    from _pytest.assertion import rewrite

    try:
        state = config.stash[rewrite.assertstate_key]
        for source in _rewritten_in_workers(config.pluginmanager.rewrite_hook):
            pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(source, pyc) is None:
                pyc.parent.mkdir(exist_ok=True)
                source_hash, code = rewrite._rewrite_test(source, config)
                rewrite._write_pyc(state, code, source_hash, pyc)
    except (AttributeError, KeyError, TypeError, ValueError, OSError, SyntaxError):
        return


def _rewritten_in_workers(hook) -> list[Path]:
    """The files whose asserts pytest rewrites as a worker imports them: the conftest, the
    test modules, and every module of the packages it marks (the installed pytest plugins'
    distributions: hypothesis, pytest-asyncio, xdist...)."""
    tests = Path(__file__).resolve().parent
    sources = [tests / "conftest.py", *sorted(tests.glob("test_*.py"))]
    for name in sorted(hook._must_rewrite):
        spec = importlib.util.find_spec(name) if "." not in name else None
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            continue
        origin = Path(spec.origin)
        sources += sorted(origin.parent.rglob("*.py")) if spec.submodule_search_locations \
            else [origin]
    return sources


#: The files whose single tests run longest (mypy cold on a new machine: 14 s of CPU; the
#: shards' kill; the engine's work slice and recorded games; Chromium's start): run first,
#: so that none of them is left running alone at the end of the suite.
LONGEST_FIRST = ("test_lint.py", "test_bot_process_shards.py", "test_engine_memory.py",
                 "test_engine_decisions.py", "test_activity_browser.py")


def pytest_collection_modifyitems(items):
    """The files of :data:`LONGEST_FIRST` first, each whole and in its own order (a module's
    fixtures are set up once); every other test in the order collected."""
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_collection_finish(session):
    """What collecting made (the bot, discord.py, the engine's tables, the test modules and
    their parameters) lives as long as the test process: frozen, as the bot freezes its own
    start-up (bot/gc_tuning.py), the collector's full passes stop walking it. Measured on
    79 in-process tests in one process: 1.05 s of collections -> 0.75 s."""
    gc.collect()
    gc.freeze()


def pytest_generate_tests(metafunc):
    """Run every test that uses a database once per backend; a test through the fake
    Discord once, on the first backend, unless it is marked ``both_databases``: what the
    backends do differently is the store's SQL and locks, which the store's and services'
    own tests and the marked end-to-end ones run on each (docs/testing.md says how that
    was checked)."""
    if "backend" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker
    backends = [b for b in BACKENDS
                if not (b == "postgresql" and marker("sqlite_only"))
                and not (b == "sqlite" and marker("postgresql_only"))]
    end_to_end = "fake_discord" in metafunc.fixturenames
    if end_to_end and not (E2E_EVERYWHERE or marker("both_databases")):
        backends = backends[:1]
    metafunc.parametrize("backend", backends or [pytest.param(
        "none", marks=pytest.mark.skip(reason="its backend is not in TEST_DATABASES"))])


@pytest.fixture(scope="session")
def postgres_server():
    """One server per test process. Its data lives outside pytest's temporary folder: every
    pytest started as root resets that folder to mode 0700, which would lock the server's own
    system user out of its data mid-run (issue 20)."""
    folder = Path(tempfile.mkdtemp(prefix="mastermind-tests-pg-"))
    try:
        server = PostgresServer(folder)
        yield server
        server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite file with every migration applied and no rows, made once per test process:
    copying it costs 6 ms of CPU where migrating a new file costs 75 ms (test_store_migrations
    and the tests marked ``new_database`` still migrate from nothing)."""
    path = tmp_path_factory.mktemp("migrated") / "mastermind.sqlite3"

    async def migrate() -> None:
        await (await Database.open(path)).close()

    with concurrent.futures.ThreadPoolExecutor(1) as thread:  # a loop of its own
        thread.submit(asyncio.run, migrate()).result()
    return path


@pytest.fixture
def db_path(backend: str, tmp_path: Path, request):
    """Where the bot keeps its data: a SQLite file, or a fresh PostgreSQL database's URL.
    (Named for the file it was first; tests read it with ``dbtools.connect``.) Both hold the
    current schema and no rows, unless the test is marked ``new_database``."""
    fresh = request.node.get_closest_marker("new_database") is not None
    if backend == "sqlite":
        path = tmp_path / "mastermind.sqlite3"
        if not fresh:
            shutil.copyfile(request.getfixturevalue("migrated_sqlite"), path)
        yield path
        return
    server = request.getfixturevalue("postgres_server")
    if not fresh:
        yield server.emptied_database()  # the current schema, every row deleted
        return
    url = server.new_database()
    yield url
    server.drop_database(url)


@pytest.fixture
async def db(db_path):
    """The bot's database at ``db_path``, opened (migrated) as the bot opens it."""
    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def start_bot(fake_discord, db_path, wall_clock, request):
    """Start a real MastermindBot against the fake Discord; call again to "restart" it.

    Its REST budget keeps virtual time (:mod:`virtual_time`): the order, merging and
    dropping of requests as in production, without the real tenths of a second its 15
    requests a second made each test wait (the breaker, settings and private-game tests:
    11.2 s -> 4.8 s). Tests of the pacing itself against Discord's global limit are marked
    ``real_time_pacing``."""

    async def start(**kwargs) -> MastermindBot:
        bot = MastermindBot(database=db_path, clock=wall_clock, **kwargs)
        if request.node.get_closest_marker("real_time_pacing") is None:
            virtual = VirtualTime()
            bot.rest_budget.retime(virtual.clock, virtual.sleep)
        await fake_discord.login(bot)
        return bot

    return start


def snapshot(db_path) -> dict[str, list]:
    """Every row of the game tables, read with a separate plain connection; columns are read
    by name (``row["status"]``), so a new migration never shifts them."""
    with contextlib.closing(connect(db_path)) as conn:
        conn.row_factory = sqlite3.Row
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("games", "guesses", "players")
        }


def without_drawn_pegs(text: object) -> str:
    """Text as a player reads it, less what can spell a code by chance: a drawn peg
    ``<:red_1a2b3c:1575…>`` is a picture and a mention ``<@1234…>`` or time ``<t:1795…:R>``
    a name or a date, so their digits are not text anyone sees, nor is an embed's colour
    (``"color": 5793266``) or timestamp; and a command shown as an example (``/guess
    1123``, in any language) is the same whatever the secret (a secret of 1123 is one game
    in 1,296)."""
    text = re.sub(r"<a?:\w+:\d+>", ":peg:", str(text))
    text = re.sub(r"<(@[!&]?|#|t:)\d+(:\w)?>", r"<\1_>", text)
    text = re.sub(r"(/[^\s`'\"]+) 1123\b", r"\1 <example>", text)
    return re.sub(r"""(["'](colou?r|timestamp)["']: )("[^"]*"|'[^']*'|\d+)""", r"\1_", text)


def secret_of(db_path, channel_id: int) -> str:
    with contextlib.closing(connect(db_path)) as conn:
        row = conn.execute(
            "SELECT secret FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
        ).fetchone()
    assert row is not None, "no active game in that channel"
    return row[0]


#: A challenge turn's opening words and guess: ``**My guess 2 of 10** · ...`` then the code,
#: large, with its digits (the turn's number and the guess, in English).
CHALLENGE_TURN = re.compile(r"^\*\*My guess (\d+) of \d+\*\* · .*\n#+ \S+ `(\d+)`", re.M)


def board_title(message) -> str:
    """A board's title: its embed's, or a Components V2 board's first heading (``### ...``),
    or a challenge turn's bold opening words (``**My guess 2 of 10** · ...``)."""
    if message.embeds:
        return message.embed["title"] or ""
    heading = re.search(r"^(?:#{1,3} (.+)|\*\*(.+?)\*\* · .*)$", message.text, re.M)
    return (heading[1] or heading[2]) if heading else ""


@pytest.fixture
def world(fake_discord):
    """A server with #general and #other, two players (alice, bob) and a moderator."""
    guild = fake_discord.guild("Mastermind Club")

    class World:
        pass

    world = World()
    world.guild = guild
    world.alice = fake_discord.member(guild, fake_discord.user("alice"))
    world.bob = fake_discord.member(guild, fake_discord.user("bob"))
    world.mod = fake_discord.member(
        guild, fake_discord.user("mod"), permissions=discord.Permissions(manage_messages=True)
    )
    world.general = next(iter(guild.channels.values()))
    world.other = fake_discord.channel(guild, "other")
    return world
