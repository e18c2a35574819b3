"""The safest optimal tree: of the trees with the fewest guesses in total, one whose worst
case needs the fewest guesses, and then the fewest games that need that many.

A tree has the least total only if every subtree has its own set's least total, so the
tie-break looks only at guesses whose total is the set's optimum (the exact solver's value,
checked with a budget of one guess more), and it composes: a guess's worst case is one
more than its children's worst, and the games that need it are those of the children that
reach it. Each set's shape (worst case, games at it) is memoised with its guess. A guess is
skipped without its total being checked when its largest class alone needs a deeper tree
than the best shape so far.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .candidates import first_move_candidates
from .counting import reply_counts
from .optimal import _INF, UNLIMITED, ExactSolver, _key, split
from .rules import Rules

#: (most guesses any code needs, how many codes need that many): lower is safer.
Shape = tuple[int, int]
_WORST: Shape = (_INF, _INF)


class SafestSolver(ExactSolver):
    """:class:`ExactSolver` whose trees break ties in the total by the safest shape."""

    def __init__(self, rules: Rules, limit: int | None = None) -> None:
        super().__init__(rules, limit)
        self._shapes: dict[tuple[bytes, int], tuple[Shape, int]] = {}
        # Least depth of a tree for m codes: the first row of the bound table that is finite.
        finite = self._lbt < _INF
        self._min_depth = np.where(finite.any(axis=0), finite.argmax(axis=0), _INF)

    def shape(self, depth: int | None = None) -> Shape:
        """The safest optimal tree's worst case and the number of codes that need it."""
        d = self.limit if depth is None else min(depth, UNLIMITED)
        return self._shape(self._all, d, None)

    def tree(self, depth: int | None = None) -> list[int]:
        """The safest optimal tree's guesses in pre-order (see :mod:`engine.trees`)."""
        self.shape(depth)
        return super().tree(depth)

    def _tree_guess(self, s: np.ndarray, d: int, group: np.ndarray | None) -> int:
        self._shape(s, d, group)
        return self._shapes[(_key(s), d)][1]

    # ---- the tie-break ----------------------------------------------------------------------
    def _shape(self, s: np.ndarray, d: int, group: np.ndarray | None) -> Shape:
        n = len(s)
        if n <= 2:  # guess one, then the other
            return n, 1
        key = (_key(s), d)
        hit = self._shapes.get(key)
        if hit is not None:
            return hit[0]
        if n == self.space.size:
            value, exact = self._solve_first(d)[0], True
        else:
            value, exact = self._solve(s, d, _INF, group)
        if not exact or value >= _INF:
            raise ValueError("these codes cannot all be solved within the guess limit")
        best, best_guess = _WORST, -1
        for g, row, least_worst, lb in self._candidate_guesses(s, d, value, group):
            if least_worst > best[0]:
                continue  # its largest class alone needs a deeper tree
            child_group = self._child_group(s, group, g)
            if not self._try(s, g, d, value + 1, child_group, row, lb)[1]:
                continue  # not optimal in total
            shape = self._guess_shape(s, g, d, child_group, best)
            if shape < best:
                best, best_guess = shape, g
        self._shapes[key] = (best, best_guess)
        return best

    def _guess_shape(
        self, s: np.ndarray, g: int, d: int, group: np.ndarray | None, best: Shape
    ) -> Shape:
        """The shape of the subtree that plays ``g`` first (its children played safest), or
        something no better than ``best`` once it cannot beat it."""
        worst, count = 1, 0
        for part in sorted(split(self.space, s, g), key=len, reverse=True):
            deep, many = self._shape(part, _child(d), group)
            if deep + 1 > worst:
                worst, count = deep + 1, many
            elif deep + 1 == worst:
                count += many
            if (worst, count) >= best:
                return _WORST
        return worst, count

    def _candidate_guesses(
        self, s: np.ndarray, d: int, value: int, group: np.ndarray | None
    ) -> Iterator[tuple[int, np.ndarray, int, int]]:
        """``(guess, its replies, least worst case, lower bound of its total)`` of every
        guess (one per orbit and per split) whose bound does not exceed ``value``, lowest
        bound first."""
        first = len(s) == self.space.size
        cands = first_move_candidates(self.space) if first else self._candidates(group)
        fb = self.space.against(s).feedback(cands)
        counts = reply_counts(fb, self.space.n_feedback)
        lbs = self._bounds(counts, len(s), d)
        in_s = counts[:, self._win] > 0
        counts[:, self._win] = 0
        least_worst = 1 + self._min_depth[counts.max(axis=1)]
        seen: set[bytes] = set()
        for i in np.lexsort((~in_s, lbs)):
            if lbs[i] > value:
                break
            split_key = fb[i].tobytes()
            if split_key not in seen:
                seen.add(split_key)
                yield int(cands[i]), fb[i], int(least_worst[i]), int(lbs[i])


def _child(d: int) -> int:
    return d if d >= UNLIMITED else d - 1

