"""The strongest player for each size: optimal play from a shipped tree, else lookahead.

``optimal`` plays by lookup in a verified tree (:mod:`engine.trees`). A position the tree
did not plan for (another strategy's guesses, a reply it did not expect) is solved exactly
when the set is small enough for a bounded search, and by lookahead otherwise.
"""

from __future__ import annotations

import numpy as np

from .decision import Decision
from .lookahead import DEFAULT_LOOKAHEAD, lookahead_decision, perfect_guess, rollout_total
from .optimal import BudgetExceeded, ExactSolver
from .rules import Rules
from .space import FULL_TABLE_LIMIT, CodeSpace
from .trees import tree_for

#: Off the tree, sets up to this size are solved exactly (within ``EXACT_NODES`` sets).
EXACT_SET_LIMIT = 400
EXACT_NODES = 1_000


def strongest_strategy(rules: Rules) -> str:
    """The best strategy for this size: ``optimal`` where a tree is shipped."""
    return "optimal" if tree_for(rules) is not None else "lookahead"


def optimal_decision(
    space: CodeSpace,
    possible: np.ndarray | None,
    played: frozenset[int],
    history: bytes,
    seed: int = 0,
) -> Decision:
    tree = tree_for(space.rules)
    if tree is not None:
        planned = tree.guess_after(history)
        if planned is not None:
            return Decision(planned, True, 0, 0)
    exact = exact_guess(space, possible, played)
    if exact is not None:
        return Decision(exact, True, 0, 0 if possible is None else len(possible))
    return lookahead_decision(space, possible, played, history, seed)


def exact_guess(
    space: CodeSpace, possible: np.ndarray | None, played: frozenset[int]
) -> int | None:
    """An optimal guess for ``possible`` if a bounded exact search finds one, else None."""
    if possible is None:
        return None
    if len(possible) <= 2:
        return int(possible[0])
    perfect = perfect_guess(space, possible, played, 1 << 21)
    if perfect is not None or space.size > FULL_TABLE_LIMIT or len(possible) > EXACT_SET_LIMIT:
        return perfect
    solver = ExactSolver(space.rules, max_nodes=EXACT_NODES, max_set=len(possible))
    try:
        return solver.best_guess(possible, played=played)
    except BudgetExceeded:
        return None


def planned_decision(
    space: CodeSpace,
    name: str,
    possible: np.ndarray | None,
    played: frozenset[int],
    history: bytes,
    seed: int = 0,
) -> Decision:
    """The next guess of ``optimal`` or ``lookahead`` (see :data:`strategies.PLANNED`)."""
    if name == "optimal":
        return optimal_decision(space, possible, played, history, seed)
    return lookahead_decision(space, possible, played, history, seed)


def position_value(
    space: CodeSpace,
    possible: np.ndarray,
    played: frozenset[int],
    *,
    max_nodes: int = EXACT_NODES,
) -> tuple[int, bool]:
    """Guesses needed in total to solve every code of ``possible`` from here, and whether
    that is exact.

    Exact (the optimum) when a search of at most ``max_nodes`` sets finishes; otherwise
    the lookahead's own completion, an upper bound (what it would play). For hints and
    post-game analysis: a position off any tree is answered exactly when small.
    """
    s = np.asarray(possible, dtype=np.int64)
    if len(s) <= 2:
        return 2 * len(s) - 1, True
    if space.size <= FULL_TABLE_LIMIT and len(s) <= EXACT_SET_LIMIT:
        solver = ExactSolver(space.rules, max_nodes=max_nodes, max_set=len(s))
        try:
            return solver.value(s, played=played), True
        except BudgetExceeded:
            pass
    guess = lookahead_decision(space, s, played, b"position").index
    return rollout_total(space, s, guess, DEFAULT_LOOKAHEAD), False
