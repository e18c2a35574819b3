"""The bot's layers import one way: core is the ground floor, the store stands on it, the
shared services on both, the features on top. Read from the source with ``ast`` (imports
inside functions and ``TYPE_CHECKING`` blocks count too), so an arrow pointing up fails
here before it becomes an import cycle."""

from __future__ import annotations

import ast
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
