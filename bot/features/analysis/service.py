"""What a finished game is analysed from, and the report (analysis and chart) built from it.

Loading is quick and reads only committed data; ``build_report`` is the heavy part, run in
a worker thread by the cog.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import Code, Feedback, Rules
from engine.analysis import GameAnalysis, analyse
from i18n import tr
from i18n.numbers import day as show_day

from ...core.enums import GameKind, GameStatus
from ...core.errors import MalformedButton
from ...core.records import GameRecord
from ...services.games import GameService
from ..daily.errors import DailyNotFinished
from ..daily.service import DAILY_RULES, DailyService
from .chart import codes_left_chart
from .errors import GameNotOver

#: Who made a game's guesses, for the chart's key and the codes-left line.
PLAYERS: dict[str, Callable[[], str]] = {"you": lambda: tr("you"),
                                         "the bot": lambda: tr("the bot")}


@dataclass(frozen=True)
class Source:
    """A finished game's guesses and replies, whoever made them (its words in the reader's
    language: a Source is read for one clicker)."""

    title: str
    rules: Rules
    turns: tuple[tuple[Code, Feedback], ...]
    secret: Code | None
    #: Who made the guesses: a key of :data:`PLAYERS` (said in the reader's language where
    #: shown).
    player: str


@dataclass(frozen=True)
class Report:
    source: Source
    analysis: GameAnalysis
    chart: bytes


def source_of_game(game: GameRecord) -> Source:
    """A finished breaker game (or match half) or challenge, as the analysis reads it."""
    if game.active or game.secret_withheld:  # a racer's board: until the race is over
        raise GameNotOver(game)
    if game.kind is GameKind.CHALLENGE:
        turns = tuple((r.guess, r.feedback) for r in game.replies)
        secret = game.secret or (turns[-1][0] if game.status is GameStatus.WON and turns
                                 else None)
        return Source(tr("Challenge #{id}", id=game.id), game.rules, turns, secret,
                      "the bot")
    turns = tuple((g.code, g.feedback) for g in game.guesses)
    return Source(tr("Game #{id}", id=game.id), game.rules, turns, game.secret, "you")


def build_report(source: Source) -> Report:
    """The analysis and its chart: CPU work, run it in a worker thread (started with the
    caller's context, so it speaks the reader's language)."""
    result = analyse(source.rules, source.turns, secret=source.secret)
    chart = codes_left_chart(source.rules.code_count, result.you_path, result.bot_path,
                             you_label=PLAYERS[source.player], you_won=result.solved,
                             bot_won=bool(result.bot_path) and result.bot_path[-1] == 1)
    return Report(source, result, chart)


class AnalysisService:
    def __init__(self, games: GameService, daily: DailyService):
        self.games = games
        self.daily = daily

    async def game(self, game_id: int, viewer_id: int) -> Source:
        """A finished game; a private one for its player alone (a button naming someone
        else's is forged, and answered like any unreadable button)."""
        game = await self.games.get(game_id)
        if game is None or (game.private and game.started_by != viewer_id):
            raise MalformedButton()
        return source_of_game(game)


    async def of_daily(self, day: str, user_id: int) -> Source:
        """A player's own daily: once they finished it, or once its day is over."""
        play = await self.daily.play(day, user_id)
        if play is None or not (play.finished or self.daily.is_over(day)):
            raise DailyNotFinished(day)
        turns = tuple((g.code, g.feedback) for g in play.guesses)
        return Source(tr("Daily {day}", day=show_day(day)), DAILY_RULES, turns,
                      self.daily.secret(day), "you")
