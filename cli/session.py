"""What the game loops share: how they read a line and write text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from engine import Rules, Turn

from .render import Style
from .words import means

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


def handle_common_word(
    word: str,
    *,
    help_lines: Sequence[str],
    turns: Sequence[Turn],
    rules: Rules,
    style: Style,
    empty: str,
    say: Callable[[str], None],
    confirm_quit: Callable[[], bool] | None = None,
) -> bool:
    """The words every game loop knows (quit, help, board, in English or the terminal's
    language); True when ``word`` was one. ``confirm_quit``, when given, asks first whether
    to quit (a match: it forfeits)."""
    if means(word, "quit"):
        if confirm_quit is None or confirm_quit():
            raise Quit
        return True
    if means(word, "help"):
        for line in help_lines:
            say(line)
        return True
    if means(word, "board"):
        for line in style.board(turns, rules) if turns else [empty]:
            say(line)
        return True
    return False
