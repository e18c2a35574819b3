"""Black and white pegs: scoring a guess, and checking a reply a person gave.

black = positions where guess and code agree; white = sum over colours of
min(count in code, count in guess), minus black.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from i18n import tr, trn

from .codes import Code, as_code, format_code
from .errors import InvalidCode, InvalidFeedback
from .memory import Cache
from .rules import Rules

_REPLIES: Cache[frozenset[Feedback]] = Cache("possible replies")


class Feedback(NamedTuple):
    black: int
    white: int

    def is_win(self, pegs: int) -> bool:
        return self.black == pegs

    def encode(self, pegs: int) -> int:
        """A small integer, ``black * pegs + (black + white)``: the form the solvers count in."""
        return self.black * pegs + self.black + self.white

    @classmethod
    def decode(cls, value: int, pegs: int) -> Feedback:
        # value = black * (pegs + 1) + white, and white <= pegs - black < pegs + 1
        black, white = divmod(int(value), pegs + 1)
        return cls(black, white)

    def __str__(self) -> str:
        return tr("{black} black, {white} white", black=self.black, white=self.white)


def score(secret: str | Sequence[int], guess: str | Sequence[int]) -> Feedback:
    """Score ``guess`` against ``secret``; both may be strings like ``"1123"`` or digit tuples."""
    s, g = as_code(secret), as_code(guess)
    if len(s) != len(g):
        raise InvalidCode(tr("the codes have different lengths ({first} and {second})",
                             first=len(s), second=len(g)))
    return score_codes(s, g)


def score_codes(secret: Code, guess: Code) -> Feedback:
    """Score two already valid codes of the same length."""
    black = sum(a == b for a, b in zip(secret, guess, strict=True))
    common = Counter(secret) & Counter(guess)
    return Feedback(black, sum(common.values()) - black)


def possible_feedbacks(rules: Rules, guess: Code) -> frozenset[Feedback]:
    """Every reply that some code of ``rules`` gives to ``guess``."""
    # Permuting positions of code and guess together keeps the score, and so does renaming
    # colours: the answer depends only on the sorted pattern of the guess.
    counts = sorted(Counter(guess).values(), reverse=True)
    canonical = tuple(i for i, n in enumerate(counts) for _ in range(n))
    key = (rules.pegs, rules.colors, rules.repeats, canonical)
    return _REPLIES.get(key, lambda: _possible_feedbacks(*key))


def _possible_feedbacks(
    pegs: int, colors: int, repeats: bool, guess: tuple[int, ...]
) -> frozenset[Feedback]:
    in_guess = Counter(guess)
    palette = sorted(in_guess)
    others = colors - len(palette)  # colours the guess does not use: interchangeable
    caps = tuple(in_guess[c] for c in palette)

    @cache
    def reach(pos: int, used: tuple[int, ...], others_used: int) -> frozenset[tuple[int, int]]:
        """(black from here on, final common count) reachable from this partial code."""
        if pos == pegs:
            return frozenset({(0, sum(min(u, cap) for u, cap in zip(used, caps, strict=True)))})
        out: set[tuple[int, int]] = set()
        for i, colour in enumerate(palette):
            if not repeats and used[i]:
                continue
            nxt = list(used)
            nxt[i] = min(used[i] + 1, caps[i])
            hit = 1 if colour == guess[pos] else 0
            out.update((b + hit, t) for b, t in reach(pos + 1, tuple(nxt), others_used))
        if others_used < others:
            step = 1 if not repeats else 0
            out.update(reach(pos + 1, used, others_used + step))
        return frozenset(out)

    return frozenset(
        Feedback(b, t - b) for b, t in reach(0, tuple(0 for _ in palette), 0)
    )


def validate_feedback(rules: Rules, guess: Code, feedback: Feedback | tuple[int, int]) -> Feedback:
    """Return the reply as a :class:`Feedback`, or raise :class:`InvalidFeedback` saying why
    no code of these rules could give it for this guess."""
    black, white = (int(x) for x in feedback)
    pegs = rules.pegs
    if not 0 <= black <= pegs or not 0 <= white <= pegs:
        raise InvalidFeedback(tr("black and white must each be between 0 and {pegs}",
                                 pegs=pegs))
    if black + white > pegs:
        raise InvalidFeedback(trn(
            "{black} black + {white} white = {total}, but there is only {count} peg",
            "{black} black + {white} white = {total}, but there are only {count} pegs",
            pegs, black=black, white=white, total=black + white))
    if black == pegs - 1 and white == 1:
        raise InvalidFeedback(trn(
            "{count} black and 1 white can't happen: if {count} peg is right, the last peg "
            "can't be a right colour in the wrong place",
            "{count} black and 1 white can't happen: if {count} pegs are right, the last peg "
            "can't be a right colour in the wrong place", black))
    fb = Feedback(black, white)
    if fb in possible_feedbacks(rules, guess):
        return fb
    shown = format_code(guess)
    distinct = len(set(guess))
    if not rules.repeats and black + white < 2 * pegs - rules.colors:
        least = 2 * pegs - rules.colors
        raise InvalidFeedback(tr(
            "without repeats, {pegs} different colours out of {colours} always share at "
            "least {least} with {code}: black + white must be at least {least}",
            pegs=pegs, colours=rules.colors, least=least, code=shown))
    if distinct == 1 and white:
        raise InvalidFeedback(tr(
            "{code} is all one colour, so every peg of that colour in your code is black: "
            "white must be 0", code=shown))
    raise InvalidFeedback(tr("no code gives {reply} for {code} under these rules",
                             reply=fb, code=shown))
