"""Which catalog a Discord locale or a terminal's ``LANG`` reads.

The catalogs are gettext ``.po`` files named by Babel's locale identifiers (``pt_BR``);
Discord names its locales with a dash (``pt-BR``) and a terminal with a POSIX string
(``pt_BR.UTF-8``). A locale we don't ship falls back to another variant of its language only
where that reads naturally (``es-419`` reads ``es_ES``; ``zh-TW`` does not read simplified
Chinese), else to English, the source language.
"""

from __future__ import annotations

from collections.abc import Mapping

#: English: the words in the code are the catalogs' source.
SOURCE = "en"
#: The locales with a catalog, as Babel names them.
SHIPPED: tuple[str, ...] = ("de", "fr", "es_ES", "pt_BR", "pl", "ru", "tr", "ja", "zh_CN", "ko")
#: A language's shipped variant, for variants we don't ship.
_BY_LANGUAGE = {"de": "de", "fr": "fr", "es": "es_ES", "pt": "pt_BR", "pl": "pl", "ru": "ru",
                "tr": "tr", "ja": "ja", "ko": "ko"}
#: Chinese variants that read simplified characters.
_SIMPLIFIED = {"zh", "zh_CN", "zh_SG", "zh_Hans"}


def catalog_locale(code: str | None) -> str | None:
    """The shipped catalog for a Discord or POSIX locale, or None for English."""
    if not code:
        return None
    name = code.split(".")[0].split("@")[0].replace("-", "_")
    if name in SHIPPED:
        return name
    if name in _SIMPLIFIED:
        return "zh_CN"
    return _BY_LANGUAGE.get(name.split("_")[0].lower())


def from_environment(env: Mapping[str, str]) -> str | None:
    """The catalog a terminal asks for, read as gettext does: ``LANGUAGE`` (a list, first
    shipped one wins), then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``. ``C``/``POSIX``: English."""
    for part in (env.get("LANGUAGE") or "").split(":"):
        if part and (found := catalog_locale(part)):
            return found
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            return None if value.split(".")[0] in ("C", "POSIX") else catalog_locale(value)
    return None
