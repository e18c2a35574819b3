"""The Activity through the real process in a real browser: ``python -m bot`` with
``ACTIVITY_PORT`` against the loopback fake Discord (Activities on), and Debian's headless
Chromium loading the client inside a parent page that speaks the Embedded App SDK's messages
as Discord's client does (tests/activity_browser.py).

One bot and one browser for the module (a page per player, each in its own browser context);
each test plays in a channel of its own. What the page shows is read from the page; what is
stored, from the database; what the chat shows, from the fake Discord.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from activity_browser import PHONE, Stack, missing_browser, running_activity
from fake_discord.models import FakeChannel
from test_bot_process import board_rows, query, score

from bot.features.activity.words import client_words, error_words

if (why := missing_browser()) is not None:
    pytest.skip(why, allow_module_level=True)

pytestmark = [pytest.mark.asyncio(loop_scope="module")]
#: How a player's own rows are signed (English).
MINE = client_words(None).get("by_you") or client_words(None)["you"]
#: A whole test's budget (a hang detector, not a measure: bench/ measures).
BUDGET = 60.0


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    async with running_activity(tmp_path_factory.mktemp("activity")) as running:
        yield running


async def test_a_game_played_by_taps_and_a_drag_to_the_win(stack: Stack) -> None:
    async with asyncio.timeout(BUDGET):
        channel = stack.channel("taps")
        alice = stack.user("alice")
        (page,) = await stack.open_game(channel, alice, viewport=PHONE, platform="mobile")
        assert await page.app.text_content(".mode[aria-pressed='true']") == "This channel's game"
        await page.new_game()
        secret = stack.secret(channel)
        wrong = "1122" if secret != "1122" else "3344"
        await page.tap_code(wrong)
        await page.app.click("[data-key='submit']")
        assert await page.wait_rows(1) == [(wrong, *score(secret, wrong), MINE)]
        # the last peg dragged into its place, then the first three tapped
        await page.app.drag_and_drop(f".palette .colour[data-digit='{secret[3]}']",
                                     ".draft .slot[data-slot='3']")
        assert await page.app.get_attribute(".draft .slot[data-slot='3'] .peg",
                                            "data-digit") == secret[3]
        await page.tap_code(secret[:3])
        await page.app.click("[data-key='submit']")
        rows = await page.wait_rows(2)
        assert rows[-1] == (secret, 4, 0, MINE)
        await page.app.wait_for_selector(".result")
        assert "cracked" in (await page.app.text_content(".result") or "").lower()
        assert await page.app.eval_on_selector_all(
            ".secret .peg", "pegs => pegs.map(p => p.dataset.digit).join('')") == secret
        stored = query(stack.db, "SELECT g.status, COUNT(*) FROM games g JOIN guesses u ON "
                                 "u.game_id = g.id WHERE g.channel_id = ? GROUP BY g.status",
                       channel.id)
        assert stored == [("won", 2)]
        await stack.discord.close(page)


async def drafted(page: Any) -> str:
    """The row being drafted, as shown: its pegs' digits (none for an empty slot)."""
    return await page.app.eval_on_selector_all(
        ".draft .slot", "slots => slots.map(s => s.querySelector('.peg')?.dataset.digit"
        " ?? '').join('')")


async def test_a_row_drafted_before_the_last_ones_answer_arrives_is_kept(stack: Stack) -> None:
    """The live update can show a player's row before the answer to their own request
    arrives (two connections: a slow network, a busy machine). A player who starts the next
    row from what the page shows keeps it when that answer comes."""
    async with asyncio.timeout(BUDGET):
        channel = stack.channel("early-draft")
        (page,) = await stack.open_game(channel, stack.user("amy"))
        await page.new_game()
        secret = stack.secret(channel)
        wrong = "1122" if secret != "1122" else "3344"
        released, held = asyncio.Event(), []

        async def answer_late(route: Any) -> None:
            if held:  # only the first guess's answer is held
                await route.continue_()
                return
            held.append(route)
            answer = await route.fetch()  # the bot has played it: the live update goes out
            await released.wait()
            await route.fulfill(response=answer)

        await page.context.route("**/api/guess?*", answer_late)
        await page.tap_code(wrong)
        await page.app.click("[data-key='submit']")
        assert await page.wait_rows(1) == [(wrong, *score(secret, wrong), MINE)]  # live
        assert len(held) == 1 and await drafted(page) == ""  # the row sent is on the board
        await page.tap_code(secret)
        released.set()
        await page.wait_playable()  # the answer arrived
        assert await drafted(page) == secret
        await page.app.click("[data-key='submit']")
        assert (await page.wait_rows(2))[-1] == (secret, 4, 0, MINE)
        await stack.discord.close(page)


async def test_a_private_game_played_from_the_keyboard_in_german(stack: Stack) -> None:
    """Digits and colour letters place pegs, Backspace takes one back, Enter guesses; the
    words are the reader's (their Discord locale)."""
    async with asyncio.timeout(BUDGET):
        channel = stack.channel("keys")
        bea = stack.user("bea", locale="de")
        (page,) = await stack.open_game(channel, bea)
        german = client_words("de")
        await page.app.click("[data-key='mode-private']")
        await page.app.wait_for_selector("[data-key='new-game']")
        assert await page.app.text_content(".mode[aria-pressed='true']") == german[
            "mode_private"]
        await page.app.get_by_label(german["pegs"]).select_option("4")
        await page.new_game()
        ((secret, private),) = query(stack.db, "SELECT secret, private FROM games WHERE "
                                               "channel_id = ? AND status = 'active'", channel.id)
        assert private
        letter_of = dict(await page.app.eval_on_selector_all(
            ".key-table li", "li => li.map(i => [Number(i.dataset.digit), i.dataset.letter])"))
        guess = "1345" if secret != "1345" else "1346"
        for press in ("1", letter_of[2], "Backspace", letter_of[int(guess[1])].lower(),
                      guess[2], guess[3]):
            await page.app.press("body", press)
        await page.app.press("body", "Enter")
        rows = await page.wait_rows(1)
        assert rows == [(guess, *score(str(secret), guess), german.get("by_you") or german[
            "you"])]
        assert query(stack.db, "SELECT code FROM guesses g JOIN games m ON m.id = g.game_id "
                               "WHERE m.channel_id = ?", channel.id) == [(guess,)]
        await stack.discord.close(page)


async def test_two_players_in_one_instance_see_each_others_moves(stack: Stack) -> None:
    async with asyncio.timeout(BUDGET):
        channel = stack.channel("together")
        cleo, dan = stack.user("cleo"), stack.user("dan")
        cleo_page, dan_page = await stack.open_game(channel, cleo, dan)
        for page in (cleo_page, dan_page):  # the SDK's participants, updated as dan joined
            await page.app.wait_for_function(
                "() => document.querySelectorAll('.players li').length === 2")
            names = await page.app.eval_on_selector_all(".players li",
                                                        "l => l.map(i => i.textContent)")
            assert sorted(n.split(" (")[0] for n in names) == ["cleo", "dan"]
        await cleo_page.new_game()
        await dan_page.wait_playable()  # dan sees the new game without doing anything
        secret = stack.secret(channel)
        first, second = two_wrong(secret)
        await cleo_page.tap_code(first)
        await cleo_page.app.click("[data-key='submit']")
        assert await dan_page.wait_rows(1) == [(first, *score(secret, first), "by cleo")]
        assert "cleo" in await dan_page.app.text_content(".notice")
        await dan_page.tap_code(second)
        await dan_page.app.click("[data-key='submit']")
        rows = await cleo_page.wait_rows(2)
        assert rows == [(first, *score(secret, first), MINE),
                        (second, *score(secret, second), "by dan")]
        await stack.discord.close(dan_page)
        await cleo_page.app.wait_for_function(
            "() => document.querySelectorAll('.players li').length === 1")
        await stack.discord.close(cleo_page)


def two_wrong(secret: str) -> list[str]:
    """Two 4x6 guesses that leave the game running."""
    return [c for c in ("1122", "3344", "5566") if c != secret][:2]


def board_of(stack: Stack, channel: FakeChannel) -> dict[str, Any] | None:
    """The newest game board the bot posted in ``channel`` (its embed)."""
    for message in reversed(stack.server.state.channel_history(channel, include_ephemeral=False)):
        if message.embeds and "break the code" in message.embeds[0].get("title", ""):
            return message.embeds[0]
    return None


async def test_the_activity_and_the_chat_play_one_game(stack: Stack) -> None:
    """A move in the Activity shows on the channel's board; a /guess shows in the Activity."""
    async with asyncio.timeout(BUDGET):
        eve, finn = stack.user("eve"), stack.user("finn")
        channel, (page,), secret = await stack.channel_game("chat", eve)
        first, second = two_wrong(secret)
        await page.tap_code(first)
        await page.app.click("[data-key='submit']")
        await page.wait_rows(1)
        players = {"eve": eve.id, "finn": finn.id}
        await stack.server.wait_until(
            lambda: (board := board_of(stack, channel)) is not None and board_rows(
                board, players) == [(1, first, *score(secret, first), eve.id)],
            timeout=10, what="the Activity's move on the channel's board")
        answer = await stack.server.slash("guess", user=finn, guild=stack.guild,
                                          channel=channel, code=second)
        assert answer.response is not None and not answer.response.ephemeral
        rows = await page.wait_rows(2)
        assert rows[1] == (second, *score(secret, second), "by finn")
        await stack.discord.close(page)


async def test_giving_up_takes_two_taps_and_shows_the_code(stack: Stack) -> None:
    """The first tap on Give up asks again (a stray tap on a phone loses nothing); the
    second ends the game with its code shown, live for everyone and on the channel's board.
    Only the game's starter is offered it, and a forged request from another is refused
    with nothing stored."""
    async with asyncio.timeout(BUDGET):
        ivy, jon = stack.user("ivy"), stack.user("jon")
        channel, (page, other), secret = await stack.channel_game(
            "give-up", ivy, jon, viewport=PHONE, platform="mobile")
        words = client_words(None)
        await other.wait_playable()
        assert await other.app.query_selector("[data-key='give-up']") is None
        ((game_id,),) = query(stack.db, "SELECT id FROM games WHERE channel_id = ?", channel.id)

        async def as_quit(route: Any) -> None:  # jon's guess sent as a Give up, forged
            await route.continue_(url=route.request.url.replace("/api/guess", "/api/quit"))

        await other.context.route("**/api/guess*", as_quit)
        await other.tap_code(two_wrong(secret)[0])
        await other.app.click("[data-key='submit']")
        assert await other.wait_message() == error_words("not_your_game", None)
        await other.context.unroute("**/api/guess*")
        assert query(stack.db, "SELECT status FROM games WHERE id = ?", game_id) == [
            ("active",)]

        await page.app.click("[data-key='give-up']")
        assert await page.app.text_content("[data-key='give-up']") == words["give_up_sure"]
        assert query(stack.db, "SELECT status FROM games WHERE id = ?", game_id) == [
            ("active",)]
        await page.app.click("[data-key='give-up']")
        for seen in (page, other):
            await seen.app.wait_for_selector(".secret .peg")
            assert await seen.app.eval_on_selector_all(
                ".secret .peg", "pegs => pegs.map(p => p.dataset.digit).join('')") == secret
            assert await seen.app.text_content(".result") == words["ended"]
        assert query(stack.db, "SELECT status FROM games WHERE id = ?", game_id) == [("quit",)]
        await stack.server.wait_until(
            lambda: any(m.embeds and m.embeds[0].get("title") == "Game ended"
                        for m in stack.server.state.channel_history(channel)),
            timeout=10, what="the channel's board to show the game ended")
        await page.app.wait_for_selector("[data-key='new-game']")  # a new one can begin
        for opened in (page, other):
            await stack.discord.close(opened)


async def test_the_page_catches_up_after_the_bot_restarts(stack: Stack) -> None:
    async with asyncio.timeout(BUDGET * 2):
        gus, hal = stack.user("gus"), stack.user("hal")
        channel, (page,), secret = await stack.channel_game("restart", gus)
        first, second = two_wrong(secret)
        await page.app.evaluate("() => { window.sameDocument = true; }")
        stack.bot.proc.kill()
        await stack.bot.finish()
        await page.app.wait_for_selector(".live.offline")
        await stack.start_bot()
        await stack.server.slash("guess", user=hal, guild=stack.guild, channel=channel,
                                 code=first)
        assert (await page.wait_rows(1, timeout=20_000))[0] == (
            first, *score(secret, first), "by hal")
        await page.app.wait_for_selector(".live.live")
        await page.tap_code(second)
        await page.app.click("[data-key='submit']")
        assert (await page.wait_rows(2))[1] == (second, *score(secret, second), MINE)
        assert await page.app.evaluate("() => window.sameDocument === true"), "reloaded"
        await stack.discord.close(page)


async def test_every_refusal_is_shown_in_words(stack: Stack) -> None:
    """A code Discord never gave, a forged token, another instance's game, a stale turn: each
    refused by the server, shown by the page in the reader's words, nothing stored."""
    async with asyncio.timeout(BUDGET):
        english = client_words(None)
        # a bad code: the sign-in fails, saying why
        channel = stack.channel("refusals")
        ivy, jay = stack.user("ivy"), stack.user("jay")
        instance = stack.server.state.start_activity(channel, ivy)
        bad = await stack.discord.open(ivy, instance, authorize="not-a-code-discord-gave")
        await bad.app.wait_for_selector(".splash[role='alert']")
        assert await bad.app.text_content(".splash") == english["signin_failed"].format(
            reason=error_words("bad_code", None))
        await stack.discord.close(bad, leave=False)  # ivy opens it again

        # a forged token: every call refused
        forged = await stack.discord.open(ivy, instance, authorize=None)
        await forged.wait_ready()
        await forged.context.route("**/api/game*", lambda route: route.continue_(headers={
            **route.request.headers, "authorization": "Bearer forged-token"}))
        await forged.app.click("[data-key='mode-private']")
        assert await forged.wait_message() == error_words("bad_token", None)
        await stack.discord.close(forged)

        # another instance's game: the id of a game elsewhere is refused
        other = stack.channel("elsewhere")
        (elsewhere,) = await stack.open_game(other, jay)
        await elsewhere.new_game()
        ((other_id,),) = query(stack.db, "SELECT id FROM games WHERE channel_id = ?", other.id)
        (page,) = await stack.open_game(channel, ivy)
        await page.new_game()
        secret = stack.secret(channel)
        guess = "1122" if secret != "1122" else "3344"

        async def rewrite(route: Any, **changes: Any) -> None:
            body = json.loads(route.request.post_data or "{}")
            await route.continue_(post_data=json.dumps({**body, **changes}))

        await page.context.route("**/api/guess*", lambda r: rewrite(r, game_id=str(other_id)))
        await page.tap_code(guess)
        await page.app.click("[data-key='submit']")
        assert await page.wait_message() == error_words("not_your_game", None)
        await page.context.unroute("**/api/guess*")

        # a stale turn: refused, and the board read again
        await page.context.route("**/api/guess*", lambda r: rewrite(r, turn=5))
        await page.app.click("[data-key='submit']")  # the row is still there
        await page.app.wait_for_function(
            "m => document.querySelector('.message').textContent === m",
            arg=error_words("stale", None))
        await page.context.unroute("**/api/guess*")
        assert query(stack.db, "SELECT COUNT(*) FROM guesses") == query(
            stack.db, "SELECT COUNT(*) FROM guesses g JOIN games m ON m.id = g.game_id "
                      "WHERE m.channel_id NOT IN (?)", channel.id)
        await page.app.click("[data-key='submit']")  # now as it stands: accepted
        assert (await page.wait_rows(1))[0][0] == guess
        for opened in (page, elsewhere):
            await stack.discord.close(opened)


async def test_a_challenge_answered_by_tapping_key_pegs(stack: Stack) -> None:
    """The bot guesses the code kept in mind; the player taps how many key pegs are black
    and white, until the bot names it."""
    async with asyncio.timeout(BUDGET):
        channel = stack.channel("challenge")
        kim = stack.user("kim")
        (page,) = await stack.open_game(channel, kim, viewport=PHONE, platform="mobile")
        await page.start_challenge()
        for turn in range(1, 9):
            guess, black, white = await page.answer_challenge("2351")
            rows = await page.wait_rows(turn)
            assert rows[-1] == (guess, black, white, "")
            if black == 4:
                break
            await page.wait_playable()
        await page.app.wait_for_function(
            "w => document.querySelector('.result')?.textContent === w",
            arg=client_words(None)["bot_won"])
        await stack.discord.close(page)


class HeldMoves:
    """The live connection with its move updates held back until released: an update that
    arrives late, while the player is already tapping."""

    def __init__(self) -> None:
        self.held: list[str] = []
        self.page_side: Any = None

    def route(self, socket: Any) -> None:
        self.page_side = socket
        server = socket.connect_to_server()
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if json.loads(message).get("type") == "move":
            self.held.append(str(message))
        else:
            self.page_side.send(message)

    def release(self) -> int:
        """Sends what was held; the last one's sequence number."""
        for message in self.held:
            self.page_side.send(message)
        seq = int(json.loads(self.held[-1])["seq"])
        self.held.clear()
        return seq


async def test_key_pegs_being_tapped_stay_when_a_live_update_arrives(stack: Stack) -> None:
    """The echoes of the new game and of the player's own reply come late, while they tap the
    next reply: the older one is dropped, the same-turn one keeps the taps, and the reply
    stored is the one tapped."""
    async with asyncio.timeout(BUDGET):
        channel = stack.channel("late-echo")
        moves = HeldMoves()
        (page,) = await stack.open_game(channel, stack.user("uma"), live=moves.route)
        await page.start_challenge()
        first = await page.answer_challenge("2351")
        await page.wait_rows(1)
        await page.wait_playable()
        guess = await page.app.eval_on_selector_all(
            ".reply .code .peg", "pegs => pegs.map(p => p.dataset.digit).join('')")
        black, white = score("2351", guess)
        which = "black" if black else "white"
        await page.app.click(f"[data-key='{which}-more']")
        assert len(moves.held) == 2  # the new game's and the first reply's, not yet shown
        await page.wait_live_update(moves.release())
        shown = await page.app.text_content(f".reply .{which} output")
        assert shown == "1"  # the tap stayed
        for kind, count in (("black", black), ("white", white)):
            for _ in range(count - (kind == which)):
                await page.app.click(f"[data-key='{kind}-more']")
        await page.app.click("[data-key='reply']")
        assert (await page.wait_rows(2))[-1] == (guess, black, white, "")
        stored = query(stack.db, "SELECT r.guess, r.black, r.white FROM challenge_replies r "
                                 "JOIN games g ON g.id = r.game_id WHERE g.channel_id = ? "
                                 "ORDER BY r.turn", channel.id)
        assert stored == [(first[0], first[1], first[2]), (guess, black, white)]
        await stack.discord.close(page)


async def test_the_daily_code_and_the_puzzle_of_the_day(stack: Stack) -> None:
    """Today's code begins with its first guess; the puzzle's clues lead to one code, named in
    one try."""
    async with asyncio.timeout(BUDGET):
        channel = stack.channel("daily")
        lea = stack.user("lea")
        (page,) = await stack.open_game(channel, lea)
        words = client_words(None)
        await page.app.click("[data-key='mode-daily']")
        await page.wait_playable()
        assert await page.app.query_selector("[data-key='new-game']") is None
        pegs = len(await page.app.query_selector_all(".draft .slot"))
        guess = "12345678"[:pegs]
        await page.tap_code(guess)
        await page.app.click("[data-key='submit']")
        assert (await page.wait_rows(1))[0][0] == guess
        assert query(stack.db, "SELECT COUNT(*) FROM daily_guesses WHERE user_id = ?",
                     lea.id) == [(1,)]

        await page.app.click("[data-key='mode-puzzle']")
        await page.app.wait_for_selector(".board h2.sub")
        await page.wait_playable()
        clues = await page.rows()
        colours = len(await page.app.query_selector_all(".palette .colour"))
        pegs = len(await page.app.query_selector_all(".draft .slot"))
        fits = [code for code in map("".join, itertools.product(
            "123456789"[:colours], repeat=pegs))
            if all(score(code, clue) == (black, white) for clue, black, white, _ in clues)]
        assert len(fits) == 1, "a puzzle has exactly one answer"
        await page.tap_code(fits[0])
        await page.app.click("[data-key='submit']")
        await page.app.wait_for_function(  # the prompt gives way to the outcome
            "w => document.querySelector('.result')?.textContent.startsWith(w)",
            arg=words["solved"])
        assert await page.app.eval_on_selector_all(
            ".secret .peg", "p => p.map(e => e.dataset.digit).join('')") == fits[0] * 2
        await stack.discord.close(page)
