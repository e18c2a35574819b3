"""How long, in the reader's words: what the settings store in their log and show."""

from __future__ import annotations

from i18n import tr, trn
from i18n.numbers import number


def hours(seconds: float) -> str:
    """``1 hour``, ``48 hours``, ``0.5 hours`` (``0,5 Stunden``): a fraction takes the plural
    (and the reader's decimal sign); whole hours the plural form of their count."""
    value = seconds / 3600
    if value == int(value):
        return trn("{count} hour", "{count} hours", int(value))
    # TRANSLATORS: a fraction of hours such as 0.5 or 1.5 (the number is already written).
    return tr("{hours} hours", hours=number(round(value, 2)))
