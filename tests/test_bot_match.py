"""/match: the 1978 game of rounds against the bot and between two people, and codes set by
people (/mastermind new setter:me), through discord.py's real dispatch with a real SQLite
file. Scores are read back from the database and from the scoreboard players see."""

from __future__ import annotations

import contextlib
import sqlite3

import dbtools
import pytest
from conftest import board_title, snapshot, without_drawn_pegs
from picking import tap

from engine import Feedback, SolverSession, code_from_digits, score
from engine.rules import Rules


# ---- reading the stored state ---------------------------------------------------------------
def rows(db_path, sql, *args) -> list[sqlite3.Row]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute(sql, args).fetchall()


def the_match(db_path) -> sqlite3.Row:
    return rows(db_path, "SELECT * FROM matches ORDER BY id DESC LIMIT 1")[0]


def running_game(db_path, channel_id) -> sqlite3.Row:
    found = rows(db_path, "SELECT * FROM games WHERE channel_id = ? AND status = 'active'",
                 channel_id)
    assert found, "no running game"
    return found[0]


def everything(db_path) -> dict:
    """Every stored row a refused action must leave as it was."""
    state = snapshot(db_path)
    for table in ("matches", "challenge_replies", "match_results", "results"):
        state[table] = rows(db_path, f"SELECT * FROM {table} ORDER BY 1, 2")
    return state


def bot_guess(db_path, game_id) -> str:
    """The guess the bot is asking about: the engine replays the stored replies and seed."""
    game = rows(db_path, "SELECT * FROM games WHERE id = ?", game_id)[0]
    rules = Rules(game["pegs"], game["colors"], game["max_guesses"], bool(game["repeats"]))
    replies = rows(db_path, "SELECT guess, black, white FROM challenge_replies WHERE game_id = ?"
                   " AND taken_back_at IS NULL ORDER BY turn", game_id)
    session = SolverSession.restore(
        rules, game["strategy"],
        [(code_from_digits(r["guess"]), Feedback(r["black"], r["white"])) for r in replies],
        seed=game["seed"])
    return "".join(map(str, session.next_guess()))


def board_of(fake, db_path, game_id):
    message_id = rows(db_path, "SELECT board_message_id FROM games WHERE id = ?", game_id)[0][0]
    assert message_id, "the game's board was never posted"
    return fake.message(message_id)


# ---- acting ---------------------------------------------------------------------------------
async def slash(fake, bot, world, command, user, **options):
    return await fake.slash(bot, command, user=user, channel=world.general, guild=world.guild,
                            **options)


async def guess(fake, bot, world, code, user):
    return await slash(fake, bot, world, "guess", user, code=code)


async def reply(fake, bot, db_path, game_id, black, white, user):
    """Click the reply button on the challenge's board."""
    turn = len(rows(db_path, "SELECT 1 FROM challenge_replies WHERE game_id = ? AND"
                             " taken_back_at IS NULL", game_id)) + 1
    board = board_of(fake, db_path, game_id)
    return await fake.click(bot, board, f"mmc:r:{game_id}:{turn}:{black}:{white}", user=user)


async def let_the_bot_break(fake, bot, world, db_path, secret, user):
    """Answer the bot truthfully until the half-round ends: (its moves, the last click)."""
    game_id = running_game(db_path, world.general.id)["id"]
    for moves in range(1, 21):
        fb = score(secret, bot_guess(db_path, game_id))
        result = await reply(fake, bot, db_path, game_id, fb.black, fb.white, user)
        assert not result.ephemeral, result.embed
        status = rows(db_path, "SELECT status FROM games WHERE id = ?", game_id)[0][0]
        if status != "active":
            return (moves if status == "won" else 0), result
    raise AssertionError("the bot never finished")


def wrong_codes(secret: str, count: int) -> list[str]:
    codes = [f"{a}{b}{c}{d}" for a in "123456" for b in "123456" for c in "12" for d in "12"]
    return [c for c in codes if c != secret][:count]


def half_scores(db_path) -> str:
    return the_match(db_path)["half_scores"]


def scoreboard(result) -> dict:
    """The scoreboard embed an interaction posted: its newest followup, or its answer."""
    for message in [*reversed(result.followups), result.original]:
        for embed in message.embeds:
            if "Match #" in (embed.get("footer") or {}).get("text", ""):
                return embed
    raise AssertionError(f"no scoreboard in {result.messages}")


def totals_line(embed) -> str:
    return next(line for line in embed["description"].splitlines()
                if line.startswith("**Total moves**"))


# ---- against the bot ------------------------------------------------------------------------
@pytest.mark.both_databases
async def test_two_rounds_against_the_bot_scored_move_by_move(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    started = await slash(fake_discord, bot, world, "match", alice, rounds=2, max_guesses=6)
    assert not started.ephemeral
    board = scoreboard(started)
    assert board["title"] == "Match: round 1 of 2"
    assert "breaks my code" in board["description"]
    match = the_match(db_path)
    assert (match["status"], match["half"], match["half_scores"]) == ("active", 0, "")
    game = running_game(db_path, world.general.id)
    assert (game["kind"], game["match_id"], game["match_half"]) == ("breaker", match["id"], 0)
    secret = game["secret"]
    assert all(secret not in without_drawn_pegs(m.embeds) for m in started.messages)

    # A stranger may not guess the player's half-round; nothing changes.
    before = everything(db_path)
    refused = await guess(fake_discord, bot, world, "1122", bob)
    assert refused.ephemeral and refused.embed["title"] == "Not your code to break"
    assert everything(db_path) == before

    # Round 1, first half: alice needs 2 moves.
    miss = wrong_codes(secret, 1)[0]
    first = await guess(fake_discord, bot, world, miss, alice)
    assert not first.ephemeral and half_scores(db_path) == ""
    won = await guess(fake_discord, bot, world, secret, alice)
    assert not won.ephemeral
    assert half_scores(db_path) == "2" and the_match(db_path)["half"] == 1
    shown = scoreboard(won)
    assert totals_line(shown) == f"**Total moves** <@{alice.id}> **2** · me **0**"
    assert "I break" in shown["description"]
    challenge = running_game(db_path, world.general.id)
    assert (challenge["kind"], challenge["match_half"]) == ("challenge", 1)
    assert board_of(fake_discord, db_path, challenge["id"]).custom_ids  # reply buttons

    # A stranger can't answer the bot's guesses either.
    before = everything(db_path)
    stranger = await reply(fake_discord, bot, db_path, challenge["id"], 0, 0, bob)
    assert stranger.ephemeral and "not your challenge" in stranger.embed["title"]
    assert everything(db_path) == before

    # Round 1, second half: the bot breaks 3632.
    bot_moves, _ = await let_the_bot_break(fake_discord, bot, world, db_path, "3632", alice)
    assert 1 <= bot_moves <= 5
    assert half_scores(db_path) == f"2,{bot_moves}"
    match = the_match(db_path)
    assert (match["half"], match["status"]) == (2, "active")
    assert running_game(db_path, world.general.id)["match_half"] == 2

    # Round 2, first half: alice fails all 6 guesses, which scores 7.
    secret = running_game(db_path, world.general.id)["secret"]
    for n, code in enumerate(wrong_codes(secret, 6), 1):
        result = await guess(fake_discord, bot, world, code, alice)
        assert not result.ephemeral
        assert half_scores(db_path) == (f"2,{bot_moves}" if n < 6 else f"2,{bot_moves},7")
    assert totals_line(scoreboard(result)) == (
        f"**Total moves** <@{alice.id}> **9** · me **{bot_moves}**")

    # Round 2, second half, then the final score: fewer moves wins.
    last, clicked = await let_the_bot_break(fake_discord, bot, world, db_path, "6543", alice)
    match = the_match(db_path)
    assert match["half_scores"] == f"2,{bot_moves},7,{last}"
    assert match["status"] == "finished"
    bot_total = bot_moves + last
    expected = "a" if bot_total > 9 else "b" if bot_total < 9 else "draw"
    assert match["winner"] == expected
    final = scoreboard(clicked)
    assert final["title"].startswith("Match over")
    assert totals_line(final) == f"**Total moves** <@{alice.id}> **9** · me **{bot_total}**"
    results = rows(db_path, "SELECT user_id, mode, won, guesses FROM match_results")
    points = {"a": 2, "b": 0, "draw": 1}[expected]
    assert [tuple(r) for r in results] == [(alice.id, "match-bot", int(expected == "a"), points)]
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE status = 'active'")[0][0] == 0
    fake_discord.assert_no_violations()



async def win_first_half(fake, bot, world, db_path, user):
    """The player breaks the bot's code at once (1 move)."""
    secret = running_game(db_path, world.general.id)["secret"]
    result = await guess(fake, bot, world, secret, user)
    assert not result.ephemeral
    return result


async def test_a_contradiction_is_taken_back_and_the_match_goes_on(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    alice = world.alice
    await slash(fake_discord, bot, world, "match", alice, rounds=1)
    await win_first_half(fake_discord, bot, world, db_path, alice)
    game_id = running_game(db_path, world.general.id)["id"]
    secret = "6543"
    fb = score(secret, bot_guess(db_path, game_id))
    await reply(fake_discord, bot, db_path, game_id, fb.black, fb.white, alice)  # the truth
    for _ in range(8):  # then "nothing matches" until no code is left
        await reply(fake_discord, bot, db_path, game_id, 0, 0, alice)
        if rows(db_path, "SELECT codes_left FROM games WHERE id = ?", game_id)[0][0] == 0:
            break
    board = board_of(fake_discord, db_path, game_id)
    assert board_title(board) == "Your replies contradict each other"
    made = rows(db_path, "SELECT COUNT(*) FROM challenge_replies")[0][0]
    undone = await fake_discord.click(bot, board, f"mmc:undo:{game_id}:{made}", user=alice)
    assert not undone.ephemeral
    match = the_match(db_path)
    assert (match["status"], match["half"], match["half_scores"]) == ("active", 1, "1")
    # Take back every false reply, then answer truthfully: the bot's moves are its
    # standing replies only.
    while True:
        standing = rows(db_path, "SELECT turn, guess, black, white FROM challenge_replies"
                                 " WHERE game_id = ? AND taken_back_at IS NULL ORDER BY turn",
                        game_id)
        last = standing[-1]
        if tuple(score(secret, last["guess"])) == (last["black"], last["white"]):
            break
        board = board_of(fake_discord, db_path, game_id)
        await fake_discord.click(bot, board, f"mmc:undo:{game_id}:{last['turn']}", user=alice)
    _, clicked = await let_the_bot_break(fake_discord, bot, world, db_path, secret, alice)
    standing = rows(db_path, "SELECT COUNT(*) FROM challenge_replies WHERE game_id = ? AND"
                             " taken_back_at IS NULL", game_id)[0][0]
    match = the_match(db_path)
    assert match["status"] == "finished" and match["half_scores"] == f"1,{standing}"
    assert match["winner"] == ("a" if standing > 1 else "draw")
    assert scoreboard(clicked)["title"].startswith("Match over")


async def test_quitting_forfeits_the_match(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    await slash(fake_discord, bot, world, "match", alice, rounds=3)
    secret = running_game(db_path, world.general.id)["secret"]
    await guess(fake_discord, bot, world, wrong_codes(secret, 1)[0], alice)
    # Someone who doesn't play can't end it; a second /match or game here is refused.
    before = everything(db_path)
    refused = await slash(fake_discord, bot, world, "mastermind quit", bob)
    assert refused.ephemeral and refused.embed["title"] == "This is not your match"
    again = await slash(fake_discord, bot, world, "match", bob)
    assert again.ephemeral and again.embed["title"] == "A game is already running here"
    assert everything(db_path) == before

    quit_ = await slash(fake_discord, bot, world, "mastermind quit", alice)
    assert not quit_.ephemeral
    board = scoreboard(quit_)
    assert board["title"] == "Match over: forfeit"
    assert board["description"].startswith(f"<@{alice.id}> quit, so I win the match.")
    match = the_match(db_path)
    assert (match["status"], match["winner"], match["ended_by"]) == ("forfeit", "b", alice.id)
    assert [tuple(r) for r in rows(db_path, "SELECT user_id, won, guesses FROM match_results")
            ] == [(alice.id, 0, 0)]
    # The channel is free again.
    fresh = await slash(fake_discord, bot, world, "mastermind new", bob)
    assert not fresh.ephemeral


@pytest.mark.both_databases
async def test_restart_in_the_middle_of_a_match_against_the_bot(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    alice = world.alice
    await slash(fake_discord, bot, world, "match", alice, rounds=1)
    await win_first_half(fake_discord, bot, world, db_path, alice)
    game_id = running_game(db_path, world.general.id)["id"]
    fb = score("2525", bot_guess(db_path, game_id))
    await reply(fake_discord, bot, db_path, game_id, fb.black, fb.white, alice)
    await bot.close()

    bot = await start_bot()  # a new process: the buttons on the board still work
    moves, clicked = await let_the_bot_break(fake_discord, bot, world, db_path, "2525", alice)
    match = the_match(db_path)
    assert match["status"] == "finished"
    assert match["half_scores"] == f"1,{moves + 1}"
    shown = scoreboard(clicked)
    assert totals_line(shown) == f"**Total moves** <@{alice.id}> **1** · me **{moves + 1}**"
    fake_discord.assert_no_violations()


async def test_bad_match_options_are_refused_and_change_nothing(
    fake_discord, start_bot, world, db_path
):
    """Rules that can't work, read from the options: a private answer, nothing stored. A
    match against oneself, a busy channel and the other refusals, with their words and
    nothing stored: tests/test_service_match.py."""
    bot = await start_bot()
    before = everything(db_path)
    rules = await slash(fake_discord, bot, world, "match", world.alice, pegs=5, colors=4,
                        repeats=False)
    assert rules.ephemeral and rules.embed["title"] == "Those rules don't work"
    assert everything(db_path) == before
    assert the_match_count(db_path) == 0


def the_match_count(db_path) -> int:
    return rows(db_path, "SELECT COUNT(*) FROM matches")[0][0]


async def test_an_idle_match_expires_showing_the_score(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    alice = world.alice
    await slash(fake_discord, bot, world, "match", alice, rounds=2)
    await win_first_half(fake_discord, bot, world, db_path, alice)
    wall_clock.advance(25 * 3600)
    again = await slash(fake_discord, bot, world, "match", alice)
    assert not again.ephemeral
    old, new = rows(db_path, "SELECT status, half_scores FROM matches ORDER BY id")
    assert tuple(old) == ("abandoned", "1") and tuple(new) == ("active", "")
    expired = again.original.embeds[1]
    assert expired["title"] == "Match abandoned"
    assert totals_line(expired) == f"**Total moves** <@{alice.id}> **1** · me **0**"
    assert "had no move for too long" in again.original.embeds[0]["description"]


def standings(db_path) -> list[tuple]:
    return [tuple(r) for r in rows(db_path, "SELECT * FROM standings ORDER BY 1, 2, 3, 4, 5")]


async def test_match_stats_leaderboard_and_rebuild(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    for _ in range(2):  # alice forfeits two matches; bob wins a one-round match
        await slash(fake_discord, bot, world, "match", alice)
        await slash(fake_discord, bot, world, "mastermind quit", alice)
    await slash(fake_discord, bot, world, "match", bob, rounds=1, max_guesses=1)
    secret = running_game(db_path, world.general.id)["secret"]
    await guess(fake_discord, bot, world, secret, bob)  # 1 move
    game_id = running_game(db_path, world.general.id)["id"]
    await reply(fake_discord, bot, db_path, game_id, 0, 0, bob)  # the bot fails: 2 moves
    assert tuple(the_match(db_path)[c] for c in ("status", "winner", "half_scores")) == (
        "finished", "a", "1,2")

    shown = await slash(fake_discord, bot, world, "stats", alice, options={"user": None})
    fields = {f["name"]: f["value"] for f in shown.embed["fields"]}
    assert fields["Matches against the bot"] == "0 won · 0 drawn · 2 lost"
    board = await slash(fake_discord, bot, world, "leaderboard", bob, mode="match-bot")
    assert board.embed["title"].startswith("Matches against the bot")
    lines = board.embed["description"].splitlines()
    assert "**bob** · 1 won · 0 drawn · 0 lost" in lines[0]
    assert "**alice** · 0 won · 0 drawn · 2 lost" in lines[1]
    before = standings(db_path)
    await bot.services.stats.recompute()
    assert standings(db_path) == before


# ---- codes set by people --------------------------------------------------------------------
def visible_text(fake, channel) -> str:
    """Everything the channel can read: contents, embeds and Components V2 text of every
    public message."""
    return without_drawn_pegs("\n".join(f"{m.text} {m.embeds}"
                                         for m in fake.messages(channel, include_ephemeral=False)))


async def set_code(fake, bot, board, custom_id, code, user):
    """The setter's button opens a picker only they see; its Type button the form. Returns
    (the form's opening, its submit)."""
    picker = await fake.click(bot, board, custom_id, user=user)
    assert picker.ephemeral and picker.message.custom_ids, picker.embed
    opened = await tap(fake, bot, picker.message, "t", user)
    assert opened.modal is not None, opened.embed
    return opened, await fake.submit_modal(bot, opened, {"code": code}, user=user)


def public(result) -> list:
    """What an answer posted in the channel (the picker it answered stays private)."""
    return [m for m in result.followups if not m.ephemeral]


@pytest.mark.both_databases
async def test_player_against_player(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    alice, bob, mod = world.alice, world.bob, world.mod
    invited = await slash(fake_discord, bot, world, "match", alice, rounds=1,
                          options={"opponent": bob})
    assert not invited.ephemeral
    invitation = invited.message
    assert invitation.embed["title"] == "A match invitation"
    match_id = the_match(db_path)["id"]
    assert set(invitation.custom_ids) == {f"mmm:accept:{match_id}", f"mmm:decline:{match_id}"}
    assert the_match(db_path)["status"] == "invited"

    # Nobody but bob accepts; the channel is held meanwhile.
    before = everything(db_path)
    stranger = await fake_discord.click(bot, invitation, f"mmm:accept:{match_id}", user=mod)
    assert stranger.ephemeral and stranger.embed["title"] == "This is not your match"
    own = await fake_discord.click(bot, invitation, f"mmm:accept:{match_id}", user=alice)
    assert own.ephemeral and own.embed["title"] == "Waiting for your opponent"
    held = await slash(fake_discord, bot, world, "mastermind new", mod)
    assert held.ephemeral and held.embed["title"] == "A match is running here"
    assert everything(db_path) == before

    await bot.close()
    bot = await start_bot()  # a restart while the invitation waits: its buttons still work
    accept = fake_discord.stale_click(invitation, f"mmm:accept:{match_id}", user=bob)
    accepted = await fake_discord.click(bot, invitation, f"mmm:accept:{match_id}", user=bob)
    assert not accepted.ephemeral
    again = await accept(bot)  # a double click: told it is out of date, nothing changes
    assert again.ephemeral and again.embed["title"] == "That button is out of date"
    assert "invitation was accepted already" in again.embed["description"]  # not "code set"
    assert the_match(db_path)["status"] == "active"
    invitation = fake_discord.message(invitation.id)
    assert invitation.custom_ids == [f"mmm:code:{match_id}:0"]
    assert f"<@{bob.id}> sets a secret code" in invitation.embed["description"]

    await bot.close()
    bot = await start_bot()  # a restart before the first code: the button still works

    # Only bob sets the first code; a wrong code is refused and stores nothing.
    before = everything(db_path)
    for user, title in ((alice, "Not your code to set"), (mod, "This is not your match")):
        refused = await fake_discord.click(bot, invitation, f"mmm:code:{match_id}:0", user=user)
        assert refused.ephemeral and refused.embed["title"] == title
    _, typo = await set_code(fake_discord, bot, invitation, f"mmm:code:{match_id}:0",
                                  "36", bob)
    assert typo.ephemeral and typo.embed["title"] == "That is not a valid code"
    assert everything(db_path) == before
    # The answered form has closed (as in Discord): bob opens it again.
    _, done = await set_code(fake_discord, bot, invitation, f"mmm:code:{match_id}:0", "3456",
                             bob)
    assert public(done) and "3456" in fake_discord.message(done.original.id).content
    game = running_game(db_path, world.general.id)
    assert (game["secret"], game["setter_id"], game["started_by"]) == ("3456", bob.id, alice.id)
    assert "3456" not in visible_text(fake_discord, world.general)
    assert fake_discord.message(invitation.id).custom_ids == []  # that button is spent

    # The setter can't guess; a stranger neither.
    before = everything(db_path)
    for user in (bob, mod):
        refused = await guess(fake_discord, bot, world, "1111", user)
        assert refused.ephemeral and refused.embed["title"] == "Not your code to break"
    assert everything(db_path) == before
    await guess(fake_discord, bot, world, "1111", alice)
    half = await guess(fake_discord, bot, world, "3456", alice)
    shown = scoreboard(half)
    assert totals_line(shown) == f"**Total moves** <@{alice.id}> **2** · <@{bob.id}> **0**"
    assert f"<@{alice.id}> sets a secret code" in shown["description"]
    assert half_scores(db_path) == "2"
    second = half.messages[-1]
    assert second.custom_ids == [f"mmm:code:{match_id}:1"]

    # A stale code button from the first half changes nothing.
    old = fake_discord.old_message(world.general, [f"mmm:code:{match_id}:0"])
    stale = await fake_discord.click(bot, old, f"mmm:code:{match_id}:0", user=bob)
    assert stale.ephemeral and stale.embed["title"] == "That button is out of date"

    _, set_ = await set_code(fake_discord, bot, second, f"mmm:code:{match_id}:1", "6543", alice)
    assert public(set_)
    assert "6543" not in visible_text(fake_discord, world.general)
    await bot.close()
    bot = await start_bot()  # a restart in the middle of bob's half-round
    for code in ("1122", "3344", "5566"):
        result = await guess(fake_discord, bot, world, code, bob)
        assert not result.ephemeral
        assert half_scores(db_path) == "2"
    final = await guess(fake_discord, bot, world, "6543", bob)
    board = scoreboard(final)
    assert board["title"] == "Match over: we have a winner"
    assert f"<@{alice.id}> wins, 2 moves to 4." in board["description"]
    match = the_match(db_path)
    assert (match["status"], match["winner"], match["half_scores"]) == ("finished", "a", "2,4")
    results = rows(db_path, "SELECT user_id, mode, won, guesses FROM match_results"
                            " ORDER BY user_id = ?", bob.id)
    assert [tuple(r) for r in results] == [(alice.id, "match-people", 1, 2),
                                           (bob.id, "match-people", 0, 0)]
    # Each code counts on the hardest-codes board for the one who set it.
    hard = rows(db_path, "SELECT user_id, guesses FROM results WHERE mode = 'challenge'"
                         " ORDER BY user_id = ?", alice.id)
    assert [tuple(r) for r in hard] == [(bob.id, 2), (alice.id, 4)]


async def test_an_invitation_can_be_declined_and_expires(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    invited = await slash(fake_discord, bot, world, "match", alice, options={"opponent": bob})
    match_id = the_match(db_path)["id"]
    declined = await fake_discord.click(bot, invited.message, f"mmm:decline:{match_id}", user=bob)
    assert not declined.ephemeral
    assert fake_discord.message(invited.message.id).embed["title"] == "Match called off"
    assert the_match(db_path)["status"] == "declined"

    invited = await slash(fake_discord, bot, world, "match", alice, options={"opponent": bob})
    match_id = the_match(db_path)["id"]
    wall_clock.advance(16 * 60)
    late = await fake_discord.click(bot, invited.message, f"mmm:accept:{match_id}", user=bob)
    assert late.ephemeral and late.embed["title"] == "This invitation expired"
    assert the_match(db_path)["status"] == "expired"
    fresh = await slash(fake_discord, bot, world, "mastermind new", bob)
    assert not fresh.ephemeral


async def test_a_code_set_for_the_channel(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    picker = await slash(fake_discord, bot, world, "mastermind new", alice, setter="me")
    assert picker.ephemeral  # a picker only the setter sees; its Type button the form
    opened = await tap(fake_discord, bot, picker.message, "t", alice)
    before = everything(db_path)
    typo = await fake_discord.submit_modal(bot, opened, {"code": "6547"}, user=alice)
    assert typo.ephemeral and typo.embed["title"] == "That is not a valid code"
    assert everything(db_path) == before
    opened = await tap(fake_discord, bot, picker.message, "t", alice)  # the form again
    started = await fake_discord.submit_modal(bot, opened, {"code": "6543"}, user=alice)
    board, = public(started)
    assert f"<@{alice.id}> set a secret code" in board.embed["description"]
    assert "Anyone but the setter can guess" in board.embed["description"]
    assert "6543" not in visible_text(fake_discord, world.general)
    game = running_game(db_path, world.general.id)
    assert (game["secret"], game["setter_id"], game["match_id"]) == ("6543", alice.id, None)

    before = everything(db_path)
    mine = await guess(fake_discord, bot, world, "6543", alice)
    assert mine.ephemeral and mine.embed["title"] == "You set this code"
    assert everything(db_path) == before

    await bot.close()
    bot = await start_bot()  # a restart in the middle: the others play on
    await guess(fake_discord, bot, world, "1122", bob)
    await guess(fake_discord, bot, world, "3344", world.mod)
    won = await guess(fake_discord, bot, world, "6543", bob)
    assert not won.ephemeral and "6543" in str(won.embed)
    results = rows(db_path, "SELECT user_id, mode, won, guesses FROM results ORDER BY mode,"
                            " user_id")
    assert (alice.id, "challenge", 1, 3) in [tuple(r) for r in results]
    assert all(r["user_id"] != alice.id for r in results if r["mode"] == "breaker")


async def test_a_reveal_starts_the_half_round_over(fake_discord, start_bot, world, db_path):
    """1978: "you have given me inconsistent information. Try again, and this time please
    be more careful": the bot's half-round starts over, nothing is scored for it."""
    bot = await start_bot()
    alice = world.alice
    await slash(fake_discord, bot, world, "match", alice, rounds=1)
    await win_first_half(fake_discord, bot, world, db_path, alice)
    first = running_game(db_path, world.general.id)["id"]
    await reply(fake_discord, bot, db_path, first, 4, 0, alice)  # "you broke it"... it ends
    assert the_match(db_path)["half_scores"] == "1,1"  # a win reply ends the half at once
    assert the_match(db_path)["status"] == "finished"

    await slash(fake_discord, bot, world, "match", alice, rounds=1)
    await win_first_half(fake_discord, bot, world, db_path, alice)
    game_id = running_game(db_path, world.general.id)["id"]
    for _ in range(8):
        await reply(fake_discord, bot, db_path, game_id, 0, 0, alice)
        if rows(db_path, "SELECT codes_left FROM games WHERE id = ?", game_id)[0][0] == 0:
            break
    board = board_of(fake_discord, db_path, game_id)
    picker = await fake_discord.click(bot, board, f"mmc:reveal:{game_id}", user=alice)
    opened = await tap(fake_discord, bot, picker.message, "t", alice)
    revealed = await fake_discord.submit_modal(bot, opened, {"code": "6543"}, user=alice)
    assert public(revealed)
    shown = scoreboard(revealed)
    assert shown["description"].startswith("Your replies contradicted each other. Try again")
    again = running_game(db_path, world.general.id)
    assert again["id"] != game_id and (again["kind"], again["match_half"]) == ("challenge", 1)
    match = the_match(db_path)
    assert (match["status"], match["half"], match["half_scores"]) == ("active", 1, "1")
    moves, _ = await let_the_bot_break(fake_discord, bot, world, db_path, "6543", alice)
    assert the_match(db_path)["half_scores"] == f"1,{moves}"


async def test_a_match_waiting_too_long_for_a_code_frees_the_channel(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    invited = await slash(fake_discord, bot, world, "match", alice, options={"opponent": bob})
    match_id = the_match(db_path)["id"]
    await fake_discord.click(bot, invited.message, f"mmm:accept:{match_id}", user=bob)
    wall_clock.advance(25 * 3600)
    game = await slash(fake_discord, bot, world, "mastermind new", world.mod)
    assert not game.ephemeral  # the lapsed match no longer holds the channel
    shown = await slash(fake_discord, bot, world, "mastermind board", alice)
    assert "Match" not in shown.embed["title"]  # the running game's board, not the match
    late = await fake_discord.click(bot, invited.message, f"mmm:code:{match_id}:0", user=bob)
    assert late.ephemeral and late.embed["title"] == "This match expired"
    assert "the score stood at" in late.embed["description"]
    assert the_match(db_path)["status"] == "abandoned"


async def test_a_moderator_ends_a_match_with_no_winner(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "match", world.alice, rounds=1)
    await win_first_half(fake_discord, bot, world, db_path, world.alice)
    ended = await slash(fake_discord, bot, world, "mastermind quit", world.mod)
    assert not ended.ephemeral
    assert ended.original.embeds[0]["title"] == "Match ended"
    match = the_match(db_path)
    assert (match["status"], match["winner"], match["ended_by"]) == ("ended", None, world.mod.id)
    assert rows(db_path, "SELECT COUNT(*) FROM match_results")[0][0] == 0
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE status = 'active'")[0][0] == 0


@pytest.mark.both_databases
async def test_match_actions_delivered_twice_are_stored_once(
    fake_discord, start_bot, world, db_path
):
    """The same interaction delivered twice (a replay): stored once, the second answer
    refused by Discord (40060)."""
    bot = await start_bot()
    alice, bob = world.alice, world.bob

    async def twice(result):
        await fake_discord.redeliver(bot, result)
        refused = fake_discord.expect_violation(40060)
        assert type(refused).__name__ == "Violation", refused

    started = await slash(fake_discord, bot, world, "match", alice, options={"opponent": bob})
    await twice(started)
    assert the_match_count(db_path) == 1
    match_id = the_match(db_path)["id"]
    accepted = await fake_discord.click(bot, started.message, f"mmm:accept:{match_id}",
                                        user=bob)
    await twice(accepted)
    assert the_match(db_path)["status"] == "active"
    _, done = await set_code(fake_discord, bot, started.message, f"mmm:code:{match_id}:0",
                             "1234", bob)
    assert public(done)
    await fake_discord.redeliver(bot, done)  # discord.py drops a modal once submitted
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE match_id = ?", match_id)[0][0] == 1
    won = await guess(fake_discord, bot, world, "1234", alice)
    await twice(won)
    match = the_match(db_path)
    assert (match["half"], match["half_scores"]) == (1, "1")  # scored once
