"""A race's boards seen from every door into a game (``/mastermind board|quit``, ``/guess``,
the picker, Analyse, the Activity), its buttons tapped twice, forged, delivered twice, its
end met from two sides and two processes, and its standings board edited from two: through
the real dispatch (the fake Discord) on a real database. See tests/test_bot_race.py for the
race played through."""

from __future__ import annotations

import asyncio
import re

import aiohttp
import pytest
from activity_kit import Player, start_activity_bot
from conftest import without_drawn_pegs
from test_bot_race import (
    cog,
    everything,
    guess,
    miss,
    open_race,
    racers,
    results_posted,
    rows,
    the_race,
    the_result,
)

from bot.store.races import RaceStore

WITHHELD = "shown in the channel when the race ends"
#: How long Discord takes to apply an edit that another process's overtakes (seconds).
SLOW = 3.0


async def started_race(fake, bot, world, db_path, *people, **options):
    """A race alice opened, ``people`` joined and alice started: (race id, its board,
    the secret)."""
    opened = await open_race(fake, bot, world, **options)
    race_id, board = the_race(db_path)["id"], opened.message
    for person in people:
        await fake.click(bot, board, f"mmr:join:{race_id}", user=person)
    await fake.click(bot, board, f"mmr:start:{race_id}", user=world.alice)
    assert the_race(db_path)["status"] == "running"
    return race_id, board, the_race(db_path)["secret"]


def secret_of_race(db_path, race_id: int) -> str:
    return rows(db_path, "SELECT secret FROM races WHERE id = ?", (race_id,))[0][0]


def board_of(db_path, race_id: int, user_id: int) -> int:
    return rows(db_path, "SELECT id FROM games WHERE race_id = ? AND started_by = ?",
                (race_id, user_id))[0][0]


def standings(fake, board) -> str:
    return fake.message(board.id).embeds[0]["description"]


async def test_quitting_a_racers_board_is_a_forfeit_the_standings_show_at_once(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    race_id, board, secret = await started_race(fake_discord, bot, world, db_path,
                                                world.bob, world.mod)
    quit = await fake_discord.slash(bot, "mastermind quit", user=world.bob,
                                    channel=world.general, guild=world.guild)
    assert quit.ephemeral and WITHHELD in quit.embed["description"]  # not the code
    assert racers(db_path, race_id)[world.bob.id][0] == "left"
    # the board shows it now, not at the next move (no sweep refreshes a running race)
    await fake_discord.wait_until(lambda: f"<@{world.bob.id}>: left the race"
                                  in standings(fake_discord, board), timeout=3,
                                  what="the standings to show bob's forfeit")
    assert the_race(db_path)["status"] == "running"

    # The last two forfeit and solve: the race ends, once, and the quitter's board then
    # tells the code.
    await fake_discord.slash(bot, "mastermind quit", user=world.mod, channel=world.general,
                             guild=world.guild)
    await guess(fake_discord, bot, world, world.alice, secret)
    await the_result(fake_discord, world)
    assert racers(db_path, race_id)[world.bob.id][2] == 2  # both who left share 2nd
    clicked = await fake_discord.click(bot, fake_discord.old_message(
        world.general, [f"mma:g:{board_of(db_path, race_id, world.bob.id)}"]),
        f"mma:g:{board_of(db_path, race_id, world.bob.id)}", user=world.bob)
    assert clicked.ephemeral and clicked.embed["title"].startswith("Analysis")


async def test_no_door_shows_the_code_or_another_racers_board_before_the_end(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    race_id, board, secret = await started_race(fake_discord, bot, world, db_path,
                                                world.bob, max_guesses=2)
    alices, bobs = (board_of(db_path, race_id, u.id) for u in (world.alice, world.bob))
    mine = await fake_discord.click(bot, board, f"mmr:board:{race_id}", user=world.bob)
    before = everything(db_path)

    # bob's picker pointed at alice's board: not there for him
    opener = mine.message.component(label="Guess")["custom_id"]
    forged_picker = opener.replace(f":{bobs}:", f":{alices}:")
    assert forged_picker != opener
    tapped = await fake_discord.click(bot, fake_discord.old_message(
        world.general, [forged_picker]), forged_picker, user=world.bob)
    assert tapped.ephemeral and secret not in without_drawn_pegs(tapped.embeds)
    # the analysis of a board that runs, or of another racer's
    for game_id, who in ((alices, world.bob), (bobs, world.bob), (alices, world.alice)):
        custom_id = f"mma:g:{game_id}"
        asked = await fake_discord.click(bot, fake_discord.old_message(
            world.general, [custom_id]), custom_id, user=who)
        assert asked.ephemeral and not asked.message.attachments
    # "Play again" named after a racer's board: a board of one's own runs already
    again = await fake_discord.click(bot, fake_discord.old_message(
        world.general, [f"mmb:again:{alices}"]), f"mmb:again:{alices}", user=world.alice)
    assert again.ephemeral and again.embed["title"] == "You are racing"
    assert everything(db_path) == before

    # bob runs out of guesses while alice races on: no door shows him the code yet
    for nth in (0, 1):
        out = await guess(fake_discord, bot, world, world.bob, miss(secret, nth))
    assert WITHHELD in out.embed["description"]
    analysed = await fake_discord.click(bot, fake_discord.old_message(
        world.general, [f"mma:g:{bobs}"]), f"mma:g:{bobs}", user=world.bob)
    assert analysed.ephemeral and analysed.embed["title"] == "This game is still running"
    shown = await fake_discord.slash(bot, "mastermind board", user=world.bob,
                                     channel=world.general, guild=world.guild, game="private")
    assert shown.ephemeral and shown.embed["title"] == "No private game"
    assert secret not in without_drawn_pegs(shown.embeds)
    late = await guess(fake_discord, bot, world, world.bob, secret)
    assert late.ephemeral and secret not in without_drawn_pegs(late.embeds)
    assert racers(db_path, race_id)[world.bob.id][:2] == ("unsolved", 2)

    # alice solves: the race is over, and bob's board may now tell him the code
    await guess(fake_discord, bot, world, world.alice, secret)
    await the_result(fake_discord, world)
    analysed = await fake_discord.click(bot, fake_discord.old_message(
        world.general, [f"mma:g:{bobs}"]), f"mma:g:{bobs}", user=world.bob)
    assert analysed.embed["title"].startswith("Analysis")


async def test_the_activity_keeps_a_racers_code_until_the_race_ends(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_activity_bot(start_bot, fake_discord)
    race_id, board, secret = await started_race(fake_discord, bot, world, db_path,
                                                world.bob, world.mod, max_guesses=2)
    instance = fake_discord.state.start_activity(world.general, world.alice.user,
                                                 world.bob.user, world.mod.user)
    async with aiohttp.ClientSession() as http:
        bob = await Player.sign_in(http, bot, fake_discord, world.bob, instance.instance_id)
        alice = await Player.sign_in(http, bot, fake_discord, world.alice,
                                     instance.instance_id)
        view = (await bob.game("private")).body
        assert view["game_id"] == str(board_of(db_path, race_id, world.bob.id))
        assert view["status"] == "running" and view["secret"] is None
        # alice's tap on bob's board (a forged game id) is refused and stores nothing
        before = everything(db_path)
        forged = await alice.guess("private", view, miss(secret))
        assert forged.status == 403 and forged.error == "not_your_game"
        assert everything(db_path) == before
        # bob plays his board in the Activity: out of guesses, the code still withheld
        first = await bob.guess("private", view, miss(secret))
        assert first.status == 200 and first.body["turn"] == 1
        await fake_discord.wait_until(  # the channel's standings follow the Activity's moves
            lambda: f"<@{world.bob.id}>: racing, 1 guess made" in standings(fake_discord, board),
            timeout=3, what="the standings to show bob's move in the Activity")
        last = await bob.guess("private", first.body, miss(secret, 1))
        assert last.body["status"] == "lost" and last.body["secret"] is None
        assert (await bob.game("private")).body["secret"] is None
        # mod's board runs out of time: the Activity move is refused, the race ends
        wall_clock.advance(601)
        mods = await Player.sign_in(http, bot, fake_discord, world.mod, instance.instance_id)
        stale = (await mods.game("private")).body
        moved = await mods.guess("private", stale, miss(secret))
        assert moved.status == 409 and moved.error == "game_rule", moved.body
        await cog(bot).sweep()
        await the_result(fake_discord, world)
        assert (await bob.game("private")).body["secret"] == secret
    assert racers(db_path, race_id)[world.mod.id][:2] == ("unsolved", 0)


async def test_double_taps_and_second_deliveries_of_the_race_buttons(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    opened = await open_race(fake_discord, bot, world)
    race_id, board = the_race(db_path)["id"], opened.message
    join = f"mmr:join:{race_id}"
    taps = await asyncio.gather(*(fake_discord.click(bot, board, join, user=world.bob)
                                  for _ in range(2)))
    assert len(racers(db_path, race_id)) == 2
    refused = [t for t in taps if t.embed and t.embed.get("title") == "Already in"]
    assert len(refused) == 1 and refused[0].ephemeral
    fake_discord.expect_violation(40060)
    before = everything(db_path)
    await fake_discord.redeliver(bot, taps[0])
    assert everything(db_path) == before

    # Start tapped twice at once: one start, one board each; both taps show it under way
    start = f"mmr:start:{race_id}"
    join_again = fake_discord.stale_click(board, join, user=world.bob)
    started = await asyncio.gather(*(fake_discord.click(bot, board, start, user=world.alice)
                                     for _ in range(2)))
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE race_id = ?", (race_id,)) == [(2,)]
    assert [s.embed["title"] for s in started] == [f"Race #{race_id}: under way"] * 2
    assert not any(s.ephemeral for s in started)
    late = await join_again(bot)  # a racer's Join, tapped on the lobby, after the start
    assert late.ephemeral and late.embed["title"] == "You are racing"
    before = everything(db_path)
    fake_discord.expect_violation(40060)
    await fake_discord.redeliver(bot, started[0])
    assert everything(db_path) == before

    # Leave tapped twice, then delivered again: one forfeit
    leave = f"mmr:leave:{race_id}"
    left = await asyncio.gather(*(fake_discord.click(bot, board, leave, user=world.bob)
                                  for _ in range(2)))
    assert racers(db_path, race_id)[world.bob.id][0] == "left"
    assert sorted(bool(t.followups) for t in left) == [False, True]  # one "you left"
    assert [t.embed["title"] for t in left if not t.followups] == ["You have finished"]
    before = everything(db_path)
    fake_discord.expect_violation(40060)
    await fake_discord.redeliver(bot, left[0])
    assert everything(db_path) == before
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE race_id = ? AND status = 'quit'",
                (race_id,)) == [(1,)]


async def test_forged_and_outdated_race_buttons(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    race_id, board, secret = await started_race(fake_discord, bot, world, db_path, world.bob)
    before = everything(db_path)
    forged = {
        "mmr:join:0": "That button is out of date",
        "mmr:board:99999999999999999999": "That button is out of date",
        f"mmr:board:{race_id}x": "That button is out of date",
        "mmr:leave:4242": "Unknown race",
        f"mmr:join:{race_id}": "The race has started",
        f"mmr:start:{race_id}": "The race has started",
        f"mmr:leave:{race_id}": "Not in this race",
        f"mmr:board:{race_id}": "Not in this race",
    }
    for custom_id, title in forged.items():
        clicked = await fake_discord.click(bot, fake_discord.old_message(
            world.general, [custom_id]), custom_id, user=world.mod)
        assert clicked.ephemeral and clicked.embed["title"] == title, custom_id
        assert secret not in without_drawn_pegs(clicked.embeds)
    assert everything(db_path) == before
    await guess(fake_discord, bot, world, world.alice, secret)
    await fake_discord.click(bot, board, f"mmr:leave:{race_id}", user=world.bob)
    await the_result(fake_discord, world)
    before = everything(db_path)
    for action in ("join", "start", "leave", "board"):
        custom_id = f"mmr:{action}:{race_id}"
        over = await fake_discord.click(bot, fake_discord.old_message(
            world.general, [custom_id]), custom_id, user=world.mod)
        assert over.ephemeral, custom_id
        assert over.embed["title"] in ("The race is over", "Not in this race"), custom_id
    assert everything(db_path) == before


@pytest.mark.both_databases
async def test_the_last_move_and_two_sweeps_meet_the_race_ends_once(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    other = await start_bot()  # a second process on the same database
    race_id, _, secret = await started_race(fake_discord, bot, world, db_path, world.bob)
    await guess(fake_discord, bot, world, world.alice, secret)
    wall_clock.advance(600)  # the deadline, as bob's last move arrives
    late, *_ = await asyncio.gather(guess(fake_discord, other, world, world.bob, secret),
                                    cog(bot).sweep(), cog(other).sweep())
    # its answer (the result, which the move may post itself, follows in the channel)
    assert late.original.ephemeral and late.original.embeds[0]["title"] == "Time is up"
    await the_result(fake_discord, world)
    await asyncio.gather(cog(bot).sweep(), cog(other).sweep())
    assert the_race(db_path)["status"] == "finished"
    assert racers(db_path, race_id)[world.bob.id][:3] == ("unsolved", 0, 2)
    assert len(rows(db_path, "SELECT * FROM rated_games")) == 1
    assert len(rows(db_path, "SELECT * FROM rating_changes")) == 2
    assert len(results_posted(fake_discord, world)) == 1
    await other.close()


async def overtaken(fake, world, board, race_id: int, slow, drawing: asyncio.Task,
                    ending) -> None:
    """``drawing`` (this process drawing the board as the race runs) is slow to land (the
    ``slow`` fault); ``ending`` ends the race in the other process meanwhile, which draws
    the final board first: the final board is what the channel keeps."""
    await fake.wait_until(lambda: slow.times == 0, what="the older drawing to be sent")
    await ending
    await the_result(fake, world)
    assert not drawing.done()  # the older drawing lands after the final one
    await drawing
    assert fake.message(board.id).embeds[0]["title"] == f"Race #{race_id}: finished"
    assert fake.message(board.id).custom_ids == []


@pytest.mark.both_databases
async def test_the_final_standings_win_over_an_older_edit_from_another_process(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    other = await start_bot()
    race_id, board, secret = await started_race(fake_discord, bot, world, db_path, world.bob)

    async def ending() -> None:  # alice solves, bob leaves
        await guess(fake_discord, other, world, world.alice, secret)
        await fake_discord.click(other, board, f"mmr:leave:{race_id}", user=world.bob)

    slow = fake_discord.state.slow_next(
        "PATCH", rf"/channels/{world.general.id}/messages/{board.id}$", SLOW)
    refresh = asyncio.create_task(cog(bot)._refresh(race_id))
    await overtaken(fake_discord, world, board, race_id, slow, refresh, ending())
    assert refresh.result()
    await other.close()


@pytest.mark.both_databases
async def test_a_click_drawn_before_another_process_ended_the_race_is_drawn_again(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    other = await start_bot()
    race_id, board, secret = await started_race(fake_discord, bot, world, db_path,
                                                world.bob, world.mod)
    await guess(fake_discord, bot, world, world.alice, secret)
    # bob leaves (mod races on): the clicked board's update is slow to land, and meanwhile
    # mod's forfeit in the other process ends the race
    slow = fake_discord.state.slow_next("POST", r"/interactions/\d+/[^/]+/callback", SLOW)
    left = asyncio.create_task(fake_discord.click(bot, board, f"mmr:leave:{race_id}",
                                                  user=world.bob))
    await overtaken(fake_discord, world, board, race_id, slow, left, fake_discord.slash(
        other, "mastermind quit", user=world.mod, channel=world.general, guild=world.guild))
    await other.close()


async def test_forget_me_in_a_running_race_keeps_the_race_going(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    race_id, board, secret = await started_race(fake_discord, bot, world, db_path,
                                                world.bob, max_guesses=3)
    await guess(fake_discord, bot, world, world.bob, miss(secret))
    asked = await fake_discord.slash(bot, "mastermind forget-me", user=world.bob,
                                     channel=world.general, guild=world.guild)
    await fake_discord.click(bot, asked.message, f"mmf:yes:{world.bob.id}", user=world.bob)
    # games stay playable: bob races on, and the race ends with him placed
    mine = await fake_discord.click(bot, board, f"mmr:board:{race_id}", user=world.bob)
    assert mine.ephemeral and mine.embed["title"] == "Race: break the code!"
    await guess(fake_discord, bot, world, world.bob, secret)
    await guess(fake_discord, bot, world, world.alice, miss(secret))
    await fake_discord.click(bot, board, f"mmr:leave:{race_id}", user=world.alice)
    await the_result(fake_discord, world)
    assert racers(db_path, race_id)[world.bob.id][:3] == ("solved", 2, 1)
    assert re.search(rf"\*\*1\.\*\* <@{world.bob.id}>", standings(fake_discord, board))


async def test_a_result_discord_refused_for_a_moment_is_posted_by_the_next_sweep(
    fake_discord, start_bot, world, db_path
):
    bot = await start_bot()
    race_id, board, secret = await started_race(fake_discord, bot, world, db_path, world.bob)
    fake_discord.state.fail_next("POST", rf"/channels/{world.general.id}/messages$", 503)
    await guess(fake_discord, bot, world, world.alice, secret)
    await fake_discord.click(bot, board, f"mmr:leave:{race_id}", user=world.bob)
    await fake_discord.wait_until(lambda: not cog(bot)._tasks, what="the announcement")
    assert not results_posted(fake_discord, world) and the_race(db_path)["announced"] == 0
    await cog(bot).sweep()
    await the_result(fake_discord, world)
    await cog(bot).sweep()
    assert len(results_posted(fake_discord, world)) == 1
    assert the_race(db_path)["announced"] == 1


async def test_a_click_that_finds_the_lobbys_minute_up_shows_the_race_under_way(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    opened = await open_race(fake_discord, bot, world)
    race_id, board = the_race(db_path)["id"], opened.message
    await fake_discord.click(bot, board, f"mmr:join:{race_id}", user=world.bob)
    start_late = fake_discord.stale_click(board, f"mmr:start:{race_id}", user=world.alice)
    wall_clock.advance(61)  # the minute is up; no sweep has run yet
    late = await fake_discord.click(bot, board, f"mmr:join:{race_id}", user=world.mod)
    assert late.ephemeral and late.embed["title"] == "The race has started"
    assert the_race(db_path)["status"] == "running"  # the click started it on the way
    await fake_discord.wait_until(  # and the board, which nothing else redraws, shows it
        lambda: fake_discord.message(board.id).embeds[0]["title"].endswith(": under way"),
        timeout=3, what="the board to show the race under way")
    assert f"mmr:board:{race_id}" in fake_discord.message(board.id).custom_ids
    assert set(racers(db_path, race_id)) == {world.alice.id, world.bob.id}
    # the starter's Start, tapped on the lobby she saw, shows it under way: she is in it
    started = await start_late(bot)
    assert not started.ephemeral and started.embed["title"] == f"Race #{race_id}: under way"
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE race_id = ?", (race_id,)) == [(2,)]


async def test_forget_me_after_ones_board_ended_mid_race(fake_discord, start_bot, world,
                                                         db_path):
    bot = await start_bot()
    race_id, board, secret = await started_race(fake_discord, bot, world, db_path,
                                                world.bob, max_guesses=1)
    await guess(fake_discord, bot, world, world.bob, miss(secret))  # out of guesses
    asked = await fake_discord.slash(bot, "mastermind forget-me", user=world.bob,
                                     channel=world.general, guild=world.guild)
    await fake_discord.click(bot, asked.message, f"mmf:yes:{world.bob.id}", user=world.bob)
    before = everything(db_path)
    mine = await fake_discord.click(bot, board, f"mmr:board:{race_id}", user=world.bob)
    assert mine.ephemeral and mine.embed["title"] == "You have finished"
    assert everything(db_path) == before
    await guess(fake_discord, bot, world, world.alice, secret)
    await the_result(fake_discord, world)
    assert racers(db_path, race_id)[world.bob.id][:3] == ("unsolved", 1, 2)


async def test_a_private_game_started_past_the_races_time_calls_no_board_abandoned(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    race_id, _, secret = await started_race(fake_discord, bot, world, db_path, world.bob)
    await guess(fake_discord, bot, world, world.bob, miss(secret))
    wall_clock.advance(601)  # no sweep yet: the new game's start ends bob's board, and the race
    started = await fake_discord.slash(bot, "mastermind new", user=world.bob,
                                       channel=world.general, guild=world.guild, private=True)
    assert started.embed["title"] == "Your private game: break the code!"
    assert "abandoned" not in str(started.embeds)  # it ran out of the race's time
    assert the_race(db_path)["status"] == "finished"
    assert racers(db_path, race_id)[world.bob.id][:2] == ("unsolved", 1)
    await cog(bot).sweep()
    await the_result(fake_discord, world)


async def test_a_race_command_delivered_twice_opens_one_race(fake_discord, start_bot, world,
                                                             db_path):
    bot = await start_bot()
    other = await start_bot()
    opened = await open_race(fake_discord, bot, world)
    before = everything(db_path)
    fake_discord.expect_violation(40060)
    await fake_discord.redeliver(other, opened)
    assert everything(db_path) == before
    assert len(rows(db_path, "SELECT * FROM races")) == 1
    await other.close()


async def test_a_move_just_after_the_sweep_ended_the_race_is_told_time_is_up(
    fake_discord, start_bot, world, db_path, wall_clock
):
    bot = await start_bot()
    _, _, secret = await started_race(fake_discord, bot, world, db_path, world.bob)
    await guess(fake_discord, bot, world, world.alice, secret)
    wall_clock.advance(600)
    await cog(bot).sweep()  # the sweep ends the race before bob's move arrives
    await the_result(fake_discord, world)
    before = everything(db_path)
    for late in (await guess(fake_discord, bot, world, world.bob, miss(secret)),
                 await fake_discord.slash(bot, "guess", user=world.bob, channel=world.general,
                                          guild=world.guild, code=secret, game="private")):
        assert late.ephemeral and late.embed["title"] == "Time is up"
        assert secret not in without_drawn_pegs(late.embeds)
    assert everything(db_path) == before


@pytest.mark.both_databases
async def test_a_racer_another_race_took_while_this_one_started_is_left_out(
    fake_discord, start_bot, world, db_path, monkeypatch
):
    """bob waits in two lobbies, in two channels. The other race starts first, while this
    start has already read bob free (its read came before that start committed, as two
    processes can meet): bob keeps the board he got first, and this race starts without
    him, saying so, instead of failing on the one-private-game index."""
    bot = await start_bot()
    first = await open_race(fake_discord, bot, world)
    first_id = the_race(db_path)["id"]
    await fake_discord.click(bot, first.message, f"mmr:join:{first_id}", user=world.bob)
    second = await fake_discord.slash(bot, "race", user=world.mod, channel=world.other,
                                      guild=world.guild)
    second_id = the_race(db_path)["id"]
    await fake_discord.click(bot, second.message, f"mmr:join:{second_id}", user=world.bob)
    await fake_discord.click(bot, first.message, f"mmr:start:{first_id}", user=world.alice)

    async def read_before_the_other_start_committed(self, conn, user_ids):
        return set()

    monkeypatch.setattr(RaceStore, "with_private_game", read_before_the_other_start_committed)
    started = await fake_discord.click(bot, second.message, f"mmr:start:{second_id}",
                                       user=world.mod)
    board = fake_discord.message(second.message.id)
    assert board.embeds[0]["title"] == f"Race #{second_id}: under way"
    (note,) = started.followups  # in the channel, where the standings' edits leave it be
    assert not note.ephemeral and note.content == (
        f"Left out (a private game of their own was running): <@{world.bob.id}>")
    await fake_discord.slash(bot, "guess", user=world.mod, channel=world.other,
                             guild=world.guild, code=miss(secret_of_race(db_path, second_id)))
    assert fake_discord.message(note.id).content == note.content
    assert set(racers(db_path, second_id)) == {world.mod.id}
    assert rows(db_path, "SELECT race_id FROM games WHERE started_by = ? AND status = 'active'",
                (world.bob.id,)) == [(first_id,)]

    # everyone in a lobby taken meanwhile: the race is called off, no board half-made
    cy = fake_discord.member(world.guild, fake_discord.user("cy"))
    lone = fake_discord.channel(world.guild, "third")
    third = await fake_discord.slash(bot, "race", user=cy, channel=lone, guild=world.guild)
    third_id = the_race(db_path)["id"]
    await fake_discord.click(bot, third.message, f"mmr:join:{third_id}", user=world.bob)
    await fake_discord.slash(bot, "mastermind new", user=cy, channel=lone, guild=world.guild,
                             private=True)
    off = await fake_discord.click(bot, third.message, f"mmr:start:{third_id}", user=cy)
    assert fake_discord.message(third.message.id).embeds[0]["title"] == (
        f"Race #{third_id}: called off")
    assert len(off.followups) == 1  # who was left out, in the channel
    assert rows(db_path, "SELECT status FROM races WHERE id = ?", (third_id,)) == [
        ("cancelled",)]
    assert rows(db_path, "SELECT COUNT(*) FROM games WHERE race_id = ?", (third_id,)) == [(0,)]


@pytest.mark.both_databases
async def test_a_racer_plays_and_quits_their_board_from_another_channel(
    fake_discord, start_bot, world, db_path
):
    """A racer's board is theirs wherever they type: /guess and /mastermind quit in another
    channel reach it (its writes lock as the race's channel, taken in order)."""
    bot = await start_bot()
    race_id, _, secret = await started_race(fake_discord, bot, world, db_path, world.bob)
    moved = await fake_discord.slash(bot, "guess", user=world.bob, channel=world.other,
                                     guild=world.guild, code=miss(secret))
    assert moved.ephemeral
    assert rows(db_path, "SELECT COUNT(*) FROM guesses WHERE game_id = ?",
                (board_of(db_path, race_id, world.bob.id),)) == [(1,)]
    quit = await fake_discord.slash(bot, "mastermind quit", user=world.bob,
                                    channel=world.other, guild=world.guild)
    assert quit.ephemeral
    assert racers(db_path, race_id)[world.bob.id][0] == "left"


async def test_a_late_move_that_ends_the_race_posts_its_result_at_once(
    fake_discord, start_bot, world, db_path, wall_clock
):
    """bob's move comes after the race's time: he is told time is up, and as his board's
    end ended the race, the result is posted then, not at the next sweep."""
    bot = await start_bot()
    cog(bot).sweeping.cancel()  # no sweep: only the move can end the race here
    _, _, secret = await started_race(fake_discord, bot, world, db_path, world.bob)
    await guess(fake_discord, bot, world, world.alice, secret)
    wall_clock.advance(600)
    late = await guess(fake_discord, bot, world, world.bob, miss(secret))
    assert late.original.ephemeral and late.original.embeds[0]["title"] == "Time is up"
    await the_result(fake_discord, world)
    assert the_race(db_path)["status"] == "finished" and the_race(db_path)["announced"] == 1
