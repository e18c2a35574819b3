"""SQL for the ``games``, ``guesses`` and ``players`` tables.

Methods take the connection of an open transaction (``Database.transaction``) when they
write, or the read connection (``Database.reader``) when they only read. Records are
immutable: a write returns the game as it now stands.

A game's columns are read into :class:`GameRecord` and written from :class:`NewGame` and
:class:`GameEnding` by their fields' names and types (a code as its digits, an enum as its
value, a flag as 0/1, the rules as four columns), so a new column needs no SQL here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from enum import Enum
from typing import Any, get_args, get_type_hints

from engine import Code, Feedback, Rules, code_from_digits, format_code

from ..core.enums import GameKind, GameStatus
from ..core.records import GameEnding, GameRecord, GuessRecord, NewGame
from . import locks
from .connection import Connection, Row, fetch_all, fetch_one
from .replies import ReplyStore

_GUESS_COLUMNS = "game_id, turn, player_id, code, black, white, created_at"


def _guess(row: Row) -> GuessRecord:
    return GuessRecord(row["turn"], row["player_id"], code_from_digits(row["code"]),
                       Feedback(row["black"], row["white"]), row["created_at"])


def _code_or_none(text: str | None) -> Code | None:
    return code_from_digits(text) if text else None


def _digits_or_none(code: Code | None) -> str | None:
    return format_code(code) if code else None


#: GameRecord's fields that are not columns of ``games`` (they come from their own tables).
_OTHER_TABLES = ("guesses", "replies")
#: The columns the rules are kept in, in ``Rules``' order.
_RULES = ("pegs", "colors", "max_guesses", "repeats")
#: Fields of NewGame and GameEnding whose column has another name.
_OPENED_BY = {"action_id": "opened_by_interaction"}
_ENDED_BY = {"action_id": "ended_by_interaction"}


def _reader(kind: Any) -> Callable[[Any], Any]:
    """How a column becomes a record's field of this type: a code from its digits, an enum
    from its value, a flag from 0/1; anything else as stored."""
    kinds = set(get_args(kind)) - {type(None)} or {kind}
    base = kinds.pop() if len(kinds) == 1 else kind
    if base == Code:
        return _code_or_none
    if isinstance(base, type) and issubclass(base, Enum):
        return base
    if base is bool:
        return bool
    return _as_stored


def _as_stored(value: Any) -> Any:
    return value


#: Each column a GameRecord field is read from, and how; the rules are read apart.
_READERS: dict[str, Callable[[Any], Any]] = {
    f.name: _reader(kind)
    for f in fields(GameRecord)
    for kind in [get_type_hints(GameRecord)[f.name]]
    if f.name not in (*_OTHER_TABLES, "rules")
}
_GAME_COLUMNS = ", ".join((*_READERS, *_RULES))


def _stored(value: Any) -> Any:
    """A field's value as its column holds it (the reverse of :func:`_reader`)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, tuple):
        return _digits_or_none(value)
    return value


def _columns(record: NewGame | GameEnding, renamed: dict[str, str]) -> dict[str, Any]:
    """A value's fields as ``{column: stored value}``: each under its own name (or
    ``renamed``), the rules as their four columns."""
    values: dict[str, Any] = {}
    for f in fields(record):
        value = getattr(record, f.name)
        if isinstance(value, Rules):
            values.update(zip(_RULES, (value.pegs, value.colors, value.max_guesses,
                                       int(value.repeats)), strict=True))
        else:
            values[renamed.get(f.name, f.name)] = _stored(value)
    return values


def _game(row: Row) -> GameRecord:
    rules = Rules(row["pegs"], row["colors"], row["max_guesses"], bool(row["repeats"]))
    return GameRecord(rules=rules, **{name: read(row[name]) for name, read in _READERS.items()})


class StaleWrite(Exception):
    """The stored game changed since it was read; the caller's transaction rolls back."""


class BoardElsewhere(Exception):
    """The player's running private game is a racer's board, whose writes lock as its
    race's channel: ranked below the player's own key, taken first, so that channel cannot
    be taken now. Raised before anything is written; the transaction begins again holding
    the channel too (:meth:`~bot.services.games.GameService.twice`)."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(channel_id)
        self.channel_id = channel_id


def _race_key(channel_id: int | None) -> tuple[locks.Key, ...]:
    return () if channel_id is None else (locks.channel(channel_id),)


class GameStore:
    """Stateless: one instance serves every connection."""

    def __init__(self) -> None:
        self.replies = ReplyStore()

    async def _one(self, conn: Connection, where: str, args: tuple) -> GameRecord | None:
        row = await fetch_one(conn, f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", args)
        if row is None:
            return None
        game = _game(row)
        if game.kind is GameKind.CHALLENGE:
            return game.with_changes(replies=tuple(await self.replies.standing(conn, game.id)))
        return game.with_changes(guesses=tuple(await self._guesses(conn, game.id)))

    async def hold_both(self, conn: Connection, channel_id: int, user_id: int,
                        race_channel: int | None = None) -> None:
        """Hold the player's private game and the channel's game in one round trip (a move
        that may mean either reads both, each under its key: apart, the channel's key
        cost one more round trip before the move's first read); ``race_channel``: see
        :class:`BoardElsewhere`."""
        await locks.hold(conn, locks.private(user_id), locks.channel(channel_id),
                         *_race_key(race_channel))

    async def active_in_channel(
        self, conn: Connection, channel_id: int
    ) -> GameRecord | None:
        """The channel's own running game (players' private games are theirs, not its)."""
        await locks.hold(conn, locks.channel(channel_id))
        return await self._one(conn, "channel_id = ? AND status = 'active' AND private = 0",
                               (channel_id,))

    async def active_private(self, conn: Connection, user_id: int,
                             race_channel: int | None = None) -> GameRecord | None:
        """A player's running private game (one at most); in a write transaction, one it
        could not write to raises :class:`BoardElsewhere` (``race_channel``: its channel,
        held from the start on the second try)."""
        await locks.hold(conn, locks.private(user_id), *_race_key(race_channel))
        game = await self._one(conn, "started_by = ? AND status = 'active' AND private = 1",
                               (user_id,))
        if game is not None and not locks.holding(conn, locks.of_game(game)):
            raise BoardElsewhere(game.channel_id)
        return game

    async def latest_private(self, conn: Connection, user_id: int) -> GameRecord | None:
        await locks.hold(conn, locks.private(user_id))
        return await self._one(conn, "started_by = ? AND private = 1 ORDER BY id DESC LIMIT 1",
                               (user_id,))

    async def get(self, conn: Connection, game_id: int) -> GameRecord | None:
        key = locks.game(game_id)
        await locks.hold(conn, key)
        game = await self._one(conn, "id = ?", (game_id,))
        if game is not None:
            locks.found(conn, key, locks.of_game(game))
        return game

    async def racer_board(self, conn: Connection, game_id: int) -> GameRecord | None:
        """A racer's board, read under its race's channel key, which the caller holds
        already (a board locks as its race's channel: :func:`.locks.own_player`)."""
        return await self._one(conn, "id = ? AND race_id IS NOT NULL", (game_id,))

    async def latest_in_channel(
        self, conn: Connection, channel_id: int
    ) -> GameRecord | None:
        await locks.hold(conn, locks.channel(channel_id))
        return await self._one(conn, "channel_id = ? AND private = 0 ORDER BY id DESC LIMIT 1",
                               (channel_id,))

    async def finished_ids(self, conn: Connection) -> list[int]:
        rows = await fetch_all(
            conn, "SELECT id FROM games WHERE status != 'active' ORDER BY ended_at, id")
        return [r[0] for r in rows]

    async def running(self, conn: Connection, day: str) -> dict[str, int]:
        """Games running now, across every process: ``breaker``, ``challenge``, ``match``
        (a match's half, of either kind) and ``daily`` (plays of ``day`` not finished).
        Cheap at any size: active games are read from the one-per-channel partial index,
        the day's plays from their primary key."""
        rows = await fetch_all(
            conn,
            "SELECT CASE WHEN match_id IS NULL THEN kind ELSE 'match' END, COUNT(*)"
            " FROM games WHERE status = 'active' GROUP BY 1"
            " UNION ALL SELECT 'daily', COUNT(*) FROM daily_plays"
            " WHERE day = ? AND status = 'active'",
            (day,),
        )
        counts = {str(r[0]): int(r[1]) for r in rows}
        return {kind: counts.get(kind, 0) for kind in ("breaker", "challenge", "match", "daily")}

    async def _guesses(self, conn: Connection, game_id: int) -> list[GuessRecord]:
        rows = await fetch_all(
            conn, f"SELECT {_GUESS_COLUMNS} FROM guesses WHERE game_id = ? ORDER BY turn",
            (game_id,))
        return [_guess(r) for r in rows]

    async def finished_after(self, conn: Connection, game_id: int, limit: int
                             ) -> list[GameRecord]:
        """Up to ``limit`` finished games with ids above ``game_id``, in id order, with their
        moves: three reads however many games (the stats rebuild walks every game so)."""
        games = [_game(r) for r in await fetch_all(
            conn, f"SELECT {_GAME_COLUMNS} FROM games WHERE status != 'active' AND id > ?"
            " ORDER BY id LIMIT ?", (game_id, limit))]
        if not games:
            return []
        low, high = games[0].id, games[-1].id
        guesses: dict[int, list[GuessRecord]] = {}
        for r in await fetch_all(
                conn, f"SELECT {_GUESS_COLUMNS} FROM guesses WHERE game_id BETWEEN ? AND ?"
                " ORDER BY game_id, turn", (low, high)):
            guesses.setdefault(r["game_id"], []).append(_guess(r))
        replies = await self.replies.standing_between(conn, low, high)
        return [game.with_changes(replies=tuple(replies.get(game.id, ())))
                if game.kind is GameKind.CHALLENGE
                else game.with_changes(guesses=tuple(guesses.get(game.id, ())))
                for game in games]

    async def create(self, conn: Connection, new: NewGame, *, now: float) -> GameRecord:
        """Insert the game ``new`` describes, running from ``now``; one statement."""
        game = await self._insert(conn, new, now, "")
        assert game is not None
        return game

    async def create_racer_board(self, conn: Connection, new: NewGame, *, now: float
                                 ) -> GameRecord | None:
        """A racer's board, or None when its player has a private game running already (one
        started, or another race's board, committed since the start read them: the start
        holds its channel, ranked above players' keys, so the unique index decides)."""
        return await self._insert(conn, new, now, " ON CONFLICT DO NOTHING")

    async def _insert(self, conn: Connection, new: NewGame, now: float, conflict: str
                      ) -> GameRecord | None:
        await locks.hold(conn, locks.private(new.started_by) if locks.own_player(new)
                         else locks.channel(new.channel_id))
        values = {**_columns(new, _OPENED_BY), "status": GameStatus.ACTIVE.value,
                  "created_at": now, "updated_at": now}
        row = await fetch_one(
            conn,
            f"INSERT INTO games ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})"
            f"{conflict} RETURNING {_GAME_COLUMNS}", tuple(values.values()),
        )
        return None if row is None else _game(row)

    async def add_guess(
        self,
        conn: Connection,
        game: GameRecord,
        *,
        player_id: int,
        code: Code,
        feedback: Feedback,
        now: float,
        action_id: int | None = None,
    ) -> GameRecord:
        """Append the next turn; the (game, turn) primary key refuses a duplicate turn, and
        the interaction's unique key a second delivery of the same guess."""
        await locks.hold(conn, locks.of_game(game))
        record = GuessRecord(len(game.guesses) + 1, player_id, code, feedback, now)
        await conn.execute(
            "INSERT INTO guesses (game_id, turn, player_id, code, black, white, created_at,"
            " interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game.id, record.turn, player_id, format_code(code), feedback.black,
             feedback.white, now, action_id),
        )
        await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game.id))
        return game.with_changes(guesses=(*game.guesses, record), updated_at=now)

    async def advance(
        self,
        conn: Connection,
        game: GameRecord,
        *,
        pending_guess: Code | None,
        codes_left: int | None,
        opened_by: int | None,
        now: float,
        board_message_id: int | None = None,
    ) -> GameRecord:
        """A challenge's next turn (and the board that shows it), in one statement.

        Raises :class:`StaleWrite` unless the game is still as ``game`` was read: running,
        and on the turn that ``game.turn_opened_by`` opened."""
        await locks.hold(conn, locks.of_game(game))
        board = board_message_id or game.board_message_id
        cur = await conn.execute(
            "UPDATE games SET pending_guess = ?, codes_left = ?, turn_opened_by = ?,"
            " updated_at = ?, board_message_id = ? WHERE id = ? AND status = 'active'"
            " AND turn_opened_by IS NOT DISTINCT FROM ?",
            (_digits_or_none(pending_guess), codes_left, opened_by, now, board, game.id,
             game.turn_opened_by),
        )
        if cur.rowcount != 1:
            raise StaleWrite()
        return game.with_changes(pending_guess=pending_guess, codes_left=codes_left,
                                 turn_opened_by=opened_by, updated_at=now,
                                 board_message_id=board)

    async def finish(self, conn: Connection, game: GameRecord, ending: GameEnding, *,
                     now: float) -> GameRecord:
        """End a running game as ``ending`` says, at ``now`` (its pending guess cleared)."""
        await locks.hold(conn, locks.of_game(game))
        values = _columns(ending, _ENDED_BY)
        kept = ", ".join(f"{column} = COALESCE(?, {column})" for column in values)
        await conn.execute(
            f"UPDATE games SET {kept}, ended_at = ?, updated_at = ?, pending_guess = NULL"
            " WHERE id = ? AND status = 'active'", (*values.values(), now, now, game.id),
        )
        given = {f.name: getattr(ending, f.name) for f in fields(ending)}
        return game.with_changes(
            **{name: value for name, value in given.items()
               if value is not None and name in _READERS},
            ended_at=now, updated_at=now, pending_guess=None)

    async def set_board_message(
        self, conn: Connection, game_id: int, message_id: int
    ) -> None:
        await locks.alone(conn)
        await conn.execute(
            "UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id)
        )

    async def swap_board(
        self, conn: Connection, game_id: int, message_id: int, turn: int
    ) -> tuple[int, int] | None:
        """Make ``message_id`` (showing ``turn`` moves) the game's live board, unless a board
        showing more moves already is. Returns the board message to collapse and how many
        moves it shows: the previous one, or ``message_id`` itself when it came too late.

        One statement, whole by itself: the row's previous board is kept as it is replaced
        (SET reads the row it writes, the newest one once any other swap committed)."""
        await locks.alone(conn)
        row = await fetch_one(
            conn,
            "UPDATE games SET board_replaced_id = board_message_id,"
            " board_replaced_turn = board_turn, board_message_id = ?, board_turn = ?"
            " WHERE id = ? AND (board_turn IS NULL OR board_turn <= ?)"
            " RETURNING board_replaced_id, board_replaced_turn",
            (message_id, turn, game_id, turn),
        )
        if row is None:  # a board showing more moves is live already
            return message_id, turn
        previous, shown = row[0], row[1]
        if previous is None or previous == message_id:
            return None
        return previous, shown if shown is not None else turn

    async def player_names(
        self, conn: Connection, user_ids: Iterable[int]
    ) -> dict[int, str]:
        """The last display names seen for these players (forgotten ones are absent)."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        rows = await fetch_all(
            conn, f"SELECT user_id, display_name FROM players WHERE user_id IN ({marks})", ids)
        return {r["user_id"]: r["display_name"] for r in rows}

    async def remember_player(
        self, conn: Connection, user_id: int, display_name: str, now: float
    ) -> None:
        await conn.execute(
            "INSERT INTO players (user_id, display_name, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,"
            " updated_at = excluded.updated_at",
            (user_id, display_name[:100], now),
        )
