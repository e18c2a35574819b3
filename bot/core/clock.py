"""Wall-clock time in one place, so tests can move it."""

import time
from collections.abc import Callable

Clock = Callable[[], float]


def system_clock() -> float:
    return time.time()
