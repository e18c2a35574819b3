"""Refresh the catalogs from the code: ``python -m i18n.extract [--commands payload.json]``.

Each area's strings (every ``tr``/``trn``/``trc``/``mark`` call) become
``i18n/templates/<area>.pot``; every locale's ``<area>.po`` is then updated from it (new
strings arrive empty, for a translator; strings gone from the code are dropped). The command
names and descriptions come from the payload the bot syncs (``--commands``: written by
``tests/i18n_commands.py``), one ``msgctxt`` per kind of field.
"""

from __future__ import annotations

import argparse
import datetime
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

from .catalogs import CHOICE_CONTEXT, FIELD_CONTEXTS, LOCALES_DIR, OPTION_CONTEXTS
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


def update_locales(area: str, template: Catalog) -> None:
    for locale in SHIPPED:
        path = LOCALES_DIR / locale / f"{area}.po"
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=locale)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
        else:
            catalog = Catalog(locale=locale, project="mastermind-bot", domain=area, fuzzy=False)
            catalog.update(template, no_fuzzy_matching=True)
        write_catalog(catalog, path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=Path,
                        help="the synced commands payload (JSON) to take command names from")
    args = parser.parse_args(argv)
    templates = {area: code_template(area) for area in AREAS}
    if args.commands:
        templates[COMMANDS] = commands_template(json.loads(args.commands.read_text()))
    for area, template in templates.items():
        if not len(template) and not (TEMPLATES_DIR / f"{area}.pot").exists():
            continue
        write_catalog(template, TEMPLATES_DIR / f"{area}.pot")
        update_locales(area, template)
        print(f"{area}: {len(template)} strings")


if __name__ == "__main__":
    main()
