"""The bot's layers import one way: core is the ground floor, the store stands on it, the
shared services on both, the features on top. Read from the source with ``ast`` (imports
inside functions and ``TYPE_CHECKING`` blocks count too), so an arrow pointing up fails
here before it becomes an import cycle.

What is Discord-free is checked by importing it, too: a module's own imports may be clean
while one of them loads discord.py (a package's ``__init__.py`` importing its cog did)."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bot"

#: What each layer of ``bot`` may import from ``bot`` itself.
ALLOWED = {
    "bot.core": ("bot.core",),
    "bot.store": ("bot.core", "bot.store"),
    "bot.services": ("bot.core", "bot.store", "bot.services"),
}
#: Layers (and modules) that must stay free of discord.py.
DISCORD_FREE = ("bot.core", "bot.store", "bot.services")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved to absolute names."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # ``from . import x`` may name a module: count it as one.
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def modules(layer: str) -> list[Path]:
    return sorted((ROOT / layer.replace(".", "/")).rglob("*.py"))


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_imports_resolve_relative_ones():
    assert "bot.store" in imports(BOT / "services" / "games.py")
    assert "bot.core.records" in imports(BOT / "store" / "games.py")


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below_it(layer: str):
    upward = {
        f"{module_name(path)} imports {target}"
        for path in modules(layer)
        for target in imports(path)
        if within(target, "bot") and target != "bot"
        and not any(within(target, allowed) for allowed in ALLOWED[layer])
    }
    assert not upward, sorted(upward)


def test_the_lower_layers_and_every_service_are_discord_free():
    paths = [p for layer in DISCORD_FREE for p in modules(layer)]
    paths += [*sorted(BOT.glob("features/*/service.py")), BOT / "wiring.py"]
    assert len(paths) > 20
    using = [module_name(p) for p in paths
             if any(within(target, "discord") for target in imports(p))]
    assert not using


#: What must import without discord.py (and so without any cog): the lower layers, each
#: feature's service and errors, the wiring, the engine, the words and the terminal game.
IMPORTED_WITHOUT_DISCORD = (
    "bot/core/**/*.py", "bot/store/**/*.py", "bot/services/**/*.py",
    "bot/features/*/service.py", "bot/features/*/errors.py", "bot/wiring.py",
    "engine/**/*.py", "i18n/**/*.py", "cli/**/*.py",
)

#: Run in a fresh interpreter where ``import discord`` fails: imports each module given and
#: prints, as JSON, the chain of modules that led to discord.py for each one that needed it.
_IMPORT_EACH = """
import importlib, json, sys

class NoDiscord:
    def find_spec(self, name, path=None, target=None):
        if name == "discord" or name.startswith("discord."):
            chain, frame = [], sys._getframe(1)
            while frame is not None:  # the modules being executed, innermost first
                module = frame.f_globals.get("__name__")
                if frame.f_code.co_name == "<module>" and module and module not in chain:
                    chain.append(module)
                frame = frame.f_back
            chain.remove("__main__")  # this script
            raise ModuleNotFoundError(" -> ".join([*reversed(chain), name]))
        return None

sys.meta_path.insert(0, NoDiscord())
failed = {}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        failed[name] = str(exc)
cogs = sorted(m for m in sys.modules if m.startswith("bot.features.") and m.endswith(".cog"))
print(json.dumps({"failed": failed, "cogs": cogs}))
"""


def test_discord_free_modules_import_without_discord():
    names = sorted({module_name(path) for pattern in IMPORTED_WITHOUT_DISCORD
                    for path in ROOT.glob(pattern) if path.name != "__main__.py"})
    assert {"bot.wiring", "bot.features.settings.service", "engine", "cli.main"} <= set(names)
    run = subprocess.run([sys.executable, "-c", _IMPORT_EACH, *names], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert not found["failed"], "\n".join(
        f"{name} needs discord.py: {chain}" for name, chain in found["failed"].items())
    assert not found["cogs"], found["cogs"]


def test_the_bot_is_reached_through_typed_attributes_not_names():
    """``getattr(client, "metrics", None)`` or ``get_cog("match")`` turn a feature off in
    silence when the name changes; ``bot_of(interaction).metrics`` and ``cog_of(interaction,
    MatchCog)`` fail the type check and the first test instead."""
    by_name = re.compile(r"getattr\((?:interaction\.)?(?:client|bot|self\.bot)\b"
                         r"""|get_cog\(\s*["']""")
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in sorted(BOT.rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if by_name.search(line)]
    assert not found, found
