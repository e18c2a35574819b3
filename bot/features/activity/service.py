"""What the Activity plays, through the same services and store as the chat (Discord-free).

In a server channel, the channel's game; for each player, the daily code, the puzzle of the
day, a private game and a challenge; in DMs and group DMs the personal ones alone (the bot
can't post a board for everyone there, as in the chat). Each move is the service's one
transaction. Exactly once: a move is keyed by what the player saw (the mode, the game and
the number of moves on it), so a double tap, a repeated request or two tabs of one player
store it once; and as the key leaves out who moved, of two players moving on the same board
at once one is stored and the other refused as out of date (a ``/guess`` typed in the chat
meanwhile is not keyed so: the Activity's move then lands after it, as two typed ones do).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine import STRATEGIES, InvalidRules, Rules, strongest_strategy

from ...core.codes import read_code
from ...core.enums import GameKind
from ...core.errors import AlreadyDone, BadRules, NoGameRunning, UnknownStrategy, UserError
from ...core.records import GameRecord, GuessRecord
from ...services.games import GameService
from ..breaker.service import BreakerService
from ..challenge.errors import OutOfDate
from ..challenge.service import ChallengeService
from ..daily.service import DAILY_RULES, DailyService
from ..puzzle.service import PuzzleService
from ..settings.service import SettingsService
from . import views
from .errors import ActivityError
from .views import View


class Mode(StrEnum):
    CHANNEL = "channel"
    DAILY = "daily"
    PUZZLE = "puzzle"
    PRIVATE = "private"
    CHALLENGE = "challenge"


PERSONAL = (Mode.DAILY, Mode.PUZZLE, Mode.PRIVATE, Mode.CHALLENGE)


@dataclass(frozen=True)
class Place:
    """Where the Activity runs (from Discord's instance, never from the client)."""

    guild_id: int | None
    channel_id: int

    @property
    def modes(self) -> tuple[Mode, ...]:
        return (Mode.CHANNEL, *PERSONAL) if self.guild_id is not None else PERSONAL


@dataclass(frozen=True)
class Player:
    id: int
    name: str


@dataclass(frozen=True)
class Moved:
    """A move to tell the live viewers about: the channel's game (everyone in the channel's
    instances) or a player's own (``user_id``'s connections alone)."""

    mode: Mode
    guild_id: int | None
    channel_id: int | None
    user_id: int
    by: Player


def action_id(*parts: object) -> int:
    """A stored action's key from what the player saw: negative, so it never meets the
    (positive) id of a Discord interaction in the same unique index."""
    digest = hashlib.sha256(":".join(map(str, ("activity", *parts))).encode()).digest()
    return -1 - int.from_bytes(digest[:7], "big")


def make_rules(default: Rules, asked: dict[str, Any]) -> Rules:
    """The rules asked for (numbers checked by the engine), the default's for the rest."""
    try:
        return Rules(int(asked.get("pegs") or default.pegs),
                     int(asked.get("colors") or default.colors),
                     int(asked.get("max_guesses") or default.max_guesses),
                     default.repeats if asked.get("repeats") is None
                     else bool(asked["repeats"]))
    except InvalidRules as exc:
        raise BadRules(str(exc)) from None
    except (TypeError, ValueError):
        raise ActivityError("bad_request") from None


def _plays(game: GameRecord) -> bool:
    """Does the Activity play this channel game? A match's half-rounds go on in the chat,
    where the match shows its score and next half-round."""
    return game.kind is GameKind.BREAKER and game.match_id is None


def _made(moves: Sequence[GuessRecord], turn: int, player: Player, code: str,
          rules: Rules) -> bool:
    """Is the move after ``turn`` this very guess of this player (a repeated request)?"""
    if len(moves) <= turn or moves[turn].player_id != player.id:
        return False
    try:
        return moves[turn].code == read_code(code, rules)
    except UserError:
        return False


class ActivityGames:
    """The one place the Activity reaches the bot's services."""

    def __init__(self, *, games: GameService, breaker: BreakerService, daily: DailyService,
                 puzzles: PuzzleService, challenges: ChallengeService,
                 settings: SettingsService) -> None:
        self.games, self.breaker, self.daily = games, breaker, daily
        self.puzzles, self.challenges, self.settings = puzzles, challenges, settings

    @staticmethod
    def check_mode(place: Place, mode: str) -> Mode:
        if mode not in {m.value for m in place.modes}:
            raise ActivityError("not_here")
        return Mode(mode)

    # ---- reading ----------------------------------------------------------------------------
    async def view(self, mode: Mode, place: Place, player: Player) -> View:
        """The game of ``mode`` as it stands for ``player`` here."""
        if mode is Mode.DAILY:
            return await self._daily(player)
        if mode is Mode.PUZZLE:
            play = await self.puzzles.today_play(user_id=player.id, guild_id=place.guild_id,
                                                 action_id=None)
            return views.puzzle(play, await self.puzzles.streak(player.id))
        game = await self._latest(mode, place, player)
        if game is None:
            return views.none(mode, self._default_rules(mode, place))
        if mode is Mode.CHANNEL and not _plays(game):
            return views.busy(mode, game)
        return await self._game_view(mode, game)

    async def _latest(self, mode: Mode, place: Place, player: Player) -> GameRecord | None:
        if mode is Mode.CHANNEL:
            return await self.games.latest(place.channel_id)
        game = await self.games.latest_private(player.id)
        wanted = GameKind.CHALLENGE if mode is Mode.CHALLENGE else GameKind.BREAKER
        return game if game is not None and game.kind is wanted else None

    def _default_rules(self, mode: Mode, place: Place) -> Rules:
        return self.settings.default_rules(place.guild_id)

    async def _game_view(self, mode: Mode, game: GameRecord) -> View:
        players = {g.player_id for g in game.guesses} | {r.player_id for r in game.replies}
        names = await self.games.names(players | {game.started_by})
        return views.game(mode, game, names)

    async def _daily(self, player: Player) -> View:
        day = self.daily.today()
        play = await self.daily.play(day, player.id)
        current, longest, _, _ = await self.daily.streak(player.id)
        return views.daily(DAILY_RULES, day, play, self.daily.secret(day), (current, longest),
                           {player.id: player.name})

    # ---- moves ------------------------------------------------------------------------------
    async def new(self, mode: Mode, place: Place, player: Player, asked: dict[str, Any]
                  ) -> tuple[View, Moved]:
        """A new channel game, private game or challenge, with the rules asked for."""
        if mode not in (Mode.CHANNEL, Mode.PRIVATE, Mode.CHALLENGE):
            raise ActivityError("not_here")
        rules = make_rules(self._default_rules(mode, place), asked)
        if mode is Mode.CHALLENGE:
            strategy = asked.get("strategy") or strongest_strategy(rules)
            if strategy not in STRATEGIES:
                raise UnknownStrategy(str(strategy))
            state, _ = await self.challenges.start(
                guild_id=place.guild_id, channel_id=place.channel_id, user_id=player.id,
                user_name=player.name, rules=rules, strategy=strategy, private=True,
                action_id=action_id("new", mode, player.id, self.games.clock()))
            game = state.game
        else:
            opened = await self.breaker.new_game(
                guild_id=place.guild_id, channel_id=place.channel_id, user_id=player.id,
                user_name=player.name, rules=rules, private=mode is Mode.PRIVATE)
            game = opened.game
        return await self._game_view(mode, game), self._moved(mode, place, player)

    def _moved(self, mode: Mode, place: Place, player: Player) -> Moved:
        return Moved(mode, place.guild_id, place.channel_id if mode is Mode.CHANNEL else None,
                     player.id, player)

    async def guess(self, mode: Mode, place: Place, player: Player, *, game_id: str,
                    turn: int, code: str) -> tuple[View, Moved]:
        """A guess at the channel's game, the player's private game or the daily code, made
        on the board as it was after ``turn`` moves."""
        if mode is Mode.DAILY:
            return await self._daily_guess(place, player, game_id, turn, code)
        if mode not in (Mode.CHANNEL, Mode.PRIVATE):
            raise ActivityError("not_here")
        game = await self._own(mode, place, player, game_id)
        if game.active and len(game.guesses) != turn:
            if _made(game.guesses, turn, player, code, game.rules):
                return await self._game_view(mode, game), self._moved(mode, place, player)
            raise ActivityError("stale", 409)
        try:
            played = await self.breaker.guess_in(
                game.id, user_id=player.id, user_name=player.name, text=code,
                action_id=action_id(mode, game.id, turn))
        except UserError as exc:  # the same move, stored meanwhile by a request before it?
            played = await self._replayed(game.id)
            if not _made(played.guesses, turn, player, code, played.rules):
                if isinstance(exc, AlreadyDone):  # another player's move from that board
                    raise ActivityError("stale", 409) from None
                raise
        return await self._game_view(mode, played), self._moved(mode, place, player)

    async def _own(self, mode: Mode, place: Place, player: Player, game_id: str
                   ) -> GameRecord:
        """The game named, if it is this channel's (channel mode) or the player's own."""
        game = await self.games.get(int(game_id)) if game_id.isdigit() else None
        if game is None or (game.private != (mode is not Mode.CHANNEL)) or (
                mode is Mode.CHANNEL and game.channel_id != place.channel_id) or (
                mode is not Mode.CHANNEL and game.started_by != player.id):
            raise ActivityError("not_your_game", 403)
        if mode is Mode.CHANNEL and not _plays(game):
            raise ActivityError("not_here")
        return game

    async def _replayed(self, game_id: int) -> GameRecord:
        """The game as it stands after a move was refused (a double tap finds its first tap
        stored)."""
        game = await self.games.get(game_id)
        if game is None:
            raise ActivityError("stale", 409)
        return game

    async def _daily_guess(self, place: Place, player: Player, day: str, turn: int,
                           code: str) -> tuple[View, Moved]:
        play = await self.daily.play(self.daily.today(), player.id)
        if (len(play.guesses) if play else 0) != turn:
            if play is not None and _made(play.guesses, turn, player, code, DAILY_RULES):
                return await self._daily(player), self._moved(Mode.DAILY, place, player)
            if not (play and play.finished):
                raise ActivityError("stale", 409)
        try:
            await self.daily.guess(user_id=player.id, user_name=player.name,
                                   guild_id=place.guild_id, text=code, day=day or None,
                                   action_id=action_id("daily", day, turn, player.id))
        except UserError:  # the same guess, stored meanwhile by a request just before it?
            play = await self.daily.play(self.daily.today(), player.id)
            if play is None or not _made(play.guesses, turn, player, code, DAILY_RULES):
                raise
        return await self._daily(player), self._moved(Mode.DAILY, place, player)

    async def reply(self, place: Place, player: Player, *, game_id: str, turn: int,
                    black: int, white: int) -> tuple[View, Moved]:
        """The player's key pegs for the bot's guess in their challenge (after ``turn``
        replies)."""
        game = await self._own(Mode.CHALLENGE, place, player, game_id)
        game = await self.challenges.load(game.id, player.id)
        key = action_id("challenge", game.id, turn, player.id)
        try:
            reply = self.challenges.check_reply(game, (black, white), turn=turn + 1,
                                                action_id=key, player_id=player.id)
            state = await self.challenges.commit_reply(reply)
            game = state.game
        except OutOfDate:
            fresh = await self.games.get(game.id)
            repeated = fresh is not None and len(fresh.replies) > turn and (
                fresh.replies[turn].feedback.black, fresh.replies[turn].feedback.white) == (
                black, white)
            if not repeated or fresh is None:
                raise ActivityError("stale", 409) from None
            game = fresh
        except AlreadyDone:
            game = await self._replayed(game.id)
        return await self._game_view(Mode.CHALLENGE, game), self._moved(
            Mode.CHALLENGE, place, player)

    async def quit(self, mode: Mode, place: Place, player: Player, *, game_id: str
                   ) -> tuple[View, Moved]:
        """The player gives up the game they were shown (the channel's: only its starter;
        the Activity does not know who may manage messages, so moderators end games with
        ``/mastermind quit``); a game ended already (a double tap, or someone's move ended
        it) is shown as it ended."""
        if mode not in (Mode.CHANNEL, Mode.PRIVATE, Mode.CHALLENGE):
            raise ActivityError("not_here")
        game = await self._own(mode, place, player, game_id)
        if mode is Mode.CHANNEL and game.started_by != player.id:
            raise ActivityError("not_your_game", 403)
        if game.active:
            key = action_id("quit", game.id)
            try:
                if mode is Mode.CHANNEL:
                    game = await self.games.quit(channel_id=place.channel_id,
                                                 user_id=player.id, can_manage=False,
                                                 action_id=key, game_id=game.id)
                else:
                    game = await self.games.quit_private(user_id=player.id, game_id=game.id,
                                                         action_id=key)
            except (AlreadyDone, NoGameRunning):  # ended meanwhile: shown as it ended
                game = await self._replayed(game.id)
        return await self._game_view(mode, game), self._moved(mode, place, player)

    async def answer(self, place: Place, player: Player, *, code: str
                     ) -> tuple[View, Moved]:
        """The one try at today's puzzle."""
        play = await self.puzzles.today_play(user_id=player.id, guild_id=place.guild_id,
                                             action_id=None)
        try:
            play = await self.puzzles.answer(play_id=play.id, user_id=player.id, text=code,
                                             action_id=action_id("puzzle", play.id, code.strip()))
        except AlreadyDone:
            play = await self.puzzles.get(play.id, player.id)
        return views.puzzle(play, await self.puzzles.streak(player.id)), self._moved(
            Mode.PUZZLE, place, player)

    # ---- what a viewer gets when told of a move ---------------------------------------------
    async def moved_view(self, moved: Moved, place: Place, viewer: Player) -> View:
        return await self.view(moved.mode, place, viewer)
