"""Reading and writing codes.

A code is a tuple of colour digits (1-based), e.g. ``(1, 1, 2, 3)``. People may type it
as ``1123``, ``1 1 2 3``, ``1-1-2-3``, ``1,1,2,3``, in full-width digits, with one letter
per colour (``RROY``) or with the colour emoji themselves. Every rejection says what is
wrong and how to write it right.
"""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections import Counter
from collections.abc import Sequence

from i18n import tr, trn

from .colors import BY_EMOJI, BY_LETTER, PALETTE, letters
from .errors import InvalidCode
from .rules import MAX_COLORS, Rules

Code = tuple[int, ...]

#: Characters that may separate pegs; they are ignored.
SEPARATORS = frozenset(" \t\n\r-,._/|;:+")
#: Longest raw text we look at; anything longer is refused before parsing.
MAX_INPUT_CHARS = 64
_VARIATION_SELECTORS = frozenset("\ufe0e\ufe0f")


def _describe_char(ch: str) -> str:
    if ch.isprintable() and not ch.isspace():
        return repr(ch)
    return f"U+{ord(ch):04X}"


def _read_symbols(text: str, rules: Rules | None) -> list[int]:
    """Turn text into colour digits without checking them against the rules yet."""
    if len(text) > MAX_INPUT_CHARS:
        raise InvalidCode(trn(
            "that is {count} character long; a code is just its colours, like {example}",
            "that is {count} characters long; a code is just its colours, like {example}",
            len(text), example=example(rules)))
    digits: list[int] = []
    position = 0
    for raw in text:
        if raw in _VARIATION_SELECTORS:
            continue
        if raw in BY_EMOJI:
            position += 1
            digits.append(BY_EMOJI[raw].digit)
            continue
        ch = unicodedata.normalize("NFKC", raw)
        if (len(ch) == 1 and ch in SEPARATORS) or ch.isspace() or not ch:
            continue
        position += 1
        if ch.isdigit() and ch.isascii():
            digits.append(int(ch))
        elif ch.upper() in BY_LETTER:
            digits.append(BY_LETTER[ch.upper()].digit)
        else:
            colours = rules.colors if rules else MAX_COLORS
            raise InvalidCode(tr(
                "unknown character {character} at peg {position}: use the digits "
                "1-{colours} or the letters {letters}", character=_describe_char(raw),
                position=position, colours=colours, letters=letters(colours)))
    return digits


def example(rules: Rules | None) -> str:
    """A valid example code for these rules, such as ``1123`` (or ``1234`` without repeats)."""
    if rules is None:
        return "1123"
    if rules.repeats:
        pattern = [1, 1, 2, 3, 4, 5, 6, 1]
        return "".join(str(min(d, rules.colors)) for d in pattern[: rules.pegs])
    return "".join(str(d) for d in range(1, rules.pegs + 1))


def parse_code(text: str | Sequence[int], rules: Rules) -> Code:
    """Read a code and check it against the rules; raise :class:`InvalidCode` if it breaks them."""
    if isinstance(text, str):
        stripped = text.strip()
        if not stripped:
            empty = tr("the code is empty")
            raise InvalidCode(_then(empty, _type_pegs(rules)))
        digits = _read_symbols(stripped, rules)
    else:
        digits = [int(d) for d in text]
    if len(digits) != rules.pegs:
        expected = trn("expected {count} peg, got {got}", "expected {count} pegs, got {got}",
                       rules.pegs, got=len(digits))
        raise InvalidCode(_then(expected, _type_pegs(rules)))
    for position, digit in enumerate(digits, start=1):
        if not 1 <= digit <= rules.colors:
            raise InvalidCode(tr(
                "colour {digit} ({colour}) at peg {position} is out of range: this game uses "
                "colours 1-{colours} ({letters})", digit=digit, colour=_name(digit),
                position=position, colours=rules.colors, letters=letters(rules.colors)))
    if not rules.repeats:
        repeated = [d for d, n in Counter(digits).items() if n > 1]
        if repeated:
            d, times = repeated[0], digits.count(repeated[0])
            problem = tr("colour {digit} appears twice, but repeats are off in this game",
                         digit=d) if times == 2 else trn(
                "colour {digit} appears {count} time, but repeats are off in this game",
                "colour {digit} appears {count} times, but repeats are off in this game",
                times, digit=d)
            fix = trn("use {count} different colour, like {example}",
                      "use {count} different colours, like {example}", rules.pegs,
                      example=example(rules))
            raise InvalidCode(_then(problem, fix))
    return tuple(digits)


def _then(problem: str, fix: str) -> str:
    """What is wrong, then how to put it right, punctuated as the reader's language does."""
    # TRANSLATORS: joins what is wrong with a code to how to type it right.
    return tr("{problem}: {fix}", problem=problem, fix=fix)


def _type_pegs(rules: Rules) -> str:
    """How to type a code of these rules right."""
    return trn("type {count} colour, like {example}", "type {count} colours, like {example}",
               rules.pegs, example=example(rules))


def _name(digit: int) -> str:
    """``N = brown``: a digit's letter and colour name, for a digit out of a game's range."""
    if not 1 <= digit <= len(PALETTE):
        return tr("no such colour")
    return f"{PALETTE[digit - 1].letter} = {PALETTE[digit - 1].spoken}"


def as_code(value: str | Sequence[int]) -> Code:
    """Read a code without rules (any length, colours 1-9); used by :func:`engine.score`."""
    if isinstance(value, str):
        digits = _read_symbols(value.strip(), None)
    else:
        digits = [int(d) for d in value]
    if not digits:
        raise InvalidCode(tr("the code is empty"))
    for position, digit in enumerate(digits, start=1):
        if not 1 <= digit <= MAX_COLORS:
            raise InvalidCode(tr("colour {digit} at peg {position} is out of range: use 1-9",
                                 digit=digit, position=position))
    return tuple(digits)


def format_code(code: Sequence[int]) -> str:
    """``(1, 1, 2, 3)`` -> ``"1123"``."""
    return "".join(str(d) for d in code)


def code_from_digits(text: str) -> Code:
    """``"1123"`` -> ``(1, 1, 2, 3)``: the inverse of :func:`format_code`, for stored codes."""
    return tuple(int(d) for d in text)


def draw_secret(rules: Rules, seed: int | None = None) -> Code:
    """A uniformly random code: from the OS's secure source, or reproducible from ``seed``."""
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
    colours = range(1, rules.colors + 1)
    if rules.repeats:
        return tuple(rng.choice(colours) for _ in range(rules.pegs))
    return tuple(rng.sample(colours, rules.pegs))


def format_letters(code: Sequence[int]) -> str:
    """``(1, 1, 2, 3)`` -> ``"RROY"``."""
    return "".join(PALETTE[d - 1].letter for d in code)


def format_emoji(code: Sequence[int]) -> str:
    """The code as colour emoji."""
    return "".join(PALETTE[d - 1].emoji for d in code)
