"""A stand-in for ``aiohttp.ClientSession`` that answers from a :class:`DiscordState`.

discord.py uses exactly these pieces of the session (http.py, webhook/async_.py):
``session.request(method, url, **kw)`` as an async context manager, ``response.status``,
``response.reason``, ``response.headers`` (``content-type`` must be exactly
``application/json`` for JSON to be parsed), ``await response.text(encoding=...)``, and
``session.closed`` / ``await session.close()``. Nothing touches the network. As aiohttp
does, it sends the ``trace_configs`` it was given each request's start and end (a client's
``http_trace``).
"""

from __future__ import annotations

import asyncio
import io
import json
import urllib.parse
from collections.abc import Mapping
from typing import Any

import aiohttp
import yarl
from multidict import CIMultiDict, CIMultiDictProxy

from .state import ApiRequest, ApiResponse, DiscordState

FORM = "application/x-www-form-urlencoded"

_REASONS = {
    200: "OK",
    204: "No Content",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    429: "Too Many Requests",
    500: "Internal Server Error",
}


def split_api_path(path: str) -> str:
    """``/api/v10/channels/1`` -> ``/channels/1``."""
    parts = path.split("/")
    if len(parts) > 2 and parts[1] == "api" and parts[2].startswith("v"):
        return "/" + "/".join(parts[3:])
    if len(parts) > 1 and parts[1] == "api":
        return "/" + "/".join(parts[2:])
    return path


def parse_body(
    data: Any, headers: dict[str, str] | None = None
) -> tuple[Any, list[tuple[str, int]]]:
    """Decode what discord.py hands aiohttp: a JSON string, or FormData with files."""
    if data is None:
        return None, []
    if isinstance(data, Mapping):  # aiohttp form-encodes a dict (OAuth2's token endpoint)
        return {str(k): str(v) for k, v in data.items()}, []
    if isinstance(data, aiohttp.FormData) and not data.is_multipart:
        return {t["name"]: str(v) for t, _h, v in data._fields}, []
    if isinstance(data, aiohttp.FormData):
        payload: Any = None
        files: list[tuple[str, int]] = []
        for type_options, _headers, value in data._fields:
            name = type_options.get("name")
            if name == "payload_json":
                payload = json.loads(value)
                continue
            filename = type_options.get("filename") or name
            if isinstance(value, io.IOBase):
                pos = value.tell()
                size = len(value.read())
                value.seek(pos)
            elif isinstance(value, bytes | bytearray | memoryview):
                size = len(value)
            else:
                size = len(str(value).encode())
            files.append((str(filename), size))
        return payload, files
    if isinstance(data, bytes | bytearray):
        data = bytes(data).decode()
    if isinstance(data, str):
        if (headers or {}).get("Content-Type", "").startswith(FORM):
            return dict(urllib.parse.parse_qsl(data)), []
        return (json.loads(data) if data else None), []
    raise TypeError(f"fake session can't decode request body {type(data)!r}")


class FakeResponse:
    """Just enough of ``aiohttp.ClientResponse`` for discord.py."""

    def __init__(self, method: str, url: yarl.URL, api: ApiResponse) -> None:
        self.method = method
        self.url = url
        self.status = api.status
        self.reason = _REASONS.get(api.status, "Unknown")
        headers: CIMultiDict[str] = CIMultiDict()
        if api.body is not None:
            self._text = json.dumps(api.body)
            headers["Content-Type"] = "application/json"
        else:
            self._text = ""
        headers["Content-Length"] = str(len(self._text.encode()))
        if api.status == 429:
            headers["Via"] = "1.1 google"  # discord.py retries only 429s that came via Discord
            headers["Retry-After"] = str((api.body or {}).get("retry_after", 1))
            if (api.body or {}).get("global"):
                headers["X-RateLimit-Global"] = "true"
                headers["X-RateLimit-Scope"] = "global"
        self.headers = CIMultiDictProxy(headers)
        self._body = api.body

    @property
    def ok(self) -> bool:
        return self.status < 400

    async def text(self, encoding: str | None = None) -> str:
        return self._text

    async def read(self) -> bytes:
        return self._text.encode()

    async def json(self, **_: Any) -> Any:
        return json.loads(self._text) if self._text else None

    def release(self) -> None:
        pass

    def close(self) -> None:
        pass

    def raise_for_status(self) -> None:
        if self.status >= 400:
            raise aiohttp.ClientResponseError(
                None,
                (),
                status=self.status,  # type: ignore
                message=self.reason,
            )

    def __repr__(self) -> str:
        return f"<FakeResponse {self.status} {self.method} {self.url}>"


class _RequestContext:
    def __init__(
        self, session: FakeClientSession, method: str, url: str, kwargs: dict[str, Any]
    ) -> None:
        self._session, self._method, self._url, self._kwargs = session, method, url, kwargs

    async def __aenter__(self) -> FakeResponse:
        return await self._session._perform(self._method, self._url, self._kwargs)

    async def __aexit__(self, *exc: object) -> None:
        return None

    def __await__(self):  # ``await session.request(...)`` also works
        return self._session._perform(self._method, self._url, self._kwargs).__await__()


class FakeClientSession:
    """Replaces ``aiohttp.ClientSession`` for one bot; every request goes to ``state``."""

    def __init__(
        self, state: DiscordState, *, connector: aiohttp.BaseConnector | None = None,
        trace_configs: list[aiohttp.TraceConfig] | None = None, **_: Any
    ) -> None:
        self._state = state
        self._connector = connector
        self._traces = list(trace_configs or ())
        for trace in self._traces:
            trace.freeze()
        self.closed = False

    def request(self, method: str, url: str | yarl.URL, **kwargs: Any) -> _RequestContext:
        return _RequestContext(self, method.upper(), str(url), kwargs)

    def get(self, url: str | yarl.URL, **kwargs: Any) -> _RequestContext:
        return self.request("GET", url, **kwargs)

    def post(self, url: str | yarl.URL, **kwargs: Any) -> _RequestContext:
        return self.request("POST", url, **kwargs)

    async def _perform(self, method: str, url: str, kwargs: dict[str, Any]) -> FakeResponse:
        if self.closed:
            raise RuntimeError("Session is closed")
        # A real request always suspends the caller; yielding here keeps races (two handlers
        # answering one interaction, interleaved followups) observable as they are in production.
        await asyncio.sleep(0)
        parsed = yarl.URL(url)
        params = kwargs.get("params") or {}
        query = {**dict(parsed.query), **{k: str(v) for k, v in params.items()}}
        if parsed.host and "discord" not in parsed.host:
            # e.g. CDN downloads: not modelled
            return FakeResponse(
                method, parsed, ApiResponse(404, {"code": 0, "message": "404: Not Found"})
            )
        body, files = parse_body(kwargs.get("data"), kwargs.get("headers"))
        if body is None and "json" in kwargs:
            body = kwargs["json"]
        sent_headers = dict(kwargs.get("headers") or {})
        data = kwargs.get("data")
        if isinstance(data, Mapping) or (isinstance(data, aiohttp.FormData)
                                         and not data.is_multipart):
            sent_headers.setdefault("Content-Type", FORM)  # what aiohttp sends with a form
        req = ApiRequest(
            method,
            split_api_path(parsed.path),
            query,
            body,
            files,
            sent_headers,
        )
        headers: CIMultiDict[str] = CIMultiDict(kwargs.get("headers") or {})
        traced = [(trace, trace.trace_config_ctx()) for trace in self._traces]
        for trace, context in traced:
            await trace.on_request_start.send(
                self, context, aiohttp.TraceRequestStartParams(method, parsed, headers))
        delay = self._state.delay_for(req)
        if delay:
            await asyncio.sleep(delay)
        response = FakeResponse(method, parsed, self._state.handle(req))
        for trace, context in traced:
            await trace.on_request_end.send(self, context, aiohttp.TraceRequestEndParams(
                method, parsed, headers, response))  # type: ignore[arg-type]
        if self._state.dropped_after(req):
            raise aiohttp.ServerDisconnectedError()  # what aiohttp raises for a dropped link
        return response

    async def ws_connect(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "the in-process fake has no gateway: drive the bot with FakeDiscord.slash/click, "
            "or use the loopback server (fake_discord.server) for a real connection"
        )

    async def close(self) -> None:
        self.closed = True
        if self._connector is not None and not self._connector.closed:
            await self._connector.close()

    async def __aenter__(self) -> FakeClientSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
