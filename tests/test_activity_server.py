"""The Activity's web server through the real bot on the fake Discord (which holds Discord's
OAuth2 token endpoint, Bearer ``/users/@me`` and activity instances), with an aiohttp client
as the page would ask: sign-in, what the browser loads, every mode played through the chat's
services, exactly once, the refusals (4xx JSON in the reader's words, nothing stored), and
the live connection. The browser itself: ``tests/test_activity_browser.py``."""

from __future__ import annotations

import asyncio
import json
import sys
import time

import aiohttp
import pytest
from activity_kit import Player, base_url, drain, server_of, settled, start_activity_bot
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
    bobs = Player(http, base, bob.token, elsewhere.instance_id)
    cases["another channel's game"] = await bobs.guess("channel", view, "1234")
    expected = {"forged token": (401, "bad_token"), "malformed JSON": (400, "bad_request"),
                "too big": (413, "too_big"), "no instance": (404, "no_instance"),
                "bad code": (400, "game_rule"), "another's game": (403, "not_your_game"),
                "unknown mode": (400, "not_here"), "turn not a count": (400, "bad_request"),
                "not in the instance": (403, "not_in_instance"),
                "another channel's game": (403, "not_your_game")}
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


async def test_the_personal_modes_share_the_chats_results(
        fake_discord, start_bot, world, http, db_path):
    """The daily code played in the Activity is the chat's daily (one play, its streak); the
    puzzle of the day is the chat's with its one try; a private game and a challenge are the
    player's own."""
    bot = await start_activity_bot(start_bot, fake_discord)
    (alice,) = await signed_in(http, bot, fake_discord, world, world.alice)
    daily = (await alice.game("daily")).body
    assert daily["status"] == "none" and daily["secret"] is None
    played = await alice.guess("daily", daily, "1122")
    assert played.status == 200, played.body
    assert played.body["turn"] == 1 and played.body["status"] in ("running", "won")
    again = await alice.guess("daily", daily, "1122")  # the same tap, delivered twice
    assert again.status == 200 and again.body["turn"] == 1
    chat = await fake_discord.slash(bot, "daily play", user=world.alice, channel=world.general,
                                    guild=world.guild)
    assert "1122" in str(chat.message.embeds) or "1122" in chat.message.content

    puzzle = (await alice.game("puzzle")).body
    assert puzzle["status"] == "running" and puzzle["clues"] and puzzle["secret"] is None
    first = await alice.call("POST", "/api/answer", {"code": "1234"})
    assert first.status == 200 and first.body["status"] in ("won", "lost")
    assert first.body["secret"] is not None
    second = await alice.call("POST", "/api/answer", {"code": "4321"})
    assert second.status == 409 and second.error == "game_rule"

    private = (await alice.new("private")).body
    assert private["status"] == "running"
    assert (await alice.guess("private", private, "1234")).body["turn"] == 1
    challenge = await alice.new("challenge", pegs=3, colors=4)
    assert challenge.status == 409  # one private game at a time, as in the chat
    await fake_discord.slash(bot, "mastermind quit", user=world.alice, channel=world.general,
                             guild=world.guild, game="private")


async def test_a_challenge_answered_with_key_pegs(fake_discord, start_bot, world, http):
    bot = await start_activity_bot(start_bot, fake_discord)
    (alice,) = await signed_in(http, bot, fake_discord, world, world.alice)
    started = await alice.new("challenge", pegs=3, colors=4)
    assert started.status == 200, started.body
    view = started.body
    secret = "123"
    while view["status"] == "running":
        black, white = score(secret, view["bot_guess"])
        answered = await alice.call("POST", "/api/reply", {
            "game_id": view["game_id"], "turn": view["turn"], "black": black, "white": white})
        assert answered.status == 200, answered.body
        view = answered.body
    assert view["status"] == "won" and view["moves"][-1]["code"] == secret
    stale = await alice.call("POST", "/api/reply", {
        "game_id": view["game_id"], "turn": 0, "black": 0, "white": 0})
    assert stale.status == 409


async def test_a_dm_plays_the_personal_modes_only(fake_discord, start_bot, world, http):
    bot = await start_activity_bot(start_bot, fake_discord)
    dm = fake_discord.dm(world.alice.user)
    instance = fake_discord.state.start_activity(dm, world.alice.user)
    alice = await Player.sign_in(http, bot, fake_discord, world.alice, instance.instance_id)
    state = (await alice.call("GET", "/api/state")).body
    assert state["modes"] == ["daily", "puzzle", "private", "challenge"]
    assert state["place"]["kind"] == "private"
    assert (await alice.new("channel")).error == "not_here"


async def test_two_viewers_see_each_others_moves_and_a_reconnect_catches_up(
        fake_discord, start_bot, world, http, db_path):
    bot = await start_activity_bot(start_bot, fake_discord)
    alice, bob = await signed_in(http, bot, fake_discord, world, world.alice, world.bob)
    view = (await alice.new("channel")).body
    secret = secret_of(db_path, world.general.id)
    alices, bobs = await alice.live(), await bob.live()
    began = time.perf_counter()
    await bob.guess("channel", view, miss(secret))
    for live in (alices, bobs):
        told = await live.next()
        assert told["type"] == "move" and told["by"]["name"] == "bob"
    assert time.perf_counter() - began < 0.3
    # Bob's connection drops; Alice moves meanwhile; Bob comes back with the number he had
    seen = bobs.seq
    await bobs.close()
    await alice.guess("channel", (await alice.game("channel")).body, miss(secret, 1))
    await alices.next()
    back = await bob.live(since=seen)
    assert (await back.next())["type"] == "resync"
    assert len((await bob.game("channel")).body["moves"]) == 2
    # a personal game's moves reach its player's own connections alone
    await bob.new("private")
    assert [m["type"] for m in await drain(alices, 0.2)] == []
    await alices.close()
    await back.close()


FLOOD = """
import asyncio, collections, json, sys
import aiohttp

async def main(url, count):
    async with aiohttp.ClientSession() as http:  # 100 connections at a time
        async def one(i):
            async with http.get(url, headers={"Authorization": f"Bearer forged-{i}"}) as r:
                await r.read()
                return r.status
        print("flooding", flush=True)
        print(json.dumps(collections.Counter(await asyncio.gather(
            *(one(i) for i in range(count))))))

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def test_moves_go_on_under_forged_tokens_and_stalled_clients(
        fake_discord, start_bot, world, http, db_path):
    """1,000 requests with forged tokens (from another process) and 50 clients that send
    half a request and stall: a player's moves are answered all along, and the forged ones
    are refused (401, or 429 once their address has sent too many)."""
    bot = await start_activity_bot(start_bot, fake_discord)
    (alice,) = await signed_in(http, bot, fake_discord, world, world.alice)
    view = (await alice.new("channel")).body
    secret = secret_of(db_path, world.general.id)
    port = server_of(bot).port
    stalled = []
    for _ in range(50):
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST /api/guess HTTP/1.1\r\nHost: x\r\nContent-Length: 4000\r\n\r\n{")
        stalled.append(writer)
    flood = await asyncio.create_subprocess_exec(
        sys.executable, "-c", FLOOD, f"{alice.base}/api/state?instance_id={alice.instance_id}",
        "1000", stdout=asyncio.subprocess.PIPE)
    assert flood.stdout is not None
    assert (await flood.stdout.readline()).strip() == b"flooding"
    took = []
    for nth in range(5):
        began = time.perf_counter()
        played = await alice.guess("channel", view, miss(secret, nth))
        took.append(time.perf_counter() - began)
        assert played.status == 200, played.body
        view = played.body
    counts = json.loads(await flood.stdout.readline())
    await flood.wait()
    assert set(counts) <= {"401", "429"} and sum(counts.values()) == 1000, counts
    assert max(took) < 1.5, took
    for writer in stalled:
        writer.close()


def button_ids(message) -> list[str]:
    return [c.get("custom_id") for row in message.components for c in row.get("components", [])]


async def test_the_launch_button_is_on_the_boards_only_with_activities_on(
        fake_discord, start_bot, world):
    """Without Activities the boards are as they were; with them (the EMBEDDED flag, read
    at start) a running board opens the Activity: LAUNCH_ACTIVITY as the first answer,
    launching it in the channel for the clicker."""
    bot = await start_bot()
    started = await fake_discord.slash(bot, "mastermind new", user=world.alice,
                                       channel=world.general, guild=world.guild)
    assert "mma:launch" not in button_ids(started.message)
    await bot.close()
    fake_discord.state.enable_activities()
    bot = await start_bot()
    shown = await fake_discord.slash(bot, "mastermind board", user=world.bob,
                                     channel=world.general, guild=world.guild)
    assert "mma:launch" in button_ids(shown.message)
    clicked = await fake_discord.click(bot, shown.message, "mma:launch", user=world.bob)
    assert clicked.response.type == 12
    assert clicked.launch is not None and clicked.launch.channel is world.general
    assert world.bob.user in clicked.launch.instance.users
    daily = await fake_discord.slash(bot, "daily play", user=world.bob, channel=world.general,
                                     guild=world.guild)
    puzzle = await fake_discord.slash(bot, "puzzle today", user=world.bob,
                                      channel=world.general, guild=world.guild)
    assert "mma:launch" in button_ids(daily.message) and "mma:launch" in button_ids(
        puzzle.message)


@pytest.mark.postgresql_only
async def test_a_move_reaches_viewers_of_another_process_through_postgresql(
        fake_discord, start_bot, world, http, db_path):
    """Two bots on one PostgreSQL database, each with its web server: Bob moves through one,
    Alice watches through the other (LISTEN/NOTIFY, no broker of our own)."""
    first = await start_activity_bot(start_bot, fake_discord)
    second = await start_activity_bot(start_bot, fake_discord)
    instance = fake_discord.state.start_activity(world.general, world.alice.user,
                                                 world.bob.user)
    alice = await Player.sign_in(http, first, fake_discord, world.alice, instance.instance_id)
    bob = await Player.sign_in(http, second, fake_discord, world.bob, instance.instance_id)
    view = (await bob.new("channel")).body
    watching = await alice.live()
    await drain(watching, 0.2)
    secret = secret_of(db_path, world.general.id)
    began = time.perf_counter()
    await bob.guess("channel", view, miss(secret))
    told = await watching.next()
    took = time.perf_counter() - began
    assert told["by"]["name"] == "bob" and told["view"]["turn"] == 1
    assert took < 0.3, took
    await watching.close()


async def test_a_viewer_catches_up_after_the_bot_restarts(
        fake_discord, start_bot, world, http, db_path):
    bot = await start_activity_bot(start_bot, fake_discord)
    (alice,) = await signed_in(http, bot, fake_discord, world, world.alice)
    view = (await alice.new("channel")).body
    secret = secret_of(db_path, world.general.id)
    live = await alice.live()
    await alice.guess("channel", view, miss(secret))
    seen = (await live.next())["seq"]
    await bot.close()
    closed = await live.ws.receive(timeout=5)
    assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    bot = await start_activity_bot(start_bot, fake_discord)  # a new port, as after a deploy
    again = Player(http, base_url(bot), alice.token, alice.instance_id)
    back = await again.live(since=seen)
    assert (await back.next())["type"] == "resync"
    assert [m["code"] for m in (await again.game("channel")).body["moves"]] == [miss(secret)]
    await back.close()


@pytest.mark.both_databases
async def test_giving_up_a_private_game_and_a_challenge_once(
        fake_discord, start_bot, world, http, db_path):
    """Give up, tapped three times at once, ends the game once (one quit stored, every tap
    shown the game as it ended, with its code); the channel's game is its starter's to
    give up; a game of another mode, or another player's, is refused with nothing stored."""
    bot = await start_activity_bot(start_bot, fake_discord)
    alice, bob = await signed_in(http, bot, fake_discord, world, world.alice, world.bob)
    for mode, rules in (("private", {}), ("challenge", {"pegs": 3, "colors": 4})):
        view = (await alice.new(mode, **rules)).body
        before = snapshot(db_path)
        for refused, who, asked in ((403, bob, mode), (400, alice, "daily")):
            answer = await who.call("POST", "/api/quit", {"mode": asked,
                                                           "game_id": view["game_id"]})
            assert answer.status == refused and answer.body["error"]["message"]
        assert snapshot(db_path) == before
        taps = await asyncio.gather(*(alice.call("POST", "/api/quit", {
            "mode": mode, "game_id": view["game_id"]}) for _ in range(3)))
        assert [t.status for t in taps] == [200] * 3, [t.body for t in taps]
        assert all(t.body["status"] == "quit" for t in taps)
        # the code shown, but in a challenge, where the player kept it to themselves
        assert all(bool(t.body.get("secret")) == (mode == "private") for t in taps)
        assert [g["status"] for g in snapshot(db_path)["games"]
                if g["id"] == int(view["game_id"])] == ["quit"]
    channel = (await alice.new("channel")).body
    await settled(bot)
    before = snapshot(db_path)
    not_his = await bob.call("POST", "/api/quit", {"mode": "channel",
                                                   "game_id": channel["game_id"]})
    assert not_his.status == 403 and not_his.error == "not_your_game"
    assert snapshot(db_path) == before
    ended = await alice.call("POST", "/api/quit", {"mode": "channel",
                                                   "game_id": channel["game_id"]})
    assert ended.status == 200 and ended.body["status"] == "quit"
