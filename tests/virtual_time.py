"""Virtual time for the REST budget (bot/ui/rest_budget.py): a clock moved only by the
budget's own sleeps, so what it hands out, and in which order, is exact on any machine and
no real second is waited."""

from __future__ import annotations

import asyncio


class VirtualTime:
    """The budget's clock and sleep (``RestBudget(clock=..., sleep=...)`` or ``retime``)."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        for _ in range(3):  # as on a real loop, what is ready runs before the clock moves
            await asyncio.sleep(0)
        self.now += max(seconds, 1e-9)  # a rounding error's wait still moves the clock
