"""Refresh the catalogs from the code: ``python -m i18n.extract [--commands payload.json]``.

Each area's strings (every ``tr``/``trn``/``trc``/``mark`` call) become
``i18n/templates/<area>.pot``; every locale's ``<area>.po`` is then updated from it (new
strings arrive empty, for a translator, unless another area of the locale has them: code
moved between areas keeps its translations; strings gone from the code are dropped). The command
names and descriptions come from the payload the bot syncs (``--commands``: written by
``tests/i18n_commands.py``), one ``msgctxt`` per kind of field; their shape goes to
``templates/commands.json``, for :mod:`i18n.commands` to show a quoted command under the
reader's names.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

from .catalogs import CHOICE_CONTEXT, FIELD_CONTEXTS, LOCALES_DIR, OPTION_CONTEXTS
from .commands import TREE_FILE, tree_of
from .locales import SHIPPED

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
KEYWORDS: dict[str, Any] = {"tr": None, "trn": (1, 2), "trc": ((1, "c"), 2), "mark": None}
#: Where each area's strings are (paths from the repository's root).
AREAS: dict[str, tuple[str, ...]] = {
    "core": ("bot/app.py", "bot/__main__.py", "bot/copy_db.py", "bot/core", "bot/services",
             "bot/ui", "bot/store"),
    "engine": ("engine",),
    "cli": ("cli",),
    **{p.name: (f"bot/features/{p.name}",)
       for p in sorted((ROOT / "bot" / "features").iterdir())
       if p.is_dir() and not p.name.startswith("_")},
}
COMMANDS = "commands"


def _messages(paths: Iterable[str]) -> Iterator[tuple[str, int, Any, list[str], Any]]:
    method = [("**.py", "python")]
    for rel in paths:
        path = ROOT / rel
        if path.is_dir():
            for filename, lineno, message, comments, context in extract_from_dir(
                    path, method, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
                yield f"{rel}/{filename}", lineno, message, comments, context
        elif path.exists():
            for lineno, message, comments, context in extract_from_file(
                    "python", path, KEYWORDS, comment_tags=("TRANSLATORS:",)):
                yield rel, lineno, message, comments, context


def code_template(area: str) -> Catalog:
    """Every string the area's code asks for."""
    catalog = Catalog(project="mastermind-bot", domain=area, fuzzy=False)
    for filename, lineno, message, comments, context in _messages(AREAS[area]):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def _command_strings(node: dict[str, Any], contexts: dict[str, str]
                     ) -> Iterator[tuple[str, str]]:
    for field, context in contexts.items():
        if node.get(field):
            yield context, node[field]
    for option in node.get("options") or []:
        is_sub = option.get("type") in (1, 2)
        yield from _command_strings(option, FIELD_CONTEXTS if is_sub else OPTION_CONTEXTS)
        for choice in option.get("choices") or []:
            yield CHOICE_CONTEXT, choice["name"]


def commands_template(commands: list[dict[str, Any]]) -> Catalog:
    """Every name and description of the synced slash commands, by kind of field."""
    catalog = Catalog(project="mastermind-bot", domain=COMMANDS, fuzzy=False)
    for command in commands:
        for context, text in _command_strings(command, FIELD_CONTEXTS):
            catalog.add(text, None, [(f"/{command['name']}", 0)], context=context)
    return catalog


#: The date every catalog's header gives: a fixed one, so refreshing the catalogs changes
#: only the entries that changed (a header of "now" would touch every file every time).
HEADER_DATE = datetime.datetime(2026, 11, 26, tzinfo=datetime.UTC)


def write_catalog(catalog: Catalog, path: Path) -> None:
    catalog.creation_date = catalog.revision_date = HEADER_DATE
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=True,
                 include_lineno=False)


#: A locale's translations by (context, English): what every area's catalog holds.
Known = dict[str, dict[tuple[str | None, str], Any]]


def known_translations() -> Known:
    """Every locale's translations in all its areas, read before any catalog is rewritten:
    a string that moves to another area (its code moved to another feature) keeps its
    translation there."""
    known: Known = {}
    for locale in SHIPPED:
        found = known.setdefault(locale, {})
        for path in sorted((LOCALES_DIR / locale).glob("*.po")):
            with path.open("rb") as handle:
                for message in read_po(handle, locale=locale):
                    if message.id and message.string and not message.fuzzy:
                        key = message.id if isinstance(message.id, str) else message.id[0]
                        found.setdefault((message.context, key), message.string)
    return known


def _carry(catalog: Catalog, known: dict[tuple[str | None, str], Any]) -> None:
    """Fill the strings this area lacks from the same locale's other areas."""
    for message in catalog:
        if not message.id or message.fuzzy or _translated(message.string):
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        found = known.get((message.context, key))
        if found is not None and isinstance(found, str) == isinstance(message.id, str):
            message.string = found


def _translated(string: Any) -> bool:
    if not string:
        return False
    return isinstance(string, str) or all(string)


def update_locales(area: str, template: Catalog, known: Known | None = None) -> None:
    for locale in SHIPPED:
        # Babel adds the template's own new entries to the catalog: each locale gets a copy,
        # so what is carried into one locale stays out of the next.
        fresh = copy.deepcopy(template)
        path = LOCALES_DIR / locale / f"{area}.po"
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=locale)
            catalog.update(fresh, no_fuzzy_matching=True)
            catalog.obsolete.clear()
        else:
            catalog = Catalog(locale=locale, project="mastermind-bot", domain=area, fuzzy=False)
            catalog.update(fresh, no_fuzzy_matching=True)
        _carry(catalog, (known or {}).get(locale, {}))
        write_catalog(catalog, path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=Path,
                        help="the synced commands payload (JSON) to take command names from")
    args = parser.parse_args(argv)
    templates = {area: code_template(area) for area in AREAS}
    if args.commands:
        synced = json.loads(args.commands.read_text())
        templates[COMMANDS] = commands_template(synced)
        TREE_FILE.write_text(json.dumps(tree_of(synced), ensure_ascii=False, indent=1,
                                        sort_keys=True) + "\n", encoding="utf-8")
    known = known_translations()
    for area, template in templates.items():
        if not len(template) and not (TEMPLATES_DIR / f"{area}.pot").exists():
            continue
        write_catalog(template, TEMPLATES_DIR / f"{area}.pot")
        update_locales(area, template, known)
        print(f"{area}: {len(template)} strings")


if __name__ == "__main__":
    main()
