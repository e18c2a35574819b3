"""Slash commands quoted in a text, shown under the names the reader's client shows.

Every catalog quotes a command as the code does, by its English names (``/guess 1123``,
``/mastermind quit game:private``, ``setter:me``); Discord shows each user the commands
under their locale's names, from the ``commands`` catalogs. :func:`localize_commands`
rewrites each quoted command, its subcommands, its options and the choice it names into the
locale's names from the same catalogs, so a text and the command list always agree, and a
renamed command needs no other text changed. Code examples (``1123``) stay as written.

The commands' shape (which subcommands and options each has, and each choice's English
name) is ``templates/commands.json``, written with ``commands.pot`` from the payload the bot
syncs (``tests/i18n_commands.py``).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from . import catalogs  # at call time: the catalogs ask this module to quote commands

TREE_FILE = Path(__file__).resolve().parent / "templates" / "commands.json"

#: A command quoted in a text: a slash not inside a word or an address, then a name.
_COMMAND = re.compile(r"(?<![\w/:.])/(?P<name>[a-z][a-z0-9_-]*)")
#: What may follow a command: its subcommand, or an option given a value (``game:private``).
_WORD = re.compile(r" (?P<name>[a-z][a-z0-9_-]*)(?=$|[\s`),.;!?，。、）」])")
_OPTION = re.compile(r" (?P<name>[a-z][a-z0-9_]*):(?P<value>[A-Za-z0-9_-]+)")
#: An option quoted alone in backticks (`` `setter:me` ``, `` `opponent` ``).
_ALONE = re.compile(r"`(?P<name>[a-z][a-z0-9_]*)(?::(?P<value>[A-Za-z0-9_-]+))?`")

Node = dict[str, Any]


def tree_of(commands: list[dict[str, Any]]) -> Node:
    """The shape of the synced commands payload: ``{"commands": {name: node}}`` where a
    node holds its ``commands`` (subcommands), ``options`` and an option's ``choices``
    (value: English name)."""

    def node(item: dict[str, Any]) -> Node:
        found: Node = {}
        for option in item.get("options") or []:
            if option.get("type") in (1, 2):
                found.setdefault("commands", {})[option["name"]] = node(option)
            else:
                choices = {str(c["value"]): c["name"] for c in option.get("choices") or []}
                found.setdefault("options", {})[option["name"]] = (
                    {"choices": choices} if choices else {})
        return found

    return {"commands": {c["name"]: node(c) for c in commands if c.get("type", 1) == 1}}


@cache
def command_tree() -> Node:
    if not TREE_FILE.exists():
        return {"commands": {}}
    tree: Node = json.loads(TREE_FILE.read_text(encoding="utf-8"))
    return tree


def _named(locale: str, context: str, english: str) -> str:
    return catalogs.lookup(locale, context, english) or english


def _option(locale: str, option: Node | None, name: str, value: str | None) -> str:
    shown = _named(locale, catalogs.OPTION_CONTEXTS["name"], name)
    if value is None:
        return shown
    choice = ((option or {}).get("choices") or {}).get(value)
    return f"{shown}:{_named(locale, catalogs.CHOICE_CONTEXT, choice) if choice else value}"


def _command(locale: str, text: str, start: int, name: str, node: Node) -> tuple[str, int]:
    """One quoted command from ``start`` (after its top-level name): its subcommands and
    options under the locale's names, and where the quote ends."""
    parts = ["/" + _named(locale, catalogs.FIELD_CONTEXTS["name"], name)]
    at = start
    while (word := _WORD.match(text, at)) and word["name"] in node.get("commands", {}):
        node = node["commands"][word["name"]]
        parts.append(_named(locale, catalogs.FIELD_CONTEXTS["name"], word["name"]))
        at = word.end()
    while (given := _OPTION.match(text, at)) and given["name"] in node.get("options", {}):
        option = node["options"][given["name"]]
        parts.append(_option(locale, option, given["name"], given["value"]))
        at = given.end()
    return " ".join(parts), at


def _all_options() -> dict[str, Node]:
    """Every option of every command by name (an option quoted alone names no command)."""
    found: dict[str, Node] = {}

    def walk(node: Node) -> None:
        for name, option in node.get("options", {}).items():
            found.setdefault(name, {}).setdefault("choices", {}).update(
                option.get("choices") or {})
        for sub in node.get("commands", {}).values():
            walk(sub)

    for command in command_tree()["commands"].values():
        walk(command)
    return found


def _subcommand_names() -> set[str]:
    names: set[str] = set()

    def walk(node: Node) -> None:
        for name, sub in node.get("commands", {}).items():
            names.add(name)
            walk(sub)

    for command in command_tree()["commands"].values():
        walk(command)
    return names


@cache
def localize_commands(locale: str | None, text: str) -> str:
    """``text`` with every command it quotes under ``locale``'s names (English: as is)."""
    if locale is None or ("/" not in text and "`" not in text):
        return text
    commands = command_tree()["commands"]
    out: list[str] = []
    at = 0
    for found in _COMMAND.finditer(text):
        if found.start() < at or found["name"] not in commands:
            continue
        out.append(text[at:found.start()])
        shown, at = _command(locale, text, found.end(), found["name"],
                             commands[found["name"]])
        out.append(shown)
    out.append(text[at:])
    return _ALONE.sub(lambda m: _alone(locale, m), "".join(out))


def _alone(locale: str, quoted: re.Match[str]) -> str:
    """`` `opponent` `` or `` `setter:me` ``: an option (or a subcommand, `` `share` ``)
    quoted alone, under the locale's name; anything else in backticks stays."""
    name, value = quoted["name"], quoted["value"]
    options = _all_options()
    if name in options:
        return f"`{_option(locale, options[name], name, value)}`"
    if value is None and name in _subcommand_names():
        return f"`{_named(locale, catalogs.FIELD_CONTEXTS['name'], name)}`"
    return quoted[0]
