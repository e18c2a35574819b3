"""The one table of peg colours: digit, letter, name and emoji.

The terminal, the parser and the Discord board all read it, so a colour looks and
is typed the same way everywhere. Letters follow the usual Mastermind names; black
is ``K`` (as in CMYK) so that ``B`` can stay blue. A colour's letter is the same in every
language (a code pasted between players means the same thing); its name is translated
(:attr:`PegColor.spoken`), while ``name`` stays the English identifier (emoji names).
"""

from __future__ import annotations

from dataclasses import dataclass

from i18n import trc


@dataclass(frozen=True, slots=True)
class PegColor:
    digit: int
    letter: str
    name: str
    emoji: str

    @property
    def spoken(self) -> str:
        """The colour's name in the reader's language (``name`` is the identifier)."""
        return _spoken(self.digit)


PALETTE: tuple[PegColor, ...] = (
    PegColor(1, "R", "red", "\N{LARGE RED CIRCLE}"),
    PegColor(2, "O", "orange", "\N{LARGE ORANGE CIRCLE}"),
    PegColor(3, "Y", "yellow", "\N{LARGE YELLOW CIRCLE}"),
    PegColor(4, "G", "green", "\N{LARGE GREEN CIRCLE}"),
    PegColor(5, "B", "blue", "\N{LARGE BLUE CIRCLE}"),
    PegColor(6, "P", "purple", "\N{LARGE PURPLE CIRCLE}"),
    PegColor(7, "N", "brown", "\N{LARGE BROWN CIRCLE}"),
    PegColor(8, "W", "white", "\N{MEDIUM WHITE CIRCLE}"),
    PegColor(9, "K", "black", "\N{MEDIUM BLACK CIRCLE}"),
)

BY_DIGIT: dict[int, PegColor] = {c.digit: c for c in PALETTE}
BY_LETTER: dict[str, PegColor] = {c.letter: c for c in PALETTE}
BY_EMOJI: dict[str, PegColor] = {c.emoji: c for c in PALETTE}


def color(digit: int) -> PegColor:
    """The colour of a digit 1-9."""
    return BY_DIGIT[digit]


def letters(colors: int) -> str:
    """The letters of the first ``colors`` colours, e.g. ``R O Y G B P``."""
    return " ".join(c.letter for c in PALETTE[:colors])



#: Each colour's name, looked up when said (one literal call each, so the catalogs list them;
#: context "colour": a peg's colour, not a key peg's "black"/"white").
_SPOKEN = (
    lambda: trc("colour", "red"),
    lambda: trc("colour", "orange"),
    lambda: trc("colour", "yellow"),
    lambda: trc("colour", "green"),
    lambda: trc("colour", "blue"),
    lambda: trc("colour", "purple"),
    lambda: trc("colour", "brown"),
    lambda: trc("colour", "white"),
    lambda: trc("colour", "black"),
)


def _spoken(digit: int) -> str:
    return _SPOKEN[digit - 1]()
