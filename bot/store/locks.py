"""What a write transaction locks on PostgreSQL: the channel its game or match lives in, the
player whose private game, daily play or puzzle it writes, never the whole database.

Every write that reads, checks, then writes (the next turn, a board swap, ending a game,
a puzzle's answer)
names what it touches before its first statement, through these helpers; the store's SQL
modules call them, so services never see them. On SQLite, and on the read connection, they
do nothing: SQLite has one writer at a time anyway. A transaction that names nothing before
its first statement (migrations, ``copy-db``, the stats rebuild, a settings change) holds
the whole database, as every write did before.

**No two transactions wait for each other.** Keys are taken in one global order: by rank (a
player's daily play or puzzles, then a player's private game, then a channel, then the
ratings of a rated game's players), and within one call by name. A transaction may add keys
later (a move in a channel first looks for the player's private game, then at the channel's
game), but only of a higher rank than every key it holds; keys of one rank are taken
together, in one sorted call, or not at all. So a transaction that waits for a key holds
only keys ranked below it, and whoever holds that key waits (if at all) for keys ranked
above it: no cycle can close. A key found by a lookup (a game or match by its id) may be a
channel or a private game's player: it ranks as a channel and is taken alone, or not after
anything else.
:class:`PgTransaction` checks the rule as keys are taken (``tests`` make a breach fail).

A private game is its player's, not its channel's (the channel's one running game is the
shared one): its writes hold the player's ``private`` key. A match and its half-rounds'
games are in its channel: holding that channel covers them, and so does a race with its
racers' boards (private games locked as the race's channel, not their players'). What
spans channels holds with constraints instead: one running game and one running match per
channel (partial unique indexes, re-read under the channel's key), one private game per
player (a partial unique index, under the player's key, or a racer's board's channel), one
daily play per player and day (its primary key, under the player's key), leaderboard
totals and the daily tally (``ON CONFLICT`` upserts written in key order), exactly once
(the ``*_once`` keys).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .connection import Connection
from .transaction import PgTransaction

if TYPE_CHECKING:
    from ..core.matches import MatchRecord
    from ..core.races import RaceRecord
    from ..core.records import GameRecord, NewGame


#: Ranks, in the order keys are taken (see the module's doc). A player's rating in a server
#: ranks last: a game's end (under its channel or player) rates its players at the end.
DAILY, PRIVATE, CHANNEL, RATING = 0, 1, 2, 3


@dataclass(frozen=True, order=True)
class Key:
    """One advisory lock: ``rank`` and ``name`` order keys (and tell them apart); ``sql`` is
    the SQL expression of the lock's number, evaluated by the server when it is taken (a
    game's channel is looked up in the same round trip); ``aliases`` are other names of the
    same lock (a game's channel is also that game's), so holding any of them is enough;
    ``lookup``: which lock it is depends on a row (see the module's doc); ``text``: for a
    key known without the server, the text whose hash is its number (a statement's
    parameter: :func:`in_statement`)."""

    rank: int
    name: str
    sql: str
    aliases: tuple[str, ...] = ()
    lookup: bool = False
    text: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def lowest(self) -> int:
        """The lowest rank the lock may turn out to have (a lookup: a private game's)."""
        return PRIVATE if self.lookup else self.rank


#: What every key's text begins with: the bot's locks never share a number with another
#: program's on the same database.
_PREFIX = "mastermind:"


def _hashed(scope: str, value_sql: str) -> str:
    # 64 bits of a hash: two things sharing a number only wait for each other, never mix.
    # migrations/postgresql/022 hashes a key's text the same way (rating_open).
    return f"hashtextextended('{_PREFIX}{scope}:' || ({value_sql})::text, 0)"


#: A game row's own lock, as SQL over its columns: its player's if private, else its channel's.
_GAME_LOCK = (f"CASE WHEN g.private = 1 AND g.race_id IS NULL"
              f" THEN {_hashed('private', 'g.started_by')}"
              f" ELSE {_hashed('channel', 'g.channel_id')} END")


def channel(channel_id: int) -> Key:
    return Key(CHANNEL, f"channel:{int(channel_id)}",
               _hashed("channel", str(int(channel_id))))


def private(user_id: int) -> Key:
    """A player's private games (one running at a time, whichever channel it started in)."""
    return Key(PRIVATE, f"private:{int(user_id)}", _hashed("private", str(int(user_id))))


def daily(user_id: int) -> Key:
    """A player's daily plays (one play per day, across servers)."""
    return Key(DAILY, f"daily:{int(user_id)}", _hashed("daily", str(int(user_id))))


def puzzles(user_id: int) -> Key:
    """A player's puzzles (one daily puzzle a day; each puzzle answered once). It ranks with
    the daily plays: no transaction takes both."""
    return Key(DAILY, f"puzzles:{int(user_id)}", _hashed("puzzles", str(int(user_id))))


def rating(guild_id: int, user_id: int) -> Key:
    """A player's rating in a server (a rated game takes all its players' in one call)."""
    name, value = "rating", f"{int(guild_id)}:{int(user_id)}"
    return Key(RATING, f"{name}:{value}", _hashed(name, f"'{value}'"),
               text=f"{_PREFIX}{name}:{value}")


def of_game(game: GameRecord) -> Key:
    """A game as read, known without a lookup: its player's private key, or its channel
    (also its match's or its race's: their games are in their channel)."""
    also = (f"game:{int(game.id)}",) + (
        (f"match:{int(game.match_id)}",) if game.match_id is not None else ()) + (
        (f"race:{int(game.race_id)}",) if game.race_id is not None else ())
    own = private(game.started_by) if own_player(game) else channel(game.channel_id)
    return Key(own.rank, own.name, own.sql, also)


def own_player(game: GameRecord | NewGame) -> bool:
    """Is the game its player's alone (a private game), rather than its channel's? A
    racer's board is private but in its race's channel: the race's end writes every board
    of the race, so they all lock as the channel does."""
    return game.private and game.race_id is None


def of_race(race: RaceRecord) -> Key:
    own = channel(race.channel_id)
    return Key(CHANNEL, own.name, own.sql, (f"race:{int(race.id)}",))


def race(race_id: int) -> Key:
    """The channel of a race (its racers' boards lock as that channel)."""
    return Key(CHANNEL, f"race:{int(race_id)}", _hashed(
        "channel", f"SELECT channel_id FROM races WHERE id = {int(race_id)}"), lookup=True)


def of_match(match: MatchRecord) -> Key:
    own = channel(match.channel_id)
    return Key(CHANNEL, own.name, own.sql, (f"match:{int(match.id)}",))


def game(game_id: int) -> Key:
    """A game's own lock, looked up (a game never moves; a missing one locks nothing)."""
    return Key(CHANNEL, f"game:{int(game_id)}",
               f"(SELECT {_GAME_LOCK} FROM games g WHERE g.id = {int(game_id)})", lookup=True)


def match(match_id: int) -> Key:
    """The channel of a match (its half-rounds are games in the same channel)."""
    return Key(CHANNEL, f"match:{int(match_id)}", _hashed(
        "channel", f"SELECT channel_id FROM matches WHERE id = {int(match_id)}"), lookup=True)


async def hold(conn: Connection, *keys: Key) -> None:
    """Lock ``keys`` until the transaction ends (PostgreSQL write transactions only)."""
    if isinstance(conn, PgTransaction):
        await conn.hold(*keys)


async def in_statement(conn: Connection, *keys: Key) -> list[str]:
    """Keys the caller's next statement takes itself, before it reads (a PostgreSQL function
    whose statements each see what was committed up to then: ``rating_open``), as the
    texts whose hashes are their numbers, in the order to take them; checked and counted as
    held as :func:`hold` does. Before the transaction's first statement they ride on its
    ``BEGIN`` instead, and none is left to take. Nothing on SQLite or a reader."""
    if not isinstance(conn, PgTransaction):
        return []
    if not conn.began:
        await conn.hold(*keys)
        return []
    return [str(key.text) for key in conn.taking(*keys)]


def holding(conn: Connection, key: Key) -> bool:
    """Whether a write to what ``key`` locks may go on here (held, or no keys: SQLite, a
    reader)."""
    return not isinstance(conn, PgTransaction) or conn.holds(key)


def found(conn: Connection, key: Key, *same: Key) -> None:
    """``key`` (held) turned out to be the same lock as ``same`` (a game found by its id is
    its channel's, or its player's): so they are held too."""
    if isinstance(conn, PgTransaction) and conn.holds(key):
        conn.held.update(name for other in same for name in other.names)


async def alone(conn: Connection) -> None:
    """The transaction is this one statement, whole by itself (it reads and writes one row:
    a board's message): on PostgreSQL it runs without ``BEGIN``, keys or ``COMMIT``, one
    round trip, waiting only for that row."""
    if isinstance(conn, PgTransaction):
        conn.alone()
