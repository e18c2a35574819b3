"""The words, looked up in the locale of whoever is being spoken to.

Each area of the code (a feature, the core, the terminal, the command names) has its own
``.po`` file per locale under ``i18n/locales/<locale>/``, so people working on different
features never edit the same catalog; a locale's files are merged when first read. Strings
are looked up by their English source; placeholders are ``str.format`` names (``{count}``),
so a translator can reorder them.

The locale is a context variable: an interaction's task speaks its user's language by
default, and the code that draws a public board switches to the server's with
:func:`speaking`.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import tempfile
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

import babel
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES_DIR = Path(__file__).resolve().parent / "locales"

#: msgctxt of each field of a slash command, in the ``commands`` catalogs.
FIELD_CONTEXTS = {"name": "command name", "description": "command description"}
OPTION_CONTEXTS = {"name": "option name", "description": "option description"}
CHOICE_CONTEXT = "choice"
#: Every context of a command's words: the ``commands`` catalogs alone hold them.
COMMAND_CONTEXTS = frozenset({*FIELD_CONTEXTS.values(), *OPTION_CONTEXTS.values(),
                              CHOICE_CONTEXT})
#: The area whose catalogs hold the commands' words.
COMMANDS_AREA = "commands"

_CURRENT: ContextVar[str | None] = ContextVar("i18n_locale", default=None)


def area_files(locale: str) -> list[Path]:
    return sorted((LOCALES_DIR / locale).glob("*.po"))


def compiled(path: Path, locale: str) -> bytes:
    """``path``'s catalog as a ``.mo``, without fuzzy entries. Parsing a ``.po`` is slow
    (0.7 s of CPU for every locale at each start: every bot process, ``copy-db``, each test
    worker), so the result is kept beside it in ``__pycache__``, as Python keeps compiled
    modules: named by a digest of the source and of babel's version, so an edited catalog or
    another babel is compiled afresh; a folder that can't be written only costs the time."""
    source = path.read_bytes()
    digest = hashlib.blake2b(source + babel.__version__.encode(), digest_size=10).hexdigest()
    cached = path.parent / "__pycache__" / f"{path.stem}.{digest}.mo"
    with contextlib.suppress(OSError):
        return cached.read_bytes()
    buffer = io.BytesIO()
    write_mo(buffer, read_po(io.BytesIO(source), locale=locale), use_fuzzy=False)
    with contextlib.suppress(OSError):
        cached.parent.mkdir(exist_ok=True)
        for stale in set(cached.parent.glob(f"{path.stem}.*.mo")) - {cached}:
            stale.unlink(missing_ok=True)
        # written whole, then renamed: a process starting beside this one reads all or nothing
        handle, partial = tempfile.mkstemp(dir=cached.parent, suffix=".part")
        with os.fdopen(handle, "wb") as out:
            out.write(buffer.getvalue())
        os.chmod(partial, 0o644)  # as readable as the catalog itself, for any user
        os.replace(partial, cached)
    return buffer.getvalue()


@cache
def translations(locale: str | None) -> NullTranslations:
    """Every area's catalog of ``locale`` merged (English: none). Read once per process;
    fuzzy (unchecked) entries are left out, so they read in English."""
    merged: NullTranslations = NullTranslations()
    if locale is None:
        return merged
    for path in area_files(locale):
        area = Translations(io.BytesIO(compiled(path, locale)), domain=path.stem)
        if isinstance(merged, Translations):
            merged.merge(area)
        else:
            merged = area
    return merged


@cache
def command_words(locale: str) -> NullTranslations:
    """``locale``'s ``commands`` catalog alone. The commands' names, descriptions and
    choices are looked up here: syncing the commands at start-up asks for each of them in
    every locale, which read every area's catalog of every locale (0.13 s of CPU a start)
    before the first player needed a word."""
    path = LOCALES_DIR / locale / f"{COMMANDS_AREA}.po"
    if not path.exists():
        return NullTranslations()
    return Translations(io.BytesIO(compiled(path, locale)), domain=COMMANDS_AREA)


def lookup(locale: str, context: str | None, message: str) -> str | None:
    """The translation of ``message`` (in ``context``) in ``locale``'s catalogs, or None
    when they have none (so a caller can tell a missing entry from an equal one)."""
    table = command_words(locale) if context in COMMAND_CONTEXTS else translations(locale)
    key = message if context is None else f"{context}\x04{message}"
    found = getattr(table, "_catalog", {}).get(key)
    return found if isinstance(found, str) and found else None


def current_locale() -> str | None:
    """The catalog locale in use here (None: English)."""
    return _CURRENT.get()


def use_locale(locale: str | None) -> None:
    """Speak ``locale`` (a catalog locale, or None) for the rest of this task."""
    _CURRENT.set(locale)


@contextlib.contextmanager
def speaking(locale: str | None) -> Iterator[None]:
    """Speak ``locale`` inside the block (a public board in its server's language)."""
    token = _CURRENT.set(locale)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def _format(text: str, values: dict[str, Any]) -> str:
    return text.format(**values) if values else text


def _shown(text: str) -> str:
    """A translation with the commands it quotes under the reader's names
    (:mod:`i18n.commands`)."""
    from .commands import localize_commands  # it reads this module's lookup()
    return localize_commands(_CURRENT.get(), text)


def command(quoted: str) -> str:
    """A command the code builds (``/guess 1123``), under the names the current reader's
    client shows: for a command put into a text as a value, not written in the catalog."""
    return _shown(quoted)


def tr(message: str, /, **values: Any) -> str:
    """``message`` in the current locale, its ``{placeholders}`` filled from ``values``."""
    return _format(_shown(translations(_CURRENT.get()).gettext(message)), values)


def trn(singular: str, plural: str, count: int, /, **values: Any) -> str:
    """The plural form the current locale uses for ``count`` (Polish and Russian have three);
    ``{count}`` is filled in, with ``values``."""
    text = _shown(translations(_CURRENT.get()).ngettext(singular, plural, count))
    return text.format(count=count, **values)


def trc(context: str, message: str, /, **values: Any) -> str:
    """``message`` as said in ``context`` (the same English word may need two translations)."""
    return _format(_shown(str(translations(_CURRENT.get()).pgettext(context, message))), values)


def mark(message: str) -> str:
    """Marks a constant for the catalogs without translating it yet: translate it where it
    is shown, with ``tr(CONSTANT)``."""
    return message
