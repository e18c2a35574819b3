"""The engine's memory: the caches share one byte budget whatever sizes are played, and
every computation's temporaries fit the work slice (measured with tracemalloc, which sees
numpy's allocations)."""

import random
import tracemalloc

import numpy as np
import pytest

from engine import STRATEGIES, Rules, SolverSession, memory, score_codes
from engine.space import CodeSpace, space_for
from engine.trees import tree_for

MIB = 2**20


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
        memory.set_budget(4000)  # a quarter is the work slice: 3000 bytes for caches
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
    """A space is its own here: the shared one of 4x6 may have its table already, kept
    alive by a game of an earlier test in this process."""
    memory.set_budget(1 << 30)
    cache = memory.Cache("test growing space")
    try:
        space = cache.get(Rules(4, 6), lambda: CodeSpace(Rules(4, 6)))
        before = memory.nbytes()
        assert space.full_table is not None  # built on first use: 1296 x 1296 bytes
        assert memory.nbytes() >= before + 1296 * 1296
    finally:
        cache.clear()


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


def test_the_budget_is_a_work_slice_and_the_caches(small_budget):
    memory.set_budget(32 * MIB)  # what the bot gives the engine at MEMORY_BUDGET_MB=64
    assert memory.work_budget() == 8 * MIB and memory.cache_budget() == 24 * MIB
    memory.set_budget(512 * MIB)  # the slice stops growing at MAX_WORK
    assert memory.work_budget() == memory.MAX_WORK == 64 * MIB
    assert memory.cache_budget() == 448 * MIB
    memory.set_budget(512 * MIB, work=MIB)
    assert memory.work_budget() == MIB and memory.rows_within(1000) == MIB // 1000
    assert memory.rows_within(1000, fixed=MIB) == 1  # never less than one row
    memory.set_budget(1000)  # a tiny budget still cuts work into chunks of MIN_WORK
    assert memory.rows_within(1000) == memory.MIN_WORK // 1000


def _transient(work):
    """Runs ``work()``; returns its result and the bytes it held at its peak beyond what
    it kept (what a cache keeps is bounded by the cache budget, not the slice)."""
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    result = work()
    after, peak = tracemalloc.get_traced_memory()
    return result, peak - max(before, after)


@pytest.fixture
def traced(small_budget):
    tracemalloc.start()
    yield
    tracemalloc.stop()


def test_building_a_space_stays_within_the_work_slice(traced):
    memory.set_budget(256 * MIB, work=MIB)
    space, held = _transient(lambda: CodeSpace(Rules(6, 7, 20)))  # 279,936 codes
    assert held <= 1.5 * MIB
    keys, held = _transient(lambda: space.gather_keys(np.zeros(1, dtype=np.int64)))
    assert len(keys) == 3 and held <= 1.5 * MIB  # the look-up tables and every code's keys
    assert space.nbytes >= space.size * (6 + 2 * 3)


def test_every_move_stays_within_the_work_slice(traced):
    """Each decision and each filtering at 6x7, every strategy, with a 2 MiB slice. Beyond
    the slice a move holds its own inputs: the possible codes and their keys (32 bytes
    each), and numpy's index when it samples candidates (8 bytes per code of the space).

    The lookahead is measured in ``optimal``'s game: no tree is shipped at 6x7, so every
    move of ``optimal`` there is the lookahead's (the same function), but for a set of a
    few codes, where its own search looks for a guess that tells them apart among twice the
    lookahead's entries. Its own game (3 s a move under tracemalloc) would re-measure them."""
    work = 2 * MIB
    memory.set_budget(256 * MIB, work=work)
    rules = Rules(6, 7, 20)
    assert tree_for(rules) is None
    space = space_for(rules)
    space.gather_keys(np.zeros(1, dtype=np.int64))
    rng = random.Random(5)
    worst = 0.0
    for strategy in STRATEGIES:
        secret = tuple(rng.randint(1, 7) for _ in range(6))
        if strategy == "lookahead":
            continue  # measured in optimal's game (see above)
        session = SolverSession(rules, strategy)
        while not session.solved:
            allowed = work + 8 * space.size + 32 * session.remaining + MIB // 4
            guess, held = _transient(session.next_guess)
            assert held <= allowed, (strategy, len(session.turns), held / MIB)
            reply = score_codes(secret, guess)
            _, held = _transient(lambda: session.tell(reply))  # noqa: B023
            assert held <= allowed, (strategy, len(session.turns), held / MIB)
            worst = max(worst, held / allowed)
    assert worst > 0.1  # the measure sees numpy's arrays


def test_remembered_decisions_count_what_they_hold(small_budget):
    """Decisions are remembered by the game's history: each entry is counted at what it
    really takes (tracemalloc), so the byte budget bounds them like any table."""
    from engine.decision import Decision, history_key
    from engine.strategies import _DECISIONS, DEFAULT_BUDGET, _Remembered, get_strategy

    memory.set_budget(1 << 30)
    rules, strategy = Rules(5, 8), get_strategy("lookahead")
    space = space_for(rules)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(5000):
            history = history_key(space, [(i, 3), (i * 7, 5), (i * 13, 2)])
            _DECISIONS.get((rules, strategy, 0, DEFAULT_BUDGET, history),
                           lambda i=i, h=history: _Remembered(Decision(i, True, 10**5, 10**5), h))
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    counted = _DECISIONS.nbytes
    # Never much under what they hold; over by at most 30% (a grown dict reuses freed
    # memory, so what tracemalloc sees varies with the tests run before: 550-650 a piece).
    assert 0.9 * held <= counted <= 1.3 * held, (counted, held)
