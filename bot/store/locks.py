"""What a write transaction locks on PostgreSQL: the channel its game or match lives in, or
the player whose daily play it writes, never the whole database.

Every write that reads, checks, then writes (the next turn, a board swap, ending a game)
names what it touches before its first statement, through these helpers; the store's SQL
modules call them, so services never see them. On SQLite, and on the read connection, they
do nothing: SQLite has one writer at a time anyway. A transaction that names nothing before
its first statement (migrations, ``copy-db``, the stats rebuild, a settings change) holds
the whole database, as every write did before.

Everything of one game or match is in one channel, so a transaction holds one key; where it
holds more they are taken in sorted order (no two transactions wait for each other). What
spans channels holds with constraints instead: one running game and one running match per
channel (partial unique indexes, re-read under the channel's key), one daily play per
player and day (its primary key, under the player's key), leaderboard totals and the daily
tally (``ON CONFLICT`` upserts written in key order), exactly once (the ``*_once`` keys).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .connection import Connection
from .transaction import PgTransaction

if TYPE_CHECKING:
    from ..core.matches import MatchRecord
    from ..core.records import GameRecord


@dataclass(frozen=True, order=True)
class Key:
    """One advisory lock: ``name`` tells keys apart (and orders them); ``sql`` is the SQL
    expression of the lock's number, evaluated by the server when it is taken (a game's
    channel is looked up in the same round trip); ``aliases`` are other names of the same
    lock (a game's channel is also that game's), so holding any of them is enough."""

    name: str
    sql: str
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


def _hashed(scope: str, value_sql: str) -> str:
    # 64 bits of a hash: two things sharing a number only wait for each other, never mix.
    return f"hashtextextended('mastermind:{scope}:' || ({value_sql})::text, 0)"


def channel(channel_id: int) -> Key:
    return Key(f"channel:{int(channel_id)}", _hashed("channel", str(int(channel_id))))


def of_game(game: GameRecord) -> Key:
    """A game as read: its channel, known without a lookup."""
    return Key(f"channel:{int(game.channel_id)}", _hashed("channel", str(int(game.channel_id))),
               (f"game:{int(game.id)}",))


def of_match(match: MatchRecord) -> Key:
    return Key(f"channel:{int(match.channel_id)}",
               _hashed("channel", str(int(match.channel_id))), (f"match:{int(match.id)}",))


def game(game_id: int) -> Key:
    """The channel of a game (a game never moves; a missing one locks nothing)."""
    return Key(f"game:{int(game_id)}", _hashed(
        "channel", f"SELECT channel_id FROM games WHERE id = {int(game_id)}"))


def match(match_id: int) -> Key:
    """The channel of a match (its half-rounds are games in the same channel)."""
    return Key(f"match:{int(match_id)}", _hashed(
        "channel", f"SELECT channel_id FROM matches WHERE id = {int(match_id)}"))


def reply(reply_id: int) -> Key:
    """The channel of the challenge a reply belongs to."""
    return Key(f"reply:{int(reply_id)}", _hashed(
        "channel", "SELECT g.channel_id FROM challenge_replies r JOIN games g"
                   f" ON g.id = r.game_id WHERE r.id = {int(reply_id)}"))


def private(user_id: int) -> Key:
    """A player's private games (one running at a time, whichever channel it started in)."""
    return Key(f"private:{int(user_id)}", _hashed("private", str(int(user_id))))


def daily(user_id: int) -> Key:
    """A player's daily plays (one play per day, across servers)."""
    return Key(f"daily:{int(user_id)}", _hashed("daily", str(int(user_id))))


async def hold(conn: Connection, *keys: Key) -> None:
    """Lock ``keys`` until the transaction ends (PostgreSQL write transactions only)."""
    if isinstance(conn, PgTransaction):
        await conn.hold(*keys)


def found(conn: Connection, key: Key, channel_id: int) -> None:
    """``key`` (held) turned out to be channel ``channel_id``'s lock: so it is held too."""
    if isinstance(conn, PgTransaction) and conn.holds(key):
        conn.held.add(channel(channel_id).name)


async def alone(conn: Connection) -> None:
    """The transaction is this one statement, whole by itself (it reads and writes one row:
    a board's message): on PostgreSQL it runs without ``BEGIN``, keys or ``COMMIT``, one
    round trip, waiting only for that row."""
    if isinstance(conn, PgTransaction):
        conn.alone()
