"""Exactly once under faults: repeated deliveries, stale and malformed buttons, changed
commands, a locked or broken database. Through the real dispatch and a real SQLite file."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

import dbtools
import discord
import pytest
from conftest import secret_of, snapshot
from test_bot_challenge import game_id, start

from bot.store.postgres import WRITE_LOCK

pytestmark = pytest.mark.both_databases  # the database is the point of every test here


def rows(db_path, sql: str) -> list[tuple]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return conn.execute(sql).fetchall()


async def new_game(fake, bot, world, **options):
    return await fake.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                            guild=world.guild, **options)


async def guess(fake, bot, world, code, user=None):
    return await fake.slash(bot, "guess", user=user or world.alice, channel=world.general,
                            guild=world.guild, code=code)


def wrong(secret: str) -> str:
    return str(int(secret[0]) % 6 + 1) + secret[1:]


async def test_a_guess_delivered_twice_is_stored_once(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    first = await guess(fake_discord, bot, world, wrong(secret_of(db_path, world.general.id)))
    assert not first.ephemeral
    fake_discord.expect_violation(40060)  # Discord refuses the second answer
    await fake_discord.redeliver(bot, first)
    assert len(snapshot(db_path)["guesses"]) == 1


async def test_a_click_delivered_twice_is_stored_once(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    clicked = await fake_discord.click(bot, board, f"mmc:r:{game_id(board)}:1:0:1",
                                       user=world.alice)
    fake_discord.expect_violation(40060)
    await fake_discord.redeliver(bot, clicked)
    assert rows(db_path, "SELECT turn FROM challenge_replies") == [(1,)]


async def test_the_same_code_sent_twice_at_once_takes_one_turn(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    code = wrong(secret_of(db_path, world.general.id))
    one, two = await asyncio.gather(guess(fake_discord, bot, world, code),
                                    guess(fake_discord, bot, world, code))
    told = [r for r in (one, two) if r.ephemeral]
    assert len(told) == 1 and "costs no turn" in told[0].embed["description"]
    assert len(snapshot(db_path)["guesses"]) == 1


async def test_a_code_already_on_the_board_costs_no_turn(fake_discord, start_bot, world,
                                                         db_path):
    bot = await start_bot()
    await new_game(fake_discord, bot, world, max_guesses=2)
    code = wrong(secret_of(db_path, world.general.id))
    await guess(fake_discord, bot, world, code)
    again = await guess(fake_discord, bot, world, code, user=world.bob)
    assert again.ephemeral and again.embed["title"] == "Already on the board"
    assert "turn 1" in again.embed["description"]
    assert [g["status"] for g in snapshot(db_path)["games"]] == ["active"]  # still 1 guess left


async def test_one_click_delivered_twice_at_once_is_stored_once(
    fake_discord, start_bot, world, db_path
):
    """Two processes on one token during a deploy both receive the same click."""
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    deliver = fake_discord.stale_click(board, f"mmc:r:{game_id(board)}:1:0:1", user=world.alice)
    fake_discord.expect_violation(40060)
    await asyncio.gather(deliver(bot), deliver(bot))
    assert rows(db_path, "SELECT turn, interaction_id IS NOT NULL FROM challenge_replies") == [
        (1, 1)]


class HeldLock:
    """Another process holding the database's write lock: ``BEGIN EXCLUSIVE`` on SQLite, the
    writers' advisory lock in an open transaction on PostgreSQL."""

    def __init__(self, db_path):
        if dbtools.is_postgres(db_path):
            self.conn = dbtools.connect(db_path)
            self.conn.execute(f"BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK})")
        else:
            self.conn = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
            self.conn.execute("BEGIN EXCLUSIVE")

    def release(self) -> None:
        self.conn.execute("ROLLBACK")
        self.conn.close()


async def test_a_write_waiting_for_a_held_lock_defers_then_stores_the_move(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    code = wrong(secret_of(db_path, world.general.id))
    lock = HeldLock(db_path)
    asyncio.get_running_loop().call_later(4.0, lock.release)
    played, shown = await asyncio.gather(
        guess(fake_discord, bot, world, code),
        fake_discord.slash(bot, "mastermind board", user=world.bob, channel=world.general,
                           guild=world.guild),
    )
    # The guess was deferred within Discord's 3 s, then answered with the board once stored.
    assert played.response.type == 5
    assert played.response.at - played.record.created_at < 3
    assert not played.ephemeral and code in played.original.embed["description"]
    assert [g["code"] for g in snapshot(db_path)["guesses"]] == [code]
    # Reading the board never waits for the write lock.
    assert shown.response.type == 4 and shown.response.at - shown.record.created_at < 1
    fake_discord.assert_no_violations()


async def test_a_lock_held_past_patience_stores_nothing_and_says_so(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    before = snapshot(db_path)
    bot.db.patience = 1.5
    lock = HeldLock(db_path)
    try:
        result = await guess(fake_discord, bot, world, "1234")
    finally:
        lock.release()
    told = result.messages[-1]  # after the deferral: the placeholder goes, this stays
    assert told.ephemeral and told.embed["title"] == "Nothing was stored"
    assert "busy" in told.embed["description"]
    assert snapshot(db_path) == before


MALFORMED = [
    "mmc:r:1", "mmc:r", "mmc:", "mmc:undo:1", "mmc:r:99999999999999999999:1:0:0",
    "mmc:r:1:1:0:99999999999999999999", "mmc:zap:1", "mmc:r:x:1:0:0",
    "mml:breaker:1", "mml:breaker:99999999999999999999:all:4x6:0:next", "mml:other",
    "mmf:yes", "mmf:yes:99999999999999999999", "mmf:maybe:1", "mmq:old:format", "mmz:",
    "mmc:b:1:1:9", "mmh:nope", "mmh:",  # 9 blacks of 4 pegs; a help page that isn't
]


async def test_malformed_and_old_button_ids_get_a_clear_answer(fake_discord, start_bot, world,
                                                               db_path):
    bot = await start_bot()
    await start(fake_discord, bot, world)  # a running challenge #1 that nothing may touch
    before = snapshot(db_path), rows(db_path, "SELECT * FROM challenge_replies")
    for k in range(0, len(MALFORMED), 5):
        message = fake_discord.old_message(world.general, MALFORMED[k:k + 5])
        for custom_id in MALFORMED[k:k + 5]:
            result = await fake_discord.click(bot, message, custom_id, user=world.alice)
            told = result.messages[-1]
            assert told.ephemeral, custom_id
            assert "out of date" in told.embed["title"] or "older" in told.embed["description"], (
                custom_id, told.embed)
    assert (snapshot(db_path), rows(db_path, "SELECT * FROM challenge_replies")) == before
    fake_discord.assert_no_violations()


async def test_a_command_changed_since_the_client_loaded_it(fake_discord, start_bot, world,
                                                            caplog):
    bot = await start_bot()
    bot.tree.remove_command("feedback")  # a newer version of the bot dropped it
    result = await fake_discord.slash(bot, "feedback", user=world.alice, channel=world.general,
                                      guild=world.guild, black=0, white=0)
    assert result.ephemeral and result.embed["title"] == "This command was updated"
    assert any(r.levelname == "WARNING" and "changed" in r.getMessage() for r in caplog.records)


@contextlib.contextmanager
def small_disk(tmp_path):
    """A 1 MiB tmpfs (where this machine lets the tests mount one): room for a new
    database and its write-ahead log of the migrations, little more."""
    import subprocess

    mount = tmp_path / "small-disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                          capture_output=True)
    if made.returncode != 0:
        import pytest

        pytest.skip(f"can't mount a small tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


async def test_a_full_disk_mid_game_stores_nothing_and_says_so(fake_discord, start_bot, world,
                                                               tmp_path, wall_clock):
    from bot.app import MastermindBot

    with small_disk(tmp_path) as disk:
        db = disk / "games.sqlite3"
        bot = MastermindBot(database=db, clock=wall_clock)
        await fake_discord.login(bot)
        await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                                 guild=world.guild)
        filler = disk / "filler"
        with contextlib.suppress(OSError), open(filler, "wb") as out:
            while True:
                out.write(b"\0" * 4096)
                out.flush()
        before = snapshot(db)
        results = [await guess(fake_discord, bot, world, code)
                   for code in ("1234", "2345", "3456", "4561", "5612", "6123")]
        told = [r.messages[-1] for r in results if r.messages[-1].ephemeral]
        assert told, "the disk never filled up"
        assert told[0].embed["title"] == "Nothing was stored"
        assert "disk is full" in told[0].embed["description"]
        stored = snapshot(db)["guesses"]
        shown = [r for r in results if not r.messages[-1].ephemeral]
        assert len(stored) == len(before["guesses"]) + len(shown)  # told == stored
        await bot.close()


async def test_a_board_that_cannot_be_shown_after_the_move_was_stored_says_so(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    # Discord refuses the edit of the board once (after the reply was committed).
    fake_discord.state.fail_next("PATCH", r"/webhooks/\d+/[^/]+/messages/@original", 400, 50035,
                                 "Invalid Form Body")
    result = await fake_discord.click(bot, board, f"mmc:r:{game_id(board)}:1:0:1",
                                      user=world.alice)
    told = result.messages[-1]
    assert told.ephemeral and told.embed["title"] == "Saved, but not shown"
    assert "Don't repeat it" in told.embed["description"]
    assert rows(db_path, "SELECT turn, black, white FROM challenge_replies") == [(1, 0, 1)]


async def test_an_interaction_that_expired_before_the_answer_is_only_logged(
    fake_discord, start_bot, world, db_path, caplog
):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    code = wrong(secret_of(db_path, world.general.id))
    fake_discord.state.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 404, 10062,
                                 "Unknown interaction", times=2)
    fake_discord.expect_error(discord.NotFound)  # reaches the tree's error handler, reported
    await fake_discord.slash(bot, "guess", user=world.alice, channel=world.general,
                             guild=world.guild, code=code, expect_response=False)
    stored = [g["code"] for g in snapshot(db_path)["guesses"]]
    assert stored == [code]  # the move stands: /mastermind board shows it
    assert any("expired" in r.getMessage() and "move stored" in r.getMessage()
               for r in caplog.records if r.levelname == "WARNING")


async def test_rate_limits_and_server_errors_are_retried_and_the_move_answered_once(
    fake_discord, start_bot, world, db_path, caplog
):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    code = wrong(secret_of(db_path, world.general.id))
    fake_discord.state.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 429, 0,
                                 "You are being rate limited.")
    fake_discord.state.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 500, 0,
                                 "Internal Server Error")
    result = await guess(fake_discord, bot, world, code)
    boards = [m for m in result.messages if m.embeds and not m.ephemeral]
    assert not result.ephemeral and len(boards) == 1  # the board, once
    assert [g["code"] for g in snapshot(db_path)["guesses"]] == [code]
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_slow_discord_still_gets_one_answer_and_one_move(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    secret = secret_of(db_path, world.general.id)
    fake_discord.state.slow_next("POST", r"/interactions/\d+/[^/]+/callback", 1.5, times=2)
    first, second = await asyncio.gather(
        guess(fake_discord, bot, world, wrong(secret)),
        guess(fake_discord, bot, world, wrong(secret), user=world.bob),
    )
    answers = sorted([first.ephemeral, second.ephemeral])
    assert answers == [False, True]  # one board; the repeat costs no turn and says so
    assert len(snapshot(db_path)["guesses"]) == 1


async def test_a_connection_dropped_after_discord_took_the_answer_is_logged_as_such(
    fake_discord, start_bot, world, db_path, caplog
):
    """Issue 20: it was logged as an unexpected error with a traceback, then "delivered
    twice?". Discord has the answer; the bot can't know until its second try is refused."""
    import logging

    import aiohttp

    caplog.set_level(logging.INFO, logger="bot")
    bot = await start_bot()
    await new_game(fake_discord, bot, world)
    code = wrong(secret_of(db_path, world.general.id))
    fake_discord.state.drop_after_next("POST", r"/interactions/\d+/[^/]+/callback")
    fake_discord.expect_error(aiohttp.ServerDisconnectedError)  # reaches the tree, reported
    fake_discord.expect_violation(40060)  # the error message, refused: answered already
    result = await guess(fake_discord, bot, world, code)
    assert not result.ephemeral and code in result.original.embed["description"]
    assert [g["code"] for g in snapshot(db_path)["guesses"]] == [code]
    said = [(r.levelname, r.getMessage()) for r in caplog.records if r.name.startswith("bot")]
    assert any(level == "WARNING" and "connection to Discord dropped while answering guess"
               in text and "move stored" in text for level, text in said), said
    assert any(level == "INFO" and "Discord had taken the answer before the connection "
               "dropped" in text for level, text in said), said
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    assert not any("delivered twice" in text for _, text in said)
    fake_discord.assert_no_violations()
