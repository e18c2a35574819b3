"""The code-breaking game: the bot holds a secret, people in a channel guess.

One ``guess`` is one transaction: read the channel's game, check the move, write it,
commit. A mistake raises a domain error before anything is written.
"""

from __future__ import annotations

from engine import Code, Rules, draw_secret, example, score_codes

from ...core.codes import read_code
from ...core.enums import GameKind, GameStatus
from ...core.errors import (
    AlreadyGuessed,
    GameMovedOn,
    NotYourTurn,
    TooLate,
    UserError,
    WrongKindOfGame,
)
from ...core.games import GameService, NewGame
from ...core.records import GameRecord
from ...store import once

#: A guess this soon after someone won is answered "too late" rather than "no game".
LATE_GUESS_WINDOW = 600.0


class BreakerService:
    def __init__(self, games: GameService):
        self.games = games

    async def new_game(
        self, *, guild_id: int | None, channel_id: int, user_id: int, user_name: str,
        rules: Rules, action_id: int | None = None, secret: Code | None = None,
    ) -> NewGame:
        """The bot's secret, or ``secret`` set by the starter, who then may not guess."""
        return await self.games.open(
            kind=GameKind.BREAKER, guild_id=guild_id, channel_id=channel_id, user_id=user_id,
            user_name=user_name, rules=rules, secret=secret or draw_secret(rules),
            action_id=action_id, setter_id=user_id if secret else None,
        )

    @staticmethod
    def check_guesser(game: GameRecord, user_id: int) -> None:
        """A setter may not guess their own code, nor anyone but a match half's breaker."""
        if user_id == game.setter_id or (
                game.match_id is not None and user_id != game.started_by):
            raise NotYourTurn(game)

    async def picker_game(self, game_id: int, channel_id: int, user_id: int) -> GameRecord:
        """Read-only: the game a picker opens for, if it still runs in this channel and
        this player may guess it."""
        game = await self.games.get(game_id)
        if game is None or game.kind is not GameKind.BREAKER or not game.active or (
                game.channel_id != channel_id or self.games.is_idle(game, self.games.clock())):
            raise GameMovedOn(game_id, None)
        self.check_guesser(game, user_id)
        return game

    async def guess(
        self, *, channel_id: int, user_id: int, user_name: str, text: str,
        action_id: int | None = None, game_id: int | None = None,
    ) -> GameRecord:
        """One guess in the channel's game; ``game_id``: only if that game still runs (a
        picker's guess: the game it was opened for may have ended or been replaced)."""
        games = self.games
        async with once(), games.db.transaction() as conn:
            game, abandoned = await games.load_active(conn, channel_id)
            if game is not None:
                if game_id is not None and game.id != game_id:
                    raise GameMovedOn(game_id, game)
                if game.kind is not GameKind.BREAKER:
                    raise WrongKindOfGame(game)
                self.check_guesser(game, user_id)
                code = read_code(text, game.rules, f"/guess {example(game.rules)}")
                assert game.secret is not None
                earlier = next((g for g in game.guesses if g.code == code), None)
                if earlier is not None:
                    raise AlreadyGuessed(game, earlier)
                now = games.clock()
                feedback = score_codes(game.secret, code)
                game = await games.store.add_guess(conn, game, player_id=user_id, code=code,
                                                   feedback=feedback, now=now,
                                                   action_id=action_id)
                await games.store.remember_player(conn, user_id, user_name, now)
                if feedback.is_win(game.rules.pegs):
                    game = await games.end(conn, game, GameStatus.WON, winner_id=user_id,
                                           now=now)
                elif game.guesses_left == 0:
                    game = await games.end(conn, game, GameStatus.LOST, now=now)
                return game
        # No running game (an idle one was just recorded as abandoned, and committed).
        raise await self._no_game(channel_id, abandoned, game_id)

    async def _no_game(self, channel_id: int, abandoned: GameRecord | None,
                       game_id: int | None) -> UserError:
        """Why a guess found no game: just won by someone (too late), the picker's game
        over, or no game at all (perhaps one just abandoned)."""
        if abandoned is not None:
            return self.games.no_game(abandoned)
        latest = await self.games.latest(channel_id)
        won = latest if latest is not None and latest.status is GameStatus.WON else None
        if game_id is not None:  # a picker's game: too late, or over some other way
            return TooLate(won) if won is not None and won.id == game_id else (
                GameMovedOn(game_id, None))
        if won is not None and self.games.clock() - (won.ended_at or 0) < LATE_GUESS_WINDOW:
            return TooLate(won)
        return self.games.no_game()
