"""Runs of consecutive UTC days: the daily's, the puzzles' and the stats' streaks."""

from __future__ import annotations

import datetime as dt


def streaks(days: set[str], today: dt.date) -> tuple[int, int]:
    """(current, longest) runs of consecutive UTC days. The current run may end yesterday:
    it is still alive until today is over."""
    dates = sorted(dt.date.fromisoformat(d) for d in days)
    longest = run = 0
    previous = None
    for day in dates:
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        longest = max(longest, run)
        previous = day
    current = 0
    if dates and today - dates[-1] <= dt.timedelta(days=1):
        current = run
    return current, longest
