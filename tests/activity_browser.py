"""The Activity in a real browser: Debian's headless Chromium (driven by Playwright, never a
downloaded browser) loads the client from a running bot, inside a parent page that plays
Discord's client for the Embedded App SDK.

Discord runs an Activity in an iframe and talks to the SDK in it with ``postMessage``: the SDK
sends a handshake, Discord answers ``READY``, then each command (``AUTHORIZE``,
``AUTHENTICATE``, ``GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS``, ``SUBSCRIBE`` ...) is a
frame with a nonce answered by one with the same nonce, and events are ``DISPATCH`` frames.
:data:`PARENT_PAGE` speaks that protocol, answering from the fake Discord
(tests/fake_discord): ``AUTHORIZE`` gives a code minted by its OAuth2
(:meth:`ActivityStore.authorize`), ``AUTHENTICATE`` checks the token as Discord does, the
participants are the instance's users. The page is served at the bot's own origin (the SDK
takes messages from its own origin; Discord's is not ours to use) by intercepting one path in
the browser, so the bot never sees it.

Used by tests/test_activity_browser.py, bench/activity_client_bench.py and the screenshots
(tests/activity_screenshots.py).
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import socket
import time
import urllib.parse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conftest import discord_server
from fake_discord.activities import ActivityInstance
from fake_discord.models import FakeChannel, FakeGuild, FakeUser
from fake_discord.server import FakeDiscordServer
from fake_discord.state import DiscordState
from test_bot_process import BotProcess, bot_env, query, score, wait_ready

CHROMIUM = Path("/usr/bin/chromium")
INSTALL_HINT = ("the Activity's browser tests need Debian's chromium: apt-get install -y chromium "
                "(and pip install -e '.[dev]' for Playwright)")
#: How Chromium is started (the developers' guide): no sandbox (root in CI), no GPU, nothing
#: fetched from the network.
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
PARENT_PATH = "/__discord_client__"
PHONE = {"width": 400, "height": 860}
DESKTOP = {"width": 1000, "height": 720}


def missing_browser() -> str | None:
    """Why the browser tests can't run here (None: they can)."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return INSTALL_HINT
    return None if CHROMIUM.exists() else INSTALL_HINT


def free_port() -> int:
    """A port nothing listens on now (the bot keeps its port across a restart, as the page
    reconnects to the same origin)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: Discord's client, as far as the SDK sees it. Query: ``child`` (the Activity's query string,
#: as Discord adds it: frame_id, instance_id, platform, guild_id, channel_id) and ``user`` (the
#: READY event's user). Commands it does not know are refused as Discord refuses them.
PARENT_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (test client)</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>html,body{margin:0;height:100%;background:#1e1f22}
iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><iframe id="activity" title="Activity"></iframe>
<script>
const params = new URLSearchParams(location.search);
const frame = document.getElementById("activity");
const me = JSON.parse(params.get("user"));
const send = (message) => frame.contentWindow.postMessage(message, location.origin);
window.__dispatch = (evt, data) => send([1, {cmd: "DISPATCH", evt, nonce: null, data}]);
window.__commands = [];
const answer = async (promise) => {
  const result = await promise;
  if (result.error) throw result.error;
  return result.data;
};
const commands = {
  AUTHORIZE: (args) => answer(window.discordAuthorize(args)),
  AUTHENTICATE: (args) => answer(window.discordAuthenticate(args.access_token)),
  GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS: () => answer(window.discordParticipants()),
  SUBSCRIBE: (args, evt) => ({evt}),
  UNSUBSCRIBE: (args, evt) => ({evt}),
  CAPTURE_LOG: () => null,
};
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  if (opcode === 0) {
    window.__dispatch("READY", {v: 1, user: me,
      config: {api_endpoint: "//discord.com/api", environment: "production",
               cdn_host: "cdn.discordapp.com"}});
    return;
  }
  if (opcode !== 1) return;
  window.__commands.push(payload.cmd);
  try {
    const run = commands[payload.cmd];
    if (!run) throw {code: 4002, message: "Invalid command: " + payload.cmd};
    const data = await run(payload.args, payload.evt);
    send([1, {cmd: payload.cmd, nonce: payload.nonce, evt: null, data}]);
  } catch (error) {
    send([1, {cmd: payload.cmd, nonce: payload.nonce, evt: "ERROR",
              data: {code: error.code ?? 5000, message: error.message ?? String(error)}}]);
  }
});
frame.src = "/?" + params.get("child");
</script></body></html>
"""


def participant(user: FakeUser) -> dict[str, Any]:
    """A user as ``GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS`` lists them."""
    data = user.payload()
    return {"id": data["id"], "username": data["username"], "global_name": data["global_name"],
            "discriminator": "0", "avatar": None, "flags": 0, "bot": False}


@dataclass
class ActivityPage:
    """One player's Discord window with the Activity open in it."""

    user: FakeUser
    instance: ActivityInstance
    page: Any  # playwright Page: the parent (Discord's client)
    context: Any
    #: Every response the window got, from the start (the bench weighs them).
    responses: list[Any] = field(default_factory=list)
    #: time.perf_counter() when Discord opened the window.
    opened_at: float = 0.0

    @property
    def app(self) -> Any:
        """The Activity's frame (what the player sees and taps)."""
        return next(f for f in self.page.frames if f is not self.page.main_frame)

    async def wait_ready(self, timeout: float = 15_000) -> None:
        """Until the board is up (signed in, the game loaded, nothing being sent)."""
        await self.app.wait_for_selector("#app[aria-busy='false'] .board", timeout=timeout)

    async def wait_live_update(self, seq: int, timeout: float = 10_000) -> None:
        """Until the page has shown the live update numbered ``seq``."""
        await self.app.wait_for_function(
            "n => Number(document.getElementById('app').dataset.seq) >= n", arg=seq,
            timeout=timeout)

    async def wait_playable(self, timeout: float = 15_000) -> None:
        await self.app.wait_for_selector("#app[data-playable='true']", timeout=timeout)

    async def rows(self) -> list[tuple[str, int, int, str]]:
        """The history: (code, black, white, who) per row, read from what is shown."""
        rows = await self.app.eval_on_selector_all(".history .row", """rows => rows.map(r => [
            [...r.querySelectorAll('.code .peg')].map(p => p.dataset.digit).join(''),
            Number(r.querySelector('.key.black b').textContent),
            Number(r.querySelector('.key.white b').textContent),
            r.querySelector('.by') ? r.querySelector('.by').textContent : ''])""")
        return [tuple(row) for row in rows]

    async def wait_rows(self, count: int, timeout: float = 10_000
                        ) -> list[tuple[str, int, int, str]]:
        await self.app.wait_for_function(
            "n => document.querySelectorAll('.history .row').length >= n", arg=count,
            timeout=timeout)
        return await self.rows()

    async def message(self) -> str:
        return (await self.app.text_content(".message")) or ""

    async def wait_message(self, timeout: float = 10_000) -> str:
        await self.app.wait_for_function(
            "() => (document.querySelector('.message')?.textContent ?? '').length > 0",
            timeout=timeout)
        return await self.message()

    async def new_game(self) -> None:
        await self.app.click("[data-key='new-game']")
        await self.wait_playable()

    async def start_challenge(self) -> None:
        await self.app.click("[data-key='mode-challenge']")
        await self.app.wait_for_selector("[data-key='new-game']")
        await self.new_game()

    async def answer_challenge(self, kept: str) -> tuple[str, int, int]:
        """Tap the key pegs the bot's guess earns against the code ``kept`` in mind, and
        send them: (the guess, black, white)."""
        guess = await self.app.eval_on_selector_all(
            ".reply .code .peg", "pegs => pegs.map(p => p.dataset.digit).join('')")
        black, white = score(kept, guess)
        for which, count in (("black", black), ("white", white)):
            for _ in range(count):
                await self.app.click(f"[data-key='{which}-more']")
        await self.app.click("[data-key='reply']")
        return guess, black, white

    async def tap_code(self, code: str) -> None:
        for digit in code:
            await self.app.click(f".palette .colour[data-digit='{digit}']")

    async def close(self) -> None:
        await self.context.close()


@dataclass
class EmbeddedDiscord:
    """Opens the Activity for users the way Discord's client does, answering the SDK from the
    fake Discord's state."""

    browser: Any  # playwright Browser
    state: DiscordState
    origin: str  # the bot's ACTIVITY_PORT origin
    pages: list[ActivityPage] = field(default_factory=list)

    async def open(self, user: FakeUser, instance: ActivityInstance, *,
                   viewport: dict[str, int] = DESKTOP, platform: str = "desktop",
                   authorize: Any = None, locale: str | None = None,
                   live: Any = None) -> ActivityPage:
        """``user`` opens the Activity of ``instance`` (they join it). ``authorize``: what
        Discord's ``AUTHORIZE`` answers instead of a good code (a test of a refusal);
        ``live``: a playwright WebSocket route the live connection goes through."""
        instance.join(user)
        context = await self.browser.new_context(
            viewport=viewport, locale=locale or "en-US", device_scale_factor=1,
            is_mobile=platform == "mobile", has_touch=platform == "mobile")
        await context.route(f"{self.origin}{PARENT_PATH}*", self._parent_page)
        if live is not None:
            await context.route_web_socket("**/api/live*", live)
        await context.expose_function("discordAuthorize", lambda args: self._authorize(
            user, args, authorize))
        await context.expose_function("discordAuthenticate", lambda token: self._authenticate(
            user, token))
        await context.expose_function("discordParticipants", lambda: {"data": {
            "participants": [participant(u) for u in instance.users]}})
        page = await context.new_page()
        opened = ActivityPage(user, instance, page, context)
        page.on("response", lambda response: opened.responses.append(response))
        child = {"frame_id": f"frame-{user.id}", "instance_id": instance.instance_id,
                 "platform": platform, "channel_id": str(instance.channel.id),
                 "location_id": instance.location_id}
        if instance.guild is not None:
            child["guild_id"] = str(instance.guild.id)
        me = {"id": str(user.id), "username": user.username, "discriminator": "0"}
        query = urllib.parse.urlencode({"child": urllib.parse.urlencode(child),
                                        "user": json.dumps(me)})
        opened.opened_at = time.perf_counter()
        await page.goto(f"{self.origin}{PARENT_PATH}?{query}")
        self.pages.append(opened)
        await self.participants_changed(instance)
        return opened

    async def close(self, opened: ActivityPage, *, leave: bool = True) -> None:
        """The player closes the Activity (``leave``: and leaves the instance)."""
        self.pages.remove(opened)
        if leave:
            opened.instance.leave(opened.user)
        await opened.close()
        await self.participants_changed(opened.instance)

    async def participants_changed(self, instance: ActivityInstance) -> None:
        """Discord's ``ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE`` to everyone in ``instance``."""
        data = {"participants": [participant(u) for u in instance.users]}
        for opened in self.pages:
            if opened.instance is instance:
                await opened.page.evaluate(
                    "data => window.__dispatch('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', data)",
                    data)

    @staticmethod
    async def _parent_page(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/html; charset=utf-8",
                            body=PARENT_PAGE)

    def _authorize(self, user: FakeUser, args: dict[str, Any], instead: Any) -> dict[str, Any]:
        if args.get("client_id") != str(self.state.application_id):
            return {"error": {"code": 4007, "message": "Invalid client id"}}
        if instead is not None:
            return {"data": {"code": instead}}
        return {"data": {"code": self.state.authorize(user, args.get("scope") or ())}}

    def _authenticate(self, user: FakeUser, token: str) -> dict[str, Any]:
        """Discord checks the token is this user's, for this application."""
        grant = self.state.activities.tokens.get(token)
        if grant is None or grant.user is not user:
            return {"error": {"code": 4009, "message": "Invalid token"}}
        data = user.payload()
        return {"data": {
            "access_token": token, "scopes": grant.scopes, "expires": "2100-01-01T00:00:00Z",
            "user": {"id": data["id"], "username": data["username"], "discriminator": "0",
                     "global_name": data["global_name"], "avatar": None, "public_flags": 0},
            "application": {"id": str(self.state.application_id), "name": "Mastermind",
                            "description": "", "icon": None}}}


@dataclass
class Stack:
    """A running bot with its Activity, the fake Discord it talks to, and a browser."""

    server: FakeDiscordServer
    guild: FakeGuild
    env: dict[str, str]
    cwd: Path
    db: Path
    origin: str
    discord: EmbeddedDiscord
    bot: BotProcess

    def channel(self, name: str) -> FakeChannel:
        return self.server.state.create_channel(self.guild, name)

    def user(self, name: str, locale: str = "en-US") -> FakeUser:
        user = self.server.state.create_user(name)
        user.locale = locale
        self.server.state.add_member(self.guild, user)
        return user

    async def start_bot(self) -> None:
        self.bot = await BotProcess.start(self.env, self.cwd)
        await wait_ready(self.server, self.bot, self.guild)
        await self.bot.wait_for_log("activity: serving on")

    async def open_game(self, channel: FakeChannel, *users: FakeUser, **kwargs: Any
                        ) -> list[ActivityPage]:
        """``users`` open the Activity in ``channel``, each in a window of their own, and
        wait for its board."""
        instance = self.server.state.start_activity(channel, *users)
        pages = [await self.discord.open(user, instance, **kwargs) for user in users]
        for page in pages:
            await page.wait_ready()
        return pages

    async def channel_game(self, name: str, *users: FakeUser, **kwargs: Any
                           ) -> tuple[FakeChannel, list[ActivityPage], str]:
        """A new channel ``name`` where ``users`` open the Activity and the first starts a
        game: the channel, their pages, the secret."""
        channel = self.channel(name)
        pages = await self.open_game(channel, *users, **kwargs)
        await pages[0].new_game()
        return channel, pages, self.secret(channel)

    def secret(self, channel: FakeChannel) -> str:
        ((secret,),) = query(self.db, "SELECT secret FROM games WHERE channel_id = ? AND "
                                      "status = 'active'", channel.id)
        return str(secret)


@asynccontextmanager
async def running_activity(cwd: Path) -> AsyncIterator[Stack]:
    """The fake Discord (Activities on, one server), ``python -m bot`` serving the Activity
    on a free port (a SQLite file in ``cwd``) and headless Chromium."""
    from playwright.async_api import async_playwright

    db = cwd / "games.sqlite3"
    port = free_port()
    async with discord_server() as server, async_playwright() as playwright:
        state = server.state
        state.enable_activities()
        guild = state.create_guild("Activity Guild")
        env = bot_env(server, db, guild, ACTIVITY_PORT=str(port),
                      DISCORD_CLIENT_SECRET=state.client_secret)
        origin = f"http://127.0.0.1:{port}"
        stack = Stack(server, guild, env, cwd, db, origin,
                      EmbeddedDiscord(None, state, origin), bot=None)  # type: ignore[arg-type]
        # Chromium starts while the bot does: two processes, neither needs the other yet
        launching = asyncio.ensure_future(launch_chromium(playwright))
        try:
            await stack.start_bot()
            stack.discord.browser = await launching
            yield stack
        finally:
            if stack.bot is not None:
                await stack.bot.kill()
            await (await launching).close()


async def launch_chromium(playwright: Any) -> Any:
    return await playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                            args=[*LAUNCH_ARGS, *without_browser_ui()])


#: Chromium's own address bar popups: headless Chromium builds them, as WebUI pages in a
#: renderer of their own, for every window (each browser context opens one), though no page
#: ever shows them. Off, a context costs about half the CPU (1.2 s -> 0.6 s measured, ten
#: contexts on a blank page); what a page does and shows is the same.
BROWSER_UI_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")


@functools.cache
def without_browser_ui() -> list[str]:
    """The ``--disable-features`` switch that turns :data:`BROWSER_UI_OFF` off. Chromium
    takes the last such switch alone, so it repeats the features Playwright's own switch
    turns off (read from its driver); should they not be found there, nothing is added."""
    import playwright

    for bundle in sorted((Path(playwright.__file__).parent / "driver").rglob("*.js")):
        text = bundle.read_text("utf-8", "replace")
        found = re.search(r"\bdisabledFeatures\s*=\s*\[(.*?)\]", text, re.S)
        if found:
            theirs = re.findall(r'^\s*"(\w+)",?\s*$', found[1], re.M)
            return [f"--disable-features={','.join([*theirs, *BROWSER_UI_OFF])}"] if theirs else []
    return []
