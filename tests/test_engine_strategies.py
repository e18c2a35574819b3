"""Strategies: Knuth's published table, every strategy solving every code, exact shortcuts."""

import numpy as np
import pytest

from engine import STRATEGIES, Rules, SolverSession, evaluate, memory, score_codes
from engine.candidates import canonical_guesses, first_move_candidates
from engine.space import space_for
from engine.strategies import best_guess, choose_guess, get_strategy


def test_knuth_matches_knuths_table():
    result = evaluate(Rules(4, 6), "knuth")
    assert result.total == 5801
    assert result.max == 5
    assert result.distribution == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}
    assert result.exact


# Published totals for 4x6 (Shapiro 1983, Knuth 1976, Neuwirth 1982, Irving 1979, Kooi 2005).
PUBLISHED_4X6 = {
    "first-consistent": (7471, 9),
    "knuth": (5801, 5),
    "entropy": (5722, 6),
    "expected-size": (5696, 6),
    "most-parts": (5668, 6),
}


@pytest.mark.parametrize("name", list(PUBLISHED_4X6))
def test_published_totals(name):
    result = evaluate(Rules(4, 6), name)
    assert (result.total, result.max) == PUBLISHED_4X6[name]


@pytest.mark.parametrize("name", list(STRATEGIES))
@pytest.mark.parametrize("rules", [Rules(4, 6), Rules(4, 5)])
def test_every_strategy_solves_every_code_within_ten(name, rules):
    result = evaluate(rules, name)
    assert sum(result.distribution.values()) == rules.code_count
    assert result.max <= 10


@pytest.mark.parametrize(
    ("name", "first"),
    [("knuth", (1, 1, 2, 2)), ("expected-size", (1, 1, 2, 3)), ("entropy", (1, 2, 3, 4)),
     ("most-parts", (1, 1, 2, 3)), ("first-consistent", (1, 1, 1, 1))],
)
def test_first_guesses(name, first):
    assert SolverSession(Rules(), name).next_guess() == first


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_sessions_play_exactly_like_the_sweep(name):
    """A session for every secret. 4x4 (256 codes) goes through what 4x5 (625) did: the full
    table, the first move's partitions, canonical guesses, perfect splits, the sweep's
    shortcut for two codes left, optimal's shipped tree and the lookahead's completions;
    each session costs about 2 ms whatever it plays, so 4x5 took 2.4 times as long."""
    rules = Rules(4, 4)
    sweep = evaluate(rules, name, seed=7)
    memory.clear()  # the sessions decide for themselves, not from the sweep's decisions
    space = space_for(rules)
    counts: dict[int, int] = {}
    for index in range(0, space.size, 1):
        secret = space.code(index)
        session = SolverSession(rules, name, seed=7)
        while not session.solved:
            session.tell(score_codes(secret, session.next_guess()))
        counts[len(session.turns)] = counts.get(len(session.turns), 0) + 1
    assert counts == sweep.distribution


def test_deterministic_for_same_rules_and_seed():
    def play(seed):
        s = SolverSession(Rules(5, 7), "random-consistent", seed=seed)
        secret = (3, 1, 4, 1, 5)
        while not s.solved:
            s.tell(score_codes(secret, s.next_guess()))
        return [t.guess for t in s.turns]

    assert play(1) == play(1)
    assert any(play(1) != play(seed) for seed in range(2, 6))


@pytest.mark.parametrize("name", ["knuth", "expected-size", "entropy", "most-parts"])
@pytest.mark.parametrize("rules", [Rules(4, 6), Rules(4, 5, repeats=False), Rules(3, 7)])
def test_symmetry_shortcuts_give_the_full_search_answer(name, rules):
    """Scoring only canonical guesses must pick exactly what scoring every code picks."""
    strategy = get_strategy(name)
    space = space_for(rules)
    rng = np.random.default_rng(3)
    for _ in range(6):
        secret = space.code(int(rng.integers(space.size)))
        session = SolverSession(rules, name)
        while True:
            possible = session.possible
            played = session.played
            all_codes = space.all_indices()
            secrets = all_codes if possible is None else possible
            full = best_guess(space, strategy, all_codes, secrets, possible)
            decision = choose_guess(
                space, strategy, possible, played,
                history=session.history,
            )
            assert decision.index == full, (secret, session.turns)
            session.tell(score_codes(secret, space.code(decision.index)))
            if session.solved or session.remaining <= 2:
                break


def test_canonical_guesses_are_class_minimums():
    space = space_for(Rules(4, 6))
    assert len(first_move_candidates(space)) == 5
    # Nothing played: codes whose colours appear in order 1, 2, 3... (restricted growth).
    assert len(canonical_guesses(space, frozenset())) == 15
    assert len(canonical_guesses(space, frozenset({0, 1}))) < space.size
    assert len(canonical_guesses(space, frozenset(range(5)))) == space.size


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_bounded_mode_on_large_rules_still_solves(name):
    rules = Rules(6, 9, max_guesses=20)
    space = space_for(rules)
    secret = space.code(space.size * 2 // 3)
    session = SolverSession(rules, name, seed=1)
    while not session.solved:
        assert len(session.turns) < 14
        session.tell(score_codes(secret, session.next_guess()))
    assert session.turns[-1].guess == secret
