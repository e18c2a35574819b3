"""SQL for ratings (migrations/020, 022): players' ratings per server and season, the seasons'
final standings, and every rated game once with each player's change (which the daily cap
per pair of players also counts)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.enums import RatedKind
from ..core.ratings import PlayerRating, Standing, StoredChange
from . import locks
from .connection import Connection, PgConnection, Row, fetch_all, fetch_one

_PLAYER = ("guild_id, user_id, season, mu, sigma, rating, games, total_games, best,"
           " updated_at")
_CHANGE = ("kind, source_id, user_id, place, before, after, provisional, why_not,"
           " changed_at")
#: The homes of a season's rows: the players still in it (the current season's only home),
#: and for an ended season also the final standings kept. Each is read through its rank
#: index.
_HOMES = {True: ("ratings",), False: ("season_standings", "ratings")}
_IN_SEASON = "guild_id = :guild AND season = :season"
#: A board's order: the best first, ties the lower id first (the rank index's order).
_BEST_FIRST = " ORDER BY rating DESC, user_id"


def _each_home(current: bool, select: str, where: str = "") -> str:
    """``select`` from each home of a season's rows, as one compound statement."""
    return " UNION ALL ".join(f"SELECT {select} FROM {home} WHERE {_IN_SEASON}{where}"
                              for home in _HOMES[current])


def _summed(current: bool, select: str, where: str) -> str:
    """``select`` (a count) summed over the homes, as one term of a sum."""
    return " + ".join(f"(SELECT {select} FROM {home} WHERE {_IN_SEASON}{where})"
                      for home in _HOMES[current])


def bucket(rating: float) -> int:
    """The whole rating point a shown rating counts in (``rating_buckets``)."""
    return math.floor(rating)


def _player(row: Row) -> PlayerRating:
    return PlayerRating(int(row[0]), int(row[1]), str(row[2]), float(row[3]), float(row[4]),
                        float(row[5]), int(row[6]), int(row[7]), float(row[8]),
                        float(row[9]))


def _number(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


def _change(row: Row) -> StoredChange:
    return StoredChange(RatedKind(str(row[0])), int(row[1]), int(row[2]), int(row[3]),
                        _number(row[4]), _number(row[5]), bool(row[6]),
                        None if row[7] is None else str(row[7]), float(row[8]))


def _ranked(first: int, rows: Sequence[Row]) -> list[Standing]:
    """A board's ``(user, rating, games, total games)`` rows, ranked from ``first``."""
    return [Standing(first + i, int(u), float(r), int(g), int(t))
            for i, (u, r, g, t) in enumerate(rows)]


@dataclass(frozen=True)
class Opened:
    """What rating a game reads once it has claimed the game (:meth:`RatingStore.claim`)."""

    #: The players' stored ratings (a newcomer has none).
    players: dict[int, PlayerRating]
    #: Rated games today of each pair among the players (lower id first).
    pairs: dict[tuple[int, int], int]


@dataclass(frozen=True)
class RatedWrites:
    """Everything a rated game writes (:meth:`RatingStore.write`), in one server and season."""

    guild_id: int
    season: str
    #: Players whose stored row is in an ended season: kept as its final standing first.
    kept: tuple[int, ...]
    saved: tuple[PlayerRating, ...]
    #: Players in and out of whole rating points (``{point: +n or -n}``).
    moves: dict[int, int]
    #: Players on the season's board from this game on.
    entering: int
    #: Each player's change; the rated ones' (``why_not`` NULL) count toward the daily cap.
    changes: tuple[StoredChange, ...]


#: Columns sent as one array each (PostgreSQL's ``unnest``): a game's players, its changes.
_SAVED = {"user_id": "bigint", "season": "text", "mu": "float8", "sigma": "float8",
          "rating": "float8", "games": "bigint", "total_games": "bigint", "best": "float8",
          "updated_at": "float8"}
_CHANGED = {"kind": "text", "source_id": "bigint", "user_id": "bigint", "place": "bigint",
            "before": "float8", "after": "float8", "provisional": "bigint", "why_not": "text",
            "changed_at": "float8"}
_MOVED = {"bucket": "bigint", "players": "bigint"}


def _unnest(name: str, columns: dict[str, str]) -> str:
    """Rows ``name`` from one array parameter per column (``:name_column``)."""
    arrays = ", ".join(f"CAST(:{name}_{c} AS {t}[])" for c, t in columns.items())
    return f"unnest({arrays}) AS {name}({', '.join(columns)})"


def _arrays(name: str, columns: dict[str, str], rows: Iterable[Sequence[object]]
            ) -> dict[str, list[object]]:
    """The parameters of :func:`_unnest`: ``rows`` (in ``columns``' order) as columns."""
    values: list[list[object]] = [[] for _ in columns]
    for row in rows:
        for column, value in zip(values, row, strict=True):
            column.append(value)
    return {f"{name}_{c}": v for c, v in zip(columns, values, strict=True)}


def _saved_row(p: PlayerRating) -> tuple[object, ...]:
    return (p.user_id, p.season, float(p.mu), float(p.sigma), float(p.rating), p.games,
            p.total_games, float(p.best), float(p.updated_at))


def _change_row(c: StoredChange) -> tuple[object, ...]:
    return (c.kind.value, c.source_id, c.user_id, c.place,
            None if c.before is None else float(c.before),
            None if c.after is None else float(c.after), int(c.provisional), c.why_not,
            float(c.changed_at))


#: What each table does with a row already there, the same on both databases' paths
#: (:meth:`RatingStore.write`): a rating is replaced, a season's final standing kept once,
#: the counts add up.
_RATING_REPLACED = (" ON CONFLICT (guild_id, user_id) DO UPDATE SET season = excluded.season,"
                    " mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating,"
                    " games = excluded.games, total_games = excluded.total_games,"
                    " best = excluded.best, updated_at = excluded.updated_at")
_STANDING_KEPT = " ON CONFLICT (guild_id, season, user_id) DO NOTHING"
_POINT_COUNTED = (" ON CONFLICT (guild_id, season, bucket) DO UPDATE"
                  " SET players = rating_buckets.players + excluded.players")
_SEASON_COUNTED = (" ON CONFLICT (guild_id, season) DO UPDATE"
                   " SET players = rating_seasons.players + excluded.players")
#: A season's final standings copied from the players' rows (``WHERE`` follows).
_KEEP_STANDINGS = ("INSERT INTO season_standings (guild_id, season, user_id, mu, sigma,"
                   " rating, games, total_games, best) SELECT guild_id, season, user_id, mu,"
                   " sigma, rating, games, total_games, best FROM ratings")

#: The game's one row (nothing when it is there already: rated once).
_CLAIM = ("INSERT INTO rated_games (kind, source_id, guild_id, season, rated_at)"
          " VALUES (:kind, :source, :guild, :season, :now)"
          " ON CONFLICT (kind, source_id) DO NOTHING")

#: Two players' rated games together in a span of time (the daily cap per pair): the games
#: where both have a rated change, ``a`` the lower id. Each player's changes of the day are
#: a short range of ``rating_changes_by_player``; the other's, of the game's key. (On
#: PostgreSQL the same join is in ``rating_open``, migrations/postgresql/022.)
_TOGETHER = (" FROM rating_changes a JOIN rating_changes b ON b.kind = a.kind"
             " AND b.source_id = a.source_id AND b.user_id > a.user_id"
             " WHERE a.guild_id = :guild AND a.changed_at >= :since AND a.changed_at < :until"
             " AND a.why_not IS NULL AND b.why_not IS NULL")

#: Opening a rated game on PostgreSQL: its players' rating locks, the claim and the reads,
#: in one round trip (see the function, migrations/postgresql/022): a row per player, their
#: stored rating (NULLs for a newcomer) and their pairs' counts today (where they are
#: ``a``); no rows when the game was rated already.
_OPEN = ("SELECT * FROM rating_open(:locks, :kind, :source, :guild, :season, :now, :since,"
         " :until, :ids)")

#: Everything a rated game writes, in one statement (PostgreSQL). Its parts all read the
#: database as it was before the statement: the final standings kept are the rows
#: ``saved`` replaces. The rating points are moved in their order, so two games' updates
#: never wait for each other in a circle.
_WRITE_ALL = (
    f"WITH kept AS ({_KEEP_STANDINGS}"
    f" WHERE guild_id = :guild AND user_id = ANY(CAST(:kept AS bigint[])){_STANDING_KEPT}),"
    f" saved AS (INSERT INTO ratings ({_PLAYER}) SELECT CAST(:guild AS bigint), saved.*"
    f" FROM {_unnest('saved', _SAVED)}{_RATING_REPLACED}),"
    " moved AS (INSERT INTO rating_buckets (guild_id, season, bucket, players)"
    f" SELECT :guild, :season, moved.bucket, moved.players FROM {_unnest('moved', _MOVED)}"
    f" ORDER BY moved.bucket{_POINT_COUNTED}),"
    " entered AS (INSERT INTO rating_seasons (guild_id, season, players)"
    " SELECT :guild, :season, CAST(:entering AS bigint) WHERE CAST(:entering AS bigint) <> 0"
    f"{_SEASON_COUNTED})"
    f" INSERT INTO rating_changes ({_CHANGE}, guild_id) SELECT changed.*, :guild"
    f" FROM {_unnest('changed', _CHANGED)}")


class RatingStore:
    # ---- rating a game (inside the transaction that ends it) -----------------------------
    async def claim(self, conn: Connection, kind: RatedKind, source_id: int, guild_id: int,
                    season: str, now: float, day: tuple[float, float],
                    user_ids: Sequence[int]) -> Opened | None:
        """Lock the players' ratings in the server (PostgreSQL), claim the game's one row
        and read what rating it needs; None when the game was rated already (by a retry or
        another process: its changes are stored). On PostgreSQL all of it is one round
        trip."""
        ids = sorted(set(user_ids))
        keys = await locks.in_statement(conn, *(locks.rating(guild_id, u) for u in ids))
        claim = {"kind": kind.value, "source": source_id, "guild": guild_id, "season": season,
                 "now": float(now)}
        if not isinstance(conn, PgConnection):
            if (await conn.execute(_CLAIM, claim)).rowcount != 1:
                return None
            return Opened(await self.players(conn, guild_id, ids),
                          await self.pair_counts(conn, guild_id, day, ids))
        rows = await fetch_all(conn, _OPEN, {**claim, "locks": keys, "since": day[0],
                                             "until": day[1], "ids": ids})
        if not rows:
            return None
        return Opened({int(row[1]): _player(row) for row in rows if row[2] is not None},
                      {(int(row[1]), int(other)): int(n) for row in rows if row[10]
                       for other, n in zip(row[10], row[11], strict=True)})

    async def write(self, conn: Connection, writes: RatedWrites) -> None:
        """Store what a rated game changed: on PostgreSQL in one statement, on SQLite (no
        round trips) table by table."""
        w = writes
        if isinstance(conn, PgConnection):
            await conn.execute(_WRITE_ALL, {
                "guild": w.guild_id, "season": w.season, "kept": list(w.kept),
                "entering": w.entering,
                **_arrays("saved", _SAVED, map(_saved_row, w.saved)),
                **_arrays("moved", _MOVED, ((b, n) for b, n in sorted(w.moves.items()) if n)),
                **_arrays("changed", _CHANGED, map(_change_row, w.changes))})
            return
        await self._keep_standings(conn, w.guild_id, w.kept)
        await self._save(conn, w.guild_id, w.saved)
        await self.move_buckets(conn, w.guild_id, w.season, w.moves)
        await self.entered(conn, w.guild_id, w.season, w.entering)
        await self._add_changes(conn, w.guild_id, w.changes)

    async def changes_of(self, conn: Connection, kind: RatedKind, source_id: int
                         ) -> list[StoredChange]:
        rows = await fetch_all(
                conn, f"SELECT {_CHANGE} FROM rating_changes WHERE kind = ? AND source_id = ?"
                " ORDER BY place, user_id", (kind.value, source_id))
        return [_change(row) for row in rows]

    async def players(self, conn: Connection, guild_id: int, user_ids: Iterable[int]
                      ) -> dict[int, PlayerRating]:
        ids = sorted(set(user_ids))
        marks = ", ".join("?" for _ in ids)
        rows = await fetch_all(
            conn, f"SELECT {_PLAYER} FROM ratings WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *ids))
        return {p.user_id: p for p in map(_player, rows)}

    async def _keep_standings(self, conn: Connection, guild_id: int, user_ids: Sequence[int]
                              ) -> None:
        """The players' rows as their last season ended (once: its key refuses a second)."""
        if user_ids:
            marks = ", ".join("?" for _ in user_ids)
            await conn.execute(
                f"{_KEEP_STANDINGS} WHERE guild_id = ? AND user_id IN ({marks}){_STANDING_KEPT}",
                (guild_id, *user_ids))

    async def _save(self, conn: Connection, guild_id: int, players: Sequence[PlayerRating]
                    ) -> None:
        await conn.executemany(
            f"INSERT INTO ratings ({_PLAYER}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            f"{_RATING_REPLACED}",
            [(guild_id, *_saved_row(p)) for p in players])

    async def _add_changes(self, conn: Connection, guild_id: int,
                           changes: Sequence[StoredChange]) -> None:
        await conn.executemany(
            f"INSERT INTO rating_changes ({_CHANGE}, guild_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*_change_row(c), guild_id) for c in changes])

    async def pair_counts(self, conn: Connection, guild_id: int, day: tuple[float, float],
                          user_ids: Sequence[int]) -> dict[tuple[int, int], int]:
        """Rated games in ``day`` (a span of times) of each pair among ``user_ids`` (lower
        id first)."""
        ids = {f"u{i}": u for i, u in enumerate(sorted(set(user_ids)))}
        marks = ", ".join(f":{name}" for name in ids)
        rows = await fetch_all(
            conn, f"SELECT a.user_id, b.user_id, COUNT(*){_TOGETHER} AND a.user_id IN ({marks})"
            f" AND b.user_id IN ({marks}) GROUP BY a.user_id, b.user_id",
            {"guild": guild_id, "since": day[0], "until": day[1], **ids})
        return {(int(a), int(b)): int(n) for a, b, n in rows}

    # ---- reading ------------------------------------------------------------------------
    async def player(self, conn: Connection, guild_id: int, user_id: int
                     ) -> PlayerRating | None:
        return (await self.players(conn, guild_id, [user_id])).get(user_id)

    async def board(self, conn: Connection, guild_id: int, season: str, current: bool, *,
                    offset: int, limit: int) -> list[Standing]:
        """A season's board, best first (ties: the lower id first), read in rank order: a
        page costs its offset, not the board's size."""
        rows = await self._page(conn, guild_id, season, current, offset=offset, limit=limit)
        return _ranked(offset + 1, rows)

    async def beside(self, conn: Connection, guild_id: int, season: str, current: bool,
                     rating: float, user_id: int, *, after: bool, limit: int
                     ) -> list[Standing]:
        """The ``limit`` rows of a season's board just after (or before) the place of
        ``(rating, user_id)`` in its order, best first, ranked from the first one's rank
        (:meth:`rank`): a page turned from the one shown costs its own rows, however deep
        (the row itself may have moved since)."""
        # the plain bound first: the rank index's range starts there (PostgreSQL reads
        # no bound out of the OR, and would scan from the board's top)
        if after:
            where = (" AND rating <= :rating"
                     " AND (rating < :rating OR (rating = :rating AND user_id > :user))")
            order = _BEST_FIRST
        else:
            where = (" AND rating >= :rating"
                     " AND (rating > :rating OR (rating = :rating AND user_id < :user))")
            order = " ORDER BY rating, user_id DESC"
        rows = await self._page(conn, guild_id, season, current, offset=0, limit=limit,
                                where=where, order=order,
                                values={"rating": float(rating), "user": user_id})
        rows = rows if after else rows[::-1]
        if not rows:
            return []
        first = await self.rank(conn, guild_id, season, current, int(rows[0][0]),
                                float(rows[0][1]))
        return _ranked(first, rows)

    async def _page(self, conn: Connection, guild_id: int, season: str, current: bool, *,
                    offset: int, limit: int, where: str = "", order: str = "",
                    values: dict[str, object] | None = None) -> list[Row]:
        """Rows of a season's board in ``order`` (best first unless told), through the rank
        index: an ended season's two homes each give their first ``offset + limit`` rows,
        then those are merged."""
        order = order or _BEST_FIRST
        columns = "user_id, rating, games, total_games"
        if current:
            sql = _each_home(True, columns, where) + order
        else:
            sql = " UNION ALL ".join(
                f"SELECT * FROM (SELECT {columns} FROM {home} WHERE {_IN_SEASON}{where}{order}"
                f" LIMIT {int(offset) + int(limit)}) {home}" for home in _HOMES[False]) + order
        return await fetch_all(conn, f"{sql} LIMIT {int(limit)} OFFSET {int(offset)}",
                               {"guild": guild_id, "season": season, **(values or {})})

    async def entered(self, conn: Connection, guild_id: int, season: str, players: int
                      ) -> None:
        """``players`` played their first rated game of ``season`` (its board's size)."""
        if players:
            await conn.execute(
                "INSERT INTO rating_seasons (guild_id, season, players) VALUES (?, ?, ?)"
                f"{_SEASON_COUNTED}",
                (guild_id, season, players))

    async def size(self, conn: Connection, guild_id: int, season: str) -> int:
        """Players on a season's board."""
        row = await fetch_one(
                conn, "SELECT players FROM rating_seasons WHERE guild_id = ? AND season = ?",
                (guild_id, season))
        return int(row[0]) if row else 0

    async def move_buckets(self, conn: Connection, guild_id: int, season: str,
                           moves: dict[int, int]) -> None:
        """Players in and out of whole rating points of a season (``{point: +n or -n}``),
        in the points' order (two games' updates never wait for each other in a circle)."""
        await conn.executemany(
            "INSERT INTO rating_buckets (guild_id, season, bucket, players) VALUES (?, ?, ?, ?)"
            f"{_POINT_COUNTED}",
            [(guild_id, season, point, n) for point, n in sorted(moves.items()) if n])

    async def rank(self, conn: Connection, guild_id: int, season: str, current: bool,
                   user_id: int, rating: float) -> int:
        """The place on the season's board of a player rated ``rating`` there: the players
        of the whole points above (:meth:`move_buckets`), then those above within the
        player's own point, a short range of the rank index (better, or equal with a lower
        id)."""
        point = bucket(rating)
        row = await fetch_one(
                conn, "SELECT (SELECT COALESCE(SUM(players), 0) FROM rating_buckets"
                f" WHERE {_IN_SEASON} AND bucket > :point) + "
                + _summed(current, "COUNT(*)", " AND rating > :rating AND rating < :top") + " + "
                + _summed(current, "COUNT(*)", " AND rating = :rating AND user_id < :user"),
                {"guild": guild_id, "season": season, "rating": float(rating),
                 "point": point, "top": float(point + 1), "user": user_id})
        return (int(row[0]) if row else 0) + 1

    async def standing_on(self, conn: Connection, guild_id: int, season: str, current: bool,
                          user_id: int) -> Standing | None:
        """The player's row on a season's board, ranked (None: not on it)."""
        row = await fetch_one(
                conn, _each_home(current, "rating, games, total_games", " AND user_id = :user"),
                {"guild": guild_id, "season": season, "user": user_id})
        if row is None:
            return None
        rank = await self.rank(conn, guild_id, season, current, user_id, float(row[0]))
        return Standing(rank, user_id, float(row[0]), int(row[1]), int(row[2]))

    async def seasons(self, conn: Connection, guild_id: int) -> list[str]:
        """The server's seasons with rated players, newest first."""
        rows = await fetch_all(
                conn, "SELECT season FROM rating_seasons WHERE guild_id = ?"
                " ORDER BY season DESC", (guild_id,))
        return [str(row[0]) for row in rows]

    async def history(self, conn: Connection, guild_id: int, user_id: int, limit: int
                      ) -> list[StoredChange]:
        """The player's rated games in the server, oldest first (the last ``limit``)."""
        rows = await fetch_all(
                conn, f"SELECT {_CHANGE} FROM rating_changes WHERE guild_id = ? AND user_id = ?"
                " AND why_not IS NULL ORDER BY changed_at DESC, source_id DESC"
                f" LIMIT {int(limit)}", (guild_id, user_id))
        return [_change(row) for row in reversed(rows)]

    async def forget(self, conn: Connection, user_id: int) -> int:
        """Delete a player's ratings, standings and changes (``/mastermind forget-me``),
        taking them off the boards' sizes and rating points."""
        for home in ("ratings", "season_standings"):
            rows = await fetch_all(conn, f"SELECT guild_id, season, rating FROM {home}"
                                   " WHERE user_id = ?", (user_id,))
            for guild, season, rating in rows:
                await self.move_buckets(conn, int(guild), str(season),
                                        {bucket(float(rating)): -1})
                await self.entered(conn, int(guild), str(season), -1)
        total = 0
        for table, column in (("ratings", "user_id"), ("season_standings", "user_id"),
                              ("rating_changes", "user_id"),
                              # written by versions before migration 022 (still kept)
                              ("rating_pairs", "user_a"), ("rating_pairs", "user_b")):
            cur = await conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
            total += max(cur.rowcount, 0)
        return total
