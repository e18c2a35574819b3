"""A solver session: the computer breaks a code a person thinks of, one reply at a time."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from i18n import tr, trn

from .codes import Code, format_code, parse_code
from .decision import Decision, history_key
from .errors import InconsistentFeedback
from .filtering import filter_possible
from .rules import Rules
from .scoring import Feedback, score_codes, validate_feedback
from .space import space_for
from .strategies import (
    DEFAULT_BUDGET,
    DEFAULT_STRATEGY,
    Budget,
    choose_guess,
    get_strategy,
)


@dataclass(frozen=True)
class Turn:
    guess: Code
    feedback: Feedback


@dataclass(frozen=True)
class Mistake:
    """A reply that was wrong, found once the real code is known."""

    turn: int  # 1-based
    guess: Code
    given: Feedback
    correct: Feedback

    def __str__(self) -> str:
        return tr("turn {turn}: {code} was answered {given}, but the right reply was {correct}",
                  turn=self.turn, code=format_code(self.guess), given=self.given,
                  correct=self.correct)


#: Sets older than the previous one are kept for take-backs only up to this size; a bigger
#: one (8x9's first sets hold up to 64 MiB) is filtered again if a take-back reaches it.
KEEP_OLD_SET_BYTES = 1 << 20


class SolverSession:
    """Ask :meth:`next_guess`, answer with :meth:`tell`, repeat.

    The guesses are a pure function of the rules, strategy, seed and replies, so a session
    can be rebuilt from stored replies with :meth:`replay`.
    """

    def __init__(
        self,
        rules: Rules,
        strategy: str = DEFAULT_STRATEGY,
        *,
        seed: int = 0,
        budget: Budget = DEFAULT_BUDGET,
    ):
        self.rules = rules
        self.strategy = get_strategy(strategy)
        self.seed = seed
        self.budget = budget
        self.space = space_for(rules)
        self._turns: list[Turn] = []
        self._keys: list[tuple[int, int]] = []
        self._possible: list[np.ndarray | None] = [None]
        self._dropped: set[int] = set()  # turns whose set was let go (see KEEP_OLD_SET_BYTES)
        self._played: list[frozenset[int]] = [frozenset()]
        self._pending: Decision | None = None

    # ---- state ----------------------------------------------------------------------------
    @property
    def turns(self) -> tuple[Turn, ...]:
        return tuple(self._turns)

    @property
    def remaining(self) -> int:
        """How many codes still fit every reply."""
        possible = self._possible[-1]
        return self.space.size if possible is None else len(possible)

    @property
    def solved(self) -> bool:
        return bool(self._turns) and self._turns[-1].feedback.is_win(self.rules.pegs)

    @property
    def inconsistent(self) -> bool:
        return self.remaining == 0

    @property
    def possible(self) -> np.ndarray | None:
        """Sorted indices of the codes that fit every reply (``None``: every code)."""
        return self._possible[-1]

    @property
    def played(self) -> frozenset[int]:
        """The colours (0-based) guessed so far."""
        return self._played[-1]

    @property
    def history(self) -> bytes:
        """The replies so far as bytes: what seeds this position's sampled decisions."""
        return history_key(self.space, self._keys)

    @property
    def nbytes(self) -> int:
        """Memory held by this session's possible-code sets."""
        return sum(p.nbytes for p in self._possible if p is not None)

    @property
    def pending_guess(self) -> Code | None:
        """The guess already decided and waiting for a reply, if any (no work is done)."""
        return None if self._pending is None else self.space.code(self._pending.index)

    # ---- playing --------------------------------------------------------------------------
    def next_guess(self) -> Code:
        """The computer's next guess (the same one until a reply is told)."""
        if self.solved:
            raise RuntimeError("the code is already broken")
        self._raise_if_inconsistent()
        if self._pending is None:
            self._pending = choose_guess(
                self.space,
                self.strategy,
                self.possible,
                self.played,
                history=self.history,
                seed=self.seed,
                budget=self.budget,
            )
        return self.space.code(self._pending.index)

    def tell(self, feedback: Feedback | tuple[int, int]) -> int:
        """Answer the current guess. Returns how many codes remain.

        Raises :class:`InvalidFeedback` (nothing recorded) if no code could give that reply
        to this guess, and :class:`InconsistentFeedback` (reply recorded; take it back with
        :meth:`take_back`) if the replies together leave no possible code.
        """
        guess = self.next_guess()
        reply = validate_feedback(self.rules, guess, feedback)
        assert self._pending is not None
        index = self._pending.index
        encoded = reply.encode(self.rules.pegs)
        # Before filtering: the set before this one is not needed for the next take-back.
        self._drop_old_set(len(self._possible) - 2)
        possible = filter_possible(self.space, self._possible[-1], index, encoded)
        self._turns.append(Turn(guess, reply))
        self._keys.append((index, encoded))
        self._possible.append(possible)
        self._played.append(self._played[-1] | {d - 1 for d in guess})
        self._pending = None
        self._raise_if_inconsistent()
        return len(possible)

    def _drop_old_set(self, turn: int) -> None:
        old = self._possible[turn] if turn >= 1 else None
        if old is not None and old.nbytes > KEEP_OLD_SET_BYTES:
            self._possible[turn] = None
            self._dropped.add(turn)

    def _refilter(self, turn: int) -> np.ndarray | None:
        """The set after ``turn`` replies, from the latest earlier set still kept."""
        start = max(t for t in range(turn) if t not in self._dropped)  # 0 is never dropped
        possible = self._possible[start]
        for guess, reply in self._keys[start:turn]:
            possible = filter_possible(self.space, possible, guess, reply)
        return possible

    def take_back(self) -> Turn:
        """Undo the last reply (for example the one that made the replies contradict)."""
        if not self._turns:
            raise IndexError("there is no reply to take back")
        self._keys.pop()
        self._possible.pop()
        self._played.pop()
        self._pending = None
        last = len(self._possible) - 1
        if last in self._dropped:
            self._dropped.discard(last)
            self._possible[last] = self._refilter(last)
        return self._turns.pop()

    def check_against(self, secret: str | Code) -> list[Mistake]:
        """Given the real code, every turn whose reply was wrong and what it should have been."""
        code = parse_code(secret, self.rules) if isinstance(secret, str) else tuple(secret)
        parse_code(code, self.rules)
        mistakes = []
        for number, turn in enumerate(self._turns, start=1):
            correct = score_codes(code, turn.guess)
            if correct != turn.feedback:
                mistakes.append(Mistake(number, turn.guess, turn.feedback, correct))
        return mistakes

    def _raise_if_inconsistent(self) -> None:
        if self._turns and self.remaining == 0:
            raise InconsistentFeedback(trn(
                "no code fits the {count} reply: it is wrong (take back the last reply, or "
                "reveal your code to see which)",
                "no code fits all {count} replies: one of them is wrong (take back the last "
                "reply, or reveal your code to see which)", len(self._turns)),
                turn=len(self._turns),
            )

    @classmethod
    def restore(
        cls,
        rules: Rules,
        strategy: str,
        turns: Iterable[tuple[Code, Feedback | tuple[int, int]]],
        *,
        seed: int = 0,
        budget: Budget = DEFAULT_BUDGET,
    ) -> SolverSession:
        """Rebuild a session from stored guesses and replies without re-deciding each guess.

        The guesses must be the ones this strategy made (it is deterministic), so restoring
        is as good as :meth:`replay`, only faster. An inconsistent last reply is kept.
        """
        session = cls(rules, strategy, seed=seed, budget=budget)
        for guess, reply in turns:
            code = parse_code(tuple(guess), rules)
            session._pending = Decision(session.space.index(code), True, 0, 0)
            try:
                session.tell(reply)
            except InconsistentFeedback:
                break
        return session

    @classmethod
    def replay(
        cls,
        rules: Rules,
        strategy: str,
        replies: Iterable[Feedback | tuple[int, int]],
        *,
        seed: int = 0,
        budget: Budget = DEFAULT_BUDGET,
    ) -> SolverSession:
        """Rebuild a session from its stored replies (an inconsistent last reply is kept)."""
        session = cls(rules, strategy, seed=seed, budget=budget)
        for reply in replies:
            try:
                session.tell(reply)
            except InconsistentFeedback:
                break
        return session
