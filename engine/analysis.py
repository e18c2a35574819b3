"""How well a finished game was played, move by move, measured against the solver.

For every guess: the codes still possible before and after its reply, whether it could
have been the code, what the solver would have played from the same position and how many
codes each would leave (worst case and on average), and a one-line verdict. Two scores sum
the game up (0-100, defined in words by the bot's ``/mastermind help``):

* **skill**: per move, ``log((n+1)/(e+1)) / log((n+1)/(b+1))`` where ``n`` codes were
  possible, ``e`` is how many your guess leaves on average and ``b`` the best of yours and
  the solver's (1 = as good as the solver, 0 = no progress); the mean, times 100.
* **luck**: per move, the share of the possible codes whose reply would have left *more*
  codes than the reply you got (ties count half); the mean over moves with a choice left,
  times 100. 50 is average luck.

"Codes left" after a reply counts a win as 0 left. All scoring reuses the code space's
tables (:mod:`engine.space`) and the strategies' own decisions (:mod:`engine.strategies`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from i18n import tr
from i18n.numbers import number

from .codes import Code
from .decision import history_key
from .filtering import _HalfGroups, code_slices, filter_possible
from .rules import Rules
from .scoring import Feedback, score_codes
from .solver import SolverSession
from .space import CodeSpace, space_for
from .strategies import DEFAULT_STRATEGY, Budget, choose_guess, get_strategy

#: The solver's budget in the analysis. Decisions within the exact limits (all of 4x6, and
#: the later moves of big games) are exactly the bot's; the sampled ones of big spaces are
#: sampled more lightly than a live move, so a whole 8x9 game (each move, and the solver's
#: own game) is analysed in about a second.
ANALYSIS_BUDGET = Budget(sample_secrets=500, bounded_entries=1_500_000)


@dataclass(frozen=True)
class MoveAnalysis:
    turn: int
    guess: Code
    feedback: Feedback
    #: Codes that fitted every earlier reply, and every reply including this one.
    before: int
    after: int
    #: Could this guess have been the code (did it fit every earlier reply)?
    was_possible: bool
    #: Codes this guess would leave: the worst reply, and on average over the codes.
    worst: int
    average: float
    #: The solver's guess from the same position, and what it would leave.
    solver_guess: Code
    solver_worst: int
    solver_average: float
    verdict: str
    #: This move's share of the skill and luck scores (0..1; luck None without a choice).
    skill: float
    luck: float | None


@dataclass(frozen=True)
class GameAnalysis:
    rules: Rules
    strategy: str
    moves: tuple[MoveAnalysis, ...]
    #: 0-100 (see the module docstring).
    skill: int
    luck: int | None
    #: Codes possible after each of the solver's own guesses playing the same secret from
    #: the start (empty when the secret is unknown).
    bot_path: tuple[int, ...]

    @property
    def you_path(self) -> tuple[int, ...]:
        return tuple(m.after for m in self.moves)

    @property
    def solved(self) -> bool:
        return bool(self.moves) and self.moves[-1].feedback.is_win(self.rules.pegs)


def reply_sizes(space: CodeSpace, possible: np.ndarray | None, guess: int
                ) -> tuple[np.ndarray, np.ndarray | None]:
    """How many of the ``possible`` codes (``None`` = all) give each encoded reply to
    ``guess`` (int64 counts, ``space.n_feedback`` of them), and the reply of each possible
    code (``None`` when ``possible`` is ``None``: the whole space is never listed)."""
    nfb = space.n_feedback
    score: Callable[[np.ndarray], np.ndarray]
    if not space.materialized:
        halves = _HalfGroups(space, guess)
        if possible is None:  # every code: count half-groups, never list the codes
            high = np.bincount(halves.high_group, minlength=halves.table.shape[0])
            low = np.bincount(halves.low_group, minlength=halves.table.shape[1])
            weights = np.outer(high, low).ravel().astype(np.float64)
            counts = np.bincount(halves.table.ravel(), weights=weights, minlength=nfb)
            return np.rint(counts).astype(np.int64), None
        score = halves.feedback
    else:
        def score(chunk: np.ndarray) -> np.ndarray:
            return space.feedback_one(guess, chunk)

    replies = np.concatenate([score(chunk) for chunk in code_slices(space, possible)])
    return np.bincount(replies, minlength=nfb).astype(np.int64), replies


def _left(sizes: np.ndarray, win: int) -> np.ndarray:
    """Codes left after each reply: the class size, and 0 after a win."""
    left = sizes.copy()
    left[win] = 0
    return left


def _worst_and_average(sizes: np.ndarray, win: int) -> tuple[int, float]:
    left = _left(sizes, win)
    total = int(sizes.sum())
    return int(left.max()), float((left * sizes).sum() / total) if total else 0.0


def _quality(before: int, mine: float, best: float) -> float:
    best = min(best, mine)
    top = math.log((before + 1) / (best + 1))
    return 1.0 if top <= 0 else max(0.0, min(1.0, math.log((before + 1) / (mine + 1)) / top))


def _luck(sizes: np.ndarray, win: int, got: int) -> float:
    left = _left(sizes, win)
    mine = left[got]
    worse = sizes[left > mine].sum()
    same = sizes[left == mine].sum()
    return float((worse + 0.5 * same) / sizes.sum())


def verdict(*, won: bool, before: int, after: int, worst: int, solver_worst: int,
            was_possible: bool) -> str:
    """One line on a move, judged by what it risked (its worst case), not by its luck."""
    if won:
        return tr("found it") if before == 1 else tr("found it: a 1 in {codes} shot",
                                                     codes=number(before))
    if before == 1:
        return tr("only one code was left: it wins at once")
    if worst <= solver_worst:
        return tr("best possible") if was_possible or solver_worst > 1 else tr(
            "best possible split")
    if worst <= solver_worst * 1.5 or worst - solver_worst <= 2:
        return tr("good")
    if after > solver_worst:
        return tr("left {left} where {best} was possible", left=number(after),
                  best=number(solver_worst))
    return tr("risky: could have left {left} where {best} was possible", left=number(worst),
              best=number(solver_worst))


def analyse(
    rules: Rules,
    turns: Sequence[tuple[Code, Feedback]],
    *,
    secret: Code | None = None,
    strategy: str = DEFAULT_STRATEGY,
    seed: int = 0,
    budget: Budget = ANALYSIS_BUDGET,
) -> GameAnalysis:
    """Analyse a game's guesses and replies (in order). ``secret``, when known, adds the
    solver's own game against it (``bot_path``). Stops at a reply no code fits."""
    space = space_for(rules)
    chosen = get_strategy(strategy)
    possible: np.ndarray | None = None
    played: frozenset[int] = frozenset()
    keys: list[tuple[int, int]] = []
    moves: list[MoveAnalysis] = []
    for turn, (guess, reply) in enumerate(turns, start=1):
        before = space.size if possible is None else len(possible)
        if before == 0:
            break
        g = space.index(tuple(guess))
        s = choose_guess(space, chosen, possible, played, history=history_key(space, keys),
                         seed=seed, budget=budget).index
        sizes, replies = reply_sizes(space, possible, g)
        solver_sizes = sizes if s == g else reply_sizes(space, possible, s)[0]
        encoded = Feedback(*reply).encode(rules.pegs)
        worst, average = _worst_and_average(sizes, space.win)
        solver_worst, solver_average = _worst_and_average(solver_sizes, space.win)
        was_possible = possible is None or _contains(possible, g)
        won = encoded == space.win
        after = int(sizes[encoded])
        moves.append(MoveAnalysis(
            turn, tuple(guess), Feedback(*reply), before, after, was_possible, worst, average,
            space.code(s), solver_worst, solver_average,
            verdict(won=won, before=before, after=after, worst=worst,
                    solver_worst=solver_worst, was_possible=was_possible),
            _quality(before, average, solver_average),
            _luck(sizes, space.win, encoded) if before > 1 else None,
        ))
        if possible is None or replies is None:
            possible = filter_possible(space, possible, g, encoded)
        else:
            possible = possible[replies == encoded]
        played = played | {d - 1 for d in guess}
        keys.append((g, encoded))
        if won:
            break
    lucks = [m.luck for m in moves if m.luck is not None]
    return GameAnalysis(
        rules, strategy, tuple(moves),
        round(100 * sum(m.skill for m in moves) / len(moves)) if moves else 0,
        round(100 * sum(lucks) / len(lucks)) if lucks else None,
        bot_game(rules, secret, strategy=strategy, seed=seed, budget=budget)
        if secret is not None else (),
    )


def bot_game(rules: Rules, secret: Code, *, strategy: str = DEFAULT_STRATEGY, seed: int = 0,
             budget: Budget = ANALYSIS_BUDGET) -> tuple[int, ...]:
    """Codes possible after each guess of the solver breaking ``secret`` itself."""
    session = SolverSession(rules, strategy, seed=seed, budget=budget)
    path: list[int] = []
    while not session.solved and len(path) < rules.max_guesses:
        path.append(session.tell(score_codes(tuple(secret), session.next_guess())))
    return tuple(path)


def _contains(sorted_codes: np.ndarray, index: int) -> bool:
    pos = int(np.searchsorted(sorted_codes, index))
    return pos < len(sorted_codes) and int(sorted_codes[pos]) == index
