"""/challenge: the bot breaks a code the player keeps to themself, through real dispatch."""

from __future__ import annotations

import asyncio
import threading

import dbtools
import pytest
from conftest import CHALLENGE_TURN, board_title, secret_of, snapshot
from picking import open_picker, tap

from engine import memory, score

GUESS = CHALLENGE_TURN


async def start(fake, bot, world, user=None, channel=None, **options):
    result = await fake.slash(bot, "challenge", user=user or world.alice,
                              channel=channel or world.general, guild=world.guild, **options)
    return result


def pending(message) -> tuple[int, str]:
    """(turn, guess) the board asks about."""
    match = GUESS.search(message.text)
    assert match, message.text
    return int(match[1]), match[2]


def game_id(message) -> int:
    return int(message.custom_ids[0].split(":")[2])


async def answer(fake, bot, board, black, white, user, timeout=None):
    """Click the reply, through the black-count step when the board has one."""
    turn, _ = pending(board)
    gid = game_id(board)
    reply = f"mmc:r:{gid}:{turn}:{black}:{white}"
    if reply not in board.custom_ids:
        step = await fake.click(bot, board, f"mmc:b:{gid}:{turn}:{black}", user=user)
        assert not step.ephemeral, step.embed
        board = fake.message(board.id)
    return await fake.click(bot, board, reply, user=user, timeout=timeout)


async def crack(fake, bot, board, secret, user, limit=10):
    """Answer every guess truthfully until the board stops asking. Returns guesses used."""
    for _ in range(limit):
        turn, guess = pending(board)
        fb = score(secret, guess)
        result = await answer(fake, bot, board, fb.black, fb.white, user)
        assert not result.ephemeral, result.embed
        board = fake.message(board.id)
        if "My guess" not in board_title(board):
            return turn, board
    raise AssertionError("the bot never finished")


@pytest.mark.both_databases
async def test_the_bot_breaks_a_code(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    started = await start(fake_discord, bot, world)
    board = started.message
    # By default the bot plays optimally (the shipped 4x6 tree opens with 1123)...
    assert pending(board) == (1, "1123")
    # ...and only the 14 replies possible for 1123 are offered (3 black 1 white never is).
    offered = {c for c in board.custom_ids if c.startswith("mmc:r:")}
    assert len(offered) == 14 and "mmc:r:1:1:3:1" not in offered
    used, board = await crack(fake_discord, bot, board, "3632", world.alice)
    assert used <= 5
    assert board_title(board) == f"I broke your code in {used} guesses!"
    # no reply buttons left: Analyse and Play again only
    assert [c.split(":")[:2] for c in board.custom_ids] == [["mma", "g"], ["mmc", "again"]]
    rows = snapshot(db_path)
    assert rows["games"][0]["status"] == "won"
    with dbtools.connect(db_path) as conn:
        stored = conn.execute("SELECT turn, guess, black, white FROM challenge_replies").fetchall()
    assert len(stored) == used and stored[-1][2:] == (4, 0)


async def test_knuth_through_the_bot(fake_discord, start_bot, world):
    """The strategy option reaches the game and the board shows the code broken. Knuth's
    five guesses at most, over six secrets: tests/test_service_challenge.py."""
    secret = "6543"
    bot = await start_bot()
    board = (await start(fake_discord, bot, world, strategy="knuth")).message
    assert pending(board) == (1, "1122")
    used, board = await crack(fake_discord, bot, board, secret, world.alice)
    assert used <= 5
    assert secret in board.text


async def test_player_wins_by_the_guess_limit(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world, max_guesses=2)).message
    _, board = await crack(fake_discord, bot, board, "6543", world.alice)
    assert board_title(board) == "You win: I couldn't break your code"
    assert snapshot(db_path)["games"][0]["status"] == "lost"


async def test_impossible_reply_is_refused(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    before = snapshot(db_path)
    refused = await fake_discord.slash(bot, "feedback", user=world.alice, channel=world.general,
                                       guild=world.guild, black=3, white=1)
    assert refused.ephemeral
    assert "3 black and 1 white can't happen" in refused.embed["description"]
    assert snapshot(db_path) == before  # 4 black 4 white: tests/test_service_challenge.py
    assert "3●1○" not in [b.get("label") for b in board.buttons]
    assert "3●" in [b.get("label") for b in board.buttons]
    fake_discord.assert_no_violations()


async def test_feedback_command_plays_too(fake_discord, start_bot, world):
    bot = await start_bot()
    first = (await start(fake_discord, bot, world)).message
    result = await fake_discord.slash(bot, "feedback", user=world.alice, channel=world.general,
                                      guild=world.guild, black=0, white=0)
    assert not result.ephemeral
    turn, _ = pending(result.original)
    assert turn == 2
    assert fake_discord.message(first.id).custom_ids == []  # the old board's buttons are gone


@pytest.mark.both_databases
async def test_contradiction_take_back_and_reveal(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    secret = "6543"
    fb = score(secret, pending(board)[1])
    await answer(fake_discord, bot, board, fb.black, fb.white, world.alice)  # the truth
    # Now claim "nothing matches" until no code is left.
    for _ in range(8):
        board = fake_discord.message(board.id)
        if "contradict" in board_title(board):
            break
        await answer(fake_discord, bot, board, 0, 0, world.alice)
    board = fake_discord.message(board.id)
    assert board_title(board) == "Your replies contradict each other"
    gid = game_id(board)
    with dbtools.connect(db_path) as conn:
        made = conn.execute("SELECT COUNT(*) FROM challenge_replies").fetchone()[0]
    # The take-back names the reply it takes back: the last one.
    assert set(board.custom_ids) == {f"mmc:undo:{gid}:{made}", f"mmc:reveal:{gid}"}

    undone = await fake_discord.click(bot, board, f"mmc:undo:{gid}:{made}", user=world.alice)
    assert not undone.ephemeral
    board = fake_discord.message(board.id)
    assert "My guess" in board_title(board)
    with dbtools.connect(db_path) as conn:
        taken = conn.execute(
            "SELECT COUNT(*) FROM challenge_replies WHERE taken_back_at IS NOT NULL"
        ).fetchone()[0]
        kept = conn.execute("SELECT COUNT(*) FROM challenge_replies").fetchone()[0]
    assert taken == 1 and kept == made  # the take-back is recorded, nothing is deleted

    # Reveal my code opens a picker only the challenger sees; its Type button the form.
    _, picker = await open_picker(fake_discord, bot, board, world.alice, label="Reveal my code")
    opened = await tap(fake_discord, bot, picker, "t", world.alice)
    assert opened.modal is not None
    typo = await fake_discord.submit_modal(bot, opened, {"code": "65"}, user=world.alice)
    assert typo.ephemeral and "Expected 4 pegs, got 2" in typo.embed["description"]
    assert snapshot(db_path)["games"][0]["status"] == "active"
    # The answered form has closed (as in Discord): the Type button opens it again.
    opened = await tap(fake_discord, bot, picker, "t", world.alice)
    revealed = await fake_discord.submit_modal(bot, opened, {"code": secret}, user=world.alice)
    assert fake_discord.message(picker.id).content.startswith("You revealed")
    board = revealed.followups[0]  # the finished board, in the channel
    assert not board.ephemeral
    assert board_title(board) == "Code revealed"
    assert "These replies were wrong" in board.text
    assert "the right reply was" in board.text
    assert snapshot(db_path)["games"][0]["status"] == "quit"


async def test_a_stranger_cannot_answer(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    before = snapshot(db_path)
    gid = game_id(board)
    result = await fake_discord.click(bot, board, f"mmc:r:{gid}:1:0:0", user=world.bob)
    assert result.ephemeral and "not your challenge" in result.embed["title"]
    assert snapshot(db_path) == before  # a typed /feedback: tests/test_service_challenge.py


async def test_one_game_per_channel_and_quit(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    clash = await fake_discord.slash(bot, "mastermind new", user=world.bob,
                                     channel=world.general, guild=world.guild)
    assert clash.ephemeral and "`/challenge`" in clash.embed["description"]
    guessed = await fake_discord.slash(bot, "guess", user=world.bob, channel=world.general,
                                       guild=world.guild, code="1234")
    assert guessed.ephemeral and "challenge" in guessed.embed["title"].lower()
    again = await start(fake_discord, bot, world, user=world.bob)
    assert again.ephemeral and "already running" in again.embed["description"]
    fake_discord.assert_no_violations()
    ended = await fake_discord.slash(bot, "mastermind quit", user=world.alice,
                                     channel=world.general, guild=world.guild)
    assert not ended.ephemeral and ended.original.embed["title"] == "Challenge ended"
    assert snapshot(db_path)["games"][0]["status"] == "quit"
    finished = fake_discord.message(board.id)  # the live board, finished: no prompt, no replies
    assert [c for c in finished.custom_ids if not c.startswith(("mma:", "mmc:again:"))] == []
    assert board_title(finished) == "Challenge ended" and "score" not in finished.text


@pytest.mark.both_databases
async def test_a_double_click_counts_once(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    gid = game_id(board)
    first, second = await asyncio.gather(
        fake_discord.click(bot, board, f"mmc:r:{gid}:1:1:0", user=world.alice),
        fake_discord.click(bot, board, f"mmc:r:{gid}:1:1:0", user=world.alice),
    )
    refused = [r for r in (first, second) if r.messages and r.messages[-1].ephemeral]
    assert len(refused) == 1
    assert "out of date" in refused[0].messages[-1].embed["title"]
    told = refused[0].messages[-1].embed["description"]
    # Refused before its write, or by it: either way true words (never "on guess 1 now").
    assert "guess 1" in told.lower() and "I'm on guess 1 now" not in told, told
    with dbtools.connect(db_path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM challenge_replies").fetchone() == (1,)
    assert pending(fake_discord.message(board.id))[0] == 2


@pytest.mark.both_databases
async def test_restart_in_the_middle_keeps_the_buttons_working(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    secret = "2525"
    fb = score(secret, pending(board)[1])
    await answer(fake_discord, bot, board, fb.black, fb.white, world.alice)
    board = fake_discord.message(board.id)
    turn, guess = pending(board)
    await bot.close()

    bot = await start_bot()  # a new process: no view was re-registered by hand
    assert pending(fake_discord.message(board.id)) == (turn, guess)
    used, board = await crack(fake_discord, bot, fake_discord.message(board.id), secret,
                              world.alice)
    assert used <= 5
    assert board_title(board).startswith("I broke your code")


async def test_largest_rules_use_two_step_buttons(fake_discord, start_bot, world):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world, pegs=8, colors=9, max_guesses=20)).message
    gid = game_id(board)
    assert any(c.startswith(f"mmc:b:{gid}:1:") for c in board.custom_ids)
    # a black count with one reply only is that reply, one tap: 7 of 8 black, 8 (green)
    assert f"mmc:r:{gid}:1:7:0" in board.custom_ids and f"mmc:b:{gid}:1:7" not in board.custom_ids
    assert board.component(f"mmc:r:{gid}:1:8:0")["style"] == 3
    step = await fake_discord.click(bot, board, f"mmc:b:{gid}:1:1", user=world.alice)
    assert not step.ephemeral
    board = fake_discord.message(board.id)
    assert f"mmc:r:{gid}:1:1:0" in board.custom_ids
    assert f"mmc:back:{gid}:1" in board.custom_ids
    fake_discord.assert_no_violations()


async def test_event_loop_stays_responsive_during_a_slow_move(
    fake_discord, start_bot, world, db_path
):
    """While the bot thinks on an 8x9 challenge, a /guess elsewhere is answered at once."""
    bot = await start_bot()
    breaker = await fake_discord.slash(bot, "mastermind new", user=world.bob,
                                       channel=world.other, guild=world.guild)
    assert not breaker.ephemeral
    board = (await start(fake_discord, bot, world, pegs=8, colors=9, max_guesses=20)).message
    secret = "98765432"
    turn, guess = pending(board)
    fb = score(secret, guess)

    slow_started = asyncio.Event()
    release, finished = threading.Event(), threading.Event()
    original = bot.services.challenges.solvers.run

    async def slow_solver(function, *args, **kwargs):
        """The real 8x9 solver work, held in the worker thread until the other channel's
        guess is answered (events, not a sleep: no wall-time threshold to miss on a busy
        machine; were the work on the event loop, the guess could never be answered)."""

        def work():
            release.wait(timeout=60)  # blocks the worker thread only, never the event loop
            try:
                return function(*args, **kwargs)
            finally:
                finished.set()

        slow_started.set()
        return await original(work)

    bot.services.challenges.solvers.run = slow_solver
    # The real 8x9 move (deferred at once) takes several seconds of CPU on a busy machine.
    reply_task = asyncio.create_task(answer(fake_discord, bot, board, fb.black, fb.white,
                                            world.alice, timeout=60))
    await slow_started.wait()
    code = "1111" if secret_of(db_path, world.other.id) != "1111" else "2222"
    quick = await fake_discord.slash(bot, "guess", user=world.bob, channel=world.other,
                                     guild=world.guild, code=code)
    # The other channel was answered while the 8x9 move was still held in its thread.
    assert not quick.ephemeral and not finished.is_set() and not reply_task.done()
    release.set()
    reply = await reply_task
    assert not reply.ephemeral
    assert pending(fake_discord.message(board.id))[0] == turn + 1
    fake_discord.assert_no_violations()


async def test_mastermind_board_shows_the_challenge(fake_discord, start_bot, world):
    bot = await start_bot()
    first = (await start(fake_discord, bot, world)).message
    await answer(fake_discord, bot, first, 0, 1, world.alice)
    shown = await fake_discord.slash(bot, "mastermind board", user=world.bob,
                                     channel=world.general, guild=world.guild)
    board = shown.original
    assert pending(board)[0] == 2
    assert fake_discord.message(first.id).custom_ids == []  # one live board at a time
    result = await answer(fake_discord, bot, board, 0, 0, world.alice)
    assert not result.ephemeral
    assert pending(fake_discord.message(board.id))[0] == 3


async def test_solver_cache_stays_within_its_memory_budget(fake_discord, start_bot, world,
                                                          monkeypatch):
    bot = await start_bot()
    monkeypatch.setattr(bot.services.challenges.solvers, "max_bytes", 1)  # evict all but the newest
    # Knuth's 1122 and 3344 can both be answered "nothing" (the optimal tree's can't).
    first = (await start(fake_discord, bot, world, strategy="knuth")).message
    await answer(fake_discord, bot, first, 0, 0, world.alice)  # now it holds a possible set
    assert bot.services.challenges.solvers.session_nbytes(game_id(first)) > 1
    other = (await start(fake_discord, bot, world, channel=world.other, user=world.bob)).message
    assert len(bot.services.challenges.solvers) == 1
    # The evicted challenge is rebuilt from its stored replies when it is played again.
    first = fake_discord.message(first.id)
    result = await answer(fake_discord, bot, first, 0, 0, world.alice)
    assert not result.ephemeral and pending(fake_discord.message(first.id))[0] == 3
    assert pending(other)[0] == 1


async def test_the_memory_budget_is_shared_by_engine_tables_and_solver_sessions(
    fake_discord, start_bot
):
    before = memory.budget()
    try:
        bot = await start_bot(memory_budget=100 * 2**20)
        assert bot.services.challenges.solvers.max_bytes == 50 * 2**20
        assert memory.budget() == 50 * 2**20
        assert memory.nbytes() <= memory.budget()
    finally:
        memory.set_budget(before)

