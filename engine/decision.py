"""What a decision is and what seeds it, shared by every strategy and the trees.

A decision's sampled choices are seeded by the game's history (:func:`history_key`), so
the same rules, history and seed always give the same guess.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .space import CodeSpace


@dataclass(frozen=True)
class Decision:
    """A strategy's next guess (a code index) and how much it scored to choose it."""

    index: int
    #: False when the bounded-work mode sampled secrets or candidates.
    exact: bool
    candidates: int
    secrets_scored: int


def rng_for(seed: int, strategy: str, history: bytes) -> np.random.Generator:
    digest = hashlib.blake2b(
        history, digest_size=16, key=f"{seed}:{strategy}".encode()[:64]
    ).digest()
    return np.random.default_rng(int.from_bytes(digest, "little"))


def history_key(space: CodeSpace, turns: Iterable[tuple[int, int]]) -> bytes:
    """Bytes naming a game history (guess index, encoded reply): seeds sampled decisions."""
    return b"".join(struct.pack("<qB", guess, reply) for guess, reply in turns)
