"""Numbers and days as the reader's locale writes them (CLDR, through Babel): ``1,296`` and
``4.25`` in English, ``1.296`` and ``4,25`` in German, ``%50`` in Turkish, ``2026/11/24`` in
Japanese. The catalogs hold words; these are the one place numbers and days are written, for
the bot and the terminal alike.

English, the source, keeps the ISO day (``2026-11-24``) its players know the daily by.
"""

from __future__ import annotations

import datetime as dt

from babel.dates import format_date
from babel.numbers import format_decimal, format_percent

from .catalogs import current_locale

#: The source language's number format (the catalogs' English).
_SOURCE_FORMAT = "en_US"


def number(value: float, places: int | None = None) -> str:
    """``value`` with the current locale's digit grouping and decimal sign: with exactly
    ``places`` decimals (``number(4.256, 2)``: ``4.26``; ``places=0`` rounds to a whole
    number), or with as many as it has, up to three, when ``places`` is None."""
    pattern = None if places is None else "#,##0" + ("." + "0" * places if places else "")
    return format_decimal(value, format=pattern, locale=current_locale() or _SOURCE_FORMAT)


def percent(share: float) -> str:
    """``50%`` / ``50 %`` / ``%50`` (a share of 1)."""
    return format_percent(share, locale=current_locale() or _SOURCE_FORMAT)


def day(iso: str) -> str:
    """A UTC day (``2026-11-24``) as the reader writes dates (``24.11.2026``); English keeps
    the ISO day, the daily's name."""
    locale = current_locale()
    if locale is None:
        return iso
    return format_date(dt.date.fromisoformat(iso), format="medium", locale=locale)
