"""Leaderboards and personal stats, read from the totals kept as games end.

Queries run on the database's read connection, so they see committed data only and
never wait for a game's write transaction.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from ...core.clock import Clock, system_clock
from ...core.enums import CRACK_MODES, Mode, Period
from ...core.records import Standing
from ...core.results import period_key, utc
from ...core.streaks import streaks
from ...store import Board, Database, GameStore, MatchStore, StatsStore
from ...store.daily import DailyStore
from ...store.hints import HintStore
from ...store.puzzles import PuzzleStore
from ...store.ratings import RatingStore
from ...store.settings import SettingsStore

PAGE_SIZE = 10
CLASSIC_SIZE = "4x6"


@dataclass(frozen=True)
class LeaderboardPage:
    mode: Mode
    scope: int
    period: Period
    size: str
    page: int
    pages: int
    total: int
    rows: list[Standing]
    viewer: Standing | None


@dataclass
class PlayerStats:
    user_id: int
    size: str
    played: int = 0
    won: int = 0
    average_win: float | None = None
    best: int | None = None
    best_game: int | None = None
    histogram: dict[int, int] = field(default_factory=dict)
    challenges: int = 0
    bot_solved: int = 0
    bot_average: float | None = None
    other_sizes: dict[str, int] = field(default_factory=dict)
    #: Games played with hints (counted above, kept off the leaderboards).
    hinted: int = 0
    #: Private games (counted above too; they have their own leaderboard).
    private_played: int = 0
    #: Games played in that someone else cracked (not counted in :attr:`win_rate`).
    team_wins: int = 0
    #: The daily code (``/daily``), across sizes: finished, solved, and the streak of
    #: consecutive UTC days it was finished (current, longest): the one streak /stats has.
    dailies: int = 0
    dailies_solved: int = 0
    daily_streak: tuple[int, int] = (0, 0)
    #: ``{mode: (won, lost, drawn)}`` of counted matches (``/match``).
    matches: dict[Mode, tuple[int, int, int]] = field(default_factory=dict)

    @property
    def win_rate(self) -> float | None:
        """Your cracks over the games you played in (a teammate's crack is not yours)."""
        return self.won / self.played if self.played else None


def _tie_key(mode: Mode, row: Standing) -> tuple:
    return (row.won, row.average) if mode in CRACK_MODES else (row.average,)


class StatsService:
    def __init__(self, db: Database, *, clock: Clock = system_clock):
        self.db = db
        self.clock = clock
        self.store = StatsStore()
        self.games = GameStore()
        self.matches = MatchStore()

    async def leaderboard(
        self, *, mode: Mode, scope: int, period: Period, size: str, page: int, viewer_id: int
    ) -> LeaderboardPage:
        conn = await self.db.reader()
        board = Board(mode, size, scope, period_key(period, self.clock()))
        total = await self.store.count(conn, board)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        rows: list[Standing] = []
        for i, row in enumerate(await self.store.page(conn, board, offset=page * PAGE_SIZE,
                                                      limit=PAGE_SIZE)):
            previous = rows[-1] if rows else None
            if previous is None:
                rank = await self.store.rank(conn, board, row)
            elif _tie_key(mode, previous) == _tie_key(mode, row):
                rank = previous.rank  # ties share a rank: 1, 2, 2, 4
            else:
                rank = page * PAGE_SIZE + i + 1
            rows.append(replace(row, rank=rank))
        viewer = next((r for r in rows if r.user_id == viewer_id), None)
        if viewer is None:
            mine = await self.store.standing_of(conn, board, viewer_id)
            if mine is not None:
                viewer = replace(mine, rank=await self.store.rank(conn, board, mine))
        return LeaderboardPage(mode, scope, period, size, page, pages, total, rows, viewer)

    async def sizes(self) -> list[str]:
        return await self.store.sizes(await self.db.reader())

    async def player(self, user_id: int, size: str) -> PlayerStats:
        conn = await self.db.reader()
        stats = PlayerStats(user_id, size)
        wins: list[tuple[int, int]] = []
        bot_guesses = []
        for mode, won, guesses, game_id in await self.store.results_of(conn, user_id, size):
            if mode in CRACK_MODES:
                stats.played += 1
                stats.private_played += mode == Mode.PRIVATE
                if won:
                    wins.append((guesses, game_id))
            else:
                stats.challenges += 1
                stats.bot_solved += won
                bot_guesses.append(guesses)
        stats.won = len(wins)
        if wins:
            stats.average_win = sum(g for g, _ in wins) / len(wins)
            stats.best, stats.best_game = min(wins)
            stats.histogram = dict(sorted(Counter(g for g, _ in wins).items()))
        if bot_guesses:
            stats.bot_average = sum(bot_guesses) / len(bot_guesses)
        today = utc(self.clock()).date()
        stats.other_sizes = await self.store.other_sizes(conn, user_id, size)
        stats.hinted = await self.store.hinted_count(conn, user_id, size)
        stats.team_wins = await self.store.team_wins(conn, user_id, size)
        dailies = await DailyStore().finished_days(conn, user_id)
        stats.dailies, stats.dailies_solved = len(dailies), sum(s for _, s in dailies)
        stats.daily_streak = streaks({d for d, _ in dailies}, today)
        record = await self.matches.record_of(conn, user_id, size)
        stats.matches = {Mode(mode): counts for mode, counts in record.items()}
        return stats

    async def recompute(self) -> None:
        """Rebuild every result and leaderboard total from the stored games and guesses."""
        async with self.db.transaction() as conn:
            await self.store.rebuild(conn)

    async def forget(self, user_id: int) -> dict[str, int]:
        async with self.db.transaction() as conn:
            counts = await self.store.forget(conn, user_id)
            counts["dailies"] = await DailyStore().forget(conn, user_id)
            counts["hints"] = await HintStore().forget(conn, user_id)
            counts["settings"] = await SettingsStore().forget(conn, user_id)
            counts["puzzles"] = await PuzzleStore().forget(conn, user_id)
            counts["ratings"] = await RatingStore().forget(conn, user_id)
            return counts
