"""Private games: a game only its player sees, in any channel, beside the channel's own.

Through the real dispatch (the fake Discord) and a real database: SQLite, and PostgreSQL for
races, restarts and double submits. One private game per player, a game by its id and the
leaderboards kept apart run at service level on both (``tests/test_service_private.py``).
"""

from __future__ import annotations

import asyncio
import contextlib

import dbtools
import pytest
from conftest import board_title, secret_of, without_drawn_pegs
from test_bot_challenge import pending

from engine import score


async def new(fake, bot, world, user=None, channel=None, **options):
    return await fake.slash(bot, "mastermind new", user=user or world.alice,
                            channel=channel or world.general, guild=world.guild, **options)


async def guess(fake, bot, world, code, user=None, channel=None, **options):
    return await fake.slash(bot, "guess", user=user or world.alice,
                            channel=channel or world.general, guild=world.guild, code=code,
                            **options)


def rows(db_path, sql: str, args: tuple = ()) -> list[tuple]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]


def private_secret(db_path, user) -> str:
    found = rows(db_path, "SELECT secret FROM games WHERE started_by = ? AND private = 1"
                          " AND status = 'active'", (user.id,))
    assert found, "no private game running"
    return found[0][0]


def miss(secret: str, nth: int = 0) -> str:
    """A valid 4x6 code that is not the secret (a different one for each ``nth``)."""
    first = (int(secret[0]) + nth) % 6 + 1
    code = str(first) + secret[1:]
    return code if code != secret else str((first % 6) + 1) + secret[1:]


def footer(result) -> str:
    return (result.embed.get("footer") or {}).get("text", "")


@pytest.mark.both_databases
async def test_a_private_game_played_to_the_end(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    started = await new(fake_discord, bot, world, private=True)
    assert started.ephemeral and started.message.ephemeral
    assert "your private game, seen by you alone" in started.embed["description"]
    assert footer(started).startswith("Private game #")
    secret = private_secret(db_path, world.alice)
    assert f"`{secret}`" not in without_drawn_pegs(str(started.embed))  # (the example may be it)
    assert fake_discord.messages(world.general, include_ephemeral=False) == []
    first = await guess(fake_discord, bot, world, miss(secret))
    assert first.ephemeral and footer(first).startswith("Private game #")
    assert f"`{secret}`" not in without_drawn_pegs(str(first.embed))
    won = await guess(fake_discord, bot, world, secret)
    assert won.ephemeral and won.embed["title"] == "Code broken in 2 guesses!"
    assert secret in won.embed["description"]
    assert [c.split(":")[:2] for c in won.message.custom_ids] == [["mma", "g"], ["mmb", "again"]]
    # nothing of it in the channel for anyone else: every board was the answer to alice
    assert fake_discord.messages(world.general, include_ephemeral=False) == []
    assert rows(db_path, "SELECT status, private, winner_id FROM games") == [
        ("won", 1, world.alice.id)]
    assert rows(db_path, "SELECT mode, won, guesses FROM results") == [("private", 1, 2)]
    # too late after the win, and a new one after it
    late = await guess(fake_discord, bot, world, secret)
    assert late.ephemeral and late.embed["title"] == "This game is over"
    again = await fake_discord.click(bot, won.message, label="Play again", user=world.alice)
    assert again.ephemeral and footer(again).startswith("Private game #")
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE private = 1 AND status = 'active'"
                ) == [(1,)]


async def test_private_and_public_games_in_one_channel(fake_discord, start_bot, world,
                                                       db_path):
    bot = await start_bot()
    public = await new(fake_discord, bot, world)
    assert not public.ephemeral
    await new(fake_discord, bot, world, private=True)
    shared = secret_of(db_path, world.general.id)  # the channel's game only
    own = private_secret(db_path, world.alice)
    # bob plays the channel's game; alice's /guess here plays hers (she started it here)
    bobs = await guess(fake_discord, bot, world, miss(shared), user=world.bob)
    assert not bobs.ephemeral and footer(bobs).startswith("Game #")
    alices = await guess(fake_discord, bot, world, miss(own))
    assert alices.ephemeral and footer(alices).startswith("Private game #")
    # game:channel reaches the channel's game
    chosen = await guess(fake_discord, bot, world, miss(shared, 1), game="channel")
    assert not chosen.ephemeral and "2 of" not in footer(chosen)
    assert rows(db_path, "SELECT g.private, COUNT(*) FROM guesses s JOIN games g"
                         " ON g.id = s.game_id GROUP BY g.private ORDER BY 1") == [(0, 2), (1, 1)]
    # in a channel without a game her private game follows her; where another channel game
    # runs, /guess means that one (her private game started elsewhere)
    elsewhere = await guess(fake_discord, bot, world, miss(own, 1), channel=world.other)
    assert elsewhere.ephemeral and footer(elsewhere).startswith("Private game #")
    await new(fake_discord, bot, world, user=world.bob, channel=world.other)
    theirs = await guess(fake_discord, bot, world, miss(secret_of(db_path, world.other.id)),
                         channel=world.other)
    assert not theirs.ephemeral
    mine = await guess(fake_discord, bot, world, miss(own, 2), channel=world.other,
                       game="private")
    assert mine.ephemeral and "7 of 10 guesses left" in footer(mine)
    # the board and quit follow the same rule: the private game (started here) first
    board = await fake_discord.slash(bot, "mastermind board", user=world.alice,
                                     channel=world.general, guild=world.guild)
    assert board.ephemeral and footer(board).startswith("Private game #")
    ended = await fake_discord.slash(bot, "mastermind quit", user=world.alice,
                                     channel=world.general, guild=world.guild)
    assert ended.ephemeral and own in ended.embed["description"]
    still = await fake_discord.slash(bot, "mastermind board", user=world.alice,
                                     channel=world.general, guild=world.guild)
    assert not still.ephemeral and footer(still).startswith("Game #")
    assert rows(db_path, "SELECT status FROM games WHERE private = 0 ORDER BY id") == [
        ("active",), ("active",)]


async def test_one_private_game_per_player(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new(fake_discord, bot, world, private=True)
    before = rows(db_path, "SELECT id, status FROM games")
    for command, options in (("mastermind new", {"private": True}),
                             ("challenge", {"private": True})):
        refused = await fake_discord.slash(bot, command, user=world.alice, channel=world.other,
                                           guild=world.guild, **options)
        assert refused.ephemeral and refused.embed["title"] == "You have a private game"
        assert "One private game at a time" in refused.embed["description"]
        assert f"<#{world.general.id}>" in refused.embed["description"]
    assert rows(db_path, "SELECT id, status FROM games") == before
    # others have their own, and the channel its own
    bobs = await new(fake_discord, bot, world, user=world.bob, private=True)
    assert bobs.ephemeral
    assert not (await new(fake_discord, bot, world)).ephemeral
    nothing = await fake_discord.slash(bot, "mastermind board", user=world.mod,
                                       channel=world.other, guild=world.guild, game="private")
    assert nothing.ephemeral and nothing.embed["title"] == "No private game"


@pytest.mark.both_databases
async def test_exactly_once_under_double_submits(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new(fake_discord, bot, world, private=True)
    secret = private_secret(db_path, world.alice)
    first = await guess(fake_discord, bot, world, miss(secret))
    fake_discord.expect_violation(40060)  # Discord refuses the second answer
    await fake_discord.redeliver(bot, first)  # the same interaction delivered twice
    assert rows(db_path, "SELECT turn FROM guesses") == [(1,)]
    # two different guesses racing: both stored, one after the other
    one, two = await asyncio.gather(guess(fake_discord, bot, world, miss(secret, 1)),
                                    guess(fake_discord, bot, world, miss(secret, 2)))
    assert not one.errors and not two.errors
    assert sorted(len(r.embed["description"].splitlines()) for r in (one, two)) == [2, 3]
    assert rows(db_path, "SELECT turn FROM guesses ORDER BY turn") == [(1,), (2,), (3,)]
    # racing the winning guess: whatever lost the race is told, and nothing else is stored
    won, late = await asyncio.gather(guess(fake_discord, bot, world, secret),
                                     guess(fake_discord, bot, world, miss(secret, 3)))
    shown = [r for r in (won, late) if "Private game" in footer(r)]
    stored = rows(db_path, "SELECT COUNT(*) FROM guesses")[0][0]
    assert stored == 3 + len(shown)
    assert rows(db_path, "SELECT status FROM games") == [("won",)]
    assert rows(db_path, "SELECT mode, won FROM results") == [("private", 1)]


@pytest.mark.both_databases
async def test_a_private_game_survives_a_restart(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new(fake_discord, bot, world, private=True, pegs=5, colors=8)
    secret = private_secret(db_path, world.alice)
    code = str(int(secret[0]) % 8 + 1) + secret[1:]
    await guess(fake_discord, bot, world, code)
    await bot.close()
    bot = await start_bot()  # the same database, a new process
    back = await fake_discord.slash(bot, "mastermind board", user=world.alice,
                                    channel=world.other, guild=world.guild)
    assert back.ephemeral and "9 of 10 guesses left" in footer(back)
    assert code in back.embed["description"].replace(" ", "")
    won = await guess(fake_discord, bot, world, secret, channel=world.other)
    assert won.embed["title"] == "Code broken in 2 guesses!" and won.ephemeral


async def test_a_private_challenge(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    started = await fake_discord.slash(bot, "challenge", user=world.alice,
                                       channel=world.general, guild=world.guild, private=True)
    board = started.message
    assert board.ephemeral and "Private challenge #" in board.text
    game = int(board.text.split("Private challenge #")[1].split()[0])
    # a channel challenge (or game) can still start here
    assert not (await new(fake_discord, bot, world, user=world.bob)).ephemeral
    secret = "3632"
    for _ in range(10):
        turn, code = pending(board)
        fb = score(secret, code)
        reply = f"mmc:r:{game}:{turn}:{fb.black}:{fb.white}"
        if reply not in board.custom_ids:  # two steps: the black count first
            await fake_discord.click(bot, board, reply.replace(":r:", ":b:").rsplit(":", 1)[0],
                                     user=world.alice)
            board = fake_discord.message(board.id)
        await fake_discord.click(bot, board, reply, user=world.alice)
        board = fake_discord.message(board.id)
        if "My guess" not in board_title(board):
            break
    assert board.ephemeral and board_title(board).startswith("I broke your code")
    assert rows(db_path, "SELECT kind, status, private FROM games WHERE private = 1") == [
        ("challenge", "won", 1)]
    assert rows(db_path, "SELECT mode FROM results") == [("challenge",)]


async def test_leaderboards_keep_private_and_shared_apart(fake_discord, start_bot, world,
                                                          db_path):
    bot = await start_bot()
    await new(fake_discord, bot, world, private=True)
    await guess(fake_discord, bot, world, private_secret(db_path, world.alice))
    await new(fake_discord, bot, world, user=world.bob)
    await guess(fake_discord, bot, world, secret_of(db_path, world.general.id), user=world.bob)
    shared = await fake_discord.slash(bot, "leaderboard", user=world.mod, channel=world.general,
                                      guild=world.guild)
    assert shared.embed["title"].startswith("Code breakers")
    assert "bob" in shared.embed["description"] and "alice" not in shared.embed["description"]
    solo = await fake_discord.slash(bot, "leaderboard", user=world.mod, channel=world.general,
                                    guild=world.guild, mode="private")
    assert solo.embed["title"].startswith("Private games")
    assert "alice" in solo.embed["description"] and "bob" not in solo.embed["description"]
    # the private board's paging buttons read back (one page here: clicked on a copy)
    next_page = solo.message.component(label="Next ▶")["custom_id"]
    assert next_page.startswith("mml:private:")
    copy = fake_discord.old_message(world.general, [next_page])
    paged = await fake_discord.click(bot, copy, next_page, user=world.bob)
    assert paged.ephemeral and "Private games" in paged.embed["title"]
    assert "Not on this board yet" in paged.embed["fields"][0]["value"]
    assert rows(db_path, "SELECT DISTINCT mode, user_id FROM standings ORDER BY 1") == [
        ("breaker", world.bob.id), ("private", world.alice.id)]
    stats = await fake_discord.slash(bot, "stats", user=world.alice, channel=world.general,
                                     guild=world.guild, options={"user": None})
    played = next(f["value"] for f in stats.embed["fields"] if f["name"] == "Games played")
    assert played == "1 · 1 private"
    # a rebuild from the stored games gives the same tables
    before = rows(db_path, "SELECT * FROM standings ORDER BY 1, 2, 3, 4, 5")
    await bot.services.stats.recompute()
    assert rows(db_path, "SELECT * FROM standings ORDER BY 1, 2, 3, 4, 5") == before


async def test_a_private_game_is_its_players_alone(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await new(fake_discord, bot, world, private=True)
    secret = private_secret(db_path, world.alice)
    won = await guess(fake_discord, bot, world, secret)
    game_id = int(footer(won).split("#")[1].split()[0])
    # a forged Analyse button naming alice's private game answers bob like a stale button
    forged = fake_discord.old_message(world.general, [f"mma:g:{game_id}"])
    refused = await fake_discord.click(bot, forged, f"mma:g:{game_id}", user=world.bob)
    assert refused.ephemeral and refused.embed["title"] == "That button is out of date"
    mine = await fake_discord.click(bot, won.message, f"mma:g:{game_id}", user=world.alice)
    assert mine.ephemeral and mine.messages[-1].attachments
    # a private game ignores the server's channel list and a match holding the channel
    await fake_discord.slash(bot, "mastermind settings", user=world.guild.members[
        world.guild.owner_id], channel=world.general, guild=world.guild,
        options={"allow_channel": world.other})
    assert (await new(fake_discord, bot, world, private=True)).ephemeral
    # and setter:me is for others to break your code, never in a private game
    refused = await new(fake_discord, bot, world, user=world.bob, channel=world.other,
                        private=True, setter="me")
    assert refused.ephemeral and refused.embed["title"] == "Those rules don't work"


async def test_an_idle_private_game_is_abandoned(fake_discord, start_bot, world, db_path,
                                                 wall_clock):
    bot = await start_bot()
    await new(fake_discord, bot, world, private=True)
    secret = private_secret(db_path, world.alice)
    wall_clock.advance(25 * 3600)
    told = await guess(fake_discord, bot, world, secret, channel=world.other)
    assert told.ephemeral and told.embed["title"] == "No private game"
    assert "went 24 hours without a move" in told.embed["description"]
    assert secret in told.embed["description"].replace(" ", "")  # the code, once it's over
    assert rows(db_path, "SELECT COUNT(*) FROM guesses") == [(0,)]
    assert rows(db_path, "SELECT status FROM games") == [("abandoned",)]  # the guess wrote it
    # a board asked for later says so too; a new private game starts clean
    wall_clock.advance(60)
    await new(fake_discord, bot, world, private=True)
    wall_clock.advance(25 * 3600)
    board = await fake_discord.slash(bot, "mastermind board", user=world.alice,
                                     channel=world.other, guild=world.guild)
    assert board.ephemeral and "went 24 hours without a move" in board.embed["description"]
    again = await new(fake_discord, bot, world, private=True)  # records that one
    assert again.ephemeral and "break the code" in again.embed["title"]
    assert "Your previous private game" in again.embed["description"]
    assert rows(db_path, "SELECT status FROM games ORDER BY id") == [
        ("abandoned",), ("abandoned",), ("active",)]
