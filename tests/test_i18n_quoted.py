"""What a text quotes exists under that name for its reader: every command, subcommand,
option and choice a rendered text names is one the fake Discord synced under that name in
the text's locale (``name_localizations``), and every button a text names in bold is the
button's own label in the same locale. Every area's catalog is read, so a new area is
checked as soon as it has a template."""

from __future__ import annotations

import ast
import asyncio
import functools
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po
from i18n_commands import synced_commands

from i18n import SHIPPED, speaking, tr, trc, trn
from i18n.catalogs import LOCALES_DIR
from i18n.commands import TREE_FILE, localize_commands, tree_of
from i18n.extract import COMMANDS, ROOT, TEMPLATES_DIR

DISCORD_LOCALES = {"de": "de", "fr": "fr", "es_ES": "es-ES", "pt_BR": "pt-BR", "pl": "pl",
                   "ru": "ru", "tr": "tr", "ja": "ja", "zh_CN": "zh-CN", "ko": "ko"}
#: A slash that starts a command: not inside a word, a path or an address.
SLASH = re.compile(r"(?<![\w/:.<])/(?P<name>[^\s`/)（）,，、。]+)")


@pytest.fixture(scope="module")
def synced(tmp_path_factory) -> list[dict[str, Any]]:
    """The global commands a freshly started bot syncs to the fake Discord."""
    return asyncio.run(synced_commands(tmp_path_factory.mktemp("sync") / "bot.sqlite3"))


def shown(node: dict[str, Any], locale: str) -> str:
    return (node.get("name_localizations") or {}).get(locale, node["name"])


def children(node: dict[str, Any]) -> list[dict[str, Any]]:
    return node.get("options") or []


def quoted_commands(text: str, commands: list[dict[str, Any]], locale: str) -> list[str]:
    """What is wrong with each command ``text`` quotes, read as the reader's client shows
    the commands: a name it doesn't know, an option the command lacks, a choice it lacks."""
    faults = []
    for found in SLASH.finditer(text):
        by_name = {shown(c, locale): c for c in commands if c.get("type", 1) == 1}
        node = by_name.get(found["name"])
        if node is None:
            faults.append(f"/{found['name']}: no such command")
            continue
        rest = text[found.end():]
        while (word := re.match(r" (\S+?)(?=$|[\s`),.;!?，。、）」])", rest)) and (
                sub := {shown(o, locale): o for o in children(node)
                        if o.get("type") in (1, 2)}.get(word[1])):
            node, rest = sub, rest[word.end():]
        while given := re.match(r" ([^\s:`]+):", rest):
            options = {shown(o, locale): o for o in children(node) if o.get("type") not in (1, 2)}
            option = options.get(given[1])
            if option is None:
                faults.append(f"/{found['name']} …{given[1]}: no such option")
                break
            rest = rest[given.end():]
            choices = [shown(c, locale) for c in option.get("choices") or []]
            picked = next((c for c in choices if rest.startswith(c)), None)
            if choices and picked is None:
                faults.append(f"{given[1]}:{rest[:20]}: no such choice")
                break
            rest = rest[len(picked):] if picked else re.sub(r"^\S+?(?=$|[\s`)])", "", rest)
    return faults


def english_names(commands: list[dict[str, Any]]) -> set[str]:
    names: set[str] = set()

    def walk(node):
        names.add(node["name"])
        for option in children(node):
            walk(option)

    for command in commands:
        walk(command)
    return names


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@functools.cache
def template_messages() -> tuple[Message, ...]:
    """Every message of every area's template but the commands', parsed once a test process
    (each locale's tests render them all)."""
    found: list[Message] = []
    for template in sorted(TEMPLATES_DIR.glob("*.pot")):
        if template.stem != COMMANDS:
            with template.open("rb") as handle:
                found += [message for message in read_po(handle) if message.id]
    return tuple(found)


def rendered(locale: str) -> list[tuple[str, str]]:
    """Every string of every area's template as the locale's reader sees it (placeholders
    filled with 7): (the English source, the text)."""
    texts = []
    with speaking(locale):
        for message in template_messages():
            if isinstance(message.id, tuple):
                singular, plural = message.id
                values = dict.fromkeys((fields(singular) | fields(plural)) - {"count"}, 7)
                for count in (1, 2, 5):
                    texts.append((singular, trn(singular, plural, count, **values)))
            elif message.context:
                values = dict.fromkeys(fields(message.id), 7)
                texts.append((message.id, trc(message.context, message.id, **values)))
            else:
                values = dict.fromkeys(fields(message.id), 7)
                texts.append((message.id, tr(message.id, **values)))
    return texts


def test_the_command_tree_is_the_synced_commands_shape(synced):
    """``i18n/templates/commands.json`` follows the code, as ``commands.pot`` does."""
    assert TREE_FILE.exists()
    assert json.loads(TREE_FILE.read_text(encoding="utf-8")) == tree_of(synced), (
        "run `.venv/bin/python tests/i18n_commands.py`")


@pytest.mark.parametrize("locale", SHIPPED)
def test_every_quoted_command_exists_under_that_name_in_the_readers_locale(synced, locale):
    discord_locale = DISCORD_LOCALES[locale]
    faults = []
    for source, text in rendered(locale):
        for fault in quoted_commands(text, synced, discord_locale):
            faults.append(f"{fault} in {text[:90]!r} ({source[:40]!r})")
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("locale", SHIPPED)
def test_no_english_option_or_subcommand_name_is_quoted_in_a_translation(synced, locale):
    """`` `opponent` `` or `` `setter:me` `` quoted alone: under the locale's name too."""
    english = english_names(synced)
    discord_locale = DISCORD_LOCALES[locale]
    localized: set[str] = set()

    def walk(node):
        localized.add(shown(node, discord_locale))
        for option in children(node):
            walk(option)

    for command in synced:
        walk(command)
    faults = []
    for _source, text in rendered(locale):
        for quoted in re.findall(r"`([^`\s/{}]+)`", text):
            name = quoted.split(":")[0]
            if name in english and name not in localized:
                faults.append(f"`{quoted}` in {text[:90]!r}")
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("locale", SHIPPED)
def test_command_descriptions_and_choices_quote_commands_as_synced(synced, locale):
    """A description or a choice naming another command (``/mastermind new setter:me``)
    names it as the reader's client shows it."""
    discord_locale = DISCORD_LOCALES[locale]
    faults = []

    def walk(node):
        for field in ("description_localizations", "name_localizations"):
            text = (node.get(field) or {}).get(discord_locale, "")
            if field == "name_localizations" and "value" not in node:
                continue
            faults.extend(f"{fault} in {text!r}"
                          for fault in quoted_commands(text, synced, discord_locale))
        for child in children(node) + (node.get("choices") or []):
            walk(child)

    for command in synced:
        walk(command)
    assert not faults, "\n".join(faults)


def test_a_quoted_command_is_shown_under_the_readers_names():
    """The rewrite itself, on German: subcommand, option, a choice by its value, an option
    alone; a code example, an address and an unknown word stay."""
    text = ("Start one with `/mastermind new private:True`; `/mastermind quit game:private`; "
            "`setter:me`; `opponent`; `/guess 1123`; https://example.com/guess; `RROY`")
    assert localize_commands("de", text) == (
        "Start one with `/mastermind neu privat:True`; "
        "`/mastermind aufgeben spiel:mein privates Spiel`; "
        "`codegeber:ich (ich lege den Code fest)`; `gegner`; `/raten 1123`; "
        "https://example.com/guess; `RROY`")
    assert localize_commands(None, text) == text


# --- buttons --------------------------------------------------------------------------


@functools.cache
def button_labels() -> frozenset[str]:
    """Every button label the bot's code asks for: ``label=tr("…")`` and a picker purpose's
    submit ``verb = mark("…")``. (Read once a session: parsing the code base for each
    locale cost 1 s a locale.)"""
    labels: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(Path(path).read_text(), str(path))):
            labelled = isinstance(node, ast.keyword) and node.arg == "label"
            verb = isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "verb" for t in node.targets)
            if not (labelled or verb):
                continue
            call = node.value  # type: ignore[union-attr]
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                    and call.func.id in {"tr", "mark"} and call.args
                    and isinstance(call.args[0], ast.Constant)):
                labels.add(call.args[0].value)
    return frozenset(labels)


def test_the_buttons_are_found():
    labels = button_labels()
    assert {"Reveal my code", "Take back", "Guess"} <= labels, labels


@pytest.mark.parametrize("locale", SHIPPED)
def test_a_button_a_text_names_is_named_as_the_button_says(locale):
    """A text naming a button in bold (``**Reveal my code**``) names it with the button's
    own label in the same language, so a player finds it."""
    labels = button_labels()
    faults = []
    catalog = {}
    for path in sorted((LOCALES_DIR / locale).glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale=locale):
                if message.id and isinstance(message.id, str) and not message.context:
                    catalog[message.id] = message.string
    for source, text in catalog.items():
        for named in re.findall(r"\*\*([^*]+)\*\*", source):
            if named not in labels or named == source:
                continue
            label = catalog.get(named) or named
            if f"**{label}**" not in text:
                faults.append(f"{locale}: {source[:50]!r} names **{named}**, the button says "
                              f"{label!r}: {text[:120]!r}")
    assert not faults, "\n".join(faults)


# --- commands the code builds ---------------------------------------------------------

#: Calls a command quote may be built inside: the catalogs' own (their text is rewritten),
#: ``command`` (the reader's names), and ``read_code`` (its example travels in ``BadCode``,
#: whose words pass it through ``command``).
QUOTING_CALLS = {"tr", "trn", "trc", "mark", "command", "quoted_command", "read_code"}


def test_every_command_the_code_builds_is_shown_under_the_readers_names():
    """A command quoted in a string the code builds (a footer's ``/guess 1123``, a field
    named ``/match``) is passed through ``i18n.command``, like the catalogs' text."""
    names = "|".join(map(re.escape, json.loads(TREE_FILE.read_text())["commands"]))
    quoted = re.compile(rf"^`?/({names})\b")
    faults = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        parents = {child: node for node in ast.walk(tree)
                   for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr) and node.values and isinstance(
                    node.values[0], ast.Constant):
                text = node.values[0].value
            elif isinstance(node, ast.Constant) and not isinstance(parents.get(node),
                                                                    ast.JoinedStr):
                text = node.value
            else:
                continue
            if not isinstance(text, str) or not quoted.match(text):
                continue
            parent = parents.get(node)
            while isinstance(parent, ast.BinOp | ast.keyword):
                parent = parents.get(parent)
            if isinstance(parent, ast.Expr):  # a docstring
                continue
            called = (parent.func.id if isinstance(parent, ast.Call)
                      and isinstance(parent.func, ast.Name) else None)
            if called not in QUOTING_CALLS:
                faults.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:40]!r}")
    assert not faults, "\n".join(faults)
