"""Opening books, built offline by one step of policy improvement over the lookahead.

At each node of the book, a few dozen candidates (the lookahead's own choice, then the
best of the greedy rankings, one per shape of split) are each played out to the end *by
the lookahead itself*, exactly as live games would play them, and the candidate with the
fewest guesses in total is kept. The lookahead's greedy completions misjudge large sets
(they guess possible codes only); playing the real strategy out does not. Because the
lookahead's own choice is always a candidate, each node is at least as good as the
lookahead alone, and so, node by node from the top, is the whole book.

A plan may count guesses over a seeded sample of the secrets at each node (the decisions
below still see every possible code). The book being replaced (``previous``) plays its
move at each node too: it is one more candidate where the plan plays candidates out, and
kept as it is in the smaller sets the plan leaves alone and at the first guesses a plan
keeps (6x9: its first guess), so a rebuild plays no worse than the book it replaces.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .candidates import first_move_candidates
from .counting import ReplyClasses
from .decision import history_key, rng_for
from .lookahead import DEFAULT_LOOKAHEAD, LookaheadBudget, lookahead_decision, rank_candidates
from .rules import Rules
from .space import CodeSpace, space_for

History = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class BookPlan:
    """What one size's book holds and how hard its builder looks."""

    pegs: int
    colors: int
    #: Candidates played out at each depth of the book besides the lookahead's own (its
    #: length is the book's depth; 0 at the first guess: every first guess up to symmetry).
    candidates: tuple[int, ...]
    #: Smaller sets are left to the live lookahead (or keep the previous book's move).
    min_set: int
    #: Secrets each candidate is played out over (a seeded sample of larger sets).
    secrets: int
    #: How the candidates are ranked before they are played out.
    ranking: LookaheadBudget
    #: How the book's own choice at a node is made (the games played out below it always
    #: use the live budget): a larger budget decides better offline. Where it differs from
    #: the live budget, the live lookahead's own choice is a candidate too.
    deciding: LookaheadBudget = DEFAULT_LOOKAHEAD
    #: The first this many guesses keep the previous book's move where it has one: a
    #: rebuild refines the deeper moves without re-deciding the first ones.
    kept: int = 0

    @property
    def rules(self) -> Rules:
        return Rules(self.pegs, self.colors)


_RANKING = LookaheadBudget(rank_entries=40_000_000, rank_secrets=8_000, large_space=1 << 30)
#: The shipped opening books.
BOOK_PLANS: tuple[BookPlan, ...] = (
    BookPlan(5, 8, candidates=(0, 30, 30, 12), min_set=40, secrets=1 << 30, ranking=_RANKING),
    # 6x9: the first guess is the previous book's (chosen by a lookahead with ten candidates
    # completed over 4,000 codes; policy improvement over samples of 400 secrets chose
    # worse: see docs/engine.md). For each reply, the second guess is the best of the
    # previous book's, that lookahead's, the live lookahead's and the best by entropy; at
    # each position after it, the third guess is the best of the previous book's, that
    # lookahead's and the live lookahead's. Every candidate is played out over every code.
    BookPlan(6, 9, candidates=(1, 1, 0), kept=1, min_set=3, secrets=1 << 30,
             ranking=dataclasses.replace(_RANKING, rank_entries=24_000_000,
                                         rank_secrets=6_000),
             deciding=LookaheadBudget(top=10, sampled_top=10, rank_entries=24_000_000,
                                      rank_secrets=6_000, rollout_limit=4_000,
                                      rollout_codes=1 << 40, large_space=1 << 30)),
)


class BookBuilder:
    """Builds one plan's book (see the module docstring); ``moves`` holds the result."""

    def __init__(
        self,
        plan: BookPlan,
        progress: Callable[[str], None] | None = None,
        previous: dict[bytes, int] | None = None,
        processes: int = 1,
    ):
        self.plan = plan
        self.previous = previous or {}
        self.processes = processes
        self.space: CodeSpace = space_for(plan.rules)
        self.moves: dict[bytes, int] = {}
        self._values: dict[bytes, int] = {}
        self._progress = progress

    def build(self) -> dict[bytes, int]:
        self._improve(self.space.all_indices(), frozenset(), ())
        return self.moves

    # ---- choosing ---------------------------------------------------------------------
    def _improve(self, possible: np.ndarray, played: frozenset[int], history: History) -> None:
        """Choose the book's move at this node, then at each of its replies."""
        depth = len(history)
        if depth >= len(self.plan.candidates):
            return
        key = history_key(self.space, history)
        if depth < self.plan.kept and key in self.previous:
            self.moves[key] = self.previous[key]
            self._improve_replies(possible, played, history, self.previous[key])
            return
        if len(possible) < self.plan.min_set:
            if key in self.previous:
                self.moves[key] = self.previous[key]
            return
        secrets = self._sample(possible, key)
        candidates = self._candidates(possible, played, key, depth)
        values = self._played_out(possible, secrets, played, history, candidates)
        best = min(values, key=lambda g: values[g]) if values else candidates[0]
        self.moves[key] = best  # the first (the previous book's, the lookahead's own) on ties
        if self._progress is not None and values:
            self._progress(f"{'  ' * depth}{len(possible)} codes: guesses over "
                           f"{len(secrets)} secrets after each candidate {list(values.values())}"
                           f" (the first: the previous book's or the lookahead's own), kept "
                           f"{values[best]}")
        self._improve_replies(possible, played, history, best)

    def _improve_replies(
        self, possible: np.ndarray, played: frozenset[int], history: History, guess: int
    ) -> None:
        for reply, part in self._replies(possible, guess):
            self._improve(part, played | self._colours(guess), (*history, (guess, reply)))

    def _played_out(
        self,
        possible: np.ndarray,
        secrets: np.ndarray,
        played: frozenset[int],
        history: History,
        candidates: list[int],
    ) -> dict[int, int]:
        """Each candidate's total over ``secrets`` (none when there is only one), in
        ``processes`` forked workers when there are several."""
        if len(candidates) < 2:
            return {}
        jobs = [(possible, secrets, played, history, g) for g in candidates]
        if self.processes < 2 or "fork" not in multiprocessing.get_all_start_methods():
            totals = [self._after(*job) for job in jobs]
        else:
            global _FORKED
            _FORKED = self  # the workers are forked with this builder's state, memo included
            with multiprocessing.get_context("fork").Pool(min(self.processes, len(jobs))) as pool:
                totals = pool.map(_after_in_worker, jobs, chunksize=1)
        return dict(zip(candidates, totals, strict=True))

    def _candidates(
        self, possible: np.ndarray, played: frozenset[int], key: bytes, depth: int
    ) -> list[int]:
        """The previous book's move, the book's own choice and the live lookahead's first,
        then the best ranked (distinct splits; at the first guess one per partition of the
        pegs, as mirror images complete alike); at the first guess with no number planned,
        every first guess up to symmetry."""
        firsts = first_move_candidates(self.space)
        if depth == 0 and not self.plan.candidates[0]:
            return [int(g) for g in firsts]
        given = None if depth == 0 else possible  # how live games ask at the first guess
        own = lookahead_decision(self.space, given, played, key, budget=self.plan.deciding,
                                 use_book=False).index
        live = own if self.plan.deciding == DEFAULT_LOOKAHEAD else lookahead_decision(
            self.space, given, played, key, use_book=False).index
        ranked: list[int] = []
        if self.plan.candidates[depth]:
            count = self.plan.candidates[depth]
            ranking = dataclasses.replace(self.plan.ranking, top=count, sampled_top=count)
            found, _ = rank_candidates(self.space, given, played, key, 0, ranking)
            ranked = [int(g) for g in found if depth or int(g) in firsts]
        previous = [self.previous[key]] if key in self.previous else []
        return list(dict.fromkeys([*previous, own, live, *ranked]))

    def _sample(self, possible: np.ndarray, key: bytes) -> np.ndarray:
        if len(possible) <= self.plan.secrets:
            return possible
        rng = rng_for(0, "opening book", key)
        return np.sort(rng.choice(possible, size=self.plan.secrets, replace=False))

    # ---- playing out --------------------------------------------------------------------
    def _after(
        self,
        possible: np.ndarray,
        secrets: np.ndarray,
        played: frozenset[int],
        history: History,
        guess: int,
    ) -> int:
        """Guesses to solve every one of ``secrets`` when ``guess`` is played here and the
        live lookahead plays on."""
        total = len(secrets)
        now_played = played | self._colours(guess)
        replies = self.space.feedback_one(guess, secrets)
        for reply, part in self._replies(possible, guess):
            mine = secrets[replies == reply]
            if len(mine):
                total += self._value(part, mine, now_played, (*history, (guess, reply)))
        return total

    def _value(
        self, possible: np.ndarray, secrets: np.ndarray, played: frozenset[int], history: History
    ) -> int:
        """Guesses the live lookahead needs from this node for every one of ``secrets``."""
        if len(possible) <= 2:  # the lowest, then the other
            return 2 * len(secrets) - int(secrets[0] == possible[0])
        key = history_key(self.space, history)
        memo = key + hashlib.blake2b(secrets.tobytes(), digest_size=8).digest()
        if memo not in self._values:
            guess = self._decide(possible, played, key)
            self._values[memo] = self._after(possible, secrets, played, history, guess)
        return self._values[memo]

    def _decide(self, possible: np.ndarray, played: frozenset[int], key: bytes) -> int:
        return lookahead_decision(self.space, possible, played, key, use_book=False).index

    def _replies(self, possible: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        return list(ReplyClasses.of_guess(self.space, possible, guess))

    def _colours(self, guess: int) -> frozenset[int]:
        return frozenset(int(d) for d in self.space.digits(np.array([guess]))[0])


_FORKED: BookBuilder | None = None


def _after_in_worker(job: tuple[np.ndarray, np.ndarray, frozenset[int], History, int]) -> int:
    assert _FORKED is not None
    return _FORKED._after(*job)


def book_json(plan: BookPlan, moves: dict[bytes, int], seconds: float) -> str:
    data = {
        "pegs": plan.pegs,
        "colors": plan.colors,
        "repeats": True,
        "depth": len(plan.candidates),
        "candidates": list(plan.candidates),
        "min_set": plan.min_set,
        "build_seconds": round(seconds, 1),
        "moves": sorted([k.hex(), g] for k, g in moves.items()),
    }
    return json.dumps(data, separators=(",", ":")) + "\n"
