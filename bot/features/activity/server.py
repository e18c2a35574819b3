"""The Activity's web server on ``ACTIVITY_PORT`` (aiohttp, which discord.py already brings):
the client's files, the JSON API and the live connection (docs/activity.md).

Every API call but the token exchange names the user's token (``Authorization: Bearer``) and
the instance (``instance_id``); the server asks Discord who the user is and whether they are
in that instance, and takes the channel from the instance, never from the client. A refusal
is a 4xx JSON error in the reader's words and changes nothing. What keeps it answering moves
under abuse: bodies of at most a few KiB read within seconds, every handler within a time
limit, per-user and per-address rate limits, a bounded number of questions to Discord at
once, refused tokens remembered (so a flood of forged tokens costs a lookup each), and a
bounded queue per live connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSMsgType, web

from i18n import speaking

from ...core.errors import BadCode, BadRules, UnknownStrategy, UserError
from ...ui.messages import describe_user_error
from .assets import Assets, peg_list
from .auth import DiscordAuth, Instance, User
from .errors import ActivityError
from .limits import Buckets
from .live import LiveHub, Viewer
from .service import ActivityGames, Mode, Moved, Place, Player
from .views import View
from .words import client_words, error_words, reader_locale

log = logging.getLogger(__name__)

#: Largest request body (a move is under 200 bytes).
MAX_BODY = 8 * 1024
#: Seconds to read a body, to answer a request, for a live connection's first message.
READ_TIMEOUT = 5.0
HANDLER_TIMEOUT = 20.0
AUTH_TIMEOUT = 10.0
INSTANCE_ID = re.compile(r"[A-Za-z0-9:_.-]{1,100}")
#: Requests a user may make (a second, at once); tokens Discord hasn't confirmed yet that one
#: address may bring (a second, at once).
USER_RATE, USER_BURST = 10.0, 30.0
UNKNOWN_RATE, UNKNOWN_BURST = 20.0, 60.0
TOKEN_RATE, TOKEN_BURST = 1.0, 10.0

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; "
       "img-src 'self' data: https://cdn.discordapp.com; font-src 'self'; "
       "connect-src 'self' wss://*.discordsays.com https://*.discordsays.com; "
       "frame-ancestors 'self' https://discord.com https://*.discord.com "
       "https://*.discordsays.com; base-uri 'none'; form-action 'none'; object-src 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
NO_CACHE = "no-cache"
FOREVER = "public, max-age=31536000, immutable"

#: The reader's catalog locale, once their token says who they are.
#: ("": English).
LOCALE = web.RequestKey("locale", str)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _status(error: UserError) -> int:
    return 400 if isinstance(error, BadCode | BadRules | UnknownStrategy) else 409


def _plain(text: str) -> str:
    """Discord's markdown out of words written for the chat."""
    return re.sub(r"<@!?(\d+)>", "@", text.replace("**", "").replace("`", ""))


class ActivityServer:
    def __init__(self, *, games: ActivityGames, auth: DiscordAuth, hub: LiveHub,
                 assets: Assets, closing: Callable[[], bool]) -> None:
        self.games = games
        self.auth = auth
        self.hub = hub
        self.assets = assets
        self.closing = closing
        self.users = Buckets(USER_RATE, USER_BURST)
        self.unknown = Buckets(UNKNOWN_RATE, UNKNOWN_BURST)
        self.exchanges = Buckets(TOKEN_RATE, TOKEN_BURST)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        #: Told of every move the Activity makes (the channel's live board).
        self.on_move: list[Callable[[Moved, View], Awaitable[None]]] = []

    # ---- the application --------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY,
                              middlewares=[self._headers, self._errors])
        app.router.add_get("/", self.page)
        app.router.add_get("/api/words", self.words)
        app.router.add_post("/api/token", self.token)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/api/game", self.game)
        app.router.add_post("/api/new", self.new)
        app.router.add_post("/api/guess", self.guess)
        app.router.add_post("/api/reply", self.reply)
        app.router.add_post("/api/answer", self.answer)
        app.router.add_post("/api/quit", self.quit)
        app.router.add_get("/api/live", self.live)
        app.router.add_get("/{path:.+}", self.file)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), handle_signals=False, access_log=None,
                                     keepalive_timeout=30, shutdown_timeout=2)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or ()
        self.port = sockets[0].getsockname()[1] if sockets else port
        log.info("activity: serving on http://%s:%s/", host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---- middleware -------------------------------------------------------------------------
    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        locale = reader_locale(request.query.get("locale")
                               or request.headers.get("Accept-Language", "").split(",")[0])
        try:
            if request.path == "/api/live":
                return await handler(request)
            async with asyncio.timeout(HANDLER_TIMEOUT):
                return await handler(request)
        except ActivityError as exc:
            return self._refusal(exc, request.get(LOCALE, locale) or None)
        except UserError as exc:
            with speaking(request.get(LOCALE, locale) or None):
                title, text = describe_user_error(exc)
            return web.json_response({"error": {"code": "game_rule", "title": _plain(title),
                                                "message": _plain(text)}},
                                     status=_status(exc))
        except web.HTTPRequestEntityTooLarge:
            return self._refusal(ActivityError("too_big", 413), locale)
        except web.HTTPNotFound:
            return self._refusal(ActivityError("not_found", 404), locale)
        except web.HTTPMethodNotAllowed:
            return self._refusal(ActivityError("bad_request", 405), locale)
        except TimeoutError:
            log.warning("activity: %s %s took more than %.0f s", request.method, request.path,
                        HANDLER_TIMEOUT)
            return self._refusal(ActivityError("server_error", 503), locale)

    @staticmethod
    def _refusal(error: ActivityError, locale: str | None) -> web.Response:
        return web.json_response({"error": {"code": error.code,
                                            "message": error_words(error.code, locale)}},
                                 status=error.status,
                                 headers={"Retry-After": "1"} if error.status == 429 else None)

    # ---- files ------------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.Response:
        return web.Response(body=self.assets.page, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": NO_CACHE})

    async def file(self, request: web.Request) -> web.Response:
        asset = self.assets.files.get("/" + request.match_info["path"])
        if asset is None:
            raise ActivityError("not_found", 404)
        return web.Response(body=asset.body, headers={"Content-Type": asset.content_type,
                                                      "Cache-Control": FOREVER})

    # ---- who is asking ----------------------------------------------------------------------
    async def _user(self, request: web.Request, token: str | None = None) -> User:
        """The user behind the request's token; tokens Discord hasn't confirmed yet count
        against the address they come from."""
        if token is None:
            scheme, _, token = request.headers.get("Authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise ActivityError("bad_token", 401)
        token = token.strip()
        user = self.auth.known_user(token)
        if user is None:
            if self.auth.refused_lately(token):
                raise ActivityError("bad_token", 401)
            if not self.unknown.take(request.remote):
                raise ActivityError("too_many", 429)
            user = await self.auth.user(token)
        request[LOCALE] = reader_locale(user.locale) or ""
        if not self.users.take(user.id):
            raise ActivityError("too_many", 429)
        return user

    async def _member(self, request: web.Request, body: dict[str, Any] | None = None
                      ) -> tuple[Player, Place]:
        if self.closing():
            raise ActivityError("closing", 503)
        user = await self._user(request)
        instance_id = request.query.get("instance_id") or (body or {}).get("instance_id")
        if not isinstance(instance_id, str) or not INSTANCE_ID.fullmatch(instance_id):
            raise ActivityError("bad_request")
        instance: Instance = await self.auth.member(instance_id, user)
        return Player(user.id, user.name), Place(instance.guild_id, instance.channel_id)

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        try:
            async with asyncio.timeout(READ_TIMEOUT):
                raw = await request.read()
        except TimeoutError:
            raise ActivityError("bad_request", 408) from None
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise ActivityError("bad_request") from None
        if not isinstance(body, dict):
            raise ActivityError("bad_request")
        return body

    # ---- the API ----------------------------------------------------------------------------
    async def words(self, request: web.Request) -> web.Response:
        """The client's words before sign-in (in the locale the client asks for)."""
        locale = reader_locale(request.query.get("locale"))
        return web.json_response({"locale": locale or "en", "words": client_words(locale)})

    async def token(self, request: web.Request) -> web.Response:
        if not self.exchanges.take(request.remote):
            raise ActivityError("too_many", 429)
        body = await self._body(request)
        code = body.get("code")
        if not isinstance(code, str) or not 0 < len(code) <= 200:
            raise ActivityError("bad_request")
        return web.json_response({"access_token": await self.auth.exchange(code)})

    async def state(self, request: web.Request) -> web.Response:
        player, place = await self._member(request)
        locale = request.get(LOCALE) or None
        with speaking(locale):
            pegs = peg_list(self.assets)
        return web.json_response({
            "me": {"id": str(player.id), "name": player.name}, "locale": locale or "en",
            "words": client_words(locale),
            "place": {"guild_id": str(place.guild_id) if place.guild_id else None,
                      "channel_id": str(place.channel_id),
                      "kind": "guild" if place.guild_id is not None else "private"},
            "modes": [m.value for m in place.modes], "pegs": pegs, "seq": self.hub.seq})

    async def game(self, request: web.Request) -> web.Response:
        player, place = await self._member(request)
        mode = self.games.check_mode(place, request.query.get("mode", ""))
        return web.json_response(await self.games.view(mode, place, player))

    async def new(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        player, place = await self._member(request, body)
        mode = self.games.check_mode(place, str(body.get("mode", "")))
        return await self._moved(*await self.games.new(mode, place, player, body))

    async def guess(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        player, place = await self._member(request, body)
        mode = self.games.check_mode(place, str(body.get("mode", "")))
        game_id, turn, code = body.get("game_id"), _count(body.get("turn")), body.get("code")
        if not (isinstance(game_id, str) and turn is not None and isinstance(code, str)
                and len(code) <= 100):
            raise ActivityError("bad_request")
        return await self._moved(*await self.games.guess(
            mode, place, player, game_id=game_id, turn=turn, code=code))

    async def reply(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        player, place = await self._member(request, body)
        self.games.check_mode(place, Mode.CHALLENGE)
        game_id, turn = body.get("game_id"), _count(body.get("turn"))
        black, white = _count(body.get("black")), _count(body.get("white"))
        if not isinstance(game_id, str) or turn is None or black is None or white is None:
            raise ActivityError("bad_request")
        return await self._moved(*await self.games.reply(
            place, player, game_id=game_id, turn=turn, black=black, white=white))

    async def answer(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        player, place = await self._member(request, body)
        self.games.check_mode(place, Mode.PUZZLE)
        code = body.get("code")
        if not isinstance(code, str) or len(code) > 100:
            raise ActivityError("bad_request")
        return await self._moved(*await self.games.answer(place, player, code=code))

    async def quit(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        player, place = await self._member(request, body)
        mode = self.games.check_mode(place, str(body.get("mode", "")))
        game_id = body.get("game_id")
        if not isinstance(game_id, str):
            raise ActivityError("bad_request")
        return await self._moved(*await self.games.quit(mode, place, player, game_id=game_id))

    async def _moved(self, view: View, moved: Moved) -> web.Response:
        """Answer the mover, then tell the live viewers (and the channel's board)."""
        await self.hub.publish(moved, view)
        for hook in self.on_move:
            await hook(moved, view)
        return web.json_response(view)

    # ---- live -------------------------------------------------------------------------------
    async def live(self, request: web.Request) -> web.StreamResponse:
        # no per-message deflate: compressing each small message for each viewer costs more
        # CPU than the bytes it saves on a fan-out to hundreds
        ws = web.WebSocketResponse(heartbeat=25.0, max_msg_size=4096, compress=False)
        await ws.prepare(request)
        viewer: Viewer | None = None
        try:
            viewer = await self._viewer(request, ws)
            if viewer is None:
                return ws
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    break
        finally:
            if viewer is not None:
                self.hub.leave(viewer)
        return ws

    async def _viewer(self, request: web.Request, ws: web.WebSocketResponse
                      ) -> Viewer | None:
        """The first message names the token (never the URL: URLs get logged)."""
        try:
            first = await ws.receive(timeout=AUTH_TIMEOUT)
            data = json.loads(first.data) if first.type is WSMsgType.TEXT else None
            if not isinstance(data, dict) or data.get("type") != "auth" or not isinstance(
                    data.get("token"), str):
                raise ActivityError("bad_request")
            user = await self._user(request, data["token"])
            instance_id = request.query.get("instance_id", "")
            if not INSTANCE_ID.fullmatch(instance_id):
                raise ActivityError("bad_request")
            instance = await self.auth.member(instance_id, user)
        except (ActivityError, TimeoutError, ValueError) as exc:
            error = exc if isinstance(exc, ActivityError) else ActivityError("bad_request")
            await ws.send_json({"type": "error", "code": error.code, "message": error_words(
                error.code, request.get(LOCALE) or None)})
            await ws.close(code=4000 + min(error.status, 999))
            return None
        viewer = Viewer(ws, Player(user.id, user.name),
                        Place(instance.guild_id, instance.channel_id))
        self.hub.join(viewer)
        viewer.send(json.dumps({"type": "ready", "seq": self.hub.seq}))
        since = data.get("since")
        if since is not None and since != self.hub.seq:
            viewer.send(json.dumps({"type": "resync", "seq": self.hub.seq}))
        return viewer


def _count(value: object) -> int | None:
    """A count the client sent (a turn, key pegs), or None when it is no such thing."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 1000:
        return value
    return None
