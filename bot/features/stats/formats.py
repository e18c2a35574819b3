"""Numbers and days as the reader's locale writes them (CLDR, through Babel): ``1,296`` and
``4.25`` in English, ``1.296`` and ``4,25`` in German, ``2026/11/24`` in Japanese.

The daily, the puzzles, the stats and the analysis show them; English, the source, keeps the
ISO day (``2026-11-24``) its players know the daily by.
"""

from __future__ import annotations

import datetime as dt

from babel.dates import format_date
from babel.numbers import format_decimal, format_percent

from i18n import current_locale

#: How English (no catalog) writes numbers.
_SOURCE = "en_US"


def whole(value: int) -> str:
    """``1,296`` (the locale's digit grouping)."""
    return format_decimal(value, locale=current_locale() or _SOURCE)


def decimal(value: float, places: int = 2) -> str:
    """``4.25`` / ``4,25``: always ``places`` decimals, grouped thousands."""
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return format_decimal(value, format=pattern, locale=current_locale() or _SOURCE)


def percent(share: float) -> str:
    """``50%`` / ``50 %`` / ``%50`` (a share of 1)."""
    return format_percent(share, locale=current_locale() or _SOURCE)


def day(iso: str) -> str:
    """A UTC day (``2026-11-24``) as the reader writes dates (``24.11.2026``); English keeps
    the ISO day, the daily's name."""
    locale = current_locale()
    if locale is None:
        return iso
    return format_date(dt.date.fromisoformat(iso), format="medium", locale=locale)
