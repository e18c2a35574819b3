"""The Activity's web server through the real bot on the fake Discord (which holds Discord's
OAuth2 token endpoint, Bearer ``/users/@me`` and activity instances), with an aiohttp client
as the page would ask: sign-in, what the browser loads, every mode played through the chat's
services, exactly once, the refusals (4xx JSON in the reader's words, nothing stored), and
the live connection. The browser itself: ``tests/test_activity_browser.py``."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest
from activity_kit import Player, base_url, settled, start_activity_bot
from conftest import secret_of, snapshot

from engine import score


def miss(secret: str, nth: int = 0) -> str:
    """A 4x6 code that is not ``secret`` (a different one for each ``nth``)."""
    for first in range(1, 7):
        for second in range(1, 7):
            code = f"{first}{second}{secret[2:]}"
            if code != secret:
                if nth == 0:
                    return code
                nth -= 1
    raise AssertionError("no such code")


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def signed_in(http, bot, fake, world, *members):
    instance = fake.state.start_activity(world.general, *(m.user for m in members))
    return [await Player.sign_in(http, bot, fake, m, instance.instance_id) for m in members]


async def test_the_page_its_files_and_the_state(fake_discord, start_bot, world, http):
    bot = await start_activity_bot(start_bot, fake_discord)
    async with http.get(base_url(bot) + "/") as page:
        html = await page.text()
        assert page.headers["Cache-Control"] == "no-cache"
        csp = page.headers["Content-Security-Policy"]
    assert f'<meta name="mastermind-client-id" content="{bot.application_id}">' in html
    assert "script-src 'self'" in csp and "default-src 'self'" in csp
    assert "unsafe-inline" not in csp
    (alice,) = await signed_in(http, bot, fake_discord, world, world.alice)
    state = await alice.call("GET", "/api/state")
    assert state.status == 200, state.body
    assert state.body["me"]["id"] == str(world.alice.id)
    assert state.body["place"] == {"guild_id": str(world.guild.id),
                                   "channel_id": str(world.general.id), "kind": "guild"}
    assert state.body["modes"] == ["channel", "daily", "puzzle", "private", "challenge"]
    assert state.body["words"]["mode_daily"] == "Daily code"
    red = state.body["pegs"][0]
    assert (red["digit"], red["letter"], red["name"]) == (1, "R", "red")
    async with http.get(base_url(bot) + red["image"]) as image:
        assert image.headers["Content-Type"] == "image/png"
        assert "immutable" in image.headers["Cache-Control"]
        assert (await image.read()).startswith(b"\x89PNG")


async def test_a_channel_game_played_in_the_activity_and_in_the_chat(
        fake_discord, start_bot, world, http, db_path):
    """Alice starts and plays the channel's game in the Activity: the channel's board shows
    it; Bob's /guess reaches Alice's live connection, saying who moved."""
    bot = await start_activity_bot(start_bot, fake_discord)
    (alice,) = await signed_in(http, bot, fake_discord, world, world.alice)
    assert (await alice.game("channel")).body["status"] == "none"
    started = await alice.new("channel")
    assert started.status == 200, started.body
    view = started.body
    assert view["status"] == "running" and view["secret"] is None and view["turn"] == 0
    secret = secret_of(db_path, world.general.id)
    live = await alice.live()
    played = await alice.guess("channel", view, miss(secret))
    assert played.status == 200, played.body
    move = played.body["moves"][0]
    assert move["by"] == {"id": str(world.alice.id), "name": "alice"}
    assert (move["black"], move["white"]) == tuple(score(secret, miss(secret)))
    board = await fake_discord.wait_until(
        lambda: [m for m in fake_discord.messages(world.general)
                 if m.embeds and miss(secret) in str(m.embeds)], what="the board")
    assert board
    told = await live.next()  # her own move, told to her other views too
    assert told["type"] == "move" and told["by"]["id"] == str(world.alice.id)

    began = time.perf_counter()
    await fake_discord.slash(bot, "guess", user=world.bob, channel=world.general,
                             guild=world.guild, code=miss(secret, 1))
    told = await live.next()
    took = time.perf_counter() - began
    assert told["by"] == {"id": str(world.bob.id), "name": "bob"}
    assert [m["code"] for m in told["view"]["moves"]] == [miss(secret), miss(secret, 1)]
    assert took < 1.0  # the command's whole round trip through the fake included
    won = await alice.guess("channel", told["view"], secret)
    assert won.body["status"] == "won" and won.body["secret"] == secret
    await live.close()


@pytest.mark.both_databases
async def test_a_double_tap_stores_one_move_and_a_stale_board_is_refused(
        fake_discord, start_bot, world, http, db_path):
    bot = await start_activity_bot(start_bot, fake_discord)
    alice, bob = await signed_in(http, bot, fake_discord, world, world.alice, world.bob)
    view = (await alice.new("channel")).body
    secret = secret_of(db_path, world.general.id)
    await settled(bot)
    taps = await asyncio.gather(*(alice.guess("channel", view, miss(secret)) for _ in range(3)))
    assert all(t.status == 200 for t in taps), [t.body for t in taps]
    assert all(len(t.body["moves"]) == 1 for t in taps)
    await settled(bot)
    before = snapshot(db_path)
    stale = await bob.guess("channel", view, miss(secret, 2))  # made on the board at turn 0
    assert stale.status == 409 and stale.error == "stale"
    assert "Someone moved first" in stale.body["error"]["message"]
    assert snapshot(db_path) == before
    # two players at once on the same board: one move stored, the other told it is stale
    now = (await bob.game("channel")).body
    both = await asyncio.gather(alice.guess("channel", now, miss(secret, 3)),
                                bob.guess("channel", now, miss(secret, 4)))
    assert sorted(b.status for b in both) == [200, 409]
    assert len((await bob.game("channel")).body["moves"]) == 2


async def test_every_refusal_is_json_in_the_readers_words_and_changes_nothing(
        fake_discord, start_bot, world, http, db_path):
    bot = await start_activity_bot(start_bot, fake_discord)
    alice, bob = await signed_in(http, bot, fake_discord, world, world.alice, world.bob)
    view = (await alice.new("channel")).body
    await alice.new("private")
    await settled(bot)
    before = snapshot(db_path)
    base = base_url(bot)
    async with http.post(base + "/api/token", json={"code": "forged"}) as refused:
        assert refused.status == 400
        assert (await refused.json())["error"]["code"] == "bad_code"
    async with http.post(base + "/api/token", data=b"{not json") as malformed:
        assert malformed.status == 400
    cases = {
        "forged token": await alice.call("GET", "/api/state", token="forged"),
        "malformed JSON": await alice.call("POST", "/api/guess", raw=b"{"),
        "too big": await alice.call("POST", "/api/guess", raw=b"{" + b" " * 20_000 + b"}"),
        "no instance": await alice.call("GET", "/api/state", instance_id="i-404"),
        "bad code": await alice.guess("channel", view, "9999"),
        "another's game": await bob.guess("private", {
            "game_id": (await alice.game("private")).body["game_id"], "turn": 0}, "1234"),
        "unknown mode": await alice.call("GET", "/api/game?mode=nope"),
        "turn not a count": await alice.guess("channel", view, "1234", turn=-1),
    }
    other = fake_discord.channel(world.guild, "elsewhere")
    elsewhere = fake_discord.state.start_activity(other, world.bob.user)
    cases["not in the instance"] = await alice.call("GET", "/api/state",
                                                    instance_id=elsewhere.instance_id)
    expected = {"forged token": (401, "bad_token"), "malformed JSON": (400, "bad_request"),
                "too big": (413, "too_big"), "no instance": (404, "no_instance"),
                "bad code": (400, "game_rule"), "another's game": (403, "not_your_game"),
                "unknown mode": (400, "not_here"), "turn not a count": (400, "bad_request"),
                "not in the instance": (403, "not_in_instance")}
    assert {k: (a.status, a.error) for k, a in cases.items()} == expected
    for answer in cases.values():
        assert answer.body["error"]["message"].strip()
    assert snapshot(db_path) == before


async def test_the_refusals_speak_the_readers_language(fake_discord, start_bot, world, http):
    bot = await start_activity_bot(start_bot, fake_discord)
    world.alice.user.locale = "de"
    (alice,) = await signed_in(http, bot, fake_discord, world, world.alice)
    state = await alice.call("GET", "/api/state")
    assert state.body["locale"] == "de"
    assert state.body["words"]["mode_daily"] != "Daily code"
    stale = await alice.guess("channel", {"game_id": "1", "turn": 0}, "1234")
    assert stale.status == 403
    assert stale.body["error"]["message"] != "That game is not yours, or not this channel's."
