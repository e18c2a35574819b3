"""What the game loops share: how they read a line and write text."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

#: Reads one line after showing a prompt, like :func:`input`; raises EOFError at the end.
Read = Callable[[str], str]


class Quit(Exception):
    """The player left: typed quit, pressed Ctrl-D (EOF) or Ctrl-C."""


def ask(read: Read, prompt: str, out: TextIO) -> str:
    """One stripped line; EOF and Ctrl-C become :class:`Quit` (after ending the prompt line)."""
    try:
        return read(prompt).strip()
    except (EOFError, KeyboardInterrupt):
        out.write("\n")
        raise Quit from None


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else many or word + 's'}"
