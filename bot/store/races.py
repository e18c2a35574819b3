"""SQL for ``races`` and ``racers`` (``/race``); the racers' boards are games (``race_id``).

Every change of a race's state names the state it was read in (``WHERE status = ?``), so a
double tap, a second delivery or another process changes nothing the second time: the
caller gets :class:`~bot.store.games.StaleWrite`, or False where losing is normal.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Code, Feedback, Rules, code_from_digits, format_code

from ..core.enums import RacerStatus, RaceStatus
from ..core.races import RaceHead, Racer, RaceRecord, RatingShown
from . import locks
from .connection import Connection, Row, fetch_all, fetch_one
from .games import StaleWrite

_COLUMNS = (
    "id, guild_id, channel_id, pegs, colors, max_guesses, repeats, secret, status, started_by,"
    " created_at, lobby_until, time_limit, started_at, deadline, ended_at, board_message_id,"
    " announced"
)
_RACER_COLUMNS = (
    "user_id, joined_at, status, guesses, finished_at, best_black, best_white, place,"
    " rating_before, rating_after, provisional, rated, why_not"
)


def _race(row: Row, racers: tuple[Racer, ...]) -> RaceRecord:
    return RaceRecord(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        rules=Rules(row["pegs"], row["colors"], row["max_guesses"], bool(row["repeats"])),
        secret=code_from_digits(row["secret"]), status=RaceStatus(row["status"]),
        started_by=row["started_by"], created_at=row["created_at"],
        lobby_until=row["lobby_until"], time_limit=row["time_limit"],
        started_at=row["started_at"], deadline=row["deadline"], ended_at=row["ended_at"],
        board_message_id=row["board_message_id"], announced=bool(row["announced"]),
        racers=racers)


def _racer(row: Row) -> Racer:
    status = RacerStatus(row["status"])
    rating = None if row["rated"] is None else RatingShown(
        row["rating_before"], row["rating_after"], bool(row["provisional"]),
        bool(row["rated"]), row["why_not"])
    return Racer(
        user_id=row["user_id"], joined_at=row["joined_at"], status=status,
        guesses=row["moves"] if status is RacerStatus.RACING else row["guesses"],
        finished_at=row["finished_at"], best=Feedback(row["best_black"], row["best_white"]),
        place=row["place"], rating=rating)


#: A race's racers, each with the moves on their board (where a racer still racing is).
_RACERS = (
    f"SELECT {', '.join('r.' + c.strip() for c in _RACER_COLUMNS.split(','))},"
    " COALESCE(m.moves, 0) AS moves FROM racers r LEFT JOIN (SELECT g.started_by,"
    " COUNT(u.turn) AS moves FROM games g LEFT JOIN guesses u ON u.game_id = g.id"
    " WHERE g.race_id = ? GROUP BY g.started_by) m ON m.started_by = r.user_id"
    " WHERE r.race_id = ? ORDER BY r.joined_at, r.user_id")


class RaceStore:
    """Stateless: one instance serves every connection."""

    # ---- reads ----------------------------------------------------------------------------
    async def _one(self, conn: Connection, where: str, args: tuple) -> RaceRecord | None:
        row = await fetch_one(conn, f"SELECT {_COLUMNS} FROM races WHERE {where}", args)
        if row is None:
            return None
        rows = await fetch_all(conn, _RACERS, (row["id"], row["id"]))
        racers = tuple(map(_racer, rows))
        return _race(row, racers)

    async def head(self, conn: Connection, race_id: int) -> RaceHead | None:
        """What a racer's move needs of its race (one statement, no racers)."""
        row = await fetch_one(conn, "SELECT status, board_message_id FROM races WHERE id = ?",
                              (race_id,))
        return None if row is None else RaceHead(race_id, RaceStatus(row[0]), row[1])

    async def get(self, conn: Connection, race_id: int) -> RaceRecord | None:
        key = locks.race(race_id)
        await locks.hold(conn, key)
        race = await self._one(conn, "id = ?", (race_id,))
        if race is not None:
            locks.found(conn, key, locks.of_race(race))
        return race

    async def open_in_channel(self, conn: Connection, channel_id: int) -> RaceRecord | None:
        """The channel's lobby or running race."""
        await locks.hold(conn, locks.channel(channel_id))
        return await self._one(conn, "channel_id = ? AND status IN ('lobby', 'running')",
                               (channel_id,))

    async def due(self, conn: Connection, now: float) -> list[int]:
        """Races the sweep has work for: a lobby or a race whose time is up, an ending not
        yet shown in its channel."""
        rows = await fetch_all(
            conn, "SELECT id FROM races WHERE (status IN ('lobby', 'running') OR announced = 0)"
            " AND ((status = 'lobby' AND lobby_until <= ?)"
            " OR (status = 'running' AND deadline <= ?)"
            " OR status IN ('finished', 'cancelled')) ORDER BY id", (now, now),
        )
        return [r[0] for r in rows]

    async def with_private_game(self, conn: Connection, user_ids: Iterable[int]) -> set[int]:
        """Which of these players have a private game running (read without their keys: a
        race's start holds its channel, ranked above them; the unique index has the last
        word)."""
        ids = sorted(set(user_ids))
        if not ids:
            return set()
        rows = await fetch_all(
            conn, f"SELECT started_by FROM games WHERE status = 'active' AND private = 1"
            f" AND started_by IN ({', '.join('?' * len(ids))})", ids,
        )
        return {r[0] for r in rows}

    async def board_id(self, conn: Connection, race_id: int, user_id: int) -> int | None:
        """The id of a racer's board (its lock is the race's channel, held by the caller)."""
        row = await fetch_one(
            conn, "SELECT id FROM games WHERE race_id = ? AND started_by = ?", (race_id, user_id),
        )
        return None if row is None else int(row[0])

    async def running_boards(self, conn: Connection, race_id: int) -> list[int]:
        rows = await fetch_all(
            conn, "SELECT id FROM games WHERE race_id = ? AND status = 'active' ORDER BY id",
            (race_id,),
        )
        return [int(r[0]) for r in rows]

    # ---- writes (inside a transaction) ----------------------------------------------------
    async def create(
        self, conn: Connection, *, guild_id: int | None, channel_id: int, rules: Rules,
        secret: Code, started_by: int, now: float, lobby_until: float, time_limit: float,
        action_id: int | None,
    ) -> RaceRecord:
        """A lobby, with its starter as the first racer."""
        await locks.hold(conn, locks.channel(channel_id))
        row = await fetch_one(
            conn, "INSERT INTO races (guild_id, channel_id, pegs, colors, max_guesses, repeats,"
            " secret, status, started_by, created_at, lobby_until, time_limit,"
            " opened_by_interaction) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)"
            " RETURNING id",
            (guild_id, channel_id, rules.pegs, rules.colors, rules.max_guesses,
             int(rules.repeats), format_code(secret), started_by, now, lobby_until,
             time_limit, action_id),
        )
        assert row is not None
        await self.join(conn, row[0], started_by, now)
        race = await self._one(conn, "id = ?", (row[0],))
        assert race is not None
        return race

    async def join(self, conn: Connection, race_id: int, user_id: int, now: float) -> bool:
        """Whether the player joined now (False: they were in already)."""
        row = await fetch_one(
            conn,
            "INSERT INTO racers (race_id, user_id, joined_at, status) VALUES (?, ?, ?, 'racing')"
            " ON CONFLICT (race_id, user_id) DO NOTHING RETURNING user_id",
            (race_id, user_id, now),
        )
        return row is not None

    async def unjoin(self, conn: Connection, race_id: int, user_id: int) -> bool:
        cur = await conn.execute("DELETE FROM racers WHERE race_id = ? AND user_id = ?",
                                 (race_id, user_id))
        return cur.rowcount == 1

    async def drop(self, conn: Connection, race_id: int, user_ids: Iterable[int]) -> None:
        for user_id in user_ids:
            await self.unjoin(conn, race_id, user_id)

    async def _move(self, conn: Connection, race: RaceRecord, status: RaceStatus,
                    sets: str, args: tuple) -> None:
        """Move the race from the status it was read in (else StaleWrite: done already)."""
        await locks.hold(conn, locks.of_race(race))
        cur = await conn.execute(
            f"UPDATE races SET status = ?, {sets} WHERE id = ? AND status = ?",
            (status.value, *args, race.id, race.status.value))
        if cur.rowcount != 1:
            raise StaleWrite()

    async def start(self, conn: Connection, race: RaceRecord, now: float) -> RaceRecord:
        deadline = now + race.time_limit
        await self._move(conn, race, RaceStatus.RUNNING, "started_at = ?, deadline = ?",
                         (now, deadline))
        return race.with_changes(status=RaceStatus.RUNNING, started_at=now, deadline=deadline)

    async def cancel(self, conn: Connection, race: RaceRecord, now: float) -> None:
        await self._move(conn, race, RaceStatus.CANCELLED, "ended_at = ?", (now,))

    async def finish(self, conn: Connection, race: RaceRecord, now: float) -> None:
        await self._move(conn, race, RaceStatus.FINISHED, "ended_at = ?", (now,))

    async def show_codes(self, conn: Connection, race_id: int) -> None:
        """The race is over: boards that ended before it show their code from now on (their
        deadline becomes their own end: see ``GameRecord.secret_withheld``)."""
        await conn.execute(
            "UPDATE games SET deadline = ended_at WHERE race_id = ? AND ended_at < deadline",
            (race_id,))

    async def racer_done(self, conn: Connection, race_id: int, user_id: int, *,
                         status: RacerStatus, guesses: int, best: Feedback,
                         at: float) -> bool:
        """A racer's board ended: how (once: only while they were racing)."""
        cur = await conn.execute(
            "UPDATE racers SET status = ?, guesses = ?, best_black = ?, best_white = ?,"
            " finished_at = ? WHERE race_id = ? AND user_id = ? AND status = 'racing'",
            (status.value, guesses, best.black, best.white, at, race_id, user_id))
        return cur.rowcount == 1

    async def place(self, conn: Connection, race_id: int, placed: dict[int, int],
                    ratings: dict[int, RatingShown]) -> None:
        await conn.executemany(
            "UPDATE racers SET place = ?, rating_before = ?, rating_after = ?,"
            " provisional = ?, rated = ?, why_not = ? WHERE race_id = ? AND user_id = ?",
            [(place, *_rating_columns(ratings.get(user_id)), race_id, user_id)
             for user_id, place in placed.items()])

    async def claim_announcement(self, conn: Connection, race_id: int) -> bool:
        """Whether this caller shows the race's ending (once, whoever asks first)."""
        await locks.alone(conn)
        cur = await conn.execute(
            "UPDATE races SET announced = 1 WHERE id = ? AND announced = 0"
            " AND status IN ('finished', 'cancelled')", (race_id,))
        return cur.rowcount == 1

    async def release_announcement(self, conn: Connection, race_id: int) -> None:
        """The claimed ending was not shown (Discord refused the post): the next sweep
        claims it again."""
        await locks.alone(conn)
        await conn.execute("UPDATE races SET announced = 0 WHERE id = ? AND announced = 1",
                           (race_id,))

    async def set_board_message(self, conn: Connection, race_id: int,
                                message_id: int) -> None:
        await locks.alone(conn)
        await conn.execute("UPDATE races SET board_message_id = ? WHERE id = ?",
                           (message_id, race_id))


def _rating_columns(shown: RatingShown | None) -> tuple:
    if shown is None:
        return (None, None, None, None, None)
    return (shown.before, shown.after, int(shown.provisional), int(shown.rated),
            shown.why_not)
