"""The engine's caches share one byte budget: whatever sizes are played, they stay in it."""

import random

import numpy as np
import pytest

from engine import Rules, SolverSession, memory, score_codes
from engine.space import space_for


@pytest.fixture
def small_budget():
    before = memory.budget()
    memory.clear()
    yield
    memory.set_budget(before)
    memory.clear()


def test_least_recently_used_entries_go_first_across_caches(small_budget):
    a, b = memory.Cache("test a"), memory.Cache("test b")
    try:
        memory.set_budget(3000)
        a.get(1, lambda: np.zeros(1000, np.uint8))
        b.get(1, lambda: np.zeros(1000, np.uint8))
        a.get(1, lambda: pytest.fail("a/1 is cached"))  # a/1 is now the newest
        b.get(2, lambda: np.zeros(1500, np.uint8))  # over budget: b/1 is the oldest
        assert len(a) == 1 and len(b) == 1
        assert memory.report()["test b"] == 1500
        assert memory.nbytes() == 2500
    finally:
        a.clear()
        b.clear()


def test_a_value_that_grows_is_measured_again(small_budget):
    memory.set_budget(1 << 30)
    space = space_for(Rules(4, 6))
    before = memory.nbytes()
    assert space.full_table is not None  # built on first use: 1296 x 1296 bytes
    assert memory.nbytes() >= before + 1296 * 1296


def test_many_games_of_many_sizes_stay_within_the_budget(small_budget):
    budget = 6 * 2**20
    memory.set_budget(budget)
    rng = random.Random(3)
    sizes = [Rules(5, 8, 20), Rules(4, 7, 20), Rules(5, 7, 20, repeats=False), Rules(4, 6)]
    for game in range(12):
        rules = sizes[game % len(sizes)]
        secret = tuple(rng.sample(range(1, rules.colors + 1), rules.pegs)) if not rules.repeats \
            else tuple(rng.randint(1, rules.colors) for _ in range(rules.pegs))
        session = SolverSession(rules, "knuth")
        while True:
            reply = score_codes(secret, session.next_guess())
            session.tell(reply)
            if reply.is_win(rules.pegs):
                break
        del session
        assert memory.nbytes() <= budget, memory.report()
    assert memory.nbytes() > 0


def test_clear_empties_every_cache(small_budget):
    space_for(Rules(4, 6)).full_table  # noqa: B018  (builds and caches the table)
    assert memory.nbytes() > 0
    memory.clear()
    assert memory.nbytes() == 0
    assert sum(memory.report().values()) == 0
