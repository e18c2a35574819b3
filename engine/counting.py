"""Counting replies: how candidate guesses split a set of codes, within the work slice.

Every strategy, the exact solver and the lookahead score guesses by the counts of each
reply over the possible codes. The guess x code matrix is never built whole: candidates
are counted in chunks sized by :func:`engine.memory.rows_within`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property
from typing import TypeVar

import numpy as np

from . import memory
from .space import CodeSpace

T = TypeVar("T")


def scored_chunks(
    space: CodeSpace,
    score: Callable[[np.ndarray], T],
    candidates: np.ndarray,
    secrets: np.ndarray,
    row_bytes: int,
) -> Iterator[tuple[np.ndarray, T]]:
    """``(chunk of candidates, score(its reply counts over secrets))``, chunk by chunk.

    Each chunk's temporaries fit the engine's work slice; its counts are let go before it
    is yielded. ``row_bytes``: what ``score`` and the caller hold per candidate."""
    batch = space.against(secrets)
    nfb = space.n_feedback
    s = len(secrets)
    per_row = batch.row_bytes + counting_bytes(s, nfb) + row_bytes
    # Look-ups turn the secrets' keys into pointer-sized indices once per block.
    rows = memory.rows_within(per_row, fixed=16 * s)
    for start in range(0, len(candidates), rows):
        chunk = candidates[start : start + rows]
        yield chunk, score(reply_counts(batch.feedback(chunk), nfb))


class ReplyClasses:
    """The codes of ``s`` by the reply each gives to one guess (``row``, its encoded reply
    per code), the win left out: the one place a set is split by reply. Each class keeps
    ``s``'s order; the codes are sorted by reply only when a class is first asked for."""

    def __init__(self, space: CodeSpace, s: np.ndarray, row: np.ndarray):
        self.s = s
        self.row = row
        #: Codes per reply, 0 for the win (the highest reply, so no class's end moves).
        self.sizes = np.bincount(row, minlength=space.n_feedback)
        self.sizes[space.win] = 0

    @classmethod
    def of_guess(cls, space: CodeSpace, s: np.ndarray, guess: int) -> ReplyClasses:
        return cls(space, s, space.feedback_one(guess, s))

    @cached_property
    def _order(self) -> np.ndarray:
        return np.argsort(self.row, kind="stable")

    @cached_property
    def _ends(self) -> np.ndarray:
        return np.cumsum(self.sizes)

    def of(self, reply: int | np.integer) -> np.ndarray:
        """The codes that give ``reply``."""
        end = self._ends[reply]
        return self.s[self._order[end - self.sizes[reply] : end]]

    def __iter__(self) -> Iterator[tuple[int, np.ndarray]]:
        """``(reply, its codes)`` of every reply given, in reply order."""
        for reply in np.flatnonzero(self.sizes):
            yield int(reply), self.of(reply)


def counting_bytes(secrets: int, n_feedback: int) -> int:
    """Temporary bytes per guess of :func:`reply_counts` (its result included)."""
    return 8 * secrets + 8 * n_feedback


def reply_counts(feedback: np.ndarray, n_feedback: int) -> np.ndarray:
    """``(g, s)`` encoded feedback -> ``(g, n_feedback)`` count of each reply per guess."""
    g = feedback.shape[0]
    # bincount works on pointer-sized integers: made once here, not again inside it.
    flat = feedback.astype(np.intp)
    flat += (np.arange(g, dtype=np.intp) * n_feedback)[:, None]
    return np.bincount(flat.ravel(), minlength=g * n_feedback).reshape(g, n_feedback)


def first_perfect(
    space: CodeSpace, candidates: np.ndarray, secrets: np.ndarray
) -> int | None:
    """The first of ``candidates`` whose replies tell every code of ``secrets`` apart."""
    for chunk, apart in scored_chunks(space, _tells_apart, candidates, secrets, 16):
        perfect = np.flatnonzero(apart)
        if len(perfect):
            return int(chunk[perfect[0]])
    return None


def _tells_apart(counts: np.ndarray) -> np.ndarray:
    return counts.max(axis=1) <= 1
