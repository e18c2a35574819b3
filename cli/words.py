"""The terminal's words that depend on the reader's language beyond a sentence: the words a
player types (understood in English always, and in the terminal's language), numbers written
the reader's way, and how many columns a text takes (Chinese, Japanese and Korean characters
take two).
"""

from __future__ import annotations

import re
import unicodedata

from i18n import trc

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: Where prose may break: after a space, or between two Chinese or Japanese characters
#: (closing punctuation stays with the character before it).
_BREAKS = re.compile(r"[^\s\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]+\s*"
                     r"|[\u3040-\u30ff\u3400-\u9fff][、。，．：；！？）」』\uff09]*\s*"
                     r"|[\uff01-\uff5e、。]+\s*|\s+")

#: The English words each game understands, whatever the terminal's language.
ENGLISH = {
    "help": frozenset({"help", "h", "?"}),
    "board": frozenset({"board", "history"}),
    "quit": frozenset({"quit", "q", "exit", "give up", "giveup"}),
    "undo": frozenset({"undo", "u", "back", "take back"}),
    "reveal": frozenset({"reveal", "r", "show"}),
    "yes": frozenset({"y", "yes"}),
}


def typed(name: str) -> str:
    """The word a player types for ``name`` in the terminal's language, as prompts show it."""
    words = {
        # TRANSLATORS: words the player types at the terminal's prompts (help, board, quit,
        # undo, reveal, yes, no): one short lowercase word each, all different; the English
        # word keeps working too.
        "help": trc("typed word", "help"),
        "board": trc("typed word", "board"),
        "quit": trc("typed word", "quit"),
        "undo": trc("typed word", "undo"),
        "reveal": trc("typed word", "reveal"),
        "yes": trc("typed word", "yes"),
        "no": trc("typed word", "no"),
    }
    return words[name]


def normal(text: str) -> str:
    """A typed line as words are compared: case, accents and runs of spaces ignored
    (``zuruck`` is ``zurück``, ``si`` is ``sí``)."""
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", text.casefold())
                   if not unicodedata.combining(ch))
    return " ".join(bare.split())


def means(text: str, name: str) -> bool:
    """Whether the player typed the word ``name`` (in English or in their language)."""
    word = normal(text)
    return word in ENGLISH.get(name, frozenset()) or word == normal(typed(name))


def columns(text: str) -> int:
    """Columns ``text`` takes on a terminal: colour codes none, wide characters two."""
    plain = _ANSI.sub("", text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in plain)


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (on the left when ``right``)."""
    gap = " " * max(0, width - columns(text))
    return gap + text if right else text + gap


def indented(text: str, prefix: str = "  ") -> list[str]:
    """The lines of ``text`` (a translation may hold several), each after ``prefix``."""
    return [prefix + line for line in text.split("\n")]


def aligned(lines: list[str], mark: str = " = ") -> list[str]:
    """Lines such as ``● black = ...`` with their ``=`` under each other, whatever the
    words before it are in the reader's language."""
    parts = [line.split(mark, 1) for line in lines]
    width = max((columns(p[0]) for p in parts if len(p) == 2), default=0)
    return [pad(p[0], width) + mark + p[1] if len(p) == 2 else p[0] for p in parts]


def words(text: str) -> list[str]:
    """``text`` cut where a line may break, each piece with the spaces after it: the pieces
    join back into ``text``. Chinese and Japanese break between characters."""
    return _BREAKS.findall(text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken where :func:`words` allows
    (a piece longer than a line stands alone)."""
    lines: list[str] = []
    line = ""
    for piece in words(text):
        if line and columns((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines


def is_wide(text: str) -> bool:
    """Whether ``text`` holds characters two columns wide (Chinese, Japanese, Korean)."""
    return columns(text) != len(_ANSI.sub("", text))
