"""One pass per move: each action names the turn it answers, is written once, and a stale
or repeated one changes nothing. Through the real dispatch and a real SQLite file."""

from __future__ import annotations

import asyncio
import contextlib

import dbtools
import pytest
from conftest import board_title, secret_of, snapshot
from test_bot_challenge import answer, game_id, pending, start

from bot.store import ReplyStore
from engine import score


def replies(db_path) -> list[tuple]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return conn.execute(
            "SELECT turn, black, white, taken_back_at IS NOT NULL FROM challenge_replies"
            " ORDER BY id").fetchall()


async def feedback(fake, bot, world, black, white, user=None):
    return await fake.slash(bot, "feedback", user=user or world.alice, channel=world.general,
                            guild=world.guild, black=black, white=white)


def out_of_date(result) -> bool:
    return bool(result.messages) and result.messages[-1].ephemeral and (
        "out of date" in result.messages[-1].embed["title"])


@pytest.mark.both_databases
async def test_two_feedbacks_sent_together_answer_only_the_guess_shown(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    await start(fake_discord, bot, world)
    first, second = await asyncio.gather(feedback(fake_discord, bot, world, 0, 1),
                                         feedback(fake_discord, bot, world, 0, 1))
    stale = [r for r in (first, second) if out_of_date(r)]
    shown = [r for r in (first, second) if not out_of_date(r)]
    assert len(stale) == 1 and len(shown) == 1
    told = stale[0].messages[-1].embed["description"]
    assert "Nothing was stored" in told
    # It typed, so it hears of the other reply to the guess it saw, not of a button (issue
    # 20), in every order: on PostgreSQL it may read the game's row before the other's
    # commit and the replies after it. On a loaded machine it may read only after the other
    # was stored, and then guess 2 was up before it was read: it is told that instead.
    assert (("Another reply to guess 1 " in told and "Nothing was stored from yours" in told)
            or "My guess 2 went up after you typed that" in told), told
    assert "button" not in told and "click" not in told
    assert replies(db_path) == [(1, 0, 1, 0)]
    assert pending(shown[0].original)[0] == 2
    # Typed after guess 2 was shown, the same command answers guess 2.
    later = await feedback(fake_discord, bot, world, 0, 0)
    assert not later.ephemeral and pending(later.original)[0] == 3
    assert [r[0] for r in replies(db_path)] == [1, 2]
    fake_discord.assert_no_violations()


@pytest.mark.both_databases
async def test_a_feedback_that_reads_the_board_across_another_reply_names_the_guess_it_saw(
    fake_discord, start_bot, world, db_path, monkeypatch
):
    """Two ``/feedback`` sent together: the first reads the game's row (guess 1 on the
    board), and its replies only after the second was stored (the two reads are apart on
    PostgreSQL, and on SQLite's read connection too). It answered guess 1 and is told so."""
    bot = await start_bot()
    await start(fake_discord, bot, world)
    paused, resume = asyncio.Event(), asyncio.Event()
    read_replies = ReplyStore.standing

    async def standing_after_the_other(self, conn, game_id):
        if not paused.is_set():  # the first read of the replies: the slow one's
            paused.set()
            await resume.wait()
        return await read_replies(self, conn, game_id)

    monkeypatch.setattr(ReplyStore, "standing", standing_after_the_other)
    slow = asyncio.create_task(feedback(fake_discord, bot, world, 0, 1))
    await asyncio.wait_for(paused.wait(), 5)
    quick = await feedback(fake_discord, bot, world, 0, 1)
    assert pending(quick.original)[0] == 2
    resume.set()
    stale = await slow
    assert out_of_date(stale)
    told = stale.messages[-1].embed["description"]
    assert "Another reply to guess 1 " in told and "Nothing was stored from yours" in told, told
    assert replies(db_path) == [(1, 0, 1, 0)]
    fake_discord.assert_no_violations()


@pytest.mark.both_databases
async def test_a_double_click_on_take_back_takes_back_one_reply(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    gid = game_id(board)
    await answer(fake_discord, bot, board, 0, 1, world.alice)
    board = fake_discord.message(board.id)
    await answer(fake_discord, bot, board, 0, 0, world.alice)
    board = fake_discord.message(board.id)
    assert pending(board)[0] == 3 and f"mmc:undo:{gid}:2" in board.custom_ids
    first, second = await asyncio.gather(
        fake_discord.click(bot, board, f"mmc:undo:{gid}:2", user=world.alice),
        fake_discord.click(bot, board, f"mmc:undo:{gid}:2", user=world.alice),
    )
    assert sum(out_of_date(r) for r in (first, second)) == 1
    told = next(r for r in (first, second) if out_of_date(r)).messages[-1].embed["description"]
    assert "reply to guess 2" in told and "is to guess 2 now" not in told, told
    assert replies(db_path) == [(1, 0, 1, 0), (2, 0, 0, 1)]  # only reply 2 was taken back
    assert pending(fake_discord.message(board.id))[0] == 2


async def test_an_old_boards_take_back_does_not_undo_the_latest_reply(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    await start(fake_discord, bot, world)
    old = (await feedback(fake_discord, bot, world, 0, 1)).original  # board for guess 2
    gid = game_id(old)
    late_click = fake_discord.stale_click(old, f"mmc:undo:{gid}:1", user=world.alice)
    newer = (await feedback(fake_discord, bot, world, 0, 0)).original  # board for guess 3
    before = snapshot(db_path), replies(db_path)
    result = await late_click(bot)
    assert out_of_date(result)
    assert "guess 1" in result.messages[-1].embed["description"]
    assert (snapshot(db_path), replies(db_path)) == before
    assert pending(fake_discord.message(newer.id))[0] == 3


@pytest.mark.both_databases
async def test_a_reply_and_a_take_back_at_once_apply_exactly_one(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    gid = game_id(board)
    await answer(fake_discord, bot, board, 0, 1, world.alice)
    board = fake_discord.message(board.id)
    turn, guess = pending(board)
    fb = score("6543", guess)
    undo, reply = await asyncio.gather(
        fake_discord.click(bot, board, f"mmc:undo:{gid}:1", user=world.alice),
        fake_discord.click(bot, board, f"mmc:r:{gid}:{turn}:{fb.black}:{fb.white}",
                           user=world.alice),
    )
    assert sum(out_of_date(r) for r in (undo, reply)) == 1
    standing = [r for r in replies(db_path) if not r[3]]
    assert [r[0] for r in standing] == list(range(1, len(standing) + 1))  # no gap, no twin


async def test_challenge_after_an_idle_game_says_it_was_abandoned_and_its_code(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    await fake_discord.slash(bot, "mastermind new", user=world.bob, channel=world.general,
                             guild=world.guild)
    secret = secret_of(db_path, world.general.id)
    wall_clock.advance(25 * 3600)
    started = await start(fake_discord, bot, world)
    note = started.original.text.splitlines()[0]  # a line above the new board
    assert "abandoned" in note and f"`{secret}`" in note
    assert board_title(started.original) == "My guess 1 of 10"
    assert [g["status"] for g in snapshot(db_path)["games"]] == ["abandoned", "active"]


async def test_new_game_after_an_idle_challenge_has_no_empty_code(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    await start(fake_discord, bot, world)
    wall_clock.advance(25 * 3600)
    started = await fake_discord.slash(bot, "mastermind new", user=world.bob,
                                       channel=world.general, guild=world.guild)
    description = started.embed["description"]
    assert "previous challenge here" in description and "abandoned" in description
    assert "``" not in description
    # Its code was the challenger's: never shown to the bot, so said to be unrevealed.
    assert f"its code was never revealed (only <@{world.alice.id}> knew it)" in description


async def test_feedback_after_an_idle_challenge_says_its_code_was_never_revealed(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    await start(fake_discord, bot, world)
    wall_clock.advance(25 * 3600)
    late = await feedback(fake_discord, bot, world, 0, 1)
    assert late.ephemeral and late.embed["title"] == "No game is running here"
    assert ("The last challenge here went 24 hours without a move and was abandoned; its code "
            f"was never revealed (only <@{world.alice.id}> knew it)") in late.embed["description"]
    assert "`/challenge`" in late.embed["description"]


async def test_feedback_typed_before_a_guess_was_shown_is_refused_in_challenges_and_matches(
    fake_discord, start_bot, world, db_path
):
    """Issue 20: in a match, /feedback typed before the bot's half showed its first guess
    was taken as the answer to it; /challenge refused the same as out of date."""
    from test_bot_match import running_game

    bot = await start_bot()
    early = fake_discord.late_slash("feedback", user=world.alice, channel=world.general,
                                    guild=world.guild, black=0, white=1)
    await start(fake_discord, bot, world)
    refused = await early(bot)
    assert out_of_date(refused) and "after you typed that" in refused.embed["description"]
    assert replies(db_path) == []
    await fake_discord.slash(bot, "mastermind quit", user=world.alice, channel=world.general,
                             guild=world.guild)

    # A match against the bot: alice breaks its code at once, then it breaks hers.
    await fake_discord.slash(bot, "match", user=world.alice, channel=world.general,
                             guild=world.guild, rounds=1)
    secret = running_game(db_path, world.general.id)["secret"]
    early = fake_discord.late_slash("feedback", user=world.alice, channel=world.general,
                                    guild=world.guild, black=0, white=1)
    won = await fake_discord.slash(bot, "guess", user=world.alice, channel=world.general,
                                   guild=world.guild, code=secret)
    assert not won.ephemeral
    half = running_game(db_path, world.general.id)
    assert half["kind"] == "challenge"
    before = snapshot(db_path), replies(db_path)
    refused = await early(bot)
    assert out_of_date(refused) and "after you typed that" in refused.embed["description"]
    assert (snapshot(db_path), replies(db_path)) == before
    # Typed after the guess was shown, the same reply is the answer to it.
    later = await feedback(fake_discord, bot, world, 0, 1)
    assert not later.ephemeral, later.embed
    assert replies(db_path) == [(1, 0, 1, 0)]


class StatementLog:
    """Every SQL statement both of the bot's connections run, from a point on."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    async def attach(self, bot) -> None:
        await bot.db.connection.set_trace_callback(lambda s: self.lines.append("w " + s))
        reader = await bot.db.reader()
        await reader.set_trace_callback(lambda s: self.lines.append("r " + s))

    @property
    def writes(self) -> int:
        return sum(line.startswith("w BEGIN IMMEDIATE") for line in self.lines)

    @property
    def reads(self) -> int:
        """Read passes: runs of consecutive statements on the read connection."""
        runs, previous = 0, ""
        for line in self.lines:
            if line.startswith("r ") and not previous.startswith("r "):
                runs += 1
            previous = line
        return runs


@pytest.mark.sqlite_only  # counted with SQLite's trace; PostgreSQL runs the same statements
async def test_a_click_is_one_write_transaction_of_few_statements(
    fake_discord, start_bot, world
):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    log = StatementLog()
    await log.attach(bot)
    await answer(fake_discord, bot, board, 0, 1, world.alice)
    assert log.writes == 1, log.lines
    assert len(log.lines) <= 7, log.lines


@pytest.mark.sqlite_only  # counted with SQLite's trace; PostgreSQL runs the same statements
async def test_feedback_is_one_read_and_one_write(fake_discord, start_bot, world):
    bot = await start_bot()
    await start(fake_discord, bot, world)
    log = StatementLog()
    await log.attach(bot)
    result = await feedback(fake_discord, bot, world, 0, 1)
    assert not result.ephemeral
    assert (log.reads, log.writes) == (1, 1), log.lines


@pytest.mark.both_databases
async def test_per_game_locks_are_dropped_after_each_move(fake_discord, start_bot, world):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    await answer(fake_discord, bot, board, 0, 1, world.alice)
    await answer(fake_discord, bot, fake_discord.message(board.id), 0, 0, world.alice)
    assert bot.services.challenges.solvers.lock_count == 0
