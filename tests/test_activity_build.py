"""The Activity's client as committed (bot/features/activity/static/) is what its sources build.

What the browser loads ships built, so the README's set-up needs no node; these tests keep it
honest: the hash of web/'s sources recorded at the last build must be the sources' hash now
(checked without node), and where node and web/node_modules are present the sources are built
again and must give the committed files byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
STATIC = ROOT / "bot" / "features" / "activity" / "static"
BUILD = json.loads((STATIC / "BUILD.json").read_text())
REBUILD = "cd web && npm ci && node build.mjs"


def source_files() -> list[str]:
    """The files whose bytes decide the output, as web/build.mjs lists them."""
    files = [p for p in (WEB / "src").rglob("*") if p.is_file()]
    files += [WEB / "build.mjs", WEB / "package.json", WEB / "package-lock.json"]
    return sorted(p.relative_to(WEB).as_posix() for p in files)


def static_files(root: Path = STATIC) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def sources_hash(files: list[str]) -> str:
    digest = hashlib.sha256()
    for name in files:
        data = (WEB / name).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def test_the_committed_client_was_built_from_these_sources() -> None:
    files = source_files()
    assert files == BUILD["files"], f"web/ has other files than at the last build: {REBUILD}"
    assert sources_hash(files) == BUILD["sources_sha256"], (
        f"web/'s sources changed since bot/features/activity/static/ was built: {REBUILD}")


def test_static_holds_exactly_the_build_outputs() -> None:
    outputs = set(BUILD["outputs"])
    assert set(static_files()) == outputs | {"BUILD.json"}
    names = [n for n in outputs if n.startswith("assets/")]
    assert sorted(n.rsplit(".", 1)[1] for n in names) == ["css", "js"]
    for name in names:  # content-hashed: Discord's proxy keeps their cache headers
        assert re.fullmatch(r"assets/app\.[A-Z0-9]{8}\.(js|css)", name)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        if self.tags and self.tags[-1][0] in ("script", "style"):
            self.script_text += data.strip()


def test_index_loads_only_its_own_files_and_nothing_inline() -> None:
    """The server's Content-Security-Policy allows scripts and styles from its origin only."""
    page = _Tags()
    page.feed((STATIC / "index.html").read_text())
    tags = page.tags
    assert page.script_text == ""
    assert not any(tag == "style" or "style" in attrs or any(a.startswith("on") for a in attrs)
                   for tag, attrs in tags)
    scripts = [attrs["src"] for tag, attrs in tags if tag == "script"]
    sheets = [attrs["href"] for tag, attrs in tags if tag == "link"]
    assert sorted(scripts + sheets) == sorted(
        f"/{n}" for n in BUILD["outputs"] if n.startswith("assets/"))
    metas = {attrs.get("name"): attrs.get("content") for tag, attrs in tags if tag == "meta"}
    assert metas["mastermind-client-id"] == ""  # the server fills it in


def test_the_sdk_is_pinned_and_its_licence_ships() -> None:
    lock = json.loads((WEB / "package-lock.json").read_text())
    package = json.loads((WEB / "package.json").read_text())
    assert package["dependencies"] == {"@discord/embedded-app-sdk": "2.5.0"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", package["devDependencies"]["esbuild"])
    assert lock["packages"]["node_modules/@discord/embedded-app-sdk"]["version"] == "2.5.0"
    licences = (STATIC / "THIRD_PARTY_LICENSES.txt").read_text()
    assert "@discord/embedded-app-sdk 2.5.0: MIT" in licences
    assert "Copyright (c) 2024 Discord Inc." in licences


@pytest.mark.skipif(shutil.which("node") is None or not (WEB / "node_modules").is_dir(),
                    reason="node or web/node_modules missing (cd web && npm ci): "
                           "the recorded hash above still checks the sources")
def test_building_again_gives_the_committed_files(tmp_path: Path) -> None:
    subprocess.run(["node", "build.mjs", str(tmp_path)], cwd=WEB, check=True,
                   capture_output=True, timeout=120)
    built = static_files(tmp_path)
    committed = static_files()
    assert built.keys() == committed.keys()
    for name, data in built.items():
        assert data == committed[name], f"{name} differs from a fresh build: {REBUILD}"
