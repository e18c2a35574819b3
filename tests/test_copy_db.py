"""``mastermind-bot copy-db FROM TO``: a SQLite database filled by playing through the bot's real
dispatch (games won, lost, quit and still running, hints, challenges, a match, the daily code,
server settings) is copied into a real PostgreSQL and from there into a new SQLite file; every
table's rows are equal end to end, and a bot started on the copy answers as the original did.
Re-runs, --replace, refusals and a failed check that rolls back, through the command line too.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import subprocess
import sys
from pathlib import Path

import dbtools
import discord
import pytest
from conftest import BACKENDS, secret_of
from test_bot_process import clean_environ

from bot.app import MastermindBot
from bot.copy_db import CopyRefused, VerificationFailed, copy_database
from bot.copy_db import main as copy_db_main
from bot.features.daily.service import secret_for
from bot.store import Database
from engine import Feedback, Rules, SolverSession, code_from_digits, format_code, score

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.sqlite_only,  # the source is the SQLite file db_path names; PG is made here
    pytest.mark.skipif("postgresql" not in BACKENDS, reason="needs PostgreSQL"),
]


# ---- reading both databases -----------------------------------------------------------------
def rows(target, sql, args=()) -> list[tuple]:
    with contextlib.closing(dbtools.connect(target)) as conn:
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]


def write(target, sql, args=()) -> None:
    with contextlib.closing(dbtools.connect(target)) as conn:
        conn.execute(sql, args)
        conn.commit()


def everything(target) -> dict[str, list[tuple]]:
    """Every row of every table, in a fixed order (columns in the migrations' order); read
    through one connection (one a table took 30 tables' connections to PostgreSQL)."""
    if dbtools.is_postgres(target):
        tables = ("SELECT table_name FROM information_schema.tables WHERE table_schema ="
                  " 'public' AND table_name != 'schema_migrations' ORDER BY 1")
    else:
        tables = ("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE"
                  " 'sqlite%' AND name != 'schema_migrations' ORDER BY 1")
    with contextlib.closing(dbtools.connect(target)) as conn:
        names = [name for (name,) in conn.execute(tables).fetchall()]
        return {name: sorted((tuple(r) for r in conn.execute(f"SELECT * FROM {name}")
                              .fetchall()), key=repr) for name in names}


# ---- playing --------------------------------------------------------------------------------
@pytest.fixture
def admin(fake_discord, world):
    return fake_discord.member(world.guild, fake_discord.user("admin"),
                               permissions=discord.Permissions(manage_guild=True))


async def slash(fake, bot, world, command, user=None, channel=None, **options):
    result = await fake.slash(bot, command, user=user or world.alice,
                              channel=channel or world.general, guild=world.guild, **options)
    return result


def wrong(secret: str, k: int = 1) -> str:
    code = list(secret)
    code[k % 4] = str(int(code[k % 4]) % 6 + 1)
    return "".join(code)


async def breaker(fake, bot, world, db_path, moves, **options):
    """A game in #general: ``moves`` are (player, "win" | "miss")."""
    await slash(fake, bot, world, "mastermind new", user=getattr(world, moves[0][0]), **options)
    secret = secret_of(db_path, world.general.id)
    for k, (player, kind) in enumerate(moves):
        code = secret if kind == "win" else wrong(secret, k)
        answer = await slash(fake, bot, world, "guess", user=getattr(world, player), code=code)
        assert not answer.ephemeral, answer.embed


def bot_guess(db_path, game_id) -> str:
    """The guess the bot is asking about, replayed from the stored replies and seed (a
    match's half-round keeps no pending guess)."""
    (pegs, colors, max_guesses, repeats, strategy, seed), = rows(
        db_path, "SELECT pegs, colors, max_guesses, repeats, strategy, seed FROM games"
                 " WHERE id = ?", (game_id,))
    replies = rows(db_path, "SELECT guess, black, white FROM challenge_replies WHERE"
                            " game_id = ? AND taken_back_at IS NULL ORDER BY turn", (game_id,))
    session = SolverSession.restore(
        Rules(pegs, colors, max_guesses, bool(repeats)), strategy,
        [(code_from_digits(g), Feedback(b, w)) for g, b, w in replies], seed=seed)
    return format_code(session.next_guess())


async def answer_the_bot(fake, bot, db_path, user, secret) -> None:
    """Answer a running challenge's guesses truthfully with its buttons until it ends."""
    for _ in range(20):
        found = rows(db_path, "SELECT id, pending_guess, board_message_id FROM games"
                              " WHERE kind = 'challenge' AND status = 'active'")
        if not found:
            return
        game_id, guess, board = found[0]
        guess = guess or bot_guess(db_path, game_id)
        (turn,), = rows(db_path, "SELECT COUNT(*) + 1 FROM challenge_replies WHERE game_id = ?"
                                 " AND taken_back_at IS NULL", (game_id,))
        fb = score(secret, guess)
        clicked = await fake.click(bot, fake.message(board),
                                   f"mmc:r:{game_id}:{turn}:{fb.black}:{fb.white}", user=user)
        assert not clicked.ephemeral, clicked.embed
    raise AssertionError("the challenge never ended")


async def fill(fake, bot, world, admin, db_path, wall_clock, *, full: bool = True) -> None:
    """Play a bit of everything the bot stores."""
    await breaker(fake, bot, world, db_path, [("alice", "miss"), ("bob", "miss"),
                                               ("alice", "win")])
    await breaker(fake, bot, world, db_path, [("bob", "win")])
    if not full:
        return
    await slash(fake, bot, world, "mastermind settings", user=admin, idle_hours=48.0)
    await breaker(fake, bot, world, db_path, [("alice", "miss"), ("bob", "miss")],
                  max_guesses=2)                                                   # lost
    wall_clock.advance(86400)
    await slash(fake, bot, world, "mastermind new", user=world.bob)
    await slash(fake, bot, world, "mastermind hint", user=world.bob)
    await slash(fake, bot, world, "guess", user=world.bob,
                code=secret_of(db_path, world.general.id))                         # hinted
    await slash(fake, bot, world, "mastermind new", pegs=5, colors=8)
    await slash(fake, bot, world, "mastermind quit")                               # quit
    for secret in ("1234", "6543", "2525"):
        await slash(fake, bot, world, "challenge")
        await answer_the_bot(fake, bot, db_path, world.alice, secret)
    # A match against the bot, one round: alice breaks its code at once, then it breaks 3632.
    await slash(fake, bot, world, "match", rounds=1, max_guesses=6)
    await slash(fake, bot, world, "guess", code=secret_of(db_path, world.general.id))
    await answer_the_bot(fake, bot, db_path, world.alice, "3632")
    assert rows(db_path, "SELECT status FROM matches") == [("finished",)]
    # Rated matches between people (each forfeited), a season apart: ratings, their changes
    # and counts, and the first season's final standings.
    for quitter in (world.alice, world.bob):
        invited = await slash(fake, bot, world, "match", rounds=1,
                              options={"opponent": world.bob})
        match_id = invited.message.custom_ids[0].split(":")[2]
        await fake.click(bot, invited.message, f"mmm:accept:{match_id}", user=world.bob)
        await slash(fake, bot, world, "mastermind quit", user=quitter)
        wall_clock.advance(31 * 86400)
    # A daily cap's pair count, as versions before migration 022 still write it (beside a
    # newer one in a rolling deploy): copied like every table.
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        conn.execute("INSERT INTO rating_pairs (guild_id, day, user_a, user_b, games)"
                     " VALUES (?, '2026-11-01', ?, ?, 1)",
                     (world.guild.id, world.alice.id, world.bob.id))
        conn.commit()
    # A race: bob leaves it (ranked last), alice breaks the code: races and racers, rated.
    opened = await slash(fake, bot, world, "race")
    (race_id, race_secret), = rows(db_path, "SELECT id, secret FROM races")
    await fake.click(bot, opened.message, f"mmr:join:{race_id}", user=world.bob)
    await fake.click(bot, opened.message, f"mmr:start:{race_id}", user=world.alice)
    await fake.click(bot, opened.message, f"mmr:leave:{race_id}", user=world.bob)
    await slash(fake, bot, world, "guess", code=race_secret)
    assert rows(db_path, "SELECT status FROM races") == [("finished",)]
    # The daily code, and a game left running in #other.
    (seed,), = rows(db_path, "SELECT value FROM bot_settings WHERE name = 'daily_seed'")
    day = dt.datetime.fromtimestamp(wall_clock.now, tz=dt.UTC).date().isoformat()
    daily = format_code(secret_for(seed, day))
    for code in (wrong(daily), daily):
        await slash(fake, bot, world, "daily play", guess=code)
    await slash(fake, bot, world, "mastermind new", user=world.bob, channel=world.other)
    await slash(fake, bot, world, "guess", user=world.bob, channel=world.other,
                code=wrong(secret_of(db_path, world.other.id)))
    # Puzzles: the day's, answered, and a random one left open.
    await slash(fake, bot, world, "puzzle today")
    (answer,), = rows(db_path, "SELECT answer FROM puzzle_plays")
    await slash(fake, bot, world, "puzzle answer", code=answer)
    await slash(fake, bot, world, "puzzle new", user=world.bob, level="hard")


async def answers(fake, bot, world) -> list:
    """What players see on the leaderboards and in /stats."""
    seen = []
    for command, options in (("leaderboard", {}), ("leaderboard", {"mode": "challenge"}),
                             ("stats", {"options": {"user": None}}),
                             ("daily leaderboard", {})):
        for user in (world.alice, world.bob):
            result = await slash(fake, bot, world, command, user=user, **options)
            seen.append((command, result.ephemeral, result.embed))
    return seen


async def copy_main(capsys, *args: object) -> subprocess.CompletedProcess:
    """``copy-db``'s own ``main`` (what ``python -m bot copy-db`` runs after reading its
    arguments), in this process: its exit code and what it printed, as :func:`copy_cli`
    gives them. In a thread: it runs its own event loop."""
    capsys.readouterr()
    code = await asyncio.to_thread(copy_db_main, [str(a) for a in args])
    printed = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, printed.out, printed.err)


def copy_cli(*args: str) -> subprocess.CompletedProcess:
    """The real command line: ``python -m bot copy-db ...``."""
    return subprocess.run([sys.executable, "-m", "bot", "copy-db", *map(str, args)],
                          cwd=ROOT, env=clean_environ(), capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def new_pg(postgres_server):
    made = []

    def make() -> str:
        made.append(postgres_server.new_database())
        return made[-1]

    yield make
    for url in made:
        postgres_server.drop_database(url)


# ---- the tests ------------------------------------------------------------------------------
async def test_sqlite_to_postgresql_and_back(fake_discord, start_bot, world, admin, db_path,
                                            wall_clock, new_pg, tmp_path):
    bot = await start_bot()
    await fill(fake_discord, bot, world, admin, db_path, wall_clock)
    seen = await answers(fake_discord, bot, world)
    board, hard, stats, daily = (str(seen[k][2]) for k in (0, 2, 4, 6))
    assert "alice" in board and "bob" in board and "alice" in hard and "alice" in daily
    assert "Games played" in stats and "Challenges" in stats and "Matches" in stats
    await bot.close()
    original = everything(db_path)
    assert {t for t, r in original.items() if not r} == set(), "every table has rows"

    url = new_pg()
    report = await copy_database(str(db_path), url)
    assert {t.name: t.rows for t in report.tables} == {t: len(r) for t, r in original.items()}
    order = [t.name for t in report.tables]
    assert order.index("matches") < order.index("games") < order.index("guesses")
    assert order.index("daily_plays") < order.index("daily_guesses")
    assert everything(url) == original

    back = tmp_path / "back.sqlite3"
    await copy_database(url, f"sqlite:///{back}")
    assert everything(back) == original

    # A bot on the PostgreSQL copy answers as the original did, and carries on.
    copy = MastermindBot(database=url, clock=wall_clock)
    await fake_discord.login(copy)
    assert await answers(fake_discord, copy, world) == seen
    running = secret_of(url, world.other.id)
    won = await slash(fake_discord, copy, world, "guess", user=world.bob, channel=world.other,
                      code=running)
    assert not won.ephemeral and "🎉" in str(won.embed)
    (largest,), = rows(url, "SELECT MAX(id) FROM games")
    await slash(fake_discord, copy, world, "mastermind new", channel=world.other)
    assert rows(url, "SELECT MAX(id) FROM games") == [(largest + 1,)]  # the sequence moved on
    await slash(fake_discord, copy, world, "mastermind settings", user=admin, hints=False)
    assert rows(url, "SELECT COUNT(*), COUNT(DISTINCT id) FROM settings_log") == [(2, 2)]
    await copy.close()
    fake_discord.assert_no_violations()


async def test_re_runs_replace_and_refusals_on_the_command_line(
        fake_discord, start_bot, world, admin, db_path, wall_clock, new_pg, tmp_path, capsys):
    """The first copy through the real command line (``python -m bot copy-db``); the
    re-runs through its ``main`` in this process (the same exit codes and words)."""
    bot = await start_bot()
    await fill(fake_discord, bot, world, admin, db_path, wall_clock, full=False)
    await bot.close()
    original = everything(db_path)
    url = new_pg()

    done = copy_cli(db_path, url)
    assert done.returncode == 0, done.stderr
    assert "verified" in done.stdout and "games" in done.stdout and "rows/s" in done.stdout
    assert everything(url) == original

    # Again: TO holds data now, so it is refused and left as it was.
    again = await copy_main(capsys, db_path, url)
    assert again.returncode == 2
    assert "already holds data" in again.stderr and "--replace" in again.stderr
    assert "Nothing was changed" in again.stderr
    assert everything(url) == original

    # --replace: whatever TO held is replaced, and running it twice gives the same rows.
    write(url, "INSERT INTO players (user_id, display_name, updated_at) VALUES (7, 'x', 1.0)")
    replaced = await copy_main(capsys, db_path, url, "--replace")
    assert replaced.returncode == 0, replaced.stderr
    held = sum(map(len, original.values())) + 1
    assert f"--replace: deleted the {held} rows TO held first" in replaced.stdout
    assert everything(url) == original
    report = await copy_database(str(db_path), url, replace=True, rebuild=False)
    assert report.replaced == report.rows == held - 1 and not report.rebuilt
    assert everything(url) == original

    # A TO holding one row says so in the singular (issue 20: "(1 rows)").
    lone = new_pg()
    await (await Database.open(lone)).close()
    write(lone, "INSERT INTO players (user_id, display_name, updated_at) VALUES (7, 'x', 1.0)")
    refused = await copy_main(capsys, db_path, lone)
    assert refused.returncode == 2 and "already holds data: players (1 row)." in refused.stderr

    # The same database twice, however it is spelt; a FROM that does not exist.
    for source, target in ((db_path, db_path), (f"sqlite:///{db_path}", db_path), (url, url)):
        with pytest.raises(CopyRefused, match="same database"):
            await copy_database(str(source), str(target), replace=True)
    missing = tmp_path / "missing.sqlite3"
    with pytest.raises(CopyRefused, match="not a file"):
        await copy_database(str(missing), url, replace=True)
    assert not missing.exists()
    assert everything(url) == original and everything(db_path) == original


async def test_a_failed_check_rolls_back_and_changes_nothing(
        fake_discord, start_bot, world, admin, db_path, wall_clock, new_pg, capsys):
    bot = await start_bot()
    await fill(fake_discord, bot, world, admin, db_path, wall_clock, full=False)
    await bot.close()
    url = new_pg()
    await copy_database(str(db_path), url)
    copied = everything(url)

    # FROM's leaderboard disagrees with its own games: the rebuild on the copy catches it.
    write(db_path, "UPDATE standings SET won = won + 1 WHERE rowid = (SELECT MIN(rowid)"
                  " FROM standings)")
    with pytest.raises(VerificationFailed, match="standings"):
        await copy_database(str(db_path), url, replace=True)
    assert everything(url) == copied  # the --replace's deletes were rolled back too
    failed = await copy_main(capsys, db_path, url, "--replace")
    assert failed.returncode == 1 and "rolled back" in failed.stderr
    assert everything(url) == copied

    # A schema from another version of the bot is refused before anything is written.
    write(db_path, "INSERT INTO schema_migrations (version, name, applied_at)"
                  " VALUES (99, '099_future', 0)")
    with pytest.raises(CopyRefused, match="schema version 99"):
        await copy_database(str(db_path), url, replace=True)
    assert everything(url) == copied
