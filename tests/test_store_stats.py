"""A finished game's results and leaderboard totals are written in one batch per statement:
however many players and boards a win counts on, one executemany adds to the standings
(one round trip on PostgreSQL). On a real database, through a proxy that notes each call."""

from __future__ import annotations

from typing import Any

from bot.core.enums import GameKind, GameStatus, Period
from bot.core.records import GameRecord, GuessRecord
from bot.store import StatsStore
from engine import Feedback, Rules, code_from_digits


class Noting:
    """The transaction's connection, noting which statements it is asked to run."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.calls: list[tuple[str, str, int]] = []

    def execute(self, sql: str, params: Any = ()) -> Any:
        self.calls.append(("execute", " ".join(sql.split()[:3]), 1))
        return self.conn.execute(sql, params)

    async def executemany(self, sql: str, rows: Any) -> None:
        rows = list(rows)
        self.calls.append(("executemany", " ".join(sql.split()[:3]), len(rows)))
        await self.conn.executemany(sql, rows)


def won_game(players: list[int]) -> GameRecord:
    code = code_from_digits("1234")
    guesses = tuple(GuessRecord(turn, player, code, Feedback(0, 0), 100.0 + turn)
                    for turn, player in enumerate(players, 1))
    return GameRecord(
        id=1, guild_id=5, channel_id=6, kind=GameKind.BREAKER, rules=Rules(4, 6, 10, True),
        secret=code, status=GameStatus.WON, started_by=players[0], winner_id=players[-1],
        created_at=100.0, updated_at=200.0, ended_at=200.0, board_message_id=None,
        guesses=guesses)


async def test_a_win_adds_to_every_standing_in_one_executemany(db):
    players = [11, 12, 13]
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, kind, pegs, colors, max_guesses,"
            " repeats, secret, status, started_by, winner_id, created_at, updated_at,"
            " ended_at) VALUES (1, 5, 6, 'breaker', 4, 6, 10, 1, '1234', 'won', 11, 13,"
            " 100, 200, 200)")
        noting = Noting(conn)
        results = await StatsStore().record(noting, won_game(players))  # type: ignore[arg-type]
    assert len(results) == len(players)
    boards = 2 * len(Period)  # the server's and all servers', each period
    assert noting.calls == [
        ("executemany", "INSERT INTO results", len(players)),
        ("executemany", "INSERT INTO standings", len(players) * boards),
    ]
    async with (await db.reader()).execute(
            "SELECT user_id, SUM(played), SUM(won) FROM standings GROUP BY user_id"
            " ORDER BY user_id") as cur:
        totals = [tuple(row) for row in await cur.fetchall()]
    assert totals == [(11, boards, 0), (12, boards, 0), (13, boards, boards)]
