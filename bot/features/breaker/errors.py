"""The breaker game's own mistakes (a guess too late, a code already on the board, a
guess by someone who may not guess, a picker's game gone); their words are in :mod:`.render`."""

from __future__ import annotations

from ...core.errors import UserError
from ...core.records import GameRecord, GuessRecord


class TooLate(UserError):
    """A guess arriving just after someone broke the code."""

    def __init__(self, game: GameRecord):
        super().__init__("the code was already broken")
        self.game = game


class AlreadyGuessed(UserError):
    """A code already on the board: guessing it again costs no turn."""

    def __init__(self, game: GameRecord, earlier: GuessRecord):
        super().__init__("that code is already on the board")
        self.game = game
        self.earlier = earlier


class GameMovedOn(UserError):
    """A move for a game that is no longer the channel's running one: it ended, or another
    replaced it, since the move's picker was opened. Nothing is stored."""

    def __init__(self, game_id: int, running: GameRecord | None):
        super().__init__("that game is no longer running")
        self.game_id = game_id
        #: The channel's game now, if another one runs.
        self.running = running


class NotYourTurn(UserError):
    """A guess by someone who may not guess this code: its setter, or in a match anyone
    but the half-round's breaker."""

    def __init__(self, game: GameRecord):
        super().__init__("you may not guess this code")
        self.game = game
