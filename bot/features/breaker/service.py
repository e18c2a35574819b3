"""The code-breaking game: the bot holds a secret, people in a channel guess, or one player
alone in their private game.

One ``guess`` is one transaction: read the game, check the move, write it, commit. A mistake
raises a domain error before anything is written.
"""

from __future__ import annotations

from engine import Code, Rules, draw_secret, score_codes

from ...core.codes import read_code
from ...core.enums import CodeEntry, GameKind, GameStatus, Which
from ...core.errors import WrongKindOfGame
from ...core.records import GameEnding, GameRecord, NewGame
from ...services.games import GameService, Opened
from ...store import Connection, once
from .errors import AlreadyGuessed, GameMovedOn, NotYourTurn, TooLate

#: A guess this soon after someone won is answered "too late" rather than "no game".
LATE_GUESS_WINDOW = 600.0


class BreakerService:
    def __init__(self, games: GameService):
        self.games = games

    async def new_game(
        self, *, guild_id: int | None, channel_id: int, user_id: int, user_name: str,
        rules: Rules, action_id: int | None = None, secret: Code | None = None,
        private: bool = False,
    ) -> Opened:
        """The bot's secret, or ``secret`` set by the starter, who then may not guess;
        ``private``: the starter's own game, which only they see and play."""
        return await self.games.open(NewGame(
            GameKind.BREAKER, guild_id, channel_id, user_id, rules,
            secret=secret or draw_secret(rules), setter_id=user_id if secret else None,
            private=private, action_id=action_id), user_name=user_name)

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
        if game is not None and game.private and game.started_by != user_id:
            raise self.games.no_game(private=True)  # another player's: not there for them
        here = game is not None and (game.private or game.channel_id == channel_id)
        if game is None or game.kind is not GameKind.BREAKER or not game.active or not here or (
                self.games.is_idle(game, self.games.clock())):
            raise GameMovedOn(game_id, None)
        self.check_guesser(game, user_id)
        return game

    async def guess(
        self, *, channel_id: int, user_id: int, user_name: str, text: str,
        action_id: int | None = None, which: Which = Which.AUTO,
    ) -> GameRecord:
        """A guess at the channel's game, or at the player's private game when the guess
        means it (:meth:`GameService.load_for`)."""
        games = self.games

        async def attempt(race_channel: int | None
                          ) -> tuple[GameRecord | None, GameRecord | None, bool]:
            async with once(), games.db.transaction() as conn:
                game, abandoned, private = await games.load_for(
                    conn, channel_id=channel_id, user_id=user_id, which=which,
                    fits=lambda g: g.kind is GameKind.BREAKER, race_channel=race_channel)
                if game is not None:
                    game = await self._play(conn, game, user_id, user_name, text, action_id)
                return game, abandoned, private

        played, abandoned, private = await games.twice(attempt)
        if played is not None:
            return played
        # No running game (an idle one was just recorded as abandoned, and committed).
        if abandoned is None:
            # just after a win here, or in the player's private game that this guess meant
            if not private:
                self._too_late(await games.latest(channel_id))
            if which is not Which.CHANNEL:
                self._too_late(await games.latest_private(user_id))
        raise games.no_game(abandoned, private=private)

    async def guess_in(
        self, game_id: int, *, user_id: int, user_name: str, text: str,
        action_id: int | None = None,
    ) -> GameRecord:
        """A guess at one game named by its id (a picker's: the game it was opened for,
        which may have ended or been replaced since). Another player's private game is not
        there for them."""
        games = self.games
        abandoned = None
        async with once(), games.db.transaction() as conn:
            found = await games.store.get(conn, game_id)
            if found is not None and found.private and found.started_by != user_id:
                raise games.no_game(private=True)
            game, abandoned = await games.end_if_idle(conn, found)
            if game is not None and game.active:
                return await self._play(conn, game, user_id, user_name, text, action_id)
        if found is not None and abandoned is None:
            self._too_late(found)
        if abandoned is not None or (found is not None and found.private):
            raise games.no_game(abandoned, private=found is not None and found.private)
        running = (await games.latest(found.channel_id)) if found is not None else None
        raise GameMovedOn(game_id, running if running is not None and running.active
                          and running.id != game_id else None)

    def _too_late(self, latest: GameRecord | None) -> None:
        """A guess just after the game was won, or (a racer's board) its race's time ran
        out: said as such, not as "no game"."""
        if latest is None or self.games.clock() - (latest.ended_at or 0) >= LATE_GUESS_WINDOW:
            return
        if latest.status is GameStatus.WON:
            raise TooLate(latest)
        if latest.race_id is not None and latest.status is GameStatus.LOST and (
                latest.guesses_left > 0):  # ended by its race's time, not out of guesses
            raise self.games.no_game(latest, private=True)

    async def _play(self, conn: Connection, game: GameRecord, user_id: int, user_name: str,
                    text: str, action_id: int | None) -> GameRecord:
        games = self.games
        if game.kind is not GameKind.BREAKER:
            raise WrongKindOfGame(game)
        self.check_guesser(game, user_id)
        code = read_code(text, game.rules, CodeEntry.GUESS)
        assert game.secret is not None
        earlier = next((g for g in game.guesses if g.code == code), None)
        if earlier is not None:
            raise AlreadyGuessed(game, earlier)
        now = games.clock()
        feedback = score_codes(game.secret, code)
        game = await games.store.add_guess(conn, game, player_id=user_id, code=code,
                                           feedback=feedback, now=now, action_id=action_id)
        await games.store.remember_player(conn, user_id, user_name, now)
        if feedback.is_win(game.rules.pegs):
            game = await games.end(conn, game, GameEnding(GameStatus.WON, winner_id=user_id),
                                   now=now)
        elif game.guesses_left == 0:
            game = await games.end(conn, game, GameEnding(GameStatus.LOST), now=now)
        return game
