"""The peg picker's edges, through discord.py's real dispatch with a real database: stale
and forged pickers, double submits, a restart, taps that can't apply, and Discord's
limits at every size the bot plays. Whatever is refused is said privately and changes
nothing stored."""

from __future__ import annotations

import asyncio
import contextlib

import dbtools
import pytest
from conftest import secret_of, snapshot
from fake_discord.limits import check_message
from picking import button, open_picker, pick, play, tap

from bot.features.picker.render import picker_content, picker_view
from bot.features.picker.state import Op, Picker, read_tap
from bot.ui.buttons import MAX_ID
from engine import InvalidRules, Rules
from engine.rules import MAX_COLORS, MAX_PEGS, MIN_COLORS, MIN_PEGS


def count(db_path, table: str) -> int:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


async def slash(fake, bot, world, command, user, **options):
    return await fake.slash(bot, command, user=user, channel=world.general, guild=world.guild,
                            **options)


async def new_board(fake, bot, world, **options):
    return (await slash(fake, bot, world, "mastermind new", world.alice, **options)).message


def a_miss(secret: str) -> str:
    return next(c for c in ("1122", "3344", "5566") if c != secret)


async def test_a_stale_picker_changes_nothing(fake_discord, start_bot, world, db_path):
    """A picker whose game ended, or was replaced by another, is told so; a guess made by
    someone else meanwhile doesn't make it stale (a guess is a guess)."""
    bot = await start_bot()
    board = await new_board(fake_discord, bot, world)
    secret = secret_of(db_path, world.general.id)
    _, alices = await open_picker(fake_discord, bot, board, world.alice)
    alices, _ = await pick(fake_discord, bot, alices, a_miss(secret), world.alice)
    _, bobs = await open_picker(fake_discord, bot, board, world.bob)
    other = next(c for c in ("6611", "2233") if c not in (secret, a_miss(secret)))
    bobs, _ = await pick(fake_discord, bot, bobs, other, world.bob)
    await play(fake_discord, bot, board, "4455" if secret != "4455" else "4456", world.mod)
    moved_on = await tap(fake_discord, bot, alices, "s", world.alice)  # the turn moved on
    assert moved_on.followups and count(db_path, "guesses") == 2

    await slash(fake_discord, bot, world, "mastermind quit", world.alice)
    before = snapshot(db_path)
    ended = await tap(fake_discord, bot, bobs, "s", world.bob)
    assert ended.ephemeral and ended.embed["title"] == "That game is over"
    assert snapshot(db_path) == before

    await new_board(fake_discord, bot, world)
    before = snapshot(db_path)
    replaced = await tap(fake_discord, bot, bobs, "s", world.bob)
    assert replaced.ephemeral and replaced.embed["title"] == "A new game runs here"
    assert "press **Guess** on its board" in replaced.embed["description"]
    assert snapshot(db_path) == before
    assert fake_discord.message(bobs.id).custom_ids == bobs.custom_ids  # left as it was


async def test_stale_pickers_of_codes_change_nothing(fake_discord, start_bot, world, db_path):
    """A reveal picker whose challenge ended, and a match code's picker whose half-round
    has its code already (a second picker, a double submit), are told so."""
    bot = await start_bot()
    board = (await slash(fake_discord, bot, world, "challenge", world.alice)).message
    _, reveal = await open_picker(fake_discord, bot, board, world.alice, label="Reveal my code")
    reveal, _ = await pick(fake_discord, bot, reveal, "1234", world.alice)
    await slash(fake_discord, bot, world, "mastermind quit", world.alice)
    before = snapshot(db_path)
    ended = await tap(fake_discord, bot, reveal, "s", world.alice)
    assert ended.ephemeral and ended.embed["title"] == "This challenge is over"
    assert snapshot(db_path) == before

    invited = await slash(fake_discord, bot, world, "match", world.alice, rounds=1,
                          options={"opponent": world.bob})
    accept = next(c for c in invited.message.custom_ids if ":accept:" in c)
    await fake_discord.click(bot, invited.message, accept, user=world.bob)
    scoreboard = fake_discord.message(invited.message.id)
    pickers = [(await open_picker(fake_discord, bot, scoreboard, world.bob,
                                  label="Set my code"))[1] for _ in range(2)]
    first, _ = await pick(fake_discord, bot, pickers[0], "1234", world.bob)
    second, _ = await pick(fake_discord, bot, pickers[1], "4321", world.bob)
    assert (await tap(fake_discord, bot, first, "s", world.bob)).followups
    stale = await tap(fake_discord, bot, second, "s", world.bob)
    assert stale.ephemeral and stale.embed["title"] == "That button is out of date"
    assert secret_of(db_path, world.general.id) == "1234"


async def test_a_picker_too_late_for_the_win(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = await new_board(fake_discord, bot, world)
    secret = secret_of(db_path, world.general.id)
    _, late = await open_picker(fake_discord, bot, board, world.bob)
    late, _ = await pick(fake_discord, bot, late, a_miss(secret), world.bob)
    await slash(fake_discord, bot, world, "guess", world.alice, code=secret)
    refused = await tap(fake_discord, bot, late, "s", world.bob)
    assert refused.ephemeral and refused.embed["title"] == "This game is over"
    assert "Too late" in refused.embed["description"] and count(db_path, "guesses") == 1


async def test_another_players_picker_is_refused(fake_discord, start_bot, world, db_path):
    """Discord shows a picker to its owner only; its ids copied into a forged click are
    refused, whatever the button, and nothing is stored or drawn."""
    bot = await start_bot()
    board = await new_board(fake_discord, bot, world)
    secret = secret_of(db_path, world.general.id)
    _, picker = await open_picker(fake_discord, bot, board, world.alice)
    picker, _ = await pick(fake_discord, bot, picker, a_miss(secret), world.alice)
    forged = fake_discord.old_message(world.general, picker.custom_ids)
    before = snapshot(db_path)
    for op in ("1", "x", "s", "t"):
        refused = await tap(fake_discord, bot, forged, op, world.bob)
        assert refused.ephemeral and refused.embed["title"] == "This picker isn't yours", op
    assert snapshot(db_path) == before
    assert fake_discord.message(forged.id).custom_ids == forged.custom_ids


@pytest.mark.both_databases
async def test_a_double_submit_is_one_move(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = await new_board(fake_discord, bot, world)
    secret = secret_of(db_path, world.general.id)
    _, picker = await open_picker(fake_discord, bot, board, world.alice)
    picker, _ = await pick(fake_discord, bot, picker, a_miss(secret), world.alice)
    submit = button(picker, "s")["custom_id"]
    first, second = await asyncio.gather(
        fake_discord.click(bot, picker, submit, user=world.alice),
        fake_discord.click(bot, picker, submit, user=world.alice))
    assert count(db_path, "guesses") == 1
    told = [r for r in (first, second) if not r.followups]
    assert len(told) == 1 and told[0].embed["title"] == "Already on the board"
    boards = [m for r in (first, second) for m in r.followups]
    assert len(boards) == 1  # one new board in the channel
    # The same submit delivered twice (a replay, two processes): stored once.
    done = first if first.followups else second
    fake_discord.expect_violation(40060)
    await fake_discord.redeliver(bot, done)
    assert count(db_path, "guesses") == 1


@pytest.mark.both_databases
async def test_double_submits_of_a_code_set(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    opened = await slash(fake_discord, bot, world, "mastermind new", world.alice, setter="me")
    picker, _ = await pick(fake_discord, bot, opened.message, "6543", world.alice)
    submit = button(picker, "s")["custom_id"]
    results = await asyncio.gather(*(fake_discord.click(bot, picker, submit, user=world.alice)
                                     for _ in range(2)))
    assert count(db_path, "games") == 1
    told, = [r for r in results if not r.followups]
    assert told.ephemeral and told.embed["title"] == "A game is already running here"


@pytest.mark.both_databases
async def test_a_picker_from_before_a_restart_still_works(fake_discord, start_bot, world,
                                                         db_path):
    bot = await start_bot()
    board = await new_board(fake_discord, bot, world, pegs=5, colors=8)
    _, picker = await open_picker(fake_discord, bot, board, world.alice)
    picker, _ = await pick(fake_discord, bot, picker, "12", world.alice)
    await bot.close()
    bot = await start_bot()  # a new process: nothing of the picker was kept in memory
    picker, _ = await pick(fake_discord, bot, picker, "345", world.alice)
    sent = await tap(fake_discord, bot, picker, "s", world.alice)
    assert sent.followups and [g["code"] for g in snapshot(db_path)["guesses"]] == ["12345"]
    stale = fake_discord.old_message(world.general, ["mmp:g:0:1:46r:1:9", "mmp:g:1"])
    for custom_id in stale.custom_ids:  # another version's ids: out of date, not ignored
        old = await fake_discord.click(bot, stale, custom_id, user=world.alice)
        assert old.ephemeral and old.embed["title"] == "That button is out of date"


async def test_taps_that_cant_apply_say_why_in_the_picker(fake_discord, start_bot, world,
                                                         db_path):
    """Delete on an empty code and submit of an incomplete one are greyed out; pressed
    anyway (an old client, a forged id) they leave a note in the picker and store nothing."""
    bot = await start_bot()
    board = await new_board(fake_discord, bot, world)
    _, picker = await open_picker(fake_discord, bot, board, world.alice)
    assert button(picker, "x").get("disabled") and button(picker, "s").get("disabled")
    before = snapshot(db_path)
    forged = fake_discord.old_message(world.general, [button(picker, "x")["custom_id"]])
    empty = await tap(fake_discord, bot, forged, "x", world.alice)
    assert empty.response.ephemeral  # a public message never gets the picker drawn on it
    assert "Nothing to delete yet" in empty.message.content
    picker, _ = await pick(fake_discord, bot, picker, "12", world.alice)
    assert not button(picker, "x").get("disabled")
    forged = fake_discord.old_message(world.general, [button(picker, "s")["custom_id"]])
    short = await tap(fake_discord, bot, forged, "s", world.alice)
    assert "has 2 of 4 pegs: pick 2 more pegs first" in short.message.content
    deleted = await tap(fake_discord, bot, picker, "x", world.alice)
    assert deleted.response.type == 7 and "`1···`" in fake_discord.message(picker.id).content
    assert snapshot(db_path) == before


async def test_repeats_off_greys_out_colours_already_used(fake_discord, start_bot, world,
                                                          db_path):
    bot = await start_bot()
    board = await new_board(fake_discord, bot, world, pegs=4, colors=6, repeats=False)
    _, picker = await open_picker(fake_discord, bot, board, world.alice)
    picker, _ = await pick(fake_discord, bot, picker, "25", world.alice)
    disabled = {b["label"] for b in picker.buttons if b.get("disabled")}
    assert {"2", "5"} <= disabled and not {"1", "3", "4", "6"} & disabled
    assert "each colour once" in picker.content
    forged = fake_discord.old_message(world.general, [button(picker, "2")["custom_id"]])
    again = await tap(fake_discord, bot, forged, "2", world.alice)
    assert "Colour 2 is already in your code" in again.message.content
    full, _ = await pick(fake_discord, bot, picker, "13", world.alice)
    assert all(b.get("disabled") for b in full.buttons if b["label"].isdigit())
    assert count(db_path, "guesses") == 0


# ---- Discord's limits, and taps per guess, at every size -----------------------------------
def every_size():
    for pegs in range(MIN_PEGS, MAX_PEGS + 1):
        for colors in range(MIN_COLORS, MAX_COLORS + 1):
            for repeats in (True, False):
                with contextlib.suppress(InvalidRules):
                    yield Rules(pegs, colors, 20, repeats)


LONGEST_TARGETS = {"g": str(MAX_ID), "r": str(MAX_ID), "d": "2099-12-31", "s": "20",
                   "m": f"{MAX_ID}.99"}


@pytest.mark.parametrize("purpose", sorted(LONGEST_TARGETS))
def test_every_picker_fits_discord_at_every_size(purpose):
    """Empty, partly picked and full, for every purpose and size: within Discord's limits
    (5 rows of at most 5 buttons, custom_id at most 100, 2,000 characters), every colour a
    button of its own (n taps for n pegs), and every id read back as the same tap."""
    for rules in every_size():
        picker = Picker.for_rules(purpose, MAX_ID, LONGEST_TARGETS[purpose], rules)
        code = [d for d in range(1, rules.colors + 1)] * rules.pegs
        for filled in (0, rules.pegs // 2, rules.pegs):
            shown = Picker(picker.purpose, picker.owner, picker.target, rules.pegs,
                           rules.colors, rules.repeats, tuple(code[:filled]))
            view = picker_view(shown, "Set code")
            payload = {"content": picker_content(shown, "**Your secret code** " + "x" * 200,
                                                 "Set code", "a note " * 40),
                       "components": view.to_components(), "flags": 64}
            assert check_message(payload, creating=True) == [], (rules, filled)
            assert len(payload["components"]) <= 4  # a row to spare
            buttons = [b for row in payload["components"] for b in row["components"]]
            colours = [b for b in buttons if b["custom_id"].rsplit(":", 1)[1].isdigit()]
            assert len(colours) == rules.colors
            assert sum(not b["disabled"] for b in colours) == (
                0 if shown.complete else rules.colors - (0 if rules.repeats else filled))
            for b in buttons:
                tap = read_tap(b["custom_id"].removeprefix("mmp:"), MAX_ID)
                assert tap is not None and tap.picker == shown, b["custom_id"]


def test_forged_ids_are_not_read():
    for body in ("g:1:7:46r:1234567:1", "g:1:7:46r:17:1", "g:1:7:86u:1:2", "g:1:7::1:2",
                 "g:1:7:46r::q", f"g:{MAX_ID + 1}:7:46r::1", "G:1:7:46r::1", "g:1:7:46r::"):
        assert read_tap(body, MAX_ID) is None, body
    assert read_tap("g:0:7:::o", MAX_ID).op is Op.OPEN


async def test_an_8x9_game_played_with_taps_stays_within_limits(fake_discord, start_bot, world,
                                                                db_path):
    """Twenty guesses at 8 pegs and 9 colours, all with taps: every board and picker the
    bot sent passed the fake Discord's checks of Discord's limits."""
    bot = await start_bot()
    board = await new_board(fake_discord, bot, world, pegs=8, colors=9, max_guesses=20)
    secret = secret_of(db_path, world.general.id)
    misses = [c for c in (f"{a}{b}" * 4 for a in range(1, 10) for b in range(1, 10))
              if c != secret]
    for code in [*misses[:19], secret]:
        sent, _, taps = await play(fake_discord, bot, board, code, world.alice)
        assert taps == 10
        board = next(m for m in sent.followups if not m.ephemeral)
    assert board.embed["title"] == "Code broken in 20 guesses!"
    fake_discord.assert_no_violations()
