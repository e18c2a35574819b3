"""Counting replies: how candidate guesses split a set of codes, within the work slice.

Every strategy, the exact solver and the lookahead score guesses by the counts of each
reply over the possible codes. The guess x code matrix is never built whole: candidates
are counted in chunks sized by :func:`engine.memory.rows_within`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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
