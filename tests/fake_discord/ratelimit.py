"""Discord's global rate limit, and a record of what counts against it.

A bot may make 50 requests a second across all its connections and processes (one token);
interaction endpoints (the callback, and the interaction's webhook: followups, edits of the
original answer) are not bound by it. Over the limit Discord answers 429 with
``"global": true``, ``retry_after`` in seconds and the ``X-RateLimit-Global`` and
``X-RateLimit-Scope: global`` headers. The window is wall time (``time.monotonic``), not a
test's hand-moved clock: rate limits are about real seconds.

Every counted request's time is kept, so a test or a bench can ask for the most requests
in any one second (:meth:`GlobalLimit.busiest_second`).
"""

from __future__ import annotations

import bisect
import re
import time
from collections import deque
from collections.abc import Callable
from typing import Any

#: Discord's global limit: requests a second per bot.
PER_SECOND = 50
_EXEMPT = re.compile(r"^/(?:interactions|webhooks)/")


class GlobalLimit:
    def __init__(self, per_second: int | None = PER_SECOND,
                 clock: Callable[[], float] = time.monotonic) -> None:
        #: None: recorded, never refused.
        self.per_second = per_second
        self.clock = clock
        #: When each counted request arrived (accepted ones), in order.
        self.times: list[float] = []
        #: 429s answered for the global limit.
        self.refused = 0
        self._window: deque[float] = deque()

    @staticmethod
    def counts(path: str) -> bool:
        """Whether a request to ``path`` counts against the global limit."""
        return not _EXEMPT.match(path)

    def admit(self, path: str) -> dict[str, Any] | None:
        """Record a request; the 429 body to answer instead when it is over the limit."""
        if not self.counts(path):
            return None
        now = self.clock()
        while self._window and self._window[0] <= now - 1.0:
            self._window.popleft()
        if self.per_second is not None and len(self._window) >= self.per_second:
            self.refused += 1
            return {"message": "You are being rate limited.", "global": True,
                    "retry_after": round(self._window[0] + 1.0 - now, 3) or 0.001}
        self._window.append(now)
        self.times.append(now)
        return None

    def busiest_second(self, since: float = float("-inf"), until: float = float("inf")) -> int:
        """The most counted requests in any one-second window between ``since`` and
        ``until`` (``clock`` times)."""
        return busiest_second(self.times[bisect.bisect_left(self.times, since):
                                         bisect.bisect_right(self.times, until)])

    def count(self, since: float = float("-inf"), until: float = float("inf")) -> int:
        return bisect.bisect_right(self.times, until) - bisect.bisect_left(self.times, since)


def busiest_second(times: list[float]) -> int:
    """The most of these (sorted) times in any one-second window."""
    most, first = 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most
