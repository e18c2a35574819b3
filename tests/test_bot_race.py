"""Races (``/race``) through the real dispatch (the fake Discord) on a real database: the
lobby, boards of one's own, the channel's standings, the ranking, the time limit, leaving,
the exactly-once rules and the ratings a race's end moves."""

from __future__ import annotations

import asyncio
import contextlib

import dbtools
import pytest
from conftest import without_drawn_pegs
from openskill.models import PlackettLuce
from picking import play

from bot.features.race.cog import RaceCog
from bot.features.ratings import model
from engine import score


def rows(db_path, sql: str, args: tuple = ()) -> list[tuple]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]


def the_race(db_path) -> dict:
    names = ("id", "status", "secret", "board_message_id", "announced")
    found = rows(db_path, f"SELECT {', '.join(names)} FROM races ORDER BY id DESC LIMIT 1")
    assert found, "no race stored"
    return dict(zip(names, found[0], strict=True))


def racers(db_path, race_id: int) -> dict[int, tuple]:
    """user -> (status, guesses, place, rated)"""
    return {r[0]: r[1:] for r in rows(
        db_path, "SELECT user_id, status, guesses, place, rated FROM racers WHERE race_id = ?",
        (race_id,))}


def everything(db_path) -> list:
    return [rows(db_path, f"SELECT * FROM {t} ORDER BY 1") for t in
            ("races", "racers", "games", "guesses", "ratings", "rated_games")]


def miss(secret: str, nth: int = 0) -> str:
    """A valid 4x6 code that is not the secret (a different one for each ``nth``)."""
    first = (int(secret[0]) + nth) % 6 + 1
    code = str(first) + secret[1:]
    return code if code != secret else str(first % 6 + 1) + secret[1:]


async def open_race(fake, bot, world, user=None, **options):
    return await fake.slash(bot, "race", user=user or world.alice, channel=world.general,
                            guild=world.guild, **options)


async def guess(fake, bot, world, user, code):
    return await fake.slash(bot, "guess", user=user, channel=world.general, guild=world.guild,
                            code=code)


def results_posted(fake, world) -> list:
    return [m for m in fake.messages(world.general, include_ephemeral=False)
            if m.embeds and m.embeds[0]["title"].endswith(": finished")
            and m.embeds[0]["description"].startswith("**The code**")]


async def the_result(fake, world):
    found = await fake.wait_until(lambda: results_posted(fake, world), what="a race result")
    return found[-1]


def cog(bot) -> RaceCog:
    found = bot.get_cog("race")
    assert isinstance(found, RaceCog)
    return found


@pytest.mark.both_databases
async def test_a_two_player_race_played_to_the_end(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    alice, bob, mod = world.alice, world.bob, world.mod
    opened = await open_race(fake_discord, bot, world, max_guesses=3)
    assert not opened.ephemeral and opened.embed["title"].endswith(": join now!")
    race = the_race(db_path)
    board = opened.message
    assert race["board_message_id"] == board.id
    assert set(board.custom_ids) == {f"mmr:join:{race['id']}", f"mmr:start:{race['id']}",
                                     f"mmr:leave:{race['id']}"}

    # Mistakes in the lobby are told privately and change nothing.
    before = everything(db_path)
    again = await fake_discord.click(bot, board, f"mmr:join:{race['id']}", user=alice)
    assert again.ephemeral and again.embed["title"] == "Already in"
    forged = fake_discord.old_message(world.general, [f"mmr:board:{race['id']}", "mmr:board:99",
                                                      "mmr:fly:1"])
    early = await fake_discord.click(bot, forged, f"mmr:board:{race['id']}", user=alice)
    assert early.ephemeral and early.embed["title"] == "Not started yet"
    unknown = await fake_discord.click(bot, forged, "mmr:board:99", user=alice)
    assert unknown.ephemeral and unknown.embed["title"] == "Unknown race"
    broken = await fake_discord.click(bot, forged, "mmr:fly:1", user=alice)
    assert broken.ephemeral
    second = await open_race(fake_discord, bot, world, user=bob)
    assert second.ephemeral and second.embed["title"] == "A race is on here"
    game = await fake_discord.slash(bot, "mastermind new", user=bob, channel=world.general,
                                    guild=world.guild)
    assert game.ephemeral and game.embed["title"] == "A race is on here"
    assert everything(db_path) == before

    joined = await fake_discord.click(bot, board, f"mmr:join:{race['id']}", user=bob)
    assert f"<@{bob.id}>" in fake_discord.message(board.id).embeds[0]["description"]
    assert joined.followups and joined.followups[0].ephemeral
    before = everything(db_path)
    not_starter = await fake_discord.click(bot, board, f"mmr:start:{race['id']}", user=bob)
    assert not_starter.ephemeral and not_starter.embed["title"] == "Only the starter can start"
    assert everything(db_path) == before

    join_late = fake_discord.stale_click(board, f"mmr:join:{race['id']}", user=mod)
    started = await fake_discord.click(bot, board, f"mmr:start:{race['id']}", user=alice)
    assert started.embed["title"].endswith(": under way")
    late = await join_late(bot)  # clicked on the lobby, arriving after the start
    assert late.ephemeral and late.embed["title"] == "The race has started"
    secret = the_race(db_path)["secret"]

    mine = await fake_discord.click(bot, board, f"mmr:board:{race['id']}", user=bob)
    assert mine.ephemeral and mine.embed["title"] == "Race: break the code!"
    tapped, _, _ = await play(fake_discord, bot, mine.message, miss(secret), bob)  # the picker
    assert tapped.ephemeral  # a racer's board is theirs alone
    assert rows(db_path, "SELECT COUNT(*) FROM guesses g JOIN games ON games.id = g.game_id"
                         " WHERE games.race_id = ?", (race["id"],)) == [(1,)]
    solved = await guess(fake_discord, bot, world, alice, secret)
    assert solved.ephemeral
    def standings() -> str:
        return fake_discord.message(board.id).embeds[0]["description"]

    # the standings follow the moves a moment later (an edit through the REST budget)
    await fake_discord.wait_until(lambda: "solved in 1 guess (" in standings(),
                                  what="the standings to show alice solved")
    shown = standings()
    assert "racing, 1 guess made" in shown
    assert secret not in without_drawn_pegs(shown)  # nothing that gives the code away
    assert "black" not in shown and not results_posted(fake_discord, world)

    leave_late = fake_discord.stale_click(board, f"mmr:leave:{race['id']}", user=bob)
    for nth in (1, 2):
        await guess(fake_discord, bot, world, bob, miss(secret, nth))
    result = await the_result(fake_discord, world)
    done = the_race(db_path)
    assert done["status"] == "finished" and done["announced"] == 1
    assert racers(db_path, race["id"]) == {alice.id: ("solved", 1, 1, 1),
                                           bob.id: ("unsolved", 3, 2, 1)}
    text = result.embeds[0]["description"]
    assert text.index(f"<@{alice.id}>") < text.index(f"<@{bob.id}>")
    final = fake_discord.message(board.id).embeds[0]["description"]  # the whole ranking
    best = max((score(tuple(map(int, miss(secret, n))), tuple(map(int, secret)))
                for n in range(3)), key=lambda f: (f.black, f.white))
    assert f"best guess {best.black} black, {best.white} white" in final

    # The ratings moved by the library's numbers: alice first, bob second, both new.
    first, second = PlackettLuce().rate([[PlackettLuce().rating()],
                                         [PlackettLuce().rating()]], ranks=[1, 2])
    shown = dict(rows(db_path, "SELECT user_id, mu FROM ratings"))
    assert shown[alice.id] == pytest.approx(first[0].mu)
    assert shown[bob.id] == pytest.approx(second[0].mu)
    assert f"<@{alice.id}>: {model.newcomer():,.0f} → " in text
    assert fake_discord.message(board.id).custom_ids == []  # the board shows the end
    over = await leave_late(bot)
    assert over.ephemeral and over.embed["title"] == "The race is over"


async def test_six_racers_a_leaver_and_the_time_limit(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    people = [world.alice, world.bob] + [
        fake_discord.member(world.guild, fake_discord.user(f"racer{n}")) for n in range(4)]
    opened = await open_race(fake_discord, bot, world)
    race_id, board = the_race(db_path)["id"], opened.message
    for person in people[1:]:
        await fake_discord.click(bot, board, f"mmr:join:{race_id}", user=person)
    wall_clock.advance(61)  # the lobby's minute is up: the sweep starts the race
    await cog(bot).sweep()
    assert the_race(db_path)["status"] == "running"
    assert fake_discord.message(board.id).embeds[0]["title"].endswith(": under way")
    secret = the_race(db_path)["secret"]

    # racer0 solves in 2, alice in 1, bob in 2 but later; racer1 leaves; the others run out.
    await guess(fake_discord, bot, world, people[2], miss(secret))
    await guess(fake_discord, bot, world, people[2], secret)
    await guess(fake_discord, bot, world, world.alice, secret)
    wall_clock.advance(5)
    await guess(fake_discord, bot, world, world.bob, miss(secret))
    await guess(fake_discord, bot, world, world.bob, secret)
    left = await fake_discord.click(bot, board, f"mmr:leave:{race_id}", user=people[3])
    assert left.followups[0].content == f"You left race #{race_id}: you rank last in it."
    await guess(fake_discord, bot, world, people[4], miss(secret, 1))
    before = everything(db_path)
    gone = await fake_discord.click(bot, board, f"mmr:leave:{race_id}", user=people[3])
    assert gone.ephemeral and gone.embed["title"] == "You have finished"
    assert everything(db_path) == before

    wall_clock.advance(600)  # the time limit (10 minutes by default)
    late = await guess(fake_discord, bot, world, people[5], miss(secret))
    # the answer itself (the interaction's latest message may be the result it set off)
    assert late.ephemeral and late.original.embeds[0]["title"] == "Time is up"
    await cog(bot).sweep()
    await the_result(fake_discord, world)
    placed = racers(db_path, race_id)
    assert placed[world.alice.id][:3] == ("solved", 1, 1)
    assert placed[people[2].id][2] == 2 and placed[world.bob.id][2] == 3  # faster first
    assert placed[people[4].id][:1] == ("unsolved",) and placed[people[4].id][2] == 4
    assert placed[people[5].id][2] == 5  # no guess: the worst best reply
    assert placed[people[3].id][:1] == ("left",) and placed[people[3].id][2] == 6
    assert len(rows(db_path, "SELECT * FROM rated_games")) == 1
    assert len(results_posted(fake_discord, world)) == 1
    await cog(bot).sweep()  # a later sweep finds nothing to do
    assert len(results_posted(fake_discord, world)) == 1


async def test_a_channel_game_holds_the_channel_and_a_race_of_one(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    await fake_discord.slash(bot, "mastermind new", user=world.bob, channel=world.general,
                             guild=world.guild)
    refused = await open_race(fake_discord, bot, world)
    assert refused.ephemeral and refused.embed["title"] == "A game is already running here"
    assert rows(db_path, "SELECT * FROM races") == []

    opened = await fake_discord.slash(bot, "race", user=world.alice, channel=world.other,
                                      guild=world.guild)
    race_id = the_race(db_path)["id"]
    private = await fake_discord.slash(bot, "mastermind new", user=world.alice,
                                       channel=world.other, guild=world.guild, private=True)
    assert private.embed["title"] == "Your private game: break the code!"  # not racing yet
    await fake_discord.click(bot, opened.message, f"mmr:start:{race_id}", user=world.alice)
    race = the_race(db_path)
    # alice had started a private game meanwhile: she is left out, and alone the race is off
    assert race["status"] == "cancelled"
    assert rows(db_path, "SELECT * FROM rated_games") == []


@pytest.mark.both_databases
async def test_joins_and_moves_delivered_twice_count_once(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    opened = await open_race(fake_discord, bot, world, max_guesses=2)
    race_id, board = the_race(db_path)["id"], opened.message
    joined = await fake_discord.click(bot, board, f"mmr:join:{race_id}", user=world.bob)
    fake_discord.expect_violation(40060)  # Discord refuses the second answer
    await fake_discord.redeliver(bot, joined)
    assert len(racers(db_path, race_id)) == 2
    await fake_discord.click(bot, board, f"mmr:start:{race_id}", user=world.alice)
    secret = the_race(db_path)["secret"]
    moved = await guess(fake_discord, bot, world, world.bob, miss(secret))
    fake_discord.expect_violation(40060)
    await fake_discord.redeliver(bot, moved)
    assert rows(db_path, "SELECT COUNT(*) FROM guesses g JOIN games ON games.id = g.game_id"
                         " WHERE games.started_by = ?", (world.bob.id,)) == [(1,)]

    # The last two moves at once, and a second process: the race ends and is rated once.
    other = await start_bot()
    await asyncio.gather(guess(fake_discord, bot, world, world.alice, secret),
                         guess(fake_discord, other, world, world.bob, miss(secret, 1)))
    await the_result(fake_discord, world)
    await cog(other).sweep()
    await cog(bot).sweep()
    assert the_race(db_path)["status"] == "finished"
    assert len(rows(db_path, "SELECT * FROM rated_games")) == 1
    assert len(rows(db_path, "SELECT * FROM rating_changes")) == 2
    assert len(results_posted(fake_discord, world)) == 1
    await other.close()


async def test_forget_me_takes_a_player_out_of_ended_races(fake_discord, start_bot, world,
                                                           db_path):
    bot = await start_bot()
    opened = await open_race(fake_discord, bot, world, max_guesses=1)
    race_id = the_race(db_path)["id"]
    await fake_discord.click(bot, opened.message, f"mmr:join:{race_id}", user=world.bob)
    await fake_discord.click(bot, opened.message, f"mmr:start:{race_id}", user=world.alice)
    secret = the_race(db_path)["secret"]
    await guess(fake_discord, bot, world, world.alice, secret)
    await guess(fake_discord, bot, world, world.bob, miss(secret))
    assert the_race(db_path)["status"] == "finished"
    asked = await fake_discord.slash(bot, "mastermind forget-me", user=world.alice,
                                     channel=world.general, guild=world.guild)
    await fake_discord.click(bot, asked.message, f"mmf:yes:{world.alice.id}", user=world.alice)
    assert set(racers(db_path, race_id)) == {world.bob.id}
