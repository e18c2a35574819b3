"""The garbage collector in a long-running bot: what start-up made is frozen, and every
collection's pause is timed for the metrics.

Start-up leaves a few hundred thousand objects that live as long as the process (modules,
discord.py's caches, the catalogs, the engine's tables). Unfrozen, each full collection
walks all of them: measured 80-110 ms with the event loop stopped, every reply waiting
(bench/scale_bench.py --profile). Frozen (``gc.freeze``, as Python's documentation advises
for long-lived processes), a collection walks only what was made since. The bot freezes
twice: after its set-up, before it connects (collecting start-up's garbage first, while no
reply can wait for it), and once every shard is ready (the servers' cache; no collection:
a full one then stopped the loop 80-100 ms while the first interactions came in).
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


def freeze(*, collect_first: bool) -> int:
    """Move every object made so far out of the collector's reach for good, after
    collecting the garbage among them if ``collect_first`` (a full collection: once, before
    the bot connects); returns how many objects are frozen in all."""
    if collect_first:
        gc.collect()
    gc.freeze()  # moves lists: no pause
    return gc.get_freeze_count()


class CollectionTimer:
    """Calls ``report(generation, seconds)`` after each garbage collection of the process,
    from ``install`` until ``remove``."""

    def __init__(self, report: Callable[[int, float], None]) -> None:
        self.report = report
        self._began = 0.0

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.report(int(info["generation"]), time.perf_counter() - self._began)

    def install(self) -> None:
        if self._collected not in gc.callbacks:
            gc.callbacks.append(self._collected)

    def remove(self) -> None:
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
