"""The lookahead over a sampled pool of candidates: the neighbours its search looks at,
that the search only ever adds better-scored guesses, the same ones every time, and that
more of a sampled ranking's best guesses are completed."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from engine import Rules
from engine.candidates import neighbours
from engine.filtering import filter_possible
from engine.lookahead import DEFAULT_LOOKAHEAD, _entropy, lookahead_decision, rank_candidates
from engine.space import space_for


def _one_step(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Brute force: ``b`` is ``a``, or ``a`` with one peg recoloured or two pegs swapped."""
    differ = [i for i in range(len(a)) if a[i] != b[i]]
    if len(differ) <= 1:
        return True
    if len(differ) != 2:
        return False
    p, q = differ
    return a[p] == b[q] and a[q] == b[p]


@pytest.mark.parametrize("code", [(1, 1, 1, 1), (1, 1, 2, 3), (6, 5, 4, 3), (2, 6, 2, 6)])
def test_neighbours_are_every_code_one_recolouring_or_one_swap_away(code):
    space = space_for(Rules(4, 6))
    found = {space.code(int(i)) for i in neighbours(space, np.array([space.index(code)]))}
    expected = {c for c in itertools.product(range(1, 7), repeat=4) if _one_step(code, c)}
    assert found == expected


def test_neighbours_of_several_codes_are_the_union_sorted():
    space = space_for(Rules(5, 8))
    codes = np.array([space.index((1, 1, 2, 2, 3)), space.index((8, 7, 6, 5, 4))])
    union = np.union1d(neighbours(space, codes[:1]), neighbours(space, codes[1:]))
    assert np.array_equal(neighbours(space, codes), union)


def test_neighbours_need_repeated_colours():
    with pytest.raises(ValueError, match="repeated colours"):
        neighbours(space_for(Rules(4, 6, repeats=False)), np.array([0]))


def _position(rules: Rules, secret: tuple[int, ...], guesses: list[tuple[int, ...]]):
    space = space_for(rules)
    possible, played = None, frozenset()
    for guess in guesses:
        index = space.index(guess)
        reply = space.feedback_one(index, np.array([space.index(secret)]))[0]
        possible = filter_possible(space, possible, index, int(reply))
        played |= {c - 1 for c in guess}
    return space, possible, played


def test_the_search_finds_guesses_that_split_better_than_the_sampled_pool():
    # 5x8 after two guesses: too many candidates to score them all within a small ranking
    # budget, every possible code counted. The searched ranking's best guess splits at
    # least as well, and here strictly better, than the best of the pool alone.
    space, possible, played = _position(Rules(5, 8), (3, 6, 1, 8, 4),
                                        [(1, 1, 2, 2, 3), (4, 5, 6, 7, 7)])
    small = dataclasses.replace(DEFAULT_LOOKAHEAD, rank_entries=200_000, top=4)
    plain, exact = rank_candidates(space, possible, played, b"t", 0,
                                   dataclasses.replace(small, search_rounds=0))
    searched, _ = rank_candidates(space, possible, played, b"t", 0, small)
    assert not exact and len(possible) <= small.rank_secrets

    def best_entropy(guesses: np.ndarray) -> float:
        counts = np.stack([np.bincount(space.feedback_one(int(g), possible),
                                       minlength=space.n_feedback) for g in guesses])
        return float(_entropy(counts).min())

    assert best_entropy(searched) < best_entropy(plain)
    again, _ = rank_candidates(space, possible, played, b"t", 0, small)
    assert np.array_equal(searched, again)  # seeded by the history: the same every time


def test_the_search_also_climbs_where_the_ranking_sampled_the_possible_codes():
    # 6x9 third guesses meet up to 16,594 possible codes, ranked over a sample of them:
    # the search climbs there too, and its best guess splits the whole set better.
    space, possible, played = _position(Rules(5, 8), (3, 6, 1, 8, 4), [(1, 1, 2, 2, 3)])
    budget = dataclasses.replace(DEFAULT_LOOKAHEAD, rank_entries=400_000, rank_secrets=300,
                                 top=4)
    assert len(possible) > budget.rank_secrets
    on, exact = rank_candidates(space, possible, played, b"u", 0, budget)
    off, _ = rank_candidates(space, possible, played, b"u", 0,
                             dataclasses.replace(budget, search_rounds=0))
    assert not exact

    def best_entropy(guesses: np.ndarray) -> float:
        counts = np.stack([np.bincount(space.feedback_one(int(g), possible),
                                       minlength=space.n_feedback) for g in guesses])
        return float(_entropy(counts).min())

    assert best_entropy(on) < best_entropy(off)


def test_the_search_climbs_from_the_best_few_only(monkeypatch):
    # Most-parts scores tie by the thousand: climbing from every tied guess made one 6x9
    # move take 3.8 s. Each round scores at most the neighbours of 2 x search_top codes.
    from engine import lookahead

    space, possible, played = _position(Rules(5, 8), (3, 6, 1, 8, 4),
                                        [(1, 1, 2, 2, 3), (4, 5, 6, 7, 7)])
    budget = dataclasses.replace(DEFAULT_LOOKAHEAD, rank_entries=200_000, top=4)
    scored: list[int] = []
    real = lookahead._scores
    monkeypatch.setattr(lookahead, "_scores",
                        lambda sp, guesses, secrets: scored.append(len(guesses))
                        or real(sp, guesses, secrets))
    rank_candidates(space, possible, played, b"t", 0, budget)
    _pool, *rounds = scored
    per_round = 2 * budget.search_top * (space.pegs * (space.colors - 1)
                                         + space.pegs * (space.pegs - 1) // 2)
    assert rounds and len(rounds) <= budget.search_rounds
    assert all(0 < n <= per_round for n in rounds)


def test_a_sampled_ranking_completes_sampled_top_candidates_over_every_rollout_code():
    # Completions are what decide; a sampled ranking's order is less reliable, so 6x9's
    # 32 best are each completed (exact play-outs: docs/engine.md), not 8 of them.
    space, possible, played = _position(Rules(5, 8), (3, 6, 1, 8, 4), [(1, 1, 2, 2, 3)])
    sampled = dataclasses.replace(DEFAULT_LOOKAHEAD, rank_entries=400_000, sampled_top=12,
                                  rollout_codes=1_000)
    ranked, exact = rank_candidates(space, possible, played, b"v", 0, sampled)
    assert not exact and len(ranked) == len(set(ranked.tolist())) == sampled.sampled_top
    decision = lookahead_decision(space, possible, played, b"v", 0, sampled)
    assert decision.candidates == sampled.sampled_top  # rollout_codes does not cut them
    assert decision.secrets_scored == min(len(possible), sampled.rollout_limit)
    assert decision.index in ranked

    small = space_for(Rules(4, 6))  # every guess scored: the usual eight at most
    ranked, exact = rank_candidates(small, None, frozenset(), b"", 0, sampled)
    assert exact and len(ranked) <= sampled.top
