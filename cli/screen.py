"""Lines that fit the terminal: a sentence wider than the window is broken between words
(between characters in Chinese and Japanese) and carries on under its own indentation,
rather than being cut mid-word by the terminal. German runs about a third longer than
English; a pipe or a file gets the lines as they are."""

from __future__ import annotations

import io
import re
import shutil
from typing import TextIO

from .words import columns, wrap

#: A colour span (a peg drawn as `` 1 `` on its colour): its spaces never break a line.
_SPAN = re.compile(r"\x1b\[(?!0m)[0-9;]*m.*?\x1b\[0m")
_KEEP = "\ue000"  # stands for a space inside a span while the line is broken
#: Narrower than this, breaking lines helps nobody.
NARROWEST = 30


def fit_line(line: str, width: int) -> list[str]:
    """``line`` as lines of at most ``width`` columns where it can be broken; the lines
    after the first start with the first's indentation."""
    if columns(line) <= width:
        return [line]
    body = line.lstrip(" ")
    indent = line[: len(line) - len(body)]
    kept = _SPAN.sub(lambda m: m.group().replace(" ", _KEEP), body)
    lines = wrap(kept, max(width - len(indent), NARROWEST // 2))
    return [indent + part.replace(_KEEP, " ") for part in lines] or [line]


class FittedLines(io.TextIOBase):
    """A terminal's output stream whose complete lines are fitted to ``width`` columns."""

    def __init__(self, stream: TextIO, width: int):
        self.stream = stream
        self.width = width
        self._pending = ""

    def write(self, text: str) -> int:
        self._pending += text
        *lines, self._pending = self._pending.split("\n")
        for line in lines:
            self.stream.write("\n".join(fit_line(line, self.width)) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self.stream.write(self._pending)
            self._pending = ""
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", None) or "utf-8"


def fitted(stream: TextIO) -> TextIO:
    """``stream`` fitted to the terminal's width when it is a terminal, else itself."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    width = shutil.get_terminal_size((100, 24)).columns
    if not tty or width < NARROWEST:
        return stream
    return FittedLines(stream, width)  # type: ignore[return-value]
