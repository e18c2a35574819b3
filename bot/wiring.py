"""The bot's services, built in one order with what each consults: the servers' settings
first, then the ratings (which read the settings' seasons and cap), then the game service
with their rules and the match's and the race's hooks (which rate them at their end), then
the features' services on top of it. Every service is built here and nowhere else: the bot
(``MastermindBot.setup_hook``, which keeps the one :class:`Services` as ``bot.services``)
and the service-level tests (``tests/service_kit.py``) both take them from here.
Discord-free: importing this module loads neither discord.py nor any cog
(``tests/test_layers.py``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .core.clock import Clock
from .features.activity.service import ActivityGames
from .features.analysis.service import AnalysisService
from .features.breaker.service import BreakerService
from .features.challenge.service import ChallengeService
from .features.challenge.solvers import SolverCache
from .features.daily.service import DailyService
from .features.hints.service import HintService
from .features.match.halves import HalfRounds
from .features.match.service import MatchService
from .features.puzzle.service import PuzzleService
from .features.race.rating import rate_with
from .features.race.service import RaceBoards, RaceService
from .features.ratings.service import RatingService
from .features.settings.service import SettingsService
from .features.stats.service import StatsService
from .services.emoji_use import EmojiUseService
from .services.games import GameService, IdleRule
from .store import Database


@dataclass(frozen=True)
class Services:
    """Every service of the bot, each built once on the same database."""

    settings: SettingsService
    games: GameService
    breaker: BreakerService
    challenges: ChallengeService
    matches: MatchService
    stats: StatsService
    daily: DailyService
    hints: HintService
    puzzles: PuzzleService
    analysis: AnalysisService
    emoji_use: EmojiUseService
    activity: ActivityGames
    ratings: RatingService
    races: RaceService


async def build_services(db: Database, *, clock: Clock, idle_timeout: float,
                         solvers: SolverCache, turn_mark: Callable[[], int]) -> Services:
    """Every service on ``db`` (the servers' settings loaded); ``solvers``: the
    challenges' solver sessions, ``turn_mark``: an id no earlier than any action received
    (see :class:`ChallengeService`)."""
    settings = SettingsService(db, clock=clock, default_idle_hours=idle_timeout / 3600)
    await settings.load()
    idle = IdleRule(idle_timeout, by_server=settings.idle_seconds)
    ratings = RatingService(db, clock=clock, seasons=settings.seasons,
                            pair_cap=settings.pair_cap)
    halves = HalfRounds(clock=clock, idle=idle, ratings=ratings)
    races = RaceBoards(clock=clock, rate=rate_with(ratings))
    games = GameService(db, clock=clock, idle=idle, channel_allowed=settings.check_channel,
                        end_hooks=[halves.on_game_end, races.on_game_end],
                        channel_checks=[halves.check_channel, races.check_channel])
    daily = DailyService(games)
    breaker = BreakerService(games)
    challenges = ChallengeService(games, solvers, turn_mark)
    puzzles = PuzzleService(games, daily)
    return Services(
        settings=settings, games=games, breaker=breaker, challenges=challenges,
        matches=MatchService(games, halves), stats=StatsService(db, clock=clock),
        daily=daily, hints=HintService(games, settings.hints_allowed),
        puzzles=puzzles, analysis=AnalysisService(games, daily),
        emoji_use=EmojiUseService(db, clock=clock),
        activity=ActivityGames(games=games, breaker=breaker, daily=daily, puzzles=puzzles,
                               challenges=challenges, settings=settings),
        ratings=ratings, races=RaceService(games, races, time_limit=settings.race_seconds))
