"""Deduction puzzles: a few guesses with their key pegs, from which exactly one code follows.

Every puzzle comes with a certificate that :func:`verify` checks without trusting the
generator: the answer scores every clue as shown, it is the only code of the whole space that
fits all the clues, and for each clue a *witness* code fits every other clue but not that
one, so no clue can be dropped.

Difficulty is graded by the reasoning the clues demand, not by size: the *spread* is the
fewest codes that remain when any one clue is left out. Easy puzzles can be narrowed to two
or three codes by all but one clue; hard ones leave many codes open until every clue is
combined.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from i18n import tr

from .codes import Code, as_code
from .errors import MastermindError
from .rules import Rules
from .scoring import Feedback, score_codes
from .space import CodeSpace, space_for


class PuzzleError(MastermindError):
    """A puzzle whose certificate does not hold."""


class Level(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


#: The spread (fewest codes left when one clue is dropped) each level asks for, inclusive.
SPREADS: dict[Level, tuple[int, int]] = {
    Level.EASY: (2, 3),
    Level.MEDIUM: (4, 9),
    Level.HARD: (10, 1 << 30),
}
#: Random guesses weighed for each new clue: easy puzzles take the sharpest of them (few,
#: strong clues), hard ones the bluntest (clues that only combine into an answer).
_CANDIDATES = {Level.EASY: 12, Level.MEDIUM: 3, Level.HARD: 6}
#: Whole attempts (a fresh answer each) before the generator gives up on a level.
MAX_ATTEMPTS = 400


@dataclass(frozen=True, slots=True)
class Clue:
    guess: Code
    feedback: Feedback


@dataclass(frozen=True, slots=True)
class Puzzle:
    """The clues, their answer, and the certificate (one witness per clue)."""

    rules: Rules
    clues: tuple[Clue, ...]
    answer: Code
    witnesses: tuple[Code, ...]
    spread: int

    @property
    def level(self) -> Level:
        return level_of(self.spread)


@dataclass(frozen=True, slots=True)
class Miss:
    """Why a named code is not the answer: the first clue it breaks and what that clue's
    guess would have scored against it."""

    clue: int  # 1-based, as shown
    would_score: Feedback


def level_of(spread: int) -> Level:
    return next(level for level, (low, high) in SPREADS.items() if low <= spread <= high)


def _mask(space: CodeSpace, everything: np.ndarray, clue: Clue) -> np.ndarray:
    """Which codes of the space give this clue's reply to its guess."""
    reply = clue.feedback.encode(space.pegs)
    return space.feedback_one(space.index(clue.guess), everything) == reply


def _without_each(masks: np.ndarray) -> np.ndarray:
    """Row ``i``: the codes that fit every clue but (possibly) clue ``i``."""
    k, n = masks.shape
    before = np.ones((k + 1, n), dtype=bool)
    after = np.ones((k + 1, n), dtype=bool)
    for i in range(k):
        np.logical_and(before[i], masks[i], out=before[i + 1])
        np.logical_and(after[k - i], masks[k - 1 - i], out=after[k - 1 - i])
    return before[:k] & after[1:]


def _certify(space: CodeSpace, answer: int, masks: np.ndarray) -> tuple[tuple[Code, ...], int]:
    """Witnesses (the lowest code besides the answer that fits all clues but one) and spread."""
    open_sets = _without_each(masks)
    witnesses = []
    for row in open_sets:
        others = np.flatnonzero(row)
        witnesses.append(space.code(int(others[others != answer][0])))
    return tuple(witnesses), int(open_sets.sum(axis=1).min())


def certify(rules: Rules, clues: tuple[Clue, ...], answer: Code) -> Puzzle:
    """The puzzle these clues make, with its certificate worked out (witnesses and spread);
    raises :class:`PuzzleError` unless exactly the answer fits and no clue can be dropped."""
    space = space_for(rules)
    everything = space.all_indices()
    masks = np.array([_mask(space, everything, clue) for clue in clues])
    if np.flatnonzero(np.logical_and.reduce(masks)).tolist() != [space.index(answer)]:
        raise PuzzleError("the clues do not leave exactly the answer")
    if _without_each(masks).sum(axis=1).min() < 2:
        raise PuzzleError("a clue can be dropped")
    witnesses, spread = _certify(space, space.index(answer), masks)
    return Puzzle(rules, clues, answer, witnesses, spread)


def _prune(masks: list[np.ndarray], order: np.ndarray) -> list[int]:
    """Indices of a minimal subset of clues that still leaves one code: clues are tried for
    removal in ``order``, and one goes whenever the rest still pin the answer down."""
    kept = list(range(len(masks)))
    for i in order:
        rest = [j for j in kept if j != i]
        if rest and np.logical_and.reduce([masks[j] for j in rest]).sum() == 1:
            kept = rest
    return kept


def _attempt(rules: Rules, level: Level, rng: np.random.Generator) -> Puzzle | None:
    space = space_for(rules)
    everything = space.all_indices()
    answer = int(rng.integers(space.size))
    secret = space.code(answer)
    alive = np.ones(space.size, dtype=bool)
    clues: list[Clue] = []
    masks: list[np.ndarray] = []
    while alive.sum() > 1:
        best: tuple[int, Clue, np.ndarray] | None = None
        for guess in rng.integers(space.size, size=_CANDIDATES[level]):
            if guess == answer:
                continue
            code = space.code(int(guess))
            clue = Clue(code, score_codes(secret, code))
            mask = _mask(space, everything, clue)
            left = int(np.count_nonzero(alive & mask))
            if left == alive.sum():
                continue  # tells nothing new
            sharper = best is None or (left < best[0] if level is Level.EASY else left > best[0])
            if sharper:
                best = (left, clue, mask)
        if best is None:
            continue
        clues.append(best[1])
        masks.append(best[2])
        alive &= best[2]
    kept = _prune(masks, rng.permutation(len(masks)))
    clues = [clues[i] for i in kept]
    stacked = np.array([masks[i] for i in kept])
    if len(clues) < 2:
        return None  # one clue alone is no deduction
    witnesses, spread = _certify(space, answer, stacked)
    if level_of(spread) is not level:
        return None
    return Puzzle(rules, tuple(clues), secret, witnesses, spread)


def generate(rules: Rules, level: Level = Level.MEDIUM, *, seed: int | None = None) -> Puzzle:
    """A certified puzzle of ``level`` (the same one for the same ``seed``)."""
    rng = np.random.default_rng(seed)
    for _ in range(MAX_ATTEMPTS):
        puzzle = _attempt(rules, level, rng)
        if puzzle is not None:
            return puzzle
    raise PuzzleError(tr("no {level} puzzle found at {size}", level=level,
                         size=f"{rules.pegs}x{rules.colors}"))


def verify(puzzle: Puzzle) -> None:
    """Check the certificate from scratch; raises :class:`PuzzleError` if it fails."""
    rules = puzzle.rules
    space = space_for(rules)
    if len(puzzle.witnesses) != len(puzzle.clues) or len(puzzle.clues) < 2:
        raise PuzzleError("a puzzle needs two clues or more and one witness per clue")
    for n, clue in enumerate(puzzle.clues, 1):
        if score_codes(puzzle.answer, clue.guess) != clue.feedback:
            raise PuzzleError(f"clue {n} does not score {clue.feedback} against the answer")
    everything = space.all_indices()
    masks = np.array([_mask(space, everything, clue) for clue in puzzle.clues])
    fits = np.flatnonzero(np.logical_and.reduce(masks))
    if fits.tolist() != [space.index(puzzle.answer)]:
        raise PuzzleError(f"{len(fits)} codes fit every clue, not exactly the answer")
    for n, witness in enumerate(puzzle.witnesses, 1):
        broken = [m for m, clue in enumerate(puzzle.clues, 1)
                  if score_codes(witness, clue.guess) != clue.feedback]
        if broken != [n]:
            raise PuzzleError(f"witness {n} does not show that clue {n} is needed")
    if _certify(space, space.index(puzzle.answer), masks)[1] != puzzle.spread:
        raise PuzzleError("the spread is not the one the clues give")


def check_answer(puzzle: Puzzle, code: str | Code) -> Miss | None:
    """None when ``code`` is the answer; else the first clue it breaks."""
    named = as_code(code)
    for n, clue in enumerate(puzzle.clues, 1):
        would = score_codes(named, clue.guess)
        if would != clue.feedback:
            return Miss(n, would)
    if named != puzzle.answer:  # impossible for a certified puzzle
        raise PuzzleError("a code other than the answer fits every clue")
    return None
