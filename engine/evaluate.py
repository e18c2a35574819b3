"""Play a strategy against every secret of a rule size at once.

A strategy's guess depends only on the replies so far, so all games share one decision
tree: each node is decided once and the secrets are split by their reply. This plays every
game exactly as a :class:`~engine.solver.SolverSession` would, in a fraction of the time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from i18n import tr
from i18n.numbers import number

from .decision import history_key
from .rules import Rules
from .space import space_for
from .strategies import DEFAULT_BUDGET, DEFAULT_STRATEGY, Budget, choose_guess, get_strategy

#: Largest space :func:`evaluate` will sweep (every secret is played).
EVALUATE_LIMIT = 1 << 21
#: A game still unsolved after this many guesses counts as a failure of the strategy.
MAX_DEPTH = 40


@dataclass
class Evaluation:
    strategy: str
    rules: Rules
    codes: int
    distribution: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    #: True when every decision was exact (no bounded-work sampling).
    exact: bool = True

    @property
    def total(self) -> int:
        return sum(k * v for k, v in self.distribution.items())

    @property
    def average(self) -> float:
        return self.total / self.codes

    @property
    def max(self) -> int:
        return max(self.distribution)

    def as_dict(self) -> dict:
        return {
            "strategy": self.strategy,
            "pegs": self.rules.pegs,
            "colors": self.rules.colors,
            "repeats": self.rules.repeats,
            "codes": self.codes,
            "total": self.total,
            "average": round(self.average, 4),
            "max": self.max,
            "distribution": {str(k): v for k, v in sorted(self.distribution.items())},
            "seconds": round(self.seconds, 4),
        }


def evaluate(
    rules: Rules,
    strategy: str = DEFAULT_STRATEGY,
    *,
    seed: int = 0,
    budget: Budget = DEFAULT_BUDGET,
    progress: Callable[[int, int], None] | None = None,
) -> Evaluation:
    """Play ``strategy`` against every secret; ``progress(done, total)`` is called as games end."""
    chosen = get_strategy(strategy)
    space = space_for(rules)
    if space.size > EVALUATE_LIMIT:
        raise ValueError(tr(
            "{size} has {codes} codes; evaluate plays every one and supports up to {limit}",
            size=rules.size_label, codes=number(space.size), limit=number(EVALUATE_LIMIT)))
    started = time.perf_counter()
    result = Evaluation(chosen.name, rules, space.size)
    done = 0

    def solved_at(depth: int, count: int) -> None:
        nonlocal done
        result.distribution[depth] = result.distribution.get(depth, 0) + count
        done += count

    # Each node: (possible codes or None for all, colours played, depth, history).
    stack: list[tuple[np.ndarray | None, frozenset[int], int, tuple[tuple[int, int], ...]]] = [
        (None, frozenset(), 1, ())
    ]
    while stack:
        possible, played, depth, history = stack.pop()
        secrets = space.all_indices() if possible is None else possible
        if depth > MAX_DEPTH:
            raise RuntimeError(f"{chosen.name} did not solve {len(secrets)} codes in {MAX_DEPTH}")
        decision = choose_guess(
            space, chosen, possible, played,
            history=history_key(space, history), seed=seed, budget=budget,
        )
        result.exact &= decision.exact
        guess = decision.index
        replies = space.feedback_one(guess, secrets)
        order = np.argsort(replies, kind="stable")
        sizes = np.bincount(replies, minlength=space.n_feedback)
        ends = np.cumsum(sizes)
        next_played = played | {int(d) for d in space.digits(np.array([guess]))[0]}
        for value in np.flatnonzero(sizes):
            size = int(sizes[value])
            if value == space.win:
                solved_at(depth, 1)
            elif size <= 2:
                # Every strategy guesses a possible code here: one is solved with the next
                # guess and, if there were two, the other with the one after.
                solved_at(depth + 1, 1)
                if size == 2:
                    solved_at(depth + 2, 1)
            else:
                subset = np.sort(secrets[order[ends[value] - size : ends[value]]])
                stack.append((subset, next_played, depth + 1, (*history, (guess, int(value)))))
        if progress is not None:
            progress(done, space.size)
    result.seconds = time.perf_counter() - started
    return result
