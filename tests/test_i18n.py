"""The catalogs: complete in every shipped locale, placeholders as in the source, plural forms
per locale, command names under Discord's rules, and the right language for each reader."""

from __future__ import annotations

import ast
import functools
import string
from pathlib import Path

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from i18n import SHIPPED, catalog_locale, from_environment, speaking, tr, trn
from i18n.catalogs import LOCALES_DIR
from i18n.extract import AREAS, COMMANDS, ROOT, TEMPLATES_DIR, code_template, commands_template

TEMPLATES = sorted(TEMPLATES_DIR.glob("*.pot"))


def read(path: Path, locale: str | None = None):
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def keys(catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("area", sorted(AREAS))
def test_each_areas_template_lists_exactly_the_strings_its_code_asks_for(area):
    path = TEMPLATES_DIR / f"{area}.pot"
    committed = keys(read(path)) if path.exists() else set()
    assert keys(code_template(area)) == committed, (
        "the catalogs are behind the code: run `.venv/bin/python -m i18n.extract`, then "
        "translate the new entries in every locale")


async def test_the_commands_template_lists_every_synced_name_and_description(
        fake_discord, start_bot):
    await start_bot()
    assert keys(commands_template(fake_discord.commands)) == keys(
        read(TEMPLATES_DIR / f"{COMMANDS}.pot")), (
        "run `.venv/bin/python tests/i18n_commands.py`, then translate the new entries")


@pytest.mark.parametrize("locale", SHIPPED)
def test_every_catalog_is_complete_unfuzzy_with_the_sources_placeholders(locale):
    nplurals = get_plural(locale).num_plurals
    assert TEMPLATES, "no catalog templates"
    for template in TEMPLATES:
        catalog = read(LOCALES_DIR / locale / f"{template.stem}.po", locale)
        assert catalog.num_plurals == nplurals, f"{locale} {template.stem}: plural forms"
        entries = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m
                   for m in catalog if m.id}
        for key in keys(read(template)):
            message = entries.get(key)
            where = f"{locale}/{template.stem}.po {key}"
            assert message is not None, f"missing: {where}"
            assert not message.fuzzy, f"fuzzy: {where}"
            if isinstance(message.id, str):
                assert message.string, f"untranslated: {where}"
                assert fields(message.string) == fields(message.id), f"placeholders: {where}"
                continue
            forms = list(message.string)
            assert len(forms) == nplurals and all(forms), f"plural forms: {where}"
            source = fields(message.id[0]) | fields(message.id[1])
            for form in forms:  # a form for exactly one may leave out the count
                assert fields(form) <= source and source - fields(form) <= {"count"}, where


def test_polish_and_russian_have_three_plural_forms_and_japanese_one():
    assert get_plural("pl").num_plurals == get_plural("ru").num_plurals == 3
    assert get_plural("ja").num_plurals == 1


def _calls(nodes):
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id in {"tr", "trn", "trc", "mark"}):
            yield node


@functools.cache
def _trees() -> dict[Path, list[ast.AST]]:
    """Every source file's nodes, walked once for the whole session (parsing and walking
    the code base again for each folder cost 6 s a folder)."""
    return {path: list(ast.walk(ast.parse(path.read_text(), str(path))))
            for top in ("bot", "cli", "engine", "i18n") for path in (ROOT / top).rglob("*.py")}


@functools.cache
def _marked_names() -> frozenset[str | None]:
    """The names whose value is ``mark("...")`` where they are defined."""
    nodes = [node for walked in _trees().values() for node in walked]
    marked = {_target_name(target) for node in nodes
              if isinstance(node, ast.Assign | ast.AnnAssign) and _is_mark(node.value)
              for target in (node.targets if isinstance(node, ast.Assign) else [node.target])}
    marked |= {node.arg for node in nodes
               if isinstance(node, ast.keyword) and _is_mark(node.value)}  # Strategy(x=mark())
    fields = {node.name: _fields(node) for node in nodes if isinstance(node, ast.ClassDef)}
    marked |= {fields[node.func.id][i] for node in nodes
               if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
               and node.func.id in fields
               for i, arg in enumerate(node.args)
               if _is_mark(arg) and i < len(fields[node.func.id])}  # Strategy("k", mark())
    return frozenset(marked)


@pytest.mark.parametrize("folder", ["bot", "cli", "engine", "i18n"])
def test_every_catalog_call_names_its_words_literally(folder):
    """Only literal strings can be extracted into the catalogs: no f-strings, no computed
    text. The one exception: ``tr(NAME)`` of a constant, class attribute or field whose value
    is ``mark("...")`` where it is defined, so its words are in the catalogs."""
    literal_args = {"tr": (0,), "trn": (0, 1), "trc": (0, 1), "mark": (0,)}
    marked = _marked_names()
    for path, walked in _trees().items():
        if path.parts[len(ROOT.parts)] != folder or path.name == "catalogs.py":
            continue
        for call in _calls(walked):
            for index in literal_args[call.func.id]:  # type: ignore[attr-defined]
                arg = call.args[index] if index < len(call.args) else None
                literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                constant = (call.func.id == "tr"  # type: ignore[attr-defined]
                            and isinstance(arg, ast.Name | ast.Attribute)
                            and _target_name(arg) in marked)
                assert literal or constant, (
                    f"{path.relative_to(ROOT)}:{call.lineno}: {ast.unparse(call)[:80]}")


def _fields(cls: ast.ClassDef) -> list[str]:
    """What a class's positional arguments become: its ``__init__``'s parameters, else its
    dataclass fields in order."""
    init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"),
                None)
    if init is not None:
        return [a.arg for a in init.args.args[1:]]
    return [f.target.id for f in cls.body
            if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name)]


def _is_mark(value) -> bool:
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == "mark")


def _target_name(node) -> str | None:
    return node.id if isinstance(node, ast.Name) else (
        node.attr if isinstance(node, ast.Attribute) else None)


def _area_files(area: str):
    for rel in AREAS[area]:
        path = ROOT / rel
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


@pytest.mark.parametrize("area", sorted(AREAS))
def test_every_literal_call_reaches_its_areas_template(area):
    """A call the extractor can't see (inside an f-string's braces) would never be
    translated: every literal the code asks for is in its area's template."""
    template = keys(code_template(area))
    ids = {message for _, message in template}
    for path in _area_files(area):
        if not path.exists():
            continue
        for call in _calls(ast.walk(ast.parse(path.read_text(), str(path)))):
            name = call.func.id  # type: ignore[attr-defined]
            index = 1 if name == "trc" else 0
            arg = call.args[index] if index < len(call.args) else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                assert arg.value in ids, (
                    f"{path.relative_to(ROOT)}:{call.lineno}: {arg.value[:60]!r} is not "
                    f"extracted (a call inside an f-string? build the text outside it)")


@pytest.mark.parametrize(("code", "catalog"), [
    ("de", "de"), ("pt-BR", "pt_BR"), ("es-ES", "es_ES"), ("es-419", "es_ES"),
    ("zh-CN", "zh_CN"), ("zh-TW", None), ("en-US", None), ("en-GB", None), ("uk", None),
    ("ja", "ja"), ("pl", "pl"), (None, None), ("", None), ("xx-YY", None),
])
def test_a_discord_locale_reads_its_catalog_or_english(code, catalog):
    assert catalog_locale(code) == catalog


@pytest.mark.parametrize(("env", "catalog"), [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "fr_FR.UTF-8", "LC_ALL": "C"}, None),
    ({"LANGUAGE": "eo:pt_BR:de", "LANG": "en_US.UTF-8"}, "pt_BR"),
    ({"LANG": "es_MX.UTF-8"}, "es_ES"),
    ({"LANG": "zh_TW.UTF-8"}, None),
    ({}, None),
])
def test_the_terminal_reads_lang_as_gettext_does(env, catalog):
    assert from_environment(env) == catalog


def test_an_unknown_locale_speaks_english_and_speaking_is_scoped():
    with speaking(None):
        assert tr("Game over: {name} won", name="Ana") == "Game over: Ana won"
        assert trn("{count} guess", "{count} guesses", 3) == "3 guesses"
        assert trn("{count} guess", "{count} guesses", 1) == "1 guess"
    with speaking(catalog_locale("xx")):
        assert tr("Guess") == "Guess"


async def test_the_synced_commands_carry_every_shipped_locale(fake_discord, start_bot):
    """Discord shows each user the commands in their language: every name and description
    has a localization for every shipped locale (the fake Discord checks Discord's naming rule
    and lengths on sync)."""
    await start_bot()
    discord_names = {"de": "de", "fr": "fr", "es_ES": "es-ES", "pt_BR": "pt-BR", "pl": "pl",
                     "ru": "ru", "tr": "tr", "ja": "ja", "zh_CN": "zh-CN", "ko": "ko"}
    assert set(discord_names) == set(SHIPPED)

    def check(node):
        for field in ("name", "description"):
            assert set(node.get(f"{field}_localizations") or {}) >= set(
                discord_names.values()), (node["name"], field)
        for option in node.get("options") or []:
            check(option)

    for command in fake_discord.commands:
        check(command)
