"""``/challenge``: the bot breaks a code the player keeps to themself.

Every move is one pass: ``check_*`` reads the game once (on the read connection) and
validates it, so a mistake is answered before anything slow; ``commit_*`` thinks in a
worker thread and writes the move in one transaction, which the database refuses when the
game moved on meanwhile (a double click, a stale board). The stored replies are the truth;
solver sessions are a cache rebuilt from them.
"""

from __future__ import annotations

import secrets as secure_random
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
    score_codes,
    validate_feedback,
)

from ...core.codes import read_code
from ...core.enums import GameKind, GameStatus
from ...core.errors import AlreadyDone, GameOver, NoGameRunning, WrongKindOfGame
from ...core.records import GameEnding, GameRecord, NewGame, ReplyRecord
from ...services.games import GameService
from ...store import INTEGRITY_ERRORS, ReplyStore, StaleWrite, is_duplicate_action, once
from .errors import (
    ImpossibleReply,
    NothingToTakeBack,
    NotYourChallenge,
    OutOfDate,
    RepliesContradict,
)
from .solvers import SolverCache


@dataclass(frozen=True)
class ChallengeState:
    """Everything a challenge board shows."""

    game: GameRecord
    #: After a reveal: the replies that were wrong.
    mistakes: tuple[Mistake, ...] | None = None

    @property
    def turn(self) -> int:
        """The turn of the guess waiting for a reply (1-based)."""
        return len(self.game.replies) + 1

    @property
    def pending(self) -> Code | None:
        return self.game.pending_guess if self.game.active else None

    @property
    def inconsistent(self) -> bool:
        return self.game.active and self.game.codes_left == 0


@dataclass(frozen=True)
class Reply:
    """A checked reply, ready to commit."""

    game: GameRecord
    feedback: Feedback | tuple[int, int]
    player_id: int
    action_id: int
    #: The turn its button named; None when typed (``/feedback``).
    turn: int | None = None

    @property
    def turn_seen(self) -> int:
        """The turn of the guess it answers: its button's, or the one on the board when it
        was typed. On PostgreSQL the game's row and its replies are two reads, and another
        reply may commit between them: the replies then already hold the one that answered
        the guess the row still shows (a guess once answered is never guessed again)."""
        if self.turn is not None:
            return self.turn
        answered = [r.turn for r in self.game.replies if r.guess == self.game.pending_guess]
        return answered[-1] if answered else len(self.game.replies) + 1

    def raced(self) -> OutOfDate:
        """Another reply to the same guess was stored first: this one is refused."""
        return OutOfDate(self.game, self.turn, raced=True, turn_seen=self.turn_seen)


@dataclass(frozen=True)
class Reveal:
    game: GameRecord
    code: Code
    action_id: int


class ChallengeService:
    def __init__(self, games: GameService, solvers: SolverCache,
                 turn_mark: Callable[[], int]):
        self.games = games
        self.solvers = solvers
        self.replies = ReplyStore()
        #: An id no earlier than any action already received (see ``bot.ui.ordering``):
        #: stored as the turn's ``turn_opened_by``, a ``/feedback`` with a lower id is stale.
        self.turn_mark = turn_mark

    def _next_mark(self, game: GameRecord) -> int:
        return max(self.turn_mark(), (game.turn_opened_by or 0) + 1)

    # ---- starting ---------------------------------------------------------------------------
    async def check_free(self, channel_id: int, user_id: int, *, private: bool = False
                         ) -> None:
        """Refuse at once when the channel (or, for a private challenge, the player) has a
        game running: before the slow first guess."""
        if private:
            await self.games.check_private_free(user_id)
        else:
            await self.games.check_free(channel_id)

    async def start(
        self, *, guild_id: int | None, channel_id: int, user_id: int, user_name: str,
        rules: Rules, strategy: str, action_id: int, private: bool = False,
    ) -> tuple[ChallengeState, GameRecord | None]:
        seed = secure_random.randbelow(2**31)
        session = SolverSession(rules, strategy, seed=seed)
        guess = await self.solvers.run(session.next_guess)
        opened_by = self.turn_mark()
        opened = await self.games.open(NewGame(
            GameKind.CHALLENGE, guild_id, channel_id, user_id, rules, strategy=strategy,
            seed=seed, pending_guess=guess, codes_left=session.remaining,
            turn_opened_by=opened_by, private=private, action_id=action_id,
        ), user_name=user_name)
        self.solvers.keep(opened.game.id, session, opened_by)
        return ChallengeState(opened.game), opened.abandoned

    # ---- reading ----------------------------------------------------------------------------
    async def load(self, game_id: int, user_id: int) -> GameRecord:
        """A running challenge that ``user_id`` may act on, read without waiting for writers."""
        game = await self.games.get(game_id)
        return self._check_player(game, user_id)

    async def in_channel(self, channel_id: int, user_id: int) -> GameRecord:
        """The challenge a ``/feedback`` typed here answers: the player's private one (see
        :meth:`GameService.private_meant`), or the channel's."""
        private = await self.games.private_meant(
            channel_id=channel_id, user_id=user_id,
            fits=lambda g: g.kind is GameKind.CHALLENGE and g.started_by == user_id)
        if private is not None:
            if private.kind is not GameKind.CHALLENGE:
                raise WrongKindOfGame(None)
            return self._check_player(private, user_id)
        try:
            game = await self.games.running(channel_id)
        except NoGameRunning as exc:
            if exc.abandoned is None:
                raise WrongKindOfGame(None) from None
            raise
        if game.kind is not GameKind.CHALLENGE:
            raise WrongKindOfGame(None)
        return self._check_player(game, user_id)

    @staticmethod
    def _check_player(game: GameRecord | None, user_id: int) -> GameRecord:
        if game is None or game.kind is not GameKind.CHALLENGE:
            raise GameOver(None)
        if game.started_by != user_id:
            raise NotYourChallenge(game)
        if not game.active:
            raise GameOver(game)
        return game

    @staticmethod
    def check_turn(game: GameRecord, turn: int) -> None:
        if turn != len(game.replies) + 1:
            raise OutOfDate(game, turn)

    async def board(self, game: GameRecord) -> ChallengeState:
        """The board of a stored challenge. A guess not thought of yet (a match's half-round
        thinks of its first when first shown, or a challenge stored before version 6) is
        stored as shown now: a ``/feedback`` typed earlier did not see it."""
        if game.active and game.pending_guess is None and game.codes_left is None:
            async with self.solvers.locked(game.id):
                session = await self.solvers.session_for(game)
                guess, left = await self.solvers.run(_decide, session)
                mark = self._next_mark(game)
                try:
                    async with self.games.db.transaction() as conn:
                        game = await self.games.store.advance(
                            conn, game, pending_guess=guess, codes_left=left, opened_by=mark,
                            now=game.updated_at)  # showing is not a move: idle time stands
                    self.solvers.keep(game.id, session, mark)
                except StaleWrite:  # shown meanwhile by another command: show that
                    fresh = await self.games.get(game.id)
                    if fresh is not None:
                        game = fresh
        return ChallengeState(game)

    # ---- a reply ----------------------------------------------------------------------------
    def check_reply(
        self, game: GameRecord, feedback: tuple[int, int], *, turn: int | None,
        action_id: int, player_id: int,
    ) -> Reply:
        """Validate a reply against the board as read: the player's mistakes end here.

        ``turn`` comes from a button; a ``/feedback`` has none, so it must have been typed
        after the guess it answers was shown (interaction ids grow with time)."""
        if turn is not None:
            self.check_turn(game, turn)
        elif game.turn_opened_by is None or action_id <= game.turn_opened_by:
            raise OutOfDate(game, None)  # typed before the guess was shown (or never shown)
        if game.codes_left == 0:
            raise RepliesContradict()
        answer: Feedback | tuple[int, int] = feedback
        if game.pending_guess is not None:
            answer = _validate(game.rules, game.pending_guess, feedback)
        return Reply(game, answer, player_id, action_id, turn)

    async def commit_reply(
        self, reply: Reply, *, board_message_id: int | None = None
    ) -> ChallengeState:
        game = reply.game
        async with self.solvers.locked(game.id):
            if self.solvers.newer_than(game):
                raise reply.raced()
            session = await self.solvers.session_for(game)
            guess = game.pending_guess or await self.solvers.run(session.next_guess)
            answer = (reply.feedback if isinstance(reply.feedback, Feedback)
                      else _validate(game.rules, guess, reply.feedback))
            won = answer.is_win(game.rules.pegs)
            pending, left = (None, session.remaining) if won else await self.solvers.run(
                _tell_and_decide, session, answer)
            turn = len(game.replies) + 1
            games = self.games
            now = games.clock()
            mark = self._next_mark(game)
            try:
                async with games.db.transaction() as conn:
                    record = await self.replies.add(conn, game.id, turn=turn, guess=guess,
                                                    feedback=answer, player_id=reply.player_id,
                                                    now=now, action_id=reply.action_id)
                    game = await games.store.advance(
                        conn, game.with_changes(replies=(*game.replies, record)),
                        pending_guess=pending, codes_left=left, opened_by=mark, now=now,
                        board_message_id=board_message_id)
                    if won:
                        game = await games.end(conn, game, GameEnding(GameStatus.WON),
                                               now=now)
                    elif turn >= game.rules.max_guesses:
                        ending = GameEnding(GameStatus.LOST, winner_id=reply.player_id)
                        game = await games.end(conn, game, ending, now=now)
            except StaleWrite:
                self.solvers.drop(game.id)
                raise reply.raced() from None
            except INTEGRITY_ERRORS as exc:
                self.solvers.drop(game.id)
                if is_duplicate_action(exc):
                    raise AlreadyDone() from None
                raise reply.raced() from None
            if won:
                self.solvers.drop(game.id)
            else:
                self.solvers.keep(game.id, session, mark)
            return ChallengeState(game)

    # ---- a take-back ------------------------------------------------------------------------
    def check_take_back(self, game: GameRecord, turn: int) -> ReplyRecord:
        """The reply the button names must be the last standing one."""
        if not game.replies:
            raise NothingToTakeBack()
        if turn != game.replies[-1].turn:
            raise OutOfDate(game, turn, action="take back")
        return game.replies[-1]

    async def commit_take_back(
        self, game: GameRecord, last: ReplyRecord, *, action_id: int
    ) -> ChallengeState:
        async with self.solvers.locked(game.id):
            if self.solvers.newer_than(game):
                raise OutOfDate(game, last.turn, action="take back", raced=True)
            session = await self.solvers.session_for(game)
            pending, left = await self.solvers.run(_undo_and_decide, session)
            games = self.games
            now = games.clock()
            mark = self._next_mark(game)
            try:
                async with once(), games.db.transaction() as conn:
                    if not await self.replies.take_back(conn, game, last, now, action_id):
                        raise StaleWrite()
                    game = await games.store.advance(
                        conn, game.with_changes(replies=game.replies[:-1]),
                        pending_guess=pending, codes_left=left, opened_by=mark, now=now)
            except StaleWrite:
                self.solvers.drop(game.id)
                raise OutOfDate(game, last.turn, action="take back", raced=True) from None
            self.solvers.keep(game.id, session, mark)
            return ChallengeState(game)

    # ---- a reveal ---------------------------------------------------------------------------
    def check_reveal(self, game: GameRecord, code_text: str, *, action_id: int) -> Reveal:
        return Reveal(game, read_code(code_text, game.rules), action_id)

    async def commit_reveal(self, reveal: Reveal) -> ChallengeState:
        """The challenger shows their code: name every wrong reply, and end the challenge."""
        game = reveal.game
        mistakes = tuple(
            Mistake(r.turn, r.guess, r.feedback, correct)
            for r in game.replies
            if (correct := score_codes(reveal.code, r.guess)) != r.feedback
        )
        games = self.games
        now = games.clock()
        mark = self._next_mark(game)
        try:
            async with once(), games.db.transaction() as conn:
                game = await games.store.advance(conn, game, pending_guess=None,
                                                 codes_left=game.codes_left,
                                                 opened_by=mark, now=now)
                game = await games.end(conn, game, GameEnding(
                    GameStatus.QUIT, secret=reveal.code, action_id=reveal.action_id), now=now)
        except StaleWrite:
            raise OutOfDate(reveal.game, None, action="reveal", raced=True) from None
        self.solvers.drop(game.id)
        return ChallengeState(game, mistakes=mistakes)


def _validate(rules: Rules, guess: Code, feedback: Feedback | tuple[int, int]) -> Feedback:
    try:
        return validate_feedback(rules, guess, feedback)
    except InvalidFeedback as exc:
        raise ImpossibleReply(str(exc)) from None


def _decide(session: SolverSession) -> tuple[Code | None, int]:
    """(the next guess or None when the replies contradict, codes left)."""
    try:
        return session.next_guess(), session.remaining
    except InconsistentFeedback:
        return None, 0


def _tell_and_decide(session: SolverSession, answer: Feedback) -> tuple[Code | None, int]:
    try:
        session.tell(answer)
    except InconsistentFeedback:
        return None, 0
    return _decide(session)


def _undo_and_decide(session: SolverSession) -> tuple[Code | None, int]:
    session.take_back()
    return _decide(session)
