"""One word per game concept in every locale (``i18n/glossary/<locale>.toml``): no catalog
text names a concept with a word the locale's glossary avoids, and a text whose English names
a paired concept (``i18n/glossary/en.toml``) names it with the locale's own word. Every
area's catalog is read, the commands' too, as the reader sees them (quoted commands under the
locale's names), so a new area is checked as soon as it has a template."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from i18n import SHIPPED
from i18n.catalogs import LOCALES_DIR
from i18n.commands import localize_commands

GLOSSARY_DIR = Path(__file__).resolve().parent.parent / "i18n" / "glossary"
#: Scripts written without spaces between words: a word is found anywhere in the text.
UNSPACED = {"ja", "zh_CN", "ko"}
#: A placeholder or a terminal flag (``{board}``, ``--rounds``): filled in or typed, not read.
PLACEHOLDER = re.compile(r"\{[^}]*\}|--[a-z-]+")
#: A command, option or placeholder in English source (``/challenge``, ``--rounds``,
#: ``{pegs}``): a name, not the concept.
QUOTED_COMMAND = re.compile(
    r"`[^`]*`|\{[^}]*\}|--[a-z-]+|(?<![\w/])/[a-z][\w-]*( [a-z][\w-]*)*")


@cache
def glossary(locale: str) -> dict[str, Any]:
    return tomllib.loads((GLOSSARY_DIR / f"{locale}.toml").read_text(encoding="utf-8"))


def pattern(words: list[str], locale: str) -> re.Pattern[str]:
    start = "" if locale in UNSPACED else r"(?<!\w)"
    return re.compile("|".join(f"{start}(?:{word})" for word in words), re.IGNORECASE)


@cache
def entries(locale: str) -> list[tuple[str, str, str]]:
    """(area, English, text as shown) for every translation of every area's catalog, its
    placeholders and flags left out."""
    found = []
    for path in sorted((LOCALES_DIR / locale).glob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=locale)
        for message in catalog:
            if not message.id:
                continue
            source = message.id if isinstance(message.id, str) else message.id[0]
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in texts:
                if text:
                    shown = localize_commands(locale, text)
                    found.append((path.stem, source, PLACEHOLDER.sub(" ", shown)))
    return found


def test_every_locale_has_a_glossary_of_every_concept():
    concepts = set(glossary("en"))
    for locale in SHIPPED:
        defined = glossary(locale)
        assert set(defined) == concepts, (locale, concepts ^ set(defined))
        for concept, entry in defined.items():
            assert entry.get("word") and entry.get("forms"), (locale, concept)
            assert pattern(entry["forms"], locale).search(entry["word"]), (
                f"{locale} {concept}: the word {entry['word']!r} is not one of its forms")
            for avoided in entry.get("avoid", []):
                assert not pattern([avoided], locale).fullmatch(entry["word"]), (locale, concept)


@pytest.mark.parametrize("locale", SHIPPED)
def test_no_catalog_names_a_concept_with_an_avoided_word(locale):
    faults = []
    for concept, entry in glossary(locale).items():
        if not entry.get("avoid"):
            continue
        avoided = pattern(entry["avoid"], locale)
        exempt = set(entry.get("exempt", []))
        for area, source, text in entries(locale):
            if source not in exempt and (found := avoided.search(text)):
                faults.append(f"{concept}: {found[0]!r} for {entry['word']!r} in {area}: "
                              f"{text[:100]!r}")
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("locale", SHIPPED)
def test_a_text_naming_a_concept_uses_the_locales_word(locale):
    faults = []
    for concept, english in glossary("en").items():
        if not english.get("paired"):
            continue
        entry = glossary(locale)[concept]
        named = pattern(english["words"], "en")
        besides = pattern(english.get("besides", ["$^"]), "en")
        ours = pattern(entry["forms"], locale)
        exempt = set(entry.get("exempt", []))
        for area, source, text in entries(locale):
            english_text = QUOTED_COMMAND.sub(" ", source)
            if source in exempt or besides.search(english_text) or not named.search(
                    english_text):
                continue
            if not ours.search(text):
                faults.append(f"{concept} ({entry['word']!r}) in {area}: {source[:60]!r} -> "
                              f"{text[:100]!r}")
    assert not faults, "\n".join(faults)


def test_the_glossaries_catch_what_they_should():
    """The checks themselves, on German: an avoided word is found inside a sentence, a
    paired concept's own word passes in any of its forms."""
    de = glossary("de")
    assert pattern(de["challenge"]["avoid"], "de").search("Die Challenge ist vorbei")
    assert pattern(de["hint"]["forms"], "de").search("Zwei Tipps übrig")
    assert not pattern(de["hint"]["forms"], "de").search("Zwei Hinweise übrig")
    en = glossary("en")["daily_code"]
    assert pattern(en["besides"], "en").search("Daily streak") and pattern(
        en["words"], "en").search("Finish the daily first")
