"""The guesses worth scoring, up to symmetry: one per partition of the pegs at the first
move, then the lowest code of each class under renaming the colours never played; and the
codes one step from a good guess, where a search improves a sampled pool."""

from __future__ import annotations

import numpy as np

from .memory import Cache
from .space import INDEX, CodeSpace

_FIRST_CANDIDATES: Cache[np.ndarray] = Cache("opening candidates")
_CANONICAL: Cache[np.ndarray] = Cache("canonical guesses")


def first_move_candidates(space: CodeSpace) -> np.ndarray:
    """One code per integer partition of the pegs: all first guesses up to symmetry."""
    return _FIRST_CANDIDATES.get(space.rules, lambda: _first_move_candidates(space))


def _first_move_candidates(space: CodeSpace) -> np.ndarray:
    rules = space.rules
    codes = set()
    shapes = _partitions(rules.pegs, rules.colors) if rules.repeats else [(1,) * rules.pegs]
    for blocks in shapes:
        code = tuple(colour + 1 for colour, size in enumerate(blocks) for _ in range(size))
        codes.add(space.index(code))
    out = np.array(sorted(codes), dtype=np.int64)
    out.setflags(write=False)
    return out


def _partitions(n: int, max_parts: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """Partitions of ``n`` into at most ``max_parts`` parts, each listed largest part first."""
    largest = n if largest is None else largest
    if n == 0:
        return [()]
    if max_parts == 0:
        return []
    return [
        (first, *rest)
        for first in range(min(n, largest), 0, -1)
        for rest in _partitions(n - first, max_parts - 1, first)
    ]


def canonical_guesses(space: CodeSpace, played: frozenset[int]) -> np.ndarray:
    """The lowest code of each class of codes that differ only by renaming unplayed colours."""
    key = frozenset(played)
    if space.colors - len(key) <= 1:
        key = frozenset(range(space.colors))  # nothing to rename: every code, kept once
    return _CANONICAL.get((space.rules, key), lambda: _canonical(space, key))


def _canonical(space: CodeSpace, played: frozenset[int]) -> np.ndarray:
    unplayed = [c for c in range(space.colors) if c not in played]
    if len(unplayed) <= 1:
        return np.arange(space.size, dtype=INDEX)
    rank = np.full(space.colors, -1, dtype=np.int16)
    rank[unplayed] = np.arange(len(unplayed), dtype=np.int16)
    digits = space.digits()
    ok = np.empty(len(digits), dtype=bool)
    for start, stop in space.chunks(8):  # int16 ranks, their bound, a comparison
        part = digits[start:stop]
        highest = np.full(len(part), -1, dtype=np.int16)
        fits = ok[start:stop]
        fits[:] = True
        for p in range(space.pegs):
            r = rank[part[:, p]]
            fits &= r <= highest + 1
            np.maximum(highest, r, out=highest)
    out = np.flatnonzero(ok).astype(INDEX)
    out.setflags(write=False)
    return out


def neighbours(space: CodeSpace, codes: np.ndarray) -> np.ndarray:
    """Every code one step from one of ``codes``: one peg recoloured, or two pegs swapped
    (sorted, ``codes`` among them). Only for sizes with repeated colours, where every such
    change is a code."""
    if not space.rules.repeats:
        raise ValueError("neighbours need a size with repeated colours")
    base = np.asarray(codes, dtype=np.int64)
    digits = space.digits(base).astype(np.int64)
    steps = [base + (colour - digits[:, p]) * space.radix[p]
             for p in range(space.pegs) for colour in range(space.colors)]
    steps += [base + (digits[:, q] - digits[:, p]) * (space.radix[p] - space.radix[q])
              for p in range(space.pegs) for q in range(p + 1, space.pegs)]
    return np.unique(np.concatenate(steps))
