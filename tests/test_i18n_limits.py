"""Discord's limits and the source's formatting, checked on every translation of every
shipped locale: no text longer than the longest Discord shows (4,000 characters of a V2
text), each command name, description and choice within its own limit (names under
Discord's naming rule and unique among their siblings), the same ``**`` and backticks as
the English, one translation for a string two areas share, and every string the code asks
for present in the catalogs at all."""

from __future__ import annotations

import ast
import functools
import unicodedata
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from i18n import SHIPPED
from i18n.catalogs import CHOICE_CONTEXT, FIELD_CONTEXTS, LOCALES_DIR, OPTION_CONTEXTS
from i18n.extract import AREAS, COMMANDS, ROOT, code_template

#: The longest text Discord shows in one place (a V2 text display; an embed description
#: takes 4,096 and a select option 100, but the catalogs don't know the widget).
LONGEST = 4000
NAME_CONTEXTS = {FIELD_CONTEXTS["name"], OPTION_CONTEXTS["name"]}
DESCRIPTION_CONTEXTS = {FIELD_CONTEXTS["description"], OPTION_CONTEXTS["description"]}
#: Discord's name for each shipped catalog.
DISCORD_LOCALES = {"de": "de", "fr": "fr", "es_ES": "es-ES", "pt_BR": "pt-BR", "pl": "pl",
                   "ru": "ru", "tr": "tr", "ja": "ja", "zh_CN": "zh-CN", "ko": "ko"}


@functools.cache
def catalogs(locale: str) -> tuple[tuple[str, tuple[Message, ...]], ...]:
    """Each area's catalog of ``locale`` (its name, its messages), parsed once a test process:
    three tests read every one."""
    found = []
    for path in sorted((LOCALES_DIR / locale).glob("*.po")):
        with path.open("rb") as handle:
            found.append((path.stem, tuple(read_po(handle, locale=locale))))
    return tuple(found)


def translations(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def sources(message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple) else [message.id]


def is_command_name(name: str) -> bool:
    r"""Discord's rule for a slash command or option name in any locale:
    ``^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, lowercase where the script has case."""
    return 1 <= len(name) <= 32 and name == name.lower() and all(
        ch in "-_" or unicodedata.category(ch)[0] in "LN"
        or "\u0900" <= ch <= "\u097f" or "\u0e00" <= ch <= "\u0e7f" for ch in name)


def test_discords_naming_rule_as_written_here():
    assert is_command_name("max_guesses") and is_command_name("größe")
    assert is_command_name("最大予想回数") and is_command_name("채널_허용")
    assert not is_command_name("Guess") and not is_command_name("two words")
    assert not is_command_name("x" * 33) and not is_command_name("")
    assert not is_command_name("tip!")


@pytest.mark.parametrize("locale", SHIPPED)
def test_no_translation_is_longer_than_discord_shows(locale):
    for area, catalog in catalogs(locale):
        for message in catalog:
            for text in translations(message) if message.id else []:
                assert len(text) <= LONGEST, (locale, area, message.id)


@pytest.mark.parametrize("locale", SHIPPED)
def test_every_command_entry_meets_its_own_limit(locale):
    path = LOCALES_DIR / locale / f"{COMMANDS}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=locale)
    checked = 0
    for message in catalog:
        if not message.id or not message.string:
            continue
        text, where = message.string, (locale, message.context, message.id)
        if message.context in NAME_CONTEXTS:
            assert is_command_name(text), where
        elif message.context in DESCRIPTION_CONTEXTS | {CHOICE_CONTEXT}:
            assert 1 <= len(text) <= 100, where
        else:
            pytest.fail(f"an entry of no known kind: {where}")
        checked += 1
    assert checked, f"{locale} has no command translations"


def _markdown(text: str) -> tuple[int, int]:
    return text.count("**"), text.count("`")


@pytest.mark.parametrize("locale", SHIPPED)
def test_every_translation_keeps_the_sources_bold_and_code_marks(locale):
    """A cheap guard against broken formatting: as many ``**`` and backticks as the
    English (a plural form may follow either English form)."""
    for area, catalog in catalogs(locale):
        for message in catalog:
            if not message.id:
                continue
            allowed = {_markdown(source) for source in sources(message)}
            for text in translations(message):
                assert not text or _markdown(text) in allowed, (locale, area, message.id, text)


@pytest.mark.parametrize("locale", SHIPPED)
def test_a_string_two_areas_share_reads_the_same_in_both(locale):
    """A locale's areas are merged into one table when read, so the same English (and
    context) in two areas gets one translation, the last area's: two different ones would
    silently change the other area's words. Give one of them a context (``trc``)."""
    seen: dict[tuple[str | None, str], tuple[str, object]] = {}
    for area, catalog in catalogs(locale):
        for message in catalog:
            if not message.id or not any(translations(message)):
                continue
            key = (message.context, sources(message)[0])
            if key in seen:
                other, string = seen[key]
                assert string == message.string, (locale, key, other, area)
            seen[key] = (area, message.string)


async def test_localized_names_are_unique_among_their_siblings(fake_discord, start_bot):
    """Discord refuses two commands, or two options of one command, with the same name;
    a translation must keep them apart in every locale (the English names already are)."""
    await start_bot()

    def names(nodes, locale):
        return [(node.get("name_localizations") or {}).get(locale, node["name"])
                for node in nodes]

    def check(nodes, locale, where):
        seen = names(nodes, locale)
        assert len(seen) == len(set(seen)), (locale, where, seen)
        for node in nodes:
            check(node.get("options") or [], locale, (*where, node["name"]))

    by_type: dict[int, list] = {}
    for command in fake_discord.commands:
        by_type.setdefault(command.get("type", 1), []).append(command)
    for locale in DISCORD_LOCALES.values():
        for commands in by_type.values():
            check(commands, locale, ())


def _asked_for(area: str) -> set[tuple[str | None, str]]:
    """Every literal ``tr``/``trn``/``trc``/``mark`` of an area, read from its syntax tree."""
    found: set[tuple[str | None, str]] = set()
    for rel in AREAS[area]:
        path = ROOT / rel
        files = [path] if path.is_file() else sorted(path.rglob("*.py")) if path.exists() else []
        for file in files:
            for node in ast.walk(ast.parse(Path(file).read_text(), str(file))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in {"tr", "trn", "trc", "mark"}):
                    continue
                args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
                if node.func.id == "trc" and len(args) > 1 and None not in args[:2]:
                    found.add((args[0], args[1]))
                elif node.func.id != "trc" and args and isinstance(args[0], str):
                    found.add((None, args[0]))
    return found


@pytest.mark.parametrize("area", sorted(AREAS))
def test_every_string_the_code_asks_for_reaches_the_catalogs(area):
    """Babel's extractor skips a ``tr`` inside an f-string or inside another ``tr``'s
    arguments; such a string would stay English in every language."""
    extracted = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                 for m in code_template(area) if m.id}
    missed = _asked_for(area) - extracted
    assert not missed, f"{area}: asked for but never extracted (take the tr() out): {missed}"
