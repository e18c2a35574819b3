"""Lookahead: the greedy scores' best few candidates, each played out to the end.

One-step scores (entropy, most parts) lose most of their guesses in the first decisions.
Here the best few candidates of those scores are each *completed*: every code still
possible is played out with a fast greedy policy that guesses possible codes, and the
candidate whose completed total is smallest is played. Small sets are played exactly
(a guess that tells every code apart is optimal), and the first levels of large sizes
come from an opening book computed offline (``engine/data/books``, built by
:mod:`engine.openings`) so that every live move stays fast. Every choice is deterministic
for the same rules, history and seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

import numpy as np

from .candidates import canonical_guesses, first_move_candidates, neighbours
from .counting import ReplyClasses, first_perfect, reply_counts, scored_chunks
from .decision import Decision, rng_for
from .memory import Cache
from .rules import Rules
from .space import CodeSpace, space_for

_BOOKS = "data/books"


@dataclass(frozen=True)
class LookaheadBudget:
    """How much work one lookahead decision may do."""

    #: Candidates completed per decision (the best of the greedy scores).
    top: int = 8
    #: Candidates completed where the ranking sampled the candidates (6x9 and larger): it
    #: ranks a sample, so more of its best are completed, each over every rollout code.
    sampled_top: int = 32
    #: Guess x secret entries for ranking the candidates by the greedy scores.
    rank_entries: int = 6_000_000
    #: Secrets the ranking is counted over when more are possible (a seeded sample).
    rank_secrets: int = 2_000
    #: Codes the candidates are completed over (a seeded sample of larger sets; 0: none).
    rollout_limit: int = 1_500
    #: Candidates completed x codes completed, per decision (fewer candidates in big sets).
    rollout_codes: int = 8_000
    #: Guess x secret entries each node of a completion may score.
    rollout_entries: int = 250_000
    #: Guess x secret entries spent looking for a guess that tells every code apart.
    perfect_entries: int = 1_000_000
    #: Spaces above this many codes score each entry slower: they rank over half as many.
    large_space: int = 100_000
    #: Where the ranking sampled the candidates, the best this many by each score are
    #: searched around (one peg recoloured or two swapped)...
    search_top: int = 24
    #: ...for at most this many rounds (0: no search).
    search_rounds: int = 4

    def ranking_entries(self, space_size: int) -> int:
        return self.rank_entries if space_size <= self.large_space else self.rank_entries // 2


DEFAULT_LOOKAHEAD = LookaheadBudget()


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Minus the reply entropy, times the set size (lowest is best); equal splits tie."""
    x = np.arange(int(counts.max()) + 1, dtype=np.float64)
    xlogx = x * np.log2(np.maximum(x, 1))
    return xlogx[counts].sum(axis=1).round(9)


def _scores(
    space: CodeSpace, candidates: np.ndarray, secrets: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Entropy and most-parts scores of every candidate (lowest is best), in one pass, and
    a key of the sizes of the classes each makes (with the win's apart)."""
    weights = np.random.default_rng(0).integers(1, 1 << 62, size=space.n_feedback + 1)
    entropy, parts, shapes = [], [], []
    for _, (e, p, k) in scored_chunks(space, lambda counts: _three_scores(space, counts, weights),
                                      candidates, secrets, 32 * space.n_feedback + 64):
        entropy.append(e)
        parts.append(p)
        shapes.append(k)
    return np.concatenate(entropy), np.concatenate(parts), np.concatenate(shapes)


def _three_scores(
    space: CodeSpace, counts: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Entropy, most parts and shape of split (the sorted class sizes, hashed) of a chunk."""
    entropy, parts = _entropy(counts), -(counts > 0).sum(axis=1)
    won = counts[:, space.win].copy()
    counts[:, space.win] = 0
    counts.sort(axis=1)
    return entropy, parts, np.column_stack([counts, won]) @ weights


def lookahead_decision(
    space: CodeSpace,
    possible: np.ndarray | None,
    played: frozenset[int],
    history: bytes,
    seed: int = 0,
    budget: LookaheadBudget = DEFAULT_LOOKAHEAD,
    *,
    use_book: bool = True,
) -> Decision:
    """The lookahead strategy's next guess (see the module docstring)."""
    booked = book_for(space.rules).get(history) if use_book else None
    if booked is not None:
        return Decision(booked, True, 0, 0)
    if possible is not None and len(possible) <= 2:
        return Decision(int(possible[0]), True, len(possible), 0)
    if possible is not None:
        perfect = perfect_guess(space, possible, played, budget.perfect_entries)
        if perfect is not None:
            return Decision(perfect, True, 0, len(possible))
    ranked, exact = rank_candidates(space, possible, played, history, seed, budget)
    s = _rollout_codes(space, possible, history, seed, budget)
    if s is None or len(ranked) == 1:
        return Decision(int(ranked[0]), exact, len(ranked), 0)
    if exact:  # a sampled ranking's sampled_top are each completed: rollout_codes cuts none
        ranked = ranked[: max(2, budget.rollout_codes // len(s))]
    exact &= possible is None or len(s) == len(possible)
    totals = [rollout_total(space, s, int(g), budget) for g in ranked]
    return Decision(int(ranked[int(np.argmin(totals))]), exact, len(ranked), len(s))


def _rollout_codes(
    space: CodeSpace,
    possible: np.ndarray | None,
    history: bytes,
    seed: int,
    budget: LookaheadBudget,
) -> np.ndarray | None:
    """The codes the candidates are completed over: every possible code, or a seeded
    sample of ``budget.rollout_limit`` of them in larger sets (None: no completion)."""
    # Spaces too large to list (8x9) score each code several times slower: a smaller sample.
    limit = budget.rollout_limit if space.materialized else budget.rollout_limit // 4
    if limit <= 0:
        return None
    if possible is None:
        return space.all_indices() if space.size <= limit else None
    if len(possible) <= limit:
        return possible
    rng = rng_for(seed, "lookahead completion", history)
    return np.sort(rng.choice(possible, size=limit, replace=False))


def rank_candidates(
    space: CodeSpace,
    possible: np.ndarray | None,
    played: frozenset[int],
    history: bytes,
    seed: int,
    budget: LookaheadBudget,
) -> tuple[np.ndarray, bool]:
    """The best ``budget.top`` guesses by entropy and by most parts (entropy's first; from
    a sampled pool, ``budget.sampled_top``), one per shape of split: guesses whose classes
    have the same sizes (most often mirror images of each other under a symmetry of the
    position) would complete alike. Only where the ranking counted every possible code:
    over a sample, shapes mislead (6x9: 6.245 -> 6.267).

    Returns them with ``True`` when every candidate was scored over every possible code.
    """
    rng = rng_for(seed, "lookahead", history)
    candidates, sample, exact = _ranking_pool(space, possible, played, rng, budget)
    by_entropy, by_parts, shapes = _scores(space, candidates, sample)
    if not exact and space.rules.repeats and possible is not None:
        candidates, by_entropy, by_parts = _search_around(
            space, candidates, sample, by_entropy, by_parts, budget)
    if not exact:  # shapes over a sample tell little: every candidate is its own
        shapes = np.arange(len(candidates))
    in_sample = np.isin(candidates, sample)
    top = budget.top if exact else budget.sampled_top
    chosen: list[int] = []
    seen: set[int] = set()
    for keys, share in ((by_entropy, top - top // 4), (by_parts, top)):
        for i in np.lexsort((~in_sample, keys)):  # ties: a possible code, then the lowest
            if len(chosen) >= share:
                break
            if int(shapes[i]) not in seen:
                seen.add(int(shapes[i]))
                chosen.append(int(candidates[i]))
    return np.array(chosen, dtype=np.int64), exact


def _search_around(
    space: CodeSpace,
    candidates: np.ndarray,
    secrets: np.ndarray,
    by_entropy: np.ndarray,
    by_parts: np.ndarray,
    budget: LookaheadBudget,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted pool's best guesses and better ones found by hill climbing: the codes one
    step from the best by each score are scored too, round after round. A random pool
    misses most good guesses among 531,441 (6x9); exact play-outs of size-weighted 6x9
    positions (bench/positions69.py) take fewer guesses with it (docs/engine.md).

    Returns only the guesses that can still be chosen (every one at least as good as the
    ``search_top``-th by a score), so the search holds a few thousand codes, not the pool."""
    kept = _best(by_entropy, by_parts, budget.search_top)
    codes, entropy, parts = candidates[kept], by_entropy[kept], by_parts[kept]
    searched = np.empty(0, dtype=np.int64)
    for _ in range(budget.search_rounds):
        # Climb from exactly the best few by each score (ties: the lowest codes); ``codes``
        # also keeps every guess tied with them, which may be thousands by most parts.
        top = budget.search_top
        near = neighbours(space, np.union1d(codes[np.argsort(entropy, kind="stable")[:top]],
                                            codes[np.argsort(parts, kind="stable")[:top]]))
        at = np.minimum(np.searchsorted(candidates, near), len(candidates) - 1)
        near = np.setdiff1d(near[candidates[at] != near], searched)
        if not len(near):
            break
        searched = np.union1d(searched, near)
        near_entropy, near_parts, _ = _scores(space, near, secrets)
        order = np.argsort(np.concatenate([codes, near]), kind="stable")
        codes = np.concatenate([codes, near])[order]  # sorted: ties go to the lowest code
        entropy = np.concatenate([entropy, near_entropy])[order]
        parts = np.concatenate([parts, near_parts])[order]
        kept = _best(entropy, parts, budget.search_top)
        codes, entropy, parts = codes[kept], entropy[kept], parts[kept]
    return codes, entropy, parts


def _best(by_entropy: np.ndarray, by_parts: np.ndarray, count: int) -> np.ndarray:
    """Indices of the guesses at least as good as the ``count``-th best by either score
    (ties included: the tie-breaks may pick any of them)."""
    def cut(keys: np.ndarray) -> float:
        nth = min(count, len(keys)) - 1
        return float(np.partition(keys, nth)[nth])
    return np.flatnonzero((by_entropy <= cut(by_entropy)) | (by_parts <= cut(by_parts)))


def _ranking_pool(
    space: CodeSpace,
    possible: np.ndarray | None,
    played: frozenset[int],
    rng: np.random.Generator,
    budget: LookaheadBudget,
) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(candidates, secrets to count replies over, exact)`` within the ranking budget."""
    candidates: np.ndarray | None
    if possible is None:
        candidates = first_move_candidates(space)
        secrets = space.all_indices() if space.materialized else None
    else:
        candidates = canonical_guesses(space, played) if space.materialized else None
        secrets = possible
    entries = budget.ranking_entries(space.size)
    if candidates is not None and secrets is not None and (
        len(candidates) * (len(secrets) + space.n_feedback) <= entries
    ):
        return candidates, secrets, True
    if secrets is None or len(secrets) > budget.rank_secrets:
        pool = space.size if secrets is None else len(secrets)
        picks = rng.choice(pool, size=min(pool, budget.rank_secrets), replace=False)
        sample = np.sort(picks if secrets is None else secrets[picks]).astype(np.int64)
    else:
        sample = secrets
    # Each candidate costs a reply per secret and a count per possible reply.
    room = max(entries // (len(sample) + space.n_feedback), 2)
    if candidates is None or len(candidates) > room:
        own = sample[rng.choice(len(sample), size=min(room // 2, len(sample)), replace=False)]
        if candidates is None:
            other = rng.integers(0, space.size, size=room - len(own), dtype=np.int64)
        else:
            other = rng.choice(candidates, size=min(room - len(own), len(candidates)),
                               replace=False)
        candidates = np.unique(np.concatenate([own, other]))
    return candidates, sample, False


def rollout_total(space: CodeSpace, s: np.ndarray, guess: int, budget: LookaheadBudget) -> int:
    """Guesses to solve every code of ``s`` when ``guess`` is played first, then greedily."""
    total = len(s)
    for part in _classes(space, s, guess):
        total += _complete(space, part, budget)
    return total


def _complete(space: CodeSpace, s: np.ndarray, budget: LookaheadBudget) -> int:
    """Total guesses of the fast greedy policy on ``s`` (it guesses possible codes only)."""
    n = len(s)
    if n <= 2:
        return 1 if n == 1 else 3
    pool = s
    if n * n > budget.rollout_entries:
        step = -(-n * n // budget.rollout_entries)
        pool = s[::step]
    fb = space.against(s).feedback(pool)
    counts = reply_counts(fb, space.n_feedback)
    if counts.max(axis=1).min() <= 1:
        return 2 * n - 1
    best = int(np.argmin(_entropy(counts)))
    classes = ReplyClasses(space, s, fb[best])
    return n + sum(_complete(space, part, budget) for _, part in classes)


def perfect_guess(
    space: CodeSpace, possible: np.ndarray, played: frozenset[int], entries: int
) -> int | None:
    """A guess that tells every possible code apart (optimal: 2n-1 guesses, or 2n), if any.

    Possible codes are tried first (they can win at once); other codes only while the
    ``entries`` budget allows.
    """
    n = len(possible)
    if n > space.n_feedback or n * n > entries:
        return None
    counts = reply_counts(space.against(possible).feedback(possible), space.n_feedback)
    hits = np.flatnonzero(counts.max(axis=1) <= 1)
    if len(hits):
        return int(possible[hits[0]])
    if not space.materialized:
        return None
    pool = canonical_guesses(space, played)
    return first_perfect(space, pool[: max(entries // (n + space.n_feedback), 1)], possible)


def _classes(space: CodeSpace, s: np.ndarray, guess: int) -> list[np.ndarray]:
    return [part for _, part in ReplyClasses.of_guess(space, s, guess)]


# ---- opening books ------------------------------------------------------------------------
def book_name(rules: Rules) -> str:
    return f"{rules.pegs}x{rules.colors}" + ("" if rules.repeats else "-norep")


_LOADED: Cache[dict[bytes, int]] = Cache("opening books")


def book_for(rules: Rules) -> dict[bytes, int]:
    """The shipped opening book of this size (history bytes -> guess), empty if none."""
    name = book_name(rules)
    return _LOADED.get(name, lambda: _load_book(rules, name))


def _load_book(rules: Rules, name: str) -> dict[bytes, int]:
    entry = resources.files("engine").joinpath(_BOOKS, f"{name}.json")
    if not entry.is_file():
        return {}
    return parse_book(rules, entry.read_text("utf-8"))


def parse_book(rules: Rules, text: str) -> dict[bytes, int]:
    """A book from its file, checked: its size, and every move a code of that size."""
    data = json.loads(text)
    if (data["pegs"], data["colors"], data["repeats"]) != (
        rules.pegs, rules.colors, rules.repeats
    ):
        raise ValueError(f"the book for {book_name(rules)} is for another size")
    size = space_for(rules).size
    moves = {bytes.fromhex(h): int(g) for h, g in data["moves"]}
    if any(not 0 <= g < size for g in moves.values()) or b"" not in moves:
        raise ValueError(f"the book for {book_name(rules)} is damaged")
    return moves
