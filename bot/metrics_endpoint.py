"""The optional ``METRICS_PORT`` endpoint: ``GET /metrics`` on 127.0.0.1 in the Prometheus
text format (written by prometheus_client, served by aiohttp, which discord.py already
depends on: the page needs a database read first, which prometheus_client's own threaded
server could not await). Loopback only: a scraper on the same machine, or a tunnel, reads
it; nothing is exposed to the network."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

from .core.config import METRICS_HOST as HOST

log = logging.getLogger(__name__)


class MetricsPortUnusable(RuntimeError):
    """The metrics port can't be listened on (taken, or not allowed)."""

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4


class MetricsEndpoint:
    def __init__(self, port: int, page: Callable[[], Awaitable[str]]) -> None:
        self.port = port
        self.page = page
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._serve)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, HOST, self.port).start()
        except OSError as exc:
            await self.stop()
            raise MetricsPortUnusable(
                f"METRICS_PORT {self.port} can't be used on {HOST} ({exc.strerror or exc}): "
                f"choose another port, or leave METRICS_PORT empty for no metrics") from None
        log.info("metrics at http://%s:%d/metrics", HOST, self.port)

    async def _serve(self, request: web.Request) -> web.Response:
        page = await self.page()
        return web.Response(body=page.encode(), headers={"Content-Type": CONTENT_TYPE})

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
