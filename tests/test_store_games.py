"""A game's row is written from NewGame and GameEnding and read into GameRecord by the
fields' names and types: every field makes the round trip on both databases, so a new
column needs no SQL in the store (see docs/architecture.md, "A column")."""

from __future__ import annotations

from dataclasses import fields

from bot.core.enums import GameKind, GameStatus
from bot.core.records import GameEnding, GameRecord, NewGame
from bot.store import GameStore
from engine import Rules, code_from_digits

#: Every field set to something other than its default.
EVERYTHING = NewGame(
    GameKind.CHALLENGE, guild_id=5, channel_id=6, started_by=7,
    rules=Rules(5, 8, 12, False), secret=code_from_digits("12345"), strategy="entropy",
    seed=99, pending_guess=code_from_digits("54321"), codes_left=321, turn_opened_by=8,
    match_id=None, match_half=1, setter_id=9, private=True, deadline=2000.0, action_id=10,
)


def test_the_example_sets_every_field_but_the_match_and_the_race():
    defaults = NewGame(GameKind.BREAKER, None, 0, 0, Rules(4, 6, 10, True))
    unset = {f.name for f in fields(NewGame)
             if getattr(EVERYTHING, f.name) == getattr(defaults, f.name)}
    assert unset == {"match_id", "race_id"}  # each must name a stored match, or race


async def test_every_field_of_a_new_game_is_stored_and_read_back(db):
    store = GameStore()
    async with db.transaction() as conn:
        created = await store.create(conn, EVERYTHING, now=1000.0)
    read = await store.get(await db.reader(), created.id)
    assert read == created
    for f in fields(NewGame):
        if f.name != "action_id":  # the interaction, kept for exactly-once, not a field
            assert getattr(read, f.name) == getattr(EVERYTHING, f.name), f.name
    assert (read.status, read.created_at, read.updated_at) == (GameStatus.ACTIVE, 1000, 1000)
    assert read.winner_id is None and read.ended_at is None and read.hints == 0


async def test_an_ending_sets_what_it_gives_and_keeps_what_it_leaves_out(db):
    store = GameStore()
    async with db.transaction() as conn:
        game = await store.create(conn, EVERYTHING, now=1000.0)
        revealed = await store.finish(conn, game, GameEnding(GameStatus.QUIT, action_id=11),
                                      now=2000.0)
        plain = NewGame(GameKind.BREAKER, 5, 60, 7, Rules(4, 6, 10, True))
        other = await store.create(conn, plain, now=1000.0)
        won = await store.finish(conn, other, GameEnding(
            GameStatus.WON, winner_id=12, secret=code_from_digits("1111")), now=3000.0)
    reader = await db.reader()
    for ended in (revealed, won):
        assert await store.get(reader, ended.id) == ended
    assert revealed.secret == EVERYTHING.secret and revealed.winner_id is None
    assert (revealed.status, revealed.ended_at, revealed.pending_guess) == (
        GameStatus.QUIT, 2000, None)
    assert (won.winner_id, won.secret, won.updated_at) == (12, code_from_digits("1111"), 3000)
    assert isinstance(won, GameRecord)
