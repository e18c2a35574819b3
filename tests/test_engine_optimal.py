"""Exact optimal play: the solver against an independent brute force, the shipped trees,
the ``optimal`` and ``lookahead`` strategies, and positions off the tree."""

from __future__ import annotations

import itertools
import os
from functools import cache

import numpy as np
import pytest

from engine import Rules, SolverSession, evaluate, score_codes
from engine.optimal import ExactSolver, split
from engine.space import space_for
from engine.strongest import exact_guess, position_value, strongest_strategy
from engine.trees import CorruptTree, load, parse, shipped, tree_for, tree_name

skip_unless_slow = pytest.mark.skipif(
    not os.environ.get("RUN_SLOW"), reason="recomputes 4x6 from scratch; set RUN_SLOW=1"
)


# ---- an independent brute force: plain Python, every guess, no bounds ----------------------
def _pegs(secret: tuple[int, ...], guess: tuple[int, ...]) -> tuple[int, int]:
    black = sum(a == b for a, b in zip(secret, guess, strict=True))
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def brute_force(pegs: int, colors: int, repeats: bool, limit: int | None = None) -> int | None:
    """Fewest guesses in total over every code (None if the limit cannot be met)."""
    codes = [
        c for c in itertools.product(range(colors), repeat=pegs) if repeats or len(set(c)) == pegs
    ]
    win = (pegs, 0)

    @cache
    def value(s: tuple[tuple[int, ...], ...], depth: int) -> float:
        if depth == 0:
            return float("inf")
        if len(s) == 1:
            return 1
        best = float("inf")
        for g in codes:
            classes: dict[tuple[int, int], list] = {}
            for code in s:
                classes.setdefault(_pegs(code, g), []).append(code)
            if len(classes) == 1 and win not in classes:
                continue  # learns nothing
            rest = sum(value(tuple(c), depth - 1) for r, c in classes.items() if r != win)
            best = min(best, len(s) + rest)
        return best

    result = value(tuple(codes), limit or 99)
    return None if result == float("inf") else int(result)


TINY = [(2, 2, True), (2, 3, True), (2, 4, True), (3, 2, True), (3, 3, True),
        (2, 3, False), (2, 4, False), (3, 3, False), (3, 4, False)]


@pytest.mark.parametrize(("pegs", "colors", "repeats"), TINY)
def test_solver_agrees_with_brute_force(pegs, colors, repeats):
    expected = brute_force(pegs, colors, repeats)
    assert ExactSolver(Rules(pegs, colors, repeats=repeats)).value() == expected


@pytest.mark.parametrize(("pegs", "colors", "limit"), [(2, 3, 2), (2, 3, 3), (3, 3, 3),
                                                       (2, 4, 3), (3, 2, 3), (3, 3, 4)])
def test_solver_with_a_guess_limit_agrees_with_brute_force(pegs, colors, limit):
    expected = brute_force(pegs, colors, True, limit)
    solver = ExactSolver(Rules(pegs, colors), limit)
    if expected is None:
        with pytest.raises(ValueError, match="guess limit"):
            solver.value()
    else:
        assert solver.value() == expected


def test_solver_value_of_a_subset_agrees_with_brute_force_of_its_guesses():
    rules = Rules(3, 3)
    space = space_for(rules)
    s = np.flatnonzero(space.feedback_one(space.index((1, 2, 2)), space.all_indices()) == 1)
    solver = ExactSolver(rules)
    best = solver.best_guess(s)
    # Playing the chosen guess and then optimally costs exactly the set's value.
    total = len(s) + sum(solver.value(part) for part in split(space, s, best))
    assert total == solver.value(s)
    assert all(
        len(s) + sum(solver.value(part) for part in split(space, s, g)) >= total
        for g in range(space.size)
        if len(split(space, s, g)) > 1 or g in s
    )


# ---- the shipped trees ----------------------------------------------------------------------
def test_every_size_up_to_4x6_is_shipped():
    files = shipped()
    for pegs in (2, 3, 4):
        for colors in range(2, 7):
            assert (pegs, colors, True, None) in files
            if colors >= pegs:
                assert (pegs, colors, False, None) in files
    assert (4, 6, True, 5) in files


def test_4x6_trees_are_the_known_optimum():
    best = load(tree_name(Rules(4, 6), None))
    assert (best.stats.total, best.stats.max) == (5625, 6)
    within_five = load(tree_name(Rules(4, 6), 5))
    assert (within_five.stats.total, within_five.stats.max) == (5626, 5)


# Every shipped tree up to 4x6 (4x6 itself is the slow test), and a few beyond.
SMALL_TREES = sorted(
    k for k in shipped()
    if (k[0] <= 4 and k[1] <= 6 and ((k[0], k[1]) != (4, 6) or not k[2]))
    or k[:3] in {(5, 3, True), (6, 3, True), (5, 5, False)}
)


@pytest.mark.parametrize("key", SMALL_TREES, ids=lambda k: tree_name(Rules(k[0], k[1],
                                                                           repeats=k[2]), k[3]))
def test_solver_recomputes_each_small_tree_from_scratch(key):
    pegs, colors, repeats, limit = key
    rules = Rules(pegs, colors, repeats=repeats)
    tree = load(shipped()[key])
    assert ExactSolver(rules, limit).value() == tree.stats.total


@pytest.mark.slow
@skip_unless_slow
@pytest.mark.parametrize(("limit", "total"), [(None, 5625), (5, 5626)])
def test_solver_recomputes_4x6(limit, total):
    assert ExactSolver(Rules(4, 6), limit).value() == total


def test_a_damaged_tree_is_refused():
    text = _tree_text(Rules(4, 4))
    tree = parse(text)
    assert tree.stats.total == 905
    import base64
    import json

    data = json.loads(text)
    raw = bytearray(base64.b64decode(data["guesses"]))
    raw[2] ^= 1  # another guess at the second decision
    data["guesses"] = base64.b64encode(bytes(raw)).decode()
    with pytest.raises(CorruptTree):
        parse(json.dumps(data))
    data = json.loads(text)
    data["total"] -= 1
    with pytest.raises(CorruptTree):
        parse(json.dumps(data))


def _tree_text(rules: Rules) -> str:
    from importlib import resources

    name = tree_name(rules, None) + ".json"
    return resources.files("engine").joinpath("data/trees", name).read_text("utf-8")


# ---- the strategies -------------------------------------------------------------------------
def test_optimal_strategy_reproduces_the_trees():
    result = evaluate(Rules(4, 6), "optimal")
    assert (result.total, result.max) == (5625, 6)
    assert result.distribution == load(tree_name(Rules(4, 6), None)).stats.distribution
    limited = evaluate(Rules(4, 6, max_guesses=5), "optimal")
    assert (limited.total, limited.max) == (5626, 5)


@pytest.mark.parametrize("rules", [Rules(4, 5), Rules(3, 6, repeats=False), Rules(2, 2)])
def test_optimal_strategy_plays_each_tree(rules):
    result = evaluate(rules, "optimal")
    assert result.total == tree_for(rules).stats.total
    assert sum(result.distribution.values()) == rules.code_count


def test_a_limit_no_tree_meets_uses_the_shallowest_tree():
    tree = tree_for(Rules(4, 6, max_guesses=4))
    assert tree is not None and tree.stats.max == 5


def test_strongest_strategy_is_optimal_where_a_tree_is_shipped():
    assert strongest_strategy(Rules(4, 6)) == "optimal"
    assert strongest_strategy(Rules(3, 5, repeats=False)) == "optimal"
    assert strongest_strategy(Rules(5, 8)) == "lookahead"


def _total_after(rules: Rules, s: np.ndarray, played: frozenset[int], guess) -> int:
    """Guesses in total when ``guess`` is played on ``s`` and play is optimal after it."""
    solver = ExactSolver(rules)
    after = played | {c - 1 for c in guess}
    return len(s) + sum(solver.value(p, played=after)
                        for p in split(space_for(rules), s, space_for(rules).index(guess)))


def test_off_the_tree_the_optimal_strategy_plays_exactly_within_its_search_budget():
    # Knuth's opening is not the tree's. After 1122 -> 0 black 2 white (96 codes) the
    # bounded search finishes and plays the optimum (309), where the lookahead alone
    # would play 2344 (311).
    rules = Rules(4, 6)
    session = SolverSession.restore(rules, "optimal", [((1, 1, 2, 2), (0, 2))])
    s = session._possible[-1]
    assert len(s) == 96
    value = ExactSolver(rules).value(s, played=frozenset({0, 1}))
    assert _total_after(rules, s, frozenset({0, 1}), session.next_guess()) == value == 309
    assert _total_after(rules, s, frozenset({0, 1}), (2, 3, 4, 4)) == 311


def test_off_the_tree_beyond_the_search_budget_the_optimal_strategy_plays_the_lookahead():
    # 1122 -> 1 black 1 white leaves 208 codes: the exact search needs ~3,400 sets (about
    # a second), past its budget, so the lookahead answers; its greedy completions rank
    # 2234 (720 with optimal play after it) over the optimum's 1314 (718).
    rules = Rules(4, 6)
    session = SolverSession.restore(rules, "optimal", [((1, 1, 2, 2), (1, 1))])
    s = session._possible[-1]
    assert exact_guess(space_for(rules), s, frozenset({0, 1})) is None
    guess = session.next_guess()
    lookahead = SolverSession.restore(rules, "lookahead", [((1, 1, 2, 2), (1, 1))])
    assert guess == lookahead.next_guess()
    # The optimum, ExactSolver(rules).value(s, played=...) (1.6 s of CPU: the solver is
    # checked against the brute force and the shipped trees above); 1314 reaches it.
    optimum = 718
    assert _total_after(rules, s, frozenset({0, 1}), (1, 3, 1, 4)) == optimum
    assert optimum <= _total_after(rules, s, frozenset({0, 1}), guess) <= optimum + 2


def test_exact_guess_gives_up_on_large_sets_within_its_budget():
    rules = Rules(4, 6)
    space = space_for(rules)
    s = np.flatnonzero(space.feedback_one(space.index((1, 1, 2, 2)), space.all_indices()) == 0)
    assert len(s) == 256
    guess = exact_guess(space, s, frozenset({0, 1}))
    assert guess is None or 0 <= guess < space.size


def test_position_value_is_exact_when_small_and_an_upper_bound_otherwise():
    rules = Rules(4, 6)
    space = space_for(rules)
    every = space.all_indices()
    first, second = space.index((1, 1, 2, 2)), space.index((1, 3, 4, 5))
    played = frozenset({0, 1, 2, 3, 4})
    # 60 codes: 1122 answered 0 black 1 white, then 1345 answered 0 black 2 white.
    s = every[(space.feedback_one(first, every) == 1) & (space.feedback_one(second, every) == 2)]
    exact_value = ExactSolver(rules).value(s, played=played)
    assert position_value(space, s, played) == (exact_value, True)
    bound, exact = position_value(space, s, played, max_nodes=1)
    assert not exact and bound >= exact_value


@pytest.mark.parametrize("secret", [(6, 5, 4, 3), (1, 1, 1, 1), (2, 3, 2, 3)])
def test_optimal_sessions_break_codes_off_and_on_the_tree(secret):
    for strategy in ("optimal", "lookahead"):
        session = SolverSession(Rules(4, 6), strategy)
        while not session.solved:
            session.tell(score_codes(secret, session.next_guess()))
        assert session.turns[-1].guess == secret
        assert len(session.turns) <= 6


def test_lookahead_beats_the_best_greedy_strategy_at_4x6():
    result = evaluate(Rules(4, 6), "lookahead")
    assert sum(result.distribution.values()) == 1296
    assert result.total < evaluate(Rules(4, 6), "most-parts").total


# ---- the command line -----------------------------------------------------------------------
def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    import io

    from cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_evaluate_optimal_reproduces_the_trees_figures():
    import json

    code, out, _ = _run(["evaluate", "--strategy", "optimal", "--max-guesses", "5", "--json"])
    assert code == 0
    data = json.loads(out)
    assert (data["total"], data["max"]) == (5626, 5)
    code, out, _ = _run(["evaluate", "--strategy", "optimal", "--json"])
    assert (json.loads(out)["total"], json.loads(out)["max"]) == (5625, 6)


def test_crack_plays_the_strongest_strategy_by_default():
    _, out, _ = _run(["crack", "--color", "never"], stdin="quit\n")
    assert "strategy optimal" in out
    _, out, _ = _run(["crack", "--color", "never", "--strategy", "knuth"], stdin="quit\n")
    assert "strategy knuth" in out


def test_build_trees_writes_a_tree_that_loads(tmp_path, capsys):
    code, out, _ = _run(["build-trees", "3x3", "2x4-norep", "--out", str(tmp_path)])
    assert code == 0 and "3x3: total 73" in out
    assert parse((tmp_path / "3x3.json").read_text()).stats.total == 73
    assert parse((tmp_path / "2x4-norep.json").read_text()).stats.total == 30
    code, _, _ = _run(["build-trees", "4by6"])
    assert code == 2 and "PEGSxCOLOURS" in capsys.readouterr().err
    code, _, _ = _run(["build-trees", "3x2-norep"])
    assert code == 2 and "need at least 3 colours" in capsys.readouterr().err
