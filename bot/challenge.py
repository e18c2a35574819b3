"""``/challenge`` as a service: the bot breaks a code the player keeps to themself.

The stored replies are the truth; the engine's :class:`SolverSession` is a cache rebuilt
from them (after a restart, or when evicted). Solver work runs in a worker thread so the
event loop keeps answering other channels, and never inside a database transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets as secure_random
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from engine import (
    Code,
    Feedback,
    InconsistentFeedback,
    InvalidFeedback,
    Mistake,
    Rules,
    SolverSession,
    example,
    validate_feedback,
)

from .breaker import BreakerService, already_running, read_code
from .errors import BadInput, GameOver, NotAllowed
from .store import ChallengeStore, GameRecord, ReplyRecord

#: Solver sessions kept in memory, and the memory they may hold together: one 8x9 session
#: can hold ~50 MiB, so a busy bot evicts the least recently used (they are rebuilt on need).
SESSION_CACHE = 64
SESSION_MEMORY = 256 * 2**20


@dataclass
class ChallengeState:
    """Everything a challenge board shows."""

    game: GameRecord
    replies: list[ReplyRecord]
    #: The bot's current guess, waiting for a reply (None when over or contradictory).
    pending: Code | None
    remaining: int
    inconsistent: bool = False
    think_seconds: float = 0.0
    mistakes: list[Mistake] | None = None

    @property
    def turn(self) -> int:
        """The turn the pending guess is (1-based)."""
        return len(self.replies) + 1


class ChallengeService:
    def __init__(self, breaker: BreakerService, *, run_solver=None):
        self.breaker = breaker
        self.db = breaker.db
        self.games = breaker.store
        self.replies = ChallengeStore()
        self._sessions: OrderedDict[int, SolverSession] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._run_solver = run_solver or _in_thread

    # ---- sessions -------------------------------------------------------------------------
    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _session(self, game: GameRecord, replies: list[ReplyRecord]) -> SolverSession:
        session = self._sessions.get(game.id)
        turns = [(r.guess, r.feedback) for r in replies]
        if session is None or [(t.guess, t.feedback) for t in session.turns] != turns:
            session = await self._run_solver(
                SolverSession.restore, game.rules, game.strategy or "knuth", turns,
                seed=game.seed,
            )
            self._sessions[game.id] = session
        self._sessions.move_to_end(game.id)
        while len(self._sessions) > 1 and (
            len(self._sessions) > SESSION_CACHE
            or sum(s.nbytes for s in self._sessions.values()) > SESSION_MEMORY
        ):
            self._sessions.popitem(last=False)
        return session

    async def _next_guess(self, session: SolverSession) -> tuple[Code | None, float, bool]:
        """(guess, seconds thought, inconsistent)."""
        started = time.perf_counter()
        try:
            guess = await self._run_solver(session.next_guess)
        except InconsistentFeedback:
            return None, time.perf_counter() - started, True
        return guess, time.perf_counter() - started, False

    async def _state(self, game: GameRecord, replies: list[ReplyRecord]) -> ChallengeState:
        session = await self._session(game, replies)
        pending, seconds, inconsistent = None, 0.0, session.inconsistent
        if game.active and not inconsistent:
            pending, seconds, inconsistent = await self._next_guess(session)
        return ChallengeState(game, replies, pending, session.remaining, inconsistent, seconds)

    # ---- commands -------------------------------------------------------------------------
    async def start(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        user_name: str,
        rules: Rules,
        strategy: str,
    ) -> tuple[ChallengeState, GameRecord | None]:
        opened = await self.breaker.open_game(
            kind="challenge", guild_id=guild_id, channel_id=channel_id, user_id=user_id,
            user_name=user_name, rules=rules, strategy=strategy,
            seed=secure_random.randbelow(2**31),
        )
        return await self._state(opened.game, []), opened.abandoned

    async def ensure_free(self, channel_id: int) -> None:
        """Refuse at once when a game already runs here (``start`` checks again, atomically)."""
        async with self.db.transaction() as conn:
            running, _ = await self.breaker.load_active(conn, channel_id)
        if running is not None:
            raise already_running(running)

    async def load(self, game_id: int) -> tuple[GameRecord, list[ReplyRecord]]:
        async with self.db.transaction() as conn:
            game = await self.games.get(conn, game_id)
            if game is None or game.kind != "challenge":
                raise GameOver("That challenge no longer exists.", title="Unknown challenge")
            replies = await self.replies.replies(conn, game_id)
        return game, replies

    async def active_in_channel(self, channel_id: int) -> GameRecord:
        async with self.db.transaction() as conn:
            game, _abandoned = await self.breaker.load_active(conn, channel_id)
        if game is None or game.kind != "challenge":
            raise BadInput(
                "No challenge is running in this channel. Start one with `/challenge`: think "
                "of a code and I will try to break it.",
                title="No challenge here",
            )
        return game

    def check_challenger(self, game: GameRecord, user_id: int) -> None:
        """Raise unless ``user_id`` may answer this challenge right now."""
        if game.started_by != user_id:
            raise NotAllowed(
                f"This is not your challenge: only <@{game.started_by}> knows the code. "
                f"Start your own with `/challenge` in another channel, or when this one ends.",
                title="This is not your challenge",
            )
        if not game.active:
            raise GameOver("This challenge is over. Start a new one with `/challenge`.",
                           title="This challenge is over")

    @staticmethod
    def check_turn(replies: list[ReplyRecord], turn: int) -> None:
        """Refuse a button from an older board (its guess was already answered)."""
        expected = len(replies) + 1
        if turn != expected:
            raise GameOver(
                f"That button belongs to guess {turn}, but I'm on guess {expected} now: use the "
                f"latest board.",
                title="That board is out of date",
            )

    def check_reply(self, game: GameRecord, feedback: tuple[int, int]) -> None:
        """Refuse an impossible reply at once when the pending guess is already known."""
        session = self._sessions.get(game.id)
        guess = session.pending_guess if session is not None else None
        if guess is not None:
            _validate(game, guess, feedback)

    async def reply(
        self, *, game_id: int, turn: int | None, feedback: tuple[int, int], user_id: int
    ) -> ChallengeState:
        """Record the challenger's reply to the pending guess, then think of the next one."""
        async with self._lock(game_id):
            game, replies = await self.load(game_id)
            self.check_challenger(game, user_id)
            expected = len(replies) + 1
            if turn is not None:
                self.check_turn(replies, turn)
            session = await self._session(game, replies)
            if session.inconsistent:
                raise BadInput(
                    "Your replies already contradict each other: take back the last reply or "
                    "reveal your code first.",
                    title="Replies contradict each other",
                )
            guess, _, _ = await self._next_guess(session)
            assert guess is not None
            answer = _validate(game, guess, feedback)
            now = self.breaker.clock()
            async with self.db.transaction() as conn:
                await self.replies.add(conn, game_id, turn=expected, guess=guess,
                                       feedback=answer, player_id=user_id, now=now)
                if answer.is_win(game.rules.pegs):
                    await self.breaker.end_game(conn, game, status="won", now=now)
                elif expected >= game.rules.max_guesses:
                    await self.breaker.end_game(conn, game, status="lost", winner_id=user_id,
                                            now=now)
            with contextlib.suppress(InconsistentFeedback):
                await self._run_solver(session.tell, answer)
            replies = [*replies, ReplyRecord(0, expected, guess, answer, user_id, now, None)]
            return await self._state(game, replies)

    async def take_back(self, *, game_id: int, user_id: int) -> ChallengeState:
        async with self._lock(game_id):
            game, replies = await self.load(game_id)
            self.check_challenger(game, user_id)
            if not replies:
                raise BadInput("There is no reply to take back yet.", title="Nothing to take back")
            async with self.db.transaction() as conn:
                await self.replies.take_back(conn, replies[-1], self.breaker.clock())
            session = self._sessions.get(game.id)
            if session is not None and len(session.turns) == len(replies):
                session.take_back()
            return await self._state(game, replies[:-1])

    async def reveal(self, *, game_id: int, user_id: int, code_text: str) -> ChallengeState:
        """The challenger shows their code: name every wrong reply, and end the challenge."""
        async with self._lock(game_id):
            game, replies = await self.load(game_id)
            self.check_challenger(game, user_id)
            code = read_code(code_text, game.rules,
                             f"Type your code like {example(game.rules)}.")
            session = await self._session(game, replies)
            mistakes = session.check_against(code)
            now = self.breaker.clock()
            async with self.db.transaction() as conn:
                await self.breaker.end_game(conn, game, status="quit", now=now, secret=code)
            state = ChallengeState(game, replies, None, session.remaining, session.inconsistent)
            state.mistakes = mistakes
            return state

    async def current_state(self, game_id: int) -> ChallengeState:
        async with self._lock(game_id):
            game, replies = await self.load(game_id)
            return await self._state(game, replies)



def _validate(game: GameRecord, guess: Code, feedback: tuple[int, int]) -> Feedback:
    try:
        return validate_feedback(game.rules, guess, feedback)
    except InvalidFeedback as exc:
        raise BadInput(
            f"{exc}. Count again: black = right colour in the right place, white = right "
            f"colour in the wrong place.",
            title="That reply is impossible",
        ) from None


async def _in_thread(function: Callable, *args, **kwargs):
    return await asyncio.to_thread(function, *args, **kwargs)

