"""How much one client may ask: a token bucket per key (a user, an address), bounded in
memory (the least recently used keys go first)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

KEYS = 10_000


class Buckets:
    """``rate`` requests a second per key, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float, *, keys: int = KEYS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.keys, self.clock = rate, burst, keys, clock
        self._level: OrderedDict[object, tuple[float, float]] = OrderedDict()

    def take(self, key: object) -> bool:
        """Spend one request of ``key``'s; False when it has none left now."""
        now = self.clock()
        tokens, then = self._level.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1
        self._level[key] = (tokens - 1 if allowed else tokens, now)
        if len(self._level) > self.keys:
            self._level.popitem(last=False)
        return allowed
