"""What a hint may say about a running game: facts that follow from its replies alone.

Level 1: how many codes still fit every reply. Level 2: a colour that is surely in the
code, or surely not in it. Level 3: a code that fits every reply so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .codes import Code
from .filtering import code_slices, filter_possible
from .rules import Rules
from .scoring import Feedback
from .space import CodeSpace, space_for


@dataclass(frozen=True)
class Facts:
    rules: Rules
    #: How many codes fit every reply.
    count: int
    #: Colours (1-based) in every code that fits, and in none of them.
    surely_in: tuple[int, ...]
    surely_out: tuple[int, ...]
    #: For each colour (index 0 = colour 1): how many of the fitting codes contain it.
    containing: tuple[int, ...]
    #: A code that fits every reply (chosen by ``pick``), or None when none does.
    fitting: Code | None


def still_possible(space: CodeSpace, turns: Sequence[tuple[Code, Feedback]]
                   ) -> np.ndarray | None:
    """Indices of the codes that fit every reply (``None`` = every code, no replies yet)."""
    possible: np.ndarray | None = None
    for guess, reply in turns:
        possible = filter_possible(space, possible, space.index(tuple(guess)),
                                   Feedback(*reply).encode(space.pegs))
    return possible


def colour_counts(space: CodeSpace, possible: np.ndarray) -> np.ndarray:
    """For each colour (0-based): how many codes of ``possible`` contain it."""
    counts = np.zeros(space.colors, dtype=np.int64)
    for chunk in code_slices(space, possible):
        digits = space.digits(chunk)
        present = np.zeros((len(digits), space.colors), dtype=bool)
        rows = np.arange(len(digits))
        for peg in range(space.pegs):
            present[rows, digits[:, peg]] = True
        counts += present.sum(axis=0)
    return counts


def facts(rules: Rules, turns: Sequence[tuple[Code, Feedback]], *, pick: int = 0) -> Facts:
    """The hints' facts about a game with these guesses and replies. ``pick`` chooses which
    fitting code a level-3 hint names (the same game and pick always give the same code)."""
    space = space_for(rules)
    possible = still_possible(space, turns)
    if possible is None:  # nothing guessed yet: count over every code of the space
        possible = space.all_indices() if space.materialized else None
    if possible is None:  # too many codes to list, and no reply to go on: nothing is sure
        return Facts(rules, space.size, (), (), (), space.code(pick % space.size))
    if len(possible) == 0:
        return Facts(rules, 0, (), (), (0,) * rules.colors, None)
    counts = colour_counts(space, possible)
    return Facts(
        rules, len(possible),
        tuple(int(c) + 1 for c in np.flatnonzero(counts == len(possible))),
        tuple(int(c) + 1 for c in np.flatnonzero(counts == 0)),
        tuple(int(n) for n in counts),
        space.code(int(possible[pick % len(possible)])),
    )
