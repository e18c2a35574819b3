"""Numbers as the reader writes them: ``1,296`` in English, ``1.296`` in German, ``0,5`` for
a half in French. The catalogs hold words; CLDR (through Babel) knows the separators."""

from __future__ import annotations

from babel.numbers import format_decimal

from .catalogs import current_locale

#: The source language's number format (the catalogs' English).
_SOURCE_FORMAT = "en_US"


def number(value: float) -> str:
    """``value`` with the current locale's digit grouping and decimal sign (no rounding
    beyond Babel's three decimals)."""
    return format_decimal(value, locale=current_locale() or _SOURCE_FORMAT)
