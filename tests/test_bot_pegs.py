"""The drawn pegs: how they look (measured from the images), and the application emoji the bot
keeps in step at start-up (uploads only what is missing, replaces changed drawings, falls
back to the unicode pegs when Discord refuses or keeps rate-limiting).

Every test that starts a bot drives a real MastermindBot through discord.py's own dispatch
against the fake Discord, which knows Discord's application-emoji rules and fails any
message using a custom emoji the application doesn't hold.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import logging
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import secret_of, snapshot
from picking import open_picker, pick
from PIL import Image, ImageStat

from bot import app as app_module
from bot.services.emoji_use import KEEP_UNUSED, EmojiUseService
from bot.ui import pegs
from bot.ui.app_emoji import emoji_name
from bot.ui.contrast import BACKGROUNDS, MIN_CONTRAST, image_contrast
from bot.ui.peg_images import HOLE, SIZE, draw_peg, peg_images
from bot.ui.pegs import HOLE_TEXT, PEG_EMOJI, UNICODE_PEGS, code_line

pytestmark = pytest.mark.fresh_app  # every start here finds the app's emoji as each test sets

EMOJI_ROUTE = r"^/applications/\d+/emojis$"
DRAWN = re.compile(r"<:(\w+):(\d+)>")


def current_names() -> list[str]:
    return [emoji_name(image) for image in peg_images()]


def uploads(fake) -> list[str]:
    return [r.json["name"] for r in fake.requests
            if r.method == "POST" and re.match(EMOJI_ROUTE, r.path) and r.status == 201]


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno == logging.WARNING and r.name.startswith("bot")]


async def play_a_guess(fake, bot, world, db_path):
    """Open a classic game and make one wrong guess; the board as the fake stored it."""
    await fake.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                     guild=world.guild)
    secret = secret_of(db_path, world.general.id)
    miss = next(c for c in ("1122", "3344", "5566") if c != secret)
    result = await fake.slash(bot, "guess", user=world.alice, channel=world.general,
                              guild=world.guild, code=miss)
    assert not result.ephemeral, result.embed
    return result.embed["description"], miss


# ---- the drawings ----------------------------------------------------------------------------
def test_every_peg_stands_out_on_both_themes_measured_from_its_pixels():
    for image in peg_images():
        drawn = Image.open(io.BytesIO(image.png))
        assert drawn.size == (SIZE, SIZE) and drawn.mode == "RGBA"
        assert len(image.png) < 16 * 1024  # Discord takes up to 256 KiB
        for background in BACKGROUNDS:
            measured = image_contrast(drawn, background)
            assert measured.outline >= MIN_CONTRAST, (image.name, background, measured)


def test_the_colours_are_far_apart():
    """Mean body colour of each peg, pairwise: no two closer than a clear step (Euclidean
    distance in sRGB of at least 80 of 441)."""
    def body(colour: str) -> tuple[float, ...]:
        crop = draw_peg(colour).crop((44, 44, 84, 84)).convert("RGB")
        return tuple(ImageStat.Stat(crop).mean)

    bodies = {image.name: body(image.name) for image in peg_images()[:9]}
    for (a, ca), (b, cb) in itertools.combinations(bodies.items(), 2):
        distance = sum((x - y) ** 2 for x, y in zip(ca, cb, strict=True)) ** 0.5
        assert distance >= 80, (a, b, round(distance))


def test_the_drawing_and_its_name_are_the_same_every_time():
    """Drawn again, here and in a new process (a restart), the pixels and names agree."""
    names = subprocess.run(
        [sys.executable, "-c", "from bot.ui.app_emoji import emoji_name;"
         "from bot.ui.peg_images import peg_images;"
         "print(' '.join(emoji_name(i) for i in peg_images()))"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).parent.parent).stdout
    assert names.split() == current_names()
    first = peg_images()
    peg_images.cache_clear()
    again = peg_images()
    assert [i.pixel_hash for i in again] == [i.pixel_hash for i in first]
    assert [emoji_name(i) for i in again] == [emoji_name(i) for i in first]
    for image in again:
        assert re.fullmatch(r"[a-z]+_[0-9a-f]{6}", emoji_name(image))
        assert Image.open(io.BytesIO(image.png)).tobytes() == Image.open(
            io.BytesIO(next(f.png for f in first if f.name == image.name))).tobytes()


# ---- start-up --------------------------------------------------------------------------------
async def test_first_start_uploads_every_peg_and_a_restart_uploads_nothing(
        fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    assert sorted(uploads(fake_discord)) == sorted(current_names())  # one per missing emoji
    assert bot.peg_sync is not None and bot.peg_sync.uploaded and not bot.peg_sync.deleted
    board, miss = await play_a_guess(fake_discord, bot, world, db_path)
    held = {str(e.id): e.name for e in fake_discord.state.app_emoji.emoji.values()}
    shown = DRAWN.findall(board)
    assert shown and all(held[i] == name for name, i in shown)  # the fake holds each one
    assert code_line(tuple(map(int, miss))) in board and f"`{miss}`" in board  # digits beside
    await bot.close()
    assert pegs.active() is UNICODE_PEGS  # a closed bot leaves no pegs behind

    before = len(fake_discord.requests)
    bot = await start_bot()
    emoji_calls = [(r.method, r.path) for r in fake_discord.requests[before:]
                   if "/emojis" in r.path]
    assert emoji_calls == [("GET", f"/applications/{fake_discord.application_id}/emojis")]
    assert bot.peg_sync is not None and bot.peg_sync.uploaded == []
    assert sorted(bot.peg_sync.kept) == sorted(current_names())
    board = (await fake_discord.slash(bot, "mastermind board", user=world.bob,
                                      channel=world.general, guild=world.guild)).embed
    assert DRAWN.findall(board["description"]) == shown  # the same emoji as before


async def test_only_missing_pegs_are_uploaded(fake_discord, start_bot):
    images = peg_images()
    for image in images[:6]:  # some were uploaded before (by an earlier start)
        fake_discord.state.app_emoji.add(emoji_name(image), image.png)
    bot = await start_bot()
    assert sorted(uploads(fake_discord)) == sorted(emoji_name(i) for i in images[6:])
    assert bot.peg_sync is not None and len(bot.peg_sync.kept) == 6
    assert len(fake_discord.state.app_emoji.emoji) == len(images)


async def test_a_changed_drawing_is_added_and_the_older_goes_after_7_days_unused(
        fake_discord, start_bot, wall_clock):
    """An older drawing a version before the record of use uploaded: first seen at this
    start, deleted at the first start 7 days later. The owner's own emoji stay."""
    store = fake_discord.state.app_emoji
    images = peg_images()
    old_red = store.add("red_000000", b"\x89PNG\r\n\x1a\nold drawing")  # an earlier drawing
    theirs = store.add("party_cat", b"\x89PNG\r\n\x1a\nthe owner's own")
    for image in images[1:]:
        store.add(emoji_name(image), image.png)
    bot = await start_bot()
    assert uploads(fake_discord) == [emoji_name(images[0])]  # only red, drawn anew
    assert bot.peg_sync is not None and bot.peg_sync.others == ["red_000000"]
    assert bot.peg_sync.deleted == [] and old_red.id in store.emoji
    red = store.named(emoji_name(images[0]))
    assert red is not None and red.image == images[0].png
    assert pegs.button_emoji(1).id == red.id  # buttons show the new one
    wall_clock.advance(KEEP_UNUSED - 60)
    bot = await start_bot()
    assert bot.peg_sync is not None and bot.peg_sync.others == ["red_000000"]
    wall_clock.advance(60)
    bot = await start_bot()
    assert bot.peg_sync is not None and bot.peg_sync.deleted == ["red_000000"]
    assert old_red.id not in store.emoji and theirs.id in store.emoji


async def test_an_older_drawing_that_cannot_be_deleted_costs_nothing(fake_discord, start_bot,
                                                                      wall_clock):
    store = fake_discord.state.app_emoji
    old = store.add("blue_000000", b"\x89PNG\r\n\x1a\nold drawing")
    await start_bot()  # first seen
    wall_clock.advance(KEEP_UNUSED)
    fake_discord.state.fail_next("DELETE", r"/emojis/\d+$", 403, 50013, "Missing Permissions")
    bot = await start_bot()
    assert bot.peg_sync is not None and bot.peg_sync.deleted == []
    assert old.id in store.emoji and pegs.active() is not UNICODE_PEGS
    wall_clock.advance(KEEP_UNUSED - 60)  # kept 7 more days from the refusal
    bot = await start_bot()
    assert bot.peg_sync is not None and bot.peg_sync.others == ["blue_000000"]
    wall_clock.advance(60)
    bot = await start_bot()
    assert bot.peg_sync is not None and bot.peg_sync.deleted == ["blue_000000"]


def older_version(images) -> tuple:
    """The pegs as an older version drew them: other pixels, so other names."""
    return tuple(dataclasses.replace(i, pixel_hash=f"{n:06x}" + "0" * 58) for n, i in
                 enumerate(images))


@pytest.mark.both_databases
async def test_a_rolling_deploy_keeps_the_pegs_a_running_older_version_shows(
        fake_discord, start_bot, wall_clock, monkeypatch, db_path):
    """Issue 36: a start deleted the emoji an older version still running showed, blanking
    its boards. Now each version records its pegs at start and daily, and a newer start
    deletes an older drawing only once no version has shown it for 7 days."""
    store = fake_discord.state.app_emoji
    old = older_version(peg_images())
    old_names = sorted(emoji_name(i) for i in old)
    monkeypatch.setattr(app_module, "peg_images", lambda: old)
    older = await start_bot(peg_refresh=3600)  # the version being replaced, still running
    assert older.peg_sync is not None and sorted(older.peg_sync.uploaded) == old_names
    monkeypatch.undo()

    newer = await start_bot()  # the new version starts beside it
    assert newer.peg_sync is not None and sorted(newer.peg_sync.others) == old_names
    assert all(store.named(n) is not None for n in old_names), "the older boards stay drawn"
    for _ in range(3):  # the older version runs on for weeks, saying so daily
        wall_clock.advance(KEEP_UNUSED - 3600)
        monkeypatch.setattr(app_module, "peg_images", lambda: old)
        await older.install_pegs()  # what its daily refresh does
        monkeypatch.undo()
        newer = await start_bot()  # the new version restarts meanwhile
        assert newer.peg_sync is not None and newer.peg_sync.deleted == []
    assert all(store.named(n) is not None for n in old_names)

    await older.close()  # the older version is gone: its pegs go 7 days after it last ran
    wall_clock.advance(KEEP_UNUSED - 60)
    await newer.install_pegs()  # the newer version's daily refresh
    assert newer.peg_sync.deleted == []
    wall_clock.advance(60)
    await newer.install_pegs()
    assert sorted(newer.peg_sync.deleted) == old_names
    assert all(store.named(n) is None for n in old_names)
    assert all(store.named(emoji_name(i)) is not None for i in peg_images())
    used = await EmojiUseService(newer.db, clock=wall_clock).unused(old_names)
    assert used == [], "the record of the deleted pegs starts afresh if they ever return"


async def test_the_daily_refresh_runs_while_the_bot_runs(fake_discord, start_bot, wall_clock):
    """The refresher task re-syncs on its own: a peg deleted by hand is uploaded again and
    the boards show the new emoji."""
    bot = await start_bot(peg_refresh=0.05)
    store = fake_discord.state.app_emoji
    red = store.named(emoji_name(peg_images()[0]))
    assert red is not None and pegs.button_emoji(1).id == red.id
    del store.emoji[red.id]  # the owner deleted it in the portal
    await fake_discord.wait_until(lambda: store.named(red.name) is not None, timeout=5,
                                  what="the daily refresh to upload it again")
    again = store.named(red.name)
    assert again is not None and again.id != red.id
    await fake_discord.wait_until(lambda: pegs.button_emoji(1).id == again.id, timeout=5,
                                  what="the boards to show the new emoji")
    await bot.close()


@pytest.mark.parametrize(("status", "code", "message"), [
    (400, 50035, "Invalid Form Body"),
    (403, 50013, "Missing Permissions"),
])
async def test_a_refused_upload_falls_back_to_unicode_pegs_with_one_warning(
        fake_discord, start_bot, world, db_path, caplog, status, code, message):
    fake_discord.state.fail_next("POST", EMOJI_ROUTE, status, code, message)
    bot = await start_bot()
    assert bot.peg_sync is None and pegs.active() is UNICODE_PEGS
    told = warnings(caplog)
    assert len(told) == 1 and "unicode pegs" in told[0] and str(code) in told[0], told
    board, miss = await play_a_guess(fake_discord, bot, world, db_path)  # still playable
    assert not DRAWN.search(board)
    assert "".join(PEG_EMOJI[int(d) - 1] for d in miss) in board
    assert [g["code"] for g in snapshot(db_path)["guesses"]] == [miss]


async def test_an_app_with_no_room_left_falls_back(fake_discord, start_bot, caplog):
    store = fake_discord.state.app_emoji
    for n in range(2000):  # the owner filled every place Discord gives an app
        store.add(f"sticker_{n}", b"\x89PNG\r\n\x1a\n")
    bot = await start_bot()
    assert bot.peg_sync is None and pegs.active() is UNICODE_PEGS
    told = warnings(caplog)
    assert len(told) == 1 and "30008" in told[0], told
    fake_discord.expect_violation(30008)  # the real rule refused it: Discord would too


async def test_a_rate_limited_upload_is_retried_then_works(fake_discord, start_bot, caplog):
    fake_discord.state.fail_next("POST", EMOJI_ROUTE, 429, 0, "You are being rate limited.",
                                 times=2)
    bot = await start_bot()
    assert bot.peg_sync is not None and sorted(uploads(fake_discord)) == sorted(current_names())
    rate_limited = [r for r in fake_discord.requests if r.status == 429]
    assert len(rate_limited) == 2
    assert warnings(caplog) == []


async def test_rate_limits_that_last_are_cut_short_and_fall_back(fake_discord, start_bot,
                                                                 world, db_path, caplog):
    fault = fake_discord.state.fail_next("GET", EMOJI_ROUTE, 429, 0,
                                         "You are being rate limited.", times=50)
    fault.retry_after = 30.0  # discord.py would wait 30 s, five times over
    started = time.monotonic()
    bot = await start_bot(emoji_timeout=0.3)
    assert time.monotonic() - started < 10  # bounded by emoji_timeout, not by Discord
    told = warnings(caplog)
    assert len(told) == 1 and "no answer within 0.3 s" in told[0], told
    assert pegs.active() is UNICODE_PEGS
    await play_a_guess(fake_discord, bot, world, db_path)


# ---- reading pegs back -----------------------------------------------------------------------
async def test_the_picker_shows_the_drawn_hole_for_each_peg_still_to_pick(
        fake_discord, start_bot, world):
    """The hole is drawn and uploaded for the picker: each peg not picked yet is that emoji
    (the text glyph only when the drawn pegs can't be had)."""
    bot = await start_bot()
    board = (await fake_discord.slash(bot, "mastermind new", user=world.alice,
                                      channel=world.general, guild=world.guild)).message
    _, picker = await open_picker(fake_discord, bot, board, world.alice)
    picker = (await pick(fake_discord, bot, picker, "1", world.alice))[0]
    hole = next(e for e in fake_discord.state.app_emoji.emoji.values()
                if e.name.startswith(f"{HOLE}_"))
    drawn_line = picker.content.splitlines()[1]
    assert drawn_line.count(f"<:{hole.name}:{hole.id}>") == 3  # 4 pegs, 1 picked
    assert HOLE_TEXT not in picker.content


async def test_drawn_pegs_pasted_into_a_guess_are_read_as_digits(fake_discord, start_bot,
                                                                 world, db_path):
    bot = await start_bot()
    await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                             guild=world.guild)
    secret = secret_of(db_path, world.general.id)
    first, second = [c for c in ("1234", "4321", "5566") if c != secret][:2]
    as_sent = "".join(pegs.peg_text(int(d)) for d in first)  # <:red_…:id> as in a message
    as_copied = " ".join(f":{emoji_name(peg_images()[int(d) - 1])}:" for d in second)
    for typed in (as_sent, as_copied):
        result = await fake_discord.slash(bot, "guess", user=world.alice,
                                          channel=world.general, guild=world.guild, code=typed)
        assert not result.ephemeral, result.embed
    assert [g["code"] for g in snapshot(db_path)["guesses"]] == [first, second]


async def test_two_processes_starting_at_once_share_one_upload(fake_discord, start_bot):
    """Another process uploads the pegs just after this one listed the app's emoji: the
    first upload is refused (the name is taken), one more look finds them all."""
    store = fake_discord.state.app_emoji

    def the_other_process(request) -> None:
        if request.method == "GET" and re.match(EMOJI_ROUTE, request.path) and not store.emoji:
            for image in peg_images():
                store.add(emoji_name(image), image.png)

    fake_discord.state.request_listeners.append(the_other_process)
    bot = await start_bot()
    fake_discord.expect_violation(50035, match="APPLICATION_EMOJI_NAME_ALREADY_TAKEN")
    assert uploads(fake_discord) == [] and len(store.emoji) == len(peg_images())
    assert bot.peg_sync is not None and sorted(bot.peg_sync.kept) == sorted(current_names())
    assert pegs.active() is not UNICODE_PEGS
