"""What the browser loads: the built client (``static/``: ``index.html`` and content-hashed
files under ``static/assets/``, committed ready to serve) and the pegs, drawn as on the boards
(:mod:`bot.ui.peg_images`) and named by a hash of their PNG, so every file but the page
itself can be cached for good."""

from __future__ import annotations

import hashlib
import html
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from engine import PALETTE

from ...ui.peg_images import peg_images

STATIC = Path(__file__).resolve().parent / "static"
CLIENT_ID_META = '<meta name="mastermind-client-id" content="">'


@dataclass(frozen=True)
class Asset:
    body: bytes
    content_type: str


@dataclass(frozen=True)
class Assets:
    page: bytes
    #: Each file by its path in the URL (``/assets/app.1a2b.js``).
    files: dict[str, Asset]
    #: Each peg's path by digit (0: the empty hole).
    pegs: dict[int, str]


def _peg_files() -> tuple[dict[str, Asset], dict[int, str]]:
    files: dict[str, Asset] = {}
    names: dict[int, str] = {}
    for image in peg_images():
        name = f"peg-{image.name}-{hashlib.sha256(image.png).hexdigest()[:12]}.png"
        files[f"/assets/{name}"] = Asset(image.png, "image/png")
        names[image.digit] = f"/assets/{name}"
    return files, names


def load(client_id: int, static: Path = STATIC) -> Assets:
    """Read the built client once (at start) and draw the pegs; the page gets the client id
    (the application's) in its ``mastermind-client-id`` meta tag."""
    files, pegs = _peg_files()
    page_path = static / "index.html"
    page = page_path.read_text(encoding="utf-8") if page_path.is_file() else (
        "<!doctype html><title>Mastermind</title><p>The Activity's client is not built.</p>")
    page = page.replace(CLIENT_ID_META, f'<meta name="mastermind-client-id" '
                                        f'content="{html.escape(str(client_id))}">')
    for path in sorted(static.rglob("*")) if static.is_dir() else ():
        if path.is_file() and path.name != "index.html":
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind == "application/javascript":
                kind += "; charset=utf-8"
            files["/" + path.relative_to(static).as_posix()] = Asset(path.read_bytes(), kind)
    return Assets(page.encode(), files, pegs)


def peg_list(assets: Assets) -> list[dict[str, object]]:
    """The colours 1-9 for ``/api/state``, named in the language being spoken."""
    return [{"digit": c.digit, "letter": c.letter, "name": c.spoken,
             "image": assets.pegs[c.digit]} for c in PALETTE] + [
        {"digit": 0, "letter": "", "name": "", "image": assets.pegs[0]}]
