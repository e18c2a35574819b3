"""Codes and key pegs as Discord text that reads on the dark and the light theme, on a phone.

Code pegs are the bot's own drawn pegs (:mod:`bot.ui.peg_images`, uploaded as application
emoji at start-up by :mod:`bot.ui.app_emoji`) or, when Discord won't have them, unicode
emoji with a part that stands out on both themes (measured in :mod:`bot.ui.contrast`: the
engine's plain colour circles vanish, ⚫ on the dark theme and ⚪ 🟡 on the light one); the
bot installs the set it got with :func:`install`. The digits are always beside them, for
colour-blind players, copying and screen readers. Key pegs are text, ● black and ○ white in
a code span: drawn in the theme's own text colour, they can't vanish, and the counts are
written out beside them.
A share grid is the one place key pegs are emoji (text pasted elsewhere has no theme
colour): 🎯 🔀 🕳️.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar

import discord

from engine import PALETTE, Feedback, Rules, format_code
from i18n import trn

#: The board's unicode emoji for colours 1-9 (red, orange, yellow, green, blue, purple,
#: brown, white, black), each measured legible on both themes: the fallback pegs.
PEG_EMOJI: tuple[str, ...] = (
    "\N{OCTAGONAL SIGN}",
    "\N{BASKETBALL AND HOOP}",
    "\N{BABY CHICK}",
    "\N{BROCCOLI}",
    "\N{RADIO BUTTON}",
    "\N{CRYSTAL BALL}",
    "\N{LARGE BROWN CIRCLE}",
    "\N{BASEBALL}",
    "\N{BILLIARDS}",
)
#: Board emoji typed back (copied from a board), read as digits; the engine reads its own
#: palette's emoji.
EMOJI_DIGITS = {emoji: str(i + 1) for i, emoji in enumerate(PEG_EMOJI)}
#: An empty place in a code being put together, when the drawn hole can't be had: a text
#: glyph, drawn in the theme's text colour on either theme.
HOLE_TEXT = "\N{LARGE CIRCLE}"

Emoji = str | discord.PartialEmoji


@dataclass(frozen=True)
class PegSet:
    """What the boards show for colours 1-9 (``pegs[digit - 1]``) and an empty hole."""

    pegs: tuple[Emoji, ...]
    hole: Emoji

    @classmethod
    def custom(cls, emoji: Mapping[str, discord.PartialEmoji], hole: str) -> PegSet:
        """From application emoji by colour name (``red`` ... ``black``, and ``hole``)."""
        return cls(tuple(emoji[c.name] for c in PALETTE), emoji[hole])


UNICODE_PEGS = PegSet(PEG_EMOJI, HOLE_TEXT)
#: No pegs at all: a row shows its digits alone (:func:`rows_within`).
NO_PEGS = PegSet(("",) * len(PEG_EMOJI), HOLE_TEXT)
_active = UNICODE_PEGS
#: Set while a board writes older rows without pegs (:func:`rows_within`).
_this_time: ContextVar[PegSet | None] = ContextVar("pegs_this_time", default=None)


def install(peg_set: PegSet) -> None:
    """Show ``peg_set`` on every board from now on (the bot does this at start-up)."""
    global _active
    _active = peg_set


def reset() -> None:
    """Back to the unicode pegs (the bot does this when it closes)."""
    install(UNICODE_PEGS)


def active() -> PegSet:
    return _this_time.get() or _active


@contextmanager
def digits_only() -> Iterator[None]:
    """Within it, codes are written as their digits alone (this task only)."""
    token = _this_time.set(NO_PEGS)
    try:
        yield
    finally:
        _this_time.reset(token)


Item = TypeVar("Item")
#: Characters in an embed's description: the budget of a board's rows.
EMBED_DESCRIPTION_MAX = 4096
#: Characters of text in a whole Components V2 message (discord.py checks it).
V2_TEXT_MAX = 4000


def rows_within(items: Sequence[Item], row: Callable[[Item], str], budget: int) -> str:
    """``row(item)`` for each item, one a line, in at most ``budget`` characters: a drawn
    peg is written ``<:red_1a2b3c:1234…>``, some 33 characters, so 20 rows of 8 don't fit
    in an embed; the newest rows keep their pegs, the older ones, as many as needed, show
    their digits alone (every row has its digits: nothing is lost, and a board never
    mixes two kinds of peg)."""
    drawn = [row(item) for item in items]
    with digits_only():
        plain = [row(item) for item in items]
    size = sum(map(len, plain)) + len(items) - 1
    first_drawn = len(items)
    while first_drawn > 0:
        extra = len(drawn[first_drawn - 1]) - len(plain[first_drawn - 1])
        if size + extra > budget:
            break
        size += extra
        first_drawn -= 1
    return "\n".join(plain[:first_drawn] + drawn[first_drawn:])


#: A drawn peg as Discord writes it (``<:red_1a2b3c:123>``), or as a client copies it
#: (``:red_1a2b3c:``); the name is the colour and the drawing's hash (see app_emoji).
CUSTOM_PEG = re.compile(r"<a?:([a-z]+)_[0-9a-f]{6}:\d+>|:([a-z]+)_[0-9a-f]{6}:")
_DIGIT_BY_NAME = {c.name: str(c.digit) for c in PALETTE}


def _custom_digit(match: re.Match[str]) -> str:
    return _DIGIT_BY_NAME.get(match[1] or match[2], match[0])


def typed_code(text: str) -> str:
    """A code as typed, with any board emoji (unicode or drawn) turned into its digit."""
    text = CUSTOM_PEG.sub(_custom_digit, text)
    for emoji, digit in EMOJI_DIGITS.items():
        text = text.replace(emoji + "\ufe0f", digit).replace(emoji, digit)
    return text


BLACK_PEG = "\N{BLACK CIRCLE}"
WHITE_PEG = "\N{WHITE CIRCLE}"
NONE = "\N{EN DASH}"  # no key peg at all, on a board
#: Rows of more pegs than this are drawn as small text (``-#``) to stay one line on a phone.
LARGE_ROW = 5


def button_emoji(digit: int) -> Emoji:
    """The peg of colour ``digit`` (1-9) as a button's emoji."""
    return active().pegs[digit - 1]


def peg_text(digit: int) -> str:
    """The peg of colour ``digit`` (1-9) as message text."""
    return str(active().pegs[digit - 1])


def hole() -> str:
    """An empty place in a code being put together, as message text."""
    return str(active().hole)


def peg_emoji(code: Sequence[int]) -> str:
    return "".join(peg_text(d) for d in code)


def code_line(code: Sequence[int]) -> str:
    """Colour emoji with the digits beside them (readable without telling colours apart)."""
    pegs = peg_emoji(code)
    return f"{pegs} `{format_code(code)}`" if pegs else f"`{format_code(code)}`"


def key_pegs(feedback: Feedback) -> str:
    """``2●1○`` in a code span (``–`` when nothing scores): as short at 8 pegs as at 4, the
    counts written out, and drawn in the theme's text colour, so legible on any theme."""
    marks = (f"{feedback.black}{BLACK_PEG}" if feedback.black else "") + (
        f"{feedback.white}{WHITE_PEG}" if feedback.white else "")
    return f"`{marks or NONE}`"


#: Characters of a player's name that fit beside a row of so many pegs on a 400 px phone
#: (measured with the renderer, whose fonts are a little wider than Discord's).
NAME_WIDTHS = {2: 12, 3: 12, 4: 10, 5: 9, 6: 10, 7: 8, 8: 6}


def name_width(rules: Rules) -> int:
    """How many characters of a player's name fit beside a row of this size on a phone."""
    return NAME_WIDTHS.get(rules.pegs, 6)


def feedback_row(turn: int, code: Sequence[int], feedback: Feedback, rules: Rules,
                 who: str = "") -> str:
    """One row of a board, one line even at 8 pegs on a 400 px phone: turn, pegs, digits,
    key pegs and who played it (a name already cut to :func:`name_width` and escaped)."""
    row = f"`{turn:>2}` {code_line(code)} {key_pegs(feedback)}" + (f" {who}" if who else "")
    return f"-# {row}" if rules.pegs > LARGE_ROW else row


def legend(rules: Rules) -> str:
    """The colour key: each peg with its digit, a space between colours (no letters: `2O`
    read as "twenty"; help has them). Past six colours, on two lines: a phone would break
    a line anywhere, even between a peg and its digit."""
    key = [f"{peg_text(c.digit)}`{c.digit}`" for c in PALETTE[: rules.colors]]
    half = -(-len(key) // 2) if len(key) > 6 else len(key)
    return "\n".join(" ".join(line) for line in (key[:half], key[half:]) if line)


# ---- the share grid: key pegs only, as emoji that read on both themes and paste anywhere --
#: A key peg for the right colour in the right place (black), the right colour in the
#: wrong place (white), and an empty hole: each the same object on every platform, each
#: measured legible on both themes (bot.ui.contrast).
SHARE_BLACK = "\N{DIRECT HIT}"
SHARE_WHITE = "\N{TWISTED RIGHTWARDS ARROWS}"
SHARE_EMPTY = "\N{HOLE}\ufe0f"
#: Lines of guesses a share grid shows at most (a classic game's ten all show); a longer
#: game folds its middle into one line.
SHARE_ROWS = 10


def share_row(feedback: Feedback, size: int) -> str:
    """One guess of a share grid: its key pegs, hits first (no colours, no positions, so no
    hint of the code)."""
    empty = size - feedback.black - feedback.white
    return SHARE_BLACK * feedback.black + SHARE_WHITE * feedback.white + SHARE_EMPTY * empty


def share_rows(feedbacks: Sequence[Feedback], size: int) -> list[str]:
    """A game's rows for a share grid, at most :data:`SHARE_ROWS` lines: past that, the
    first four and the last five guesses, and a line saying how many are folded between."""
    rows = [share_row(f, size) for f in feedbacks]
    if len(rows) <= SHARE_ROWS:
        return rows
    first, last = (SHARE_ROWS - 1) // 2, SHARE_ROWS - 1 - (SHARE_ROWS - 1) // 2
    folded = len(rows) - first - last
    # TRANSLATORS: guesses folded out of the middle of a share grid.
    more = trn("{count} more", "{count} more", folded)
    return [*rows[:first], f"\N{VERTICAL ELLIPSIS} {more}", *rows[-last:]]
