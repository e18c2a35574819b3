"""How codes, replies and boards look in a terminal.

With colour on, every peg is a coloured block that still shows its digit (so nobody has to
tell red from brown by colour alone); with colour off the output is plain text that reads
well in a pipe, a log or a test.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TextIO

from engine import PALETTE, Feedback, Rules, Turn, format_code, format_letters
from i18n import trc
from i18n.numbers import number

from .words import columns, pad

RESET = "\x1b[0m"

#: 256-colour background and a readable foreground for each peg digit 1-9.
PEG_COLOURS: dict[int, tuple[int, int]] = {
    1: (160, 231),  # red
    2: (208, 16),  # orange
    3: (226, 16),  # yellow
    4: (34, 231),  # green
    5: (27, 231),  # blue
    6: (129, 231),  # purple
    7: (94, 231),  # brown
    8: (255, 16),  # white
    9: (238, 231),  # black (dark grey, so it shows on a black terminal)
}


def wants_colour(stream: TextIO, mode: str = "auto") -> bool:
    """Colour when asked to, or (``auto``) when the stream is a terminal and NO_COLOR is unset."""
    if mode == "always":
        return True
    if mode == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def can_encode(stream: TextIO, text: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Style:
    """Renders game pieces as text, with or without ANSI colour."""

    def __init__(self, colour: bool = False, unicode: bool = True):
        self.colour = colour
        self.unicode = unicode
        self.black_key, self.white_key, self.no_key = ("●", "○", "·") if unicode else "BW."
        self.bar = "█" if unicode else "#"

    @classmethod
    def for_stream(cls, stream: TextIO, mode: str = "auto") -> Style:
        return cls(wants_colour(stream, mode), can_encode(stream, "●○·█…—"))

    # ---- plain styling --------------------------------------------------------------------
    def _sgr(self, text: str, codes: str) -> str:
        return f"\x1b[{codes}m{text}{RESET}" if self.colour else text

    def bold(self, text: str) -> str:
        return self._sgr(text, "1")

    def dim(self, text: str) -> str:
        return self._sgr(text, "2")

    def good(self, text: str) -> str:
        return self._sgr(text, "1;32")

    def bad(self, text: str) -> str:
        return self._sgr(text, "1;31")

    def warn(self, text: str) -> str:
        return self._sgr(text, "33")

    # ---- game pieces ----------------------------------------------------------------------
    def peg(self, digit: int) -> str:
        if not self.colour:
            return str(digit)
        bg, fg = PEG_COLOURS[digit]
        return f"\x1b[1;38;5;{fg};48;5;{bg}m {digit} {RESET}"

    def code(self, code: Sequence[int]) -> str:
        """``1123`` in plain text; coloured blocks `` 1 ``, a space apart, with colour on."""
        if not self.colour:
            return format_code(code)
        return " ".join(self.peg(d) for d in code)

    def code_width(self, pegs: int) -> int:
        return 4 * pegs - 1 if self.colour else pegs

    def key(self, feedback: Feedback, pegs: int) -> str:
        """The key pegs: one mark per black, per white, and a dot for each peg that is neither."""
        blacks = self.black_key * feedback.black
        whites = self.white_key * feedback.white
        rest = self.no_key * (pegs - feedback.black - feedback.white)
        if self.colour:
            return self._sgr(blacks, "1") + whites + self.dim(rest)
        return blacks + whites + rest

    def reply(self, feedback: Feedback, pegs: int) -> str:
        """``●○··  1 black, 1 white``."""
        return f"{self.key(feedback, pegs)}  {feedback}"

    def turn_row(self, number: int, turn: Turn, rules: Rules) -> str:
        return (
            f"{number:>3}  {self.code(turn.guess)}  {self.reply(turn.feedback, rules.pegs)}"
        )

    def header(self, pegs: int) -> str:
        """``  #  guess  reply``: the columns of a board's rows."""
        # TRANSLATORS: column headings of the board: the guess and its key pegs (short).
        guess, reply = trc("board column", "guess"), trc("board column", "reply")
        return self.dim(f"{'#':>3}  {pad(guess, self.code_width(pegs))}  {reply}")

    def board(self, turns: Sequence[Turn], rules: Rules) -> list[str]:
        """The guesses so far, one row each, under a small header."""
        return [self.header(rules.pegs),
                *(self.turn_row(i, t, rules) for i, t in enumerate(turns, 1))]

    def palette(self, rules: Rules) -> str:
        """The colours of this game: ``1 R red  2 O orange ...``."""
        parts = [f"{self.peg(c.digit)} {c.letter} {c.spoken}" for c in PALETTE[: rules.colors]]
        return "  ".join(parts)

    def letters(self, code: Sequence[int]) -> str:
        return format_letters(code)


def histogram(distribution: dict[int, int], style: Style, width: int = 40) -> list[str]:
    """Rows ``guesses  games  share  bar`` for an evaluation's distribution."""
    total = sum(distribution.values()) or 1
    top = max(distribution.values(), default=1)
    # TRANSLATORS: column headings of an evaluation: how many guesses, how many games
    # needed that many, their share (%). Short: the columns are 7, 8 and 7 wide.
    heads = (trc("evaluation column", "guesses"), trc("evaluation column", "games"),
             trc("evaluation column", "share"))
    widths = [max(least, columns(head)) for head, least in zip(heads, (7, 8, 7), strict=True)]
    rows = [style.dim(" ".join(pad(h, w, right=True) for h, w in zip(heads, widths,
                                                                     strict=True)))]
    for guesses in sorted(distribution):
        count = distribution[guesses]
        length = round(width * count / top)
        bar = style.bar * length if length or not count else ("▏" if style.unicode else "|")
        cells = (str(guesses), number(count), number(100 * count / total, 1) + "%")
        row = " ".join(pad(c, w, right=True) for c, w in zip(cells, widths, strict=True))
        rows.append(f"{row}  {bar}")
    return rows
