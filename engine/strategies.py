"""How the code breaker picks its next guess from the codes still possible.

The partition strategies (Knuth, Irving, entropy, Kooi) all build the same guess x reply
count matrix and differ only in how they reduce each row to a score. Exact shortcuts keep
the matrix small without changing any answer:

* at the first move every code is equivalent to one whose colours and positions are
  sorted by block size (``1122``), so only one guess per integer partition of the pegs is
  scored;
* later, colours never played are interchangeable, so only the lowest code of each class
  under renaming those colours is scored (the lowest of a class always wins the tie-break);
* with one or two codes left, or when a possible code splits the rest into singletons,
  the answer is known without the full matrix.

When the exact matrix would be too large (6x9 and up) the decision is made in a
bounded-work mode: the replies are counted over a seeded sample of the possible codes and
the candidate guesses are a seeded sample of possible and canonical codes. Every choice is
deterministic for the same rules, history and seed.

The matrix is never built whole: candidates are scored in chunks that fit the engine's
work slice (:func:`engine.memory.rows_within`), keeping only the best so far, so a
decision's memory does not grow with the number of candidates or secrets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from i18n import mark

from .candidates import canonical_guesses, first_move_candidates
from .counting import first_perfect, scored_chunks
from .decision import Decision, rng_for
from .errors import UnknownStrategy
from .memory import Cache
from .space import CodeSpace
from .strongest import planned_decision

CountsReducer = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Strategy:
    name: str
    #: Its idea in English, marked for the catalogs: shown as ``tr(strategy.description)``.
    description: str
    #: Reduces a ``(guesses, replies)`` count matrix to one score per guess; lowest wins.
    reduce: CountsReducer | None = None

    @property
    def uses_partitions(self) -> bool:
        return self.reduce is not None


def _worst_case(counts: np.ndarray) -> np.ndarray:
    return counts.max(axis=1)


def _expected_size(counts: np.ndarray) -> np.ndarray:
    c = counts.astype(np.int64, copy=False)
    return (c * c).sum(axis=1)


def _entropy(counts: np.ndarray) -> np.ndarray:
    # Maximising entropy = minimising sum(c log c); rounding makes equal partitions tie exactly.
    table = _xlogx(int(counts.max()) + 1)
    return np.round(table[counts].sum(axis=1), 9)


_XLOGX: Cache[np.ndarray] = Cache("x log x tables")
_DECISIONS: Cache[_Remembered] = Cache("decisions")
#: What one remembered decision costs beyond its history's bytes: the cache's entry, its
#: key and the decision (646 bytes with a 27-byte history, measured with tracemalloc;
#: tests/test_engine_memory.py checks it).
DECISION_OVERHEAD = 620


@dataclass(frozen=True)
class _Remembered:
    """A decision taken after ``history``, kept whole with what it costs to keep."""

    decision: Decision
    history: bytes

    @property
    def nbytes(self) -> int:
        return DECISION_OVERHEAD + len(self.history)


def _xlogx(n: int) -> np.ndarray:
    size = 1 << max(n - 1, 1).bit_length()  # round up so few sizes are kept

    def build() -> np.ndarray:
        x = np.arange(size, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(x > 0, x * np.log2(np.maximum(x, 1)), 0.0)
    return _XLOGX.get(size, build)


def _most_parts(counts: np.ndarray) -> np.ndarray:
    return -(counts > 0).sum(axis=1)


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy("knuth", mark("Knuth 1976: minimise the worst case (at most 5 guesses at 4x6)"),
                 _worst_case),
        Strategy("expected-size",
                 mark("Irving 1979: minimise the expected number of codes left"), _expected_size),
        Strategy("entropy", mark("Maximise the information (entropy) of the reply"), _entropy),
        Strategy("most-parts", mark("Kooi 2005: maximise the number of different replies"),
                 _most_parts),
        Strategy("first-consistent", mark("Guess the lowest code that fits every reply so far")),
        Strategy("random-consistent", mark("Guess a random code that fits every reply (seeded)")),
        Strategy("optimal", mark("Fewest guesses in total (5625 at 4x6), from shipped optimal "
                                  "trees; lookahead at sizes without one")),
        Strategy("lookahead", mark("Complete the game for the best few greedy guesses and "
                                    "play the best completed one")),
    )
}
DEFAULT_STRATEGY = "knuth"
#: Strategies that plan ahead (engine.strongest), not by one partition score.
PLANNED = ("optimal", "lookahead")


def get_strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise UnknownStrategy(
            f"unknown strategy {name!r}: choose one of {', '.join(STRATEGIES)}"
        ) from None


@dataclass(frozen=True)
class Budget:
    """How much scoring one decision may do (entries of the guess x secret matrix)."""

    #: Up to this many entries the decision is exact (~0.3 s at 5x8)...
    exact_entries: int = 40_000_000
    #: ...or this many in spaces larger than ``large_space`` codes, where each entry costs
    #: more and the bounded-work mode plays nearly as well (keeps every move well under 2 s).
    exact_entries_large: int = 16_000_000
    large_space: int = 50_000

    def exact_limit(self, space_size: int) -> int:
        return self.exact_entries if space_size <= self.large_space else self.exact_entries_large
    #: In bounded-work mode: how many possible codes the replies are counted over...
    sample_secrets: int = 2_000
    #: ...and how many entries in all (candidates x sampled secrets)...
    bounded_entries: int = 12_000_000
    #: ...over at most this many candidate guesses.
    max_candidates: int = 20_000


DEFAULT_BUDGET = Budget()


def choose_guess(
    space: CodeSpace,
    strategy: Strategy,
    possible: np.ndarray | None,
    played: frozenset[int],
    *,
    history: bytes = b"",
    seed: int = 0,
    budget: Budget = DEFAULT_BUDGET,
) -> Decision:
    """Pick the next guess (a code index).

    ``possible`` is the sorted array of code indices that fit every reply, or ``None`` before
    the first reply (all codes). ``played`` holds the 0-based colours guessed so far;
    ``history`` names the game so far (:func:`~engine.decision.history_key`): decisions are
    remembered by it.
    """
    n = space.size if possible is None else len(possible)
    if n == 0:
        raise ValueError("no possible code left")
    if n <= 2 or (possible is not None and not history):
        return _choose(space, strategy, possible, played, history, seed, budget)
    # The same history always gets the same decision (seeded by it): the opening move, games
    # that reach a position another game reached (the same opening and replies), and a
    # session rebuilt from its stored replies after a restart take it without thinking again.
    return _DECISIONS.get(
        (space.rules, strategy, seed, budget, history),
        lambda: _Remembered(_choose(space, strategy, possible, played, history, seed, budget),
                            history)).decision


def _choose(
    space: CodeSpace,
    strategy: Strategy,
    possible: np.ndarray | None,
    played: frozenset[int],
    history: bytes,
    seed: int,
    budget: Budget,
) -> Decision:
    n = space.size if possible is None else len(possible)

    def nth(i: int) -> int:
        return int(i if possible is None else possible[i])

    if strategy.name in PLANNED:
        return planned_decision(space, strategy.name, possible, played, history, seed)
    if strategy.name == "random-consistent":
        return Decision(nth(int(rng_for(seed, strategy.name, history).integers(n))), True, n, 0)
    if not strategy.uses_partitions or n <= 2:
        return Decision(nth(0), True, n, 0)
    return _decide(space, strategy, possible, played, history, seed, budget)


def _decide(
    space: CodeSpace,
    strategy: Strategy,
    possible: np.ndarray | None,
    played: frozenset[int],
    history: bytes,
    seed: int,
    budget: Budget,
) -> Decision:
    n = space.size if possible is None else len(possible)
    if possible is None:
        candidates: np.ndarray | None = first_move_candidates(space)
    elif space.materialized:
        candidates = canonical_guesses(space, played)
    else:
        candidates = None  # too many to list: sampled below
    # The secrets are every possible code; before the first reply, every code (listed
    # only where the space is small enough, and only when needed).
    listed = possible is not None or space.materialized

    if possible is not None and n <= budget.sample_secrets:
        perfect = _perfect_split(space, possible)
        if perfect is not None:
            return Decision(perfect, True, n, n)
    if (
        candidates is not None
        and listed
        and len(candidates) * n <= budget.exact_limit(space.size)
    ):
        secrets = space.all_indices() if possible is None else possible
        index = best_guess(space, strategy, candidates, secrets, possible)
        return Decision(index, True, len(candidates), n)

    # Bounded-work mode.
    rng = rng_for(seed, strategy.name, history)
    m = min(n, budget.sample_secrets)
    if not listed:
        sample = np.unique(rng.integers(0, space.size, size=m, dtype=np.int64))
    elif m < n:
        # Drawing positions picks what drawing from the listed secrets would.
        drawn = rng.choice(n, size=m, replace=False)
        sample = np.sort(drawn if possible is None else possible[drawn])
    else:
        sample = space.all_indices() if possible is None else possible
    room = max(min(budget.bounded_entries // len(sample), budget.max_candidates), 2)
    if candidates is None or len(candidates) > room:
        half = room // 2
        picks = [sample[rng.choice(len(sample), size=min(half, len(sample)), replace=False)]]
        pool = candidates
        if pool is None:
            picks.append(rng.integers(0, space.size, size=room - half, dtype=np.int64))
        else:
            picks.append(rng.choice(pool, size=min(room - half, len(pool)), replace=False))
        candidates = np.unique(np.concatenate(picks))
    index = best_guess(space, strategy, candidates, sample, possible)
    return Decision(index, False, len(candidates), len(sample))


def best_guess(
    space: CodeSpace,
    strategy: Strategy,
    candidates: np.ndarray,
    secrets: np.ndarray,
    possible: np.ndarray | None,
) -> int:
    """Lowest score wins; ties go to a possible code, then to the lowest code.

    Scored chunk by chunk, keeping only the best so far: the candidates are sorted, so
    the first tied candidate (possible or not) seen is the lowest."""
    assert strategy.reduce is not None  # only partition strategies get here
    best_key: float | None = None
    best_possible: int | None = None
    best_any = -1
    # A reducer holds two int64 or float arrays as wide as the counts; the scores and the
    # tie-break masks take a few more words.
    reducing = 16 * space.n_feedback + 32
    for chunk, keys in scored_chunks(space, strategy.reduce, candidates, secrets, reducing):
        low = keys.min()
        if best_key is not None and low > best_key:
            continue
        tied = keys == low
        if best_key is None or low < best_key:
            best_key, best_possible, best_any = low, None, int(chunk[np.argmax(tied)])
        if best_possible is None:
            possible_tied = tied & _is_possible(chunk, possible)
            if possible_tied.any():
                best_possible = int(chunk[np.argmax(possible_tied)])
    return best_any if best_possible is None else best_possible


def _is_possible(candidates: np.ndarray, possible: np.ndarray | None) -> np.ndarray:
    if possible is None:
        return np.ones(len(candidates), dtype=bool)
    pos = np.searchsorted(possible, candidates)
    pos[pos >= len(possible)] = 0
    return possible[pos] == candidates


def _perfect_split(space: CodeSpace, possible: np.ndarray) -> int | None:
    """The lowest possible code whose replies tell every remaining code apart, if any.

    Such a guess is optimal for every partition strategy and wins their tie-breaks."""
    return first_perfect(space, possible, possible)


