"""Narrowing the set of possible codes after a reply, in chunks within the work slice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

import numpy as np

from . import memory
from .space import INDEX, CodeSpace, color_counts, every_code

#: Temporary bytes per code of scoring one guess against a chunk of codes (the chunk's
#: indices, the codes' keys or halves as pointer-sized integers, replies and the mask).
CODE_BYTES = 64


def code_slices(space: CodeSpace, possible: np.ndarray | None) -> Iterator[np.ndarray]:
    """The codes of ``possible`` (``None``: every code, never listed at once), a chunk at a
    time small enough to score one guess against within the work slice."""
    total = space.size if possible is None else len(possible)
    for start, stop in space.chunks(CODE_BYTES, total):
        yield np.arange(start, stop, dtype=INDEX) if possible is None else possible[start:stop]


def filter_possible(
    space: CodeSpace, possible: np.ndarray | None, guess: int, reply: int
) -> np.ndarray:
    """The codes of ``possible`` (``None`` = all codes) that give ``reply`` to ``guess``.

    Returns a sorted index array (:data:`~engine.space.INDEX`).
    """
    score: Callable[[np.ndarray], np.ndarray]
    if not space.materialized:
        halves = _HalfGroups(space, guess)
        if possible is None:
            return halves.matching_space(reply)
        score = halves.feedback
    else:
        score = partial(space.feedback_one, guess)
    # Each chunk's matches as bits first, then the result at its exact size: the set
    # is held once, not as pieces and their concatenation (tens of MiB at 8x9).
    hits, total = [], 0
    for chunk in code_slices(space, possible):
        match = score(chunk) == reply
        total += int(np.count_nonzero(match))
        hits.append(np.packbits(match))
    memory.make_room(total * np.dtype(INDEX).itemsize)
    out = np.empty(total, dtype=INDEX)
    at = 0
    for chunk, packed in zip(code_slices(space, possible), hits, strict=True):
        found = chunk[np.unpackbits(packed, count=len(chunk)).view(bool)]
        out[at : at + len(found)] = found
        at += len(found)
    return out


class _HalfGroups:
    """Scores one guess against a space too large to list, without decoding every code.

    A code is a high and a low half of its pegs (index = high * n_low + low). Its reply
    depends only on each half's black count and guess-colour counts, so the halves fall
    into a few hundred groups, and the reply is one look-up in a group x group table.
    """

    def __init__(self, space: CodeSpace, guess: int):
        pegs, colors = space.pegs, space.colors
        g = space.digits(np.array([guess], dtype=np.int64))[0]
        split = pegs // 2
        self._wanted = np.bincount(g, minlength=colors)
        self._used = np.flatnonzero(self._wanted)
        high_keys, self.high_group = self._groups(g[:split], colors)
        low_keys, self.low_group = self._groups(g[split:], colors)
        self.n_low = len(self.low_group)
        black = high_keys[:, 0, None] + low_keys[None, :, 0]
        wanted = self._wanted[self._used]
        capped = np.minimum(high_keys[:, None, 1:] + low_keys[None, :, 1:], wanted)
        self.table = (black * pegs + capped.sum(-1)).astype(np.uint8)

    def _groups(self, part: np.ndarray, colors: int) -> tuple[np.ndarray, np.ndarray]:
        digits = every_code(colors, len(part))
        black = (digits == part).sum(axis=1)
        counts = np.minimum(color_counts(digits, colors)[:, self._used], self._wanted[self._used])
        rows = np.column_stack([black, counts]).astype(np.int64)
        # One integer per row (every value is at most the pegs): a 1-D unique is ~20x
        # faster than np.unique(axis=0); the groups' order doesn't matter.
        flat = rows @ (len(part) + 1 + int(self._wanted.max())) ** np.arange(rows.shape[1])
        _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
        return rows[first], inverse.ravel()

    def feedback(self, codes: np.ndarray) -> np.ndarray:
        high, low = np.divmod(codes, self.n_low)
        return self.table[self.high_group[high], self.low_group[low]]

    def matching_space(self, reply: int) -> np.ndarray:
        """Every code of the space with this reply, in ascending order."""
        match = self.table == reply
        order = np.argsort(self.low_group, kind="stable")
        bounds = np.searchsorted(self.low_group[order], np.arange(self.table.shape[1] + 1))
        members = [order[bounds[j] : bounds[j + 1]] for j in range(self.table.shape[1])]
        low_sets = [
            np.sort(np.concatenate([members[j] for j in np.flatnonzero(row)]))
            if row.any()
            else np.empty(0, dtype=np.int64)
            for row in match
        ]
        # Filled in place: the set can be most of the space's 43 million codes (8x9).
        sizes = np.array([len(s) for s in low_sets], dtype=np.int64)[self.high_group]
        ends = np.cumsum(sizes)
        total = int(ends[-1]) if len(ends) else 0
        memory.make_room(total * np.dtype(INDEX).itemsize)
        out = np.empty(total, dtype=INDEX)
        for high, group in enumerate(self.high_group):
            if sizes[high]:
                part = out[ends[high] - sizes[high] : ends[high]]
                np.add(low_sets[group], high * self.n_low, out=part)
        return out
