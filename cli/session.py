"""What the game loops share: how they read a line and write text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from engine import Rules, Turn

from .render import Style

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


HELP_WORDS = frozenset({"help", "h", "?"})
BOARD_WORDS = frozenset({"board", "history"})


def handle_common_word(
    word: str,
    *,
    quit_words: frozenset[str],
    help_lines: Sequence[str],
    turns: Sequence[Turn],
    rules: Rules,
    style: Style,
    empty: str,
    say: Callable[[str], None],
    confirm_quit: Callable[[], bool] | None = None,
) -> bool:
    """The words every game loop knows (quit, help, board); True when ``word`` was one.
    ``confirm_quit``, when given, asks first whether to quit (a match: it forfeits)."""
    if word in quit_words:
        if confirm_quit is None or confirm_quit():
            raise Quit
        return True
    if word in HELP_WORDS:
        for line in help_lines:
            say(line)
        return True
    if word in BOARD_WORDS:
        for line in style.board(turns, rules) if turns else [empty]:
            say(line)
        return True
    return False
