"""Ratings at service level (``RatingService.rate`` inside a write transaction, as a match's
or a race's end calls it), on SQLite and PostgreSQL: the library's numbers, exactly once,
the daily cap per pair, what is never rated, and seasons. The screens and a match played to
its rated end through the fake Discord are in ``tests/test_bot_ratings.py``."""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from itertools import combinations, pairwise

from openskill.models import PlackettLuce
from service_kit import build, rows

from bot.core.enums import RatedKind, Seasons
from bot.features.ratings import model
from bot.features.ratings.service import PageTurn, Placement, RatedGame, WhyNot
from bot.store import Database

GUILD = 7
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4
DAY = 86_400.0


def game(source: int, *places: tuple[int, int], guild: int | None = GUILD,
         kind: RatedKind = RatedKind.RACE) -> RatedGame:
    return RatedGame(guild, kind, source, tuple(Placement(u, p) for u, p in places))


async def rate(s, rated: RatedGame):
    async with s.db.transaction() as conn:
        return await s.ratings.rate(conn, rated, s.clock())


def shown(mu: float, sigma: float) -> float:
    """The shown number, by the library's own ordinal with the documented scale."""
    return PlackettLuce().rating(mu=mu, sigma=sigma).ordinal(3.0, 20.0, 1000.0)


async def test_a_race_moves_ratings_by_the_librarys_numbers(services, db_path):
    first = await rate(services, game(1, (ALICE, 1), (BOB, 2), (CAROL, 2)))
    library = PlackettLuce()
    expected = library.rate([[library.rating()] for _ in range(3)], ranks=[1, 2, 2])
    for change, (player,) in zip(first.changes, expected, strict=True):
        assert change.rated and change.why_not is None and change.provisional
        assert change.before is None
        assert abs(change.after - shown(player.mu, player.sigma)) < 1e-9
    alice = first.of(ALICE)
    assert alice.after > model.newcomer() > first.of(BOB).after == first.of(CAROL).after
    # A second game starts from the stored mu and sigma.
    again = await rate(services, game(2, (BOB, 1), (ALICE, 2)))
    (a,), (b,), _ = expected
    (b2,), (a2,) = library.rate([[library.rating(mu=b.mu, sigma=b.sigma)],
                                 [library.rating(mu=a.mu, sigma=a.sigma)]], ranks=[1, 2])
    assert abs(again.of(BOB).after - shown(b2.mu, b2.sigma)) < 1e-9
    assert again.of(ALICE).before == alice.after
    stored = rows(db_path, "SELECT user_id, mu, sigma, games, total_games FROM ratings"
                           " ORDER BY user_id")
    assert [(u, g, t) for u, _, _, g, t in stored] == [(ALICE, 2, 2), (BOB, 2, 2), (CAROL, 1, 1)]
    assert abs(stored[0][1] - a2.mu) < 1e-9 and abs(stored[0][2] - a2.sigma) < 1e-9


async def test_a_game_ending_twice_moves_ratings_once(services, db_path):
    ended = game(5, (ALICE, 1), (BOB, 2), kind=RatedKind.MATCH)
    outcomes = await asyncio.gather(*(rate(services, ended) for _ in range(4)))
    assert len({o for o in outcomes}) == 1
    assert rows(db_path, "SELECT COUNT(*) FROM rated_games") == [(1,)]
    assert rows(db_path, "SELECT games FROM ratings ORDER BY user_id") == [(1,), (1,)]


async def test_the_daily_cap_per_pair(services, db_path):
    for source in range(1, 4):
        outcome = await rate(services, game(source, (ALICE, 1), (BOB, 2)))
        assert all(c.rated for c in outcome.changes)
    capped = await rate(services, game(4, (ALICE, 1), (BOB, 2)))
    assert [(c.rated, c.why_not) for c in capped.changes] == [(False, WhyNot.PAIR_CAP)] * 2
    assert capped.of(ALICE).before == capped.of(ALICE).after is not None
    # In a race, Carol is new to both: all three are rated, and the pair's count goes on.
    race = await rate(services, game(5, (CAROL, 1), (ALICE, 2), (BOB, 3)))
    assert all(c.rated for c in race.changes)
    # The next UTC day the pair counts again.
    services.clock.advance(DAY)
    assert all(c.rated for c in (await rate(services, game(6, (ALICE, 1), (BOB, 2)))).changes)
    assert rows(db_path, "SELECT games FROM ratings ORDER BY user_id") == [(5,), (5,), (1,)]


async def test_the_cap_counts_the_utc_day_of_the_rating(services):
    """Games rated at the last second of a UTC day count for that day; the first second of
    the next starts a new count (the changes' times, [start, end) of the day)."""
    midnight = 1_795_046_400.0  # 2026-11-19 00:00:00 UTC
    assert model.utc_day(midnight - 0.001) == (midnight - DAY, midnight)
    assert model.utc_day(midnight) == (midnight, midnight + DAY)
    services.clock.now = midnight - DAY  # the day before, at its first second: counted
    assert all(c.rated for c in (await rate(services, game(1, (ALICE, 1), (BOB, 2)))).changes)
    services.clock.now = midnight - 1.0
    for source in (2, 3):
        assert all(c.rated for c in (await rate(services, game(source, (ALICE, 1),
                                                                (BOB, 2)))).changes)
    capped = await rate(services, game(4, (BOB, 1), (ALICE, 2)))
    assert [c.why_not for c in capped.changes] == [WhyNot.PAIR_CAP] * 2
    services.clock.now = midnight
    for source in (5, 6, 7):
        assert all(c.rated for c in (await rate(services, game(source, (ALICE, 1),
                                                                (BOB, 2)))).changes)
    capped = await rate(services, game(8, (ALICE, 1), (BOB, 2), (CAROL, 3)))
    # Carol is fresh to both: the three are rated, and Alice and Bob's count goes on
    assert all(c.rated for c in capped.changes)
    again = await rate(services, game(9, (ALICE, 1), (BOB, 2)))
    assert [c.why_not for c in again.changes] == [WhyNot.PAIR_CAP] * 2
    async with services.db.transaction() as conn:
        counts = await services.ratings.store.pair_counts(conn, GUILD, model.utc_day(midnight),
                                                          [CAROL, BOB, ALICE, DAVE])
    assert counts == {(ALICE, BOB): 4, (ALICE, CAROL): 1, (BOB, CAROL): 1}

async def test_never_rated_dms_and_a_race_of_one(services, db_path):
    dm = await rate(services, game(1, (ALICE, 1), (BOB, 2), guild=None))
    assert [c.why_not for c in dm.changes] == [WhyNot.DM] * 2
    alone = await rate(services, game(2, (ALICE, 1)))
    assert [(c.rated, c.why_not) for c in alone.changes] == [(False, WhyNot.ALONE)]
    assert rows(db_path, "SELECT COUNT(*) FROM rated_games") == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM ratings") == [(0,)]


async def test_a_new_season_keeps_the_standings_and_widens_sigma(services, db_path):
    services.clock.now = 1_793_000_000.0  # 2026-10-26: October
    first = await rate(services, game(1, (ALICE, 1), (BOB, 2)))
    october = model.season_of(services.clock(), Seasons.MONTHLY)
    services.clock.advance(10 * DAY)  # November
    (mu, sigma), = rows(db_path, "SELECT mu, sigma FROM ratings WHERE user_id = ?", ALICE)
    november = await asyncio.gather(*(rate(services, game(n, (ALICE, 1), (who, 2)))
                                      for n, who in ((2, CAROL), (3, DAVE))))
    assert rows(db_path, "SELECT season, user_id, rating FROM season_standings"
                         " ORDER BY user_id") == [(october, ALICE, first.of(ALICE).after)]
    # One carry, however many games end at once: the first of them started from the widened
    # sigma, the second from what the first left.
    starts = sorted(o.of(ALICE).before for o in november)
    assert abs(starts[0] - shown(mu, model.widened(sigma))) < 1e-9
    board = await services.ratings.board(GUILD, october, page=0, viewer_id=BOB)
    assert [(r.user_id, r.rank) for r in board.rows] == [(ALICE, 1), (BOB, 2)]
    assert not board.current and board.viewer.rank == 2 and board.size == 2


async def test_two_processes_rate_at_once(services, db_path):
    """Two processes (two databases' worth of connections): the same game ended in both
    moves ratings once; two games sharing a player, ended at the same moment, both count
    (neither overwrites the other's update of that player)."""
    other = await build(await Database.open(db_path), services.clock)
    try:
        same = game(1, (ALICE, 1), (BOB, 2), kind=RatedKind.MATCH)
        twice = await asyncio.gather(rate(services, same), rate(other, same))
        assert twice[0] == twice[1]
        shared = await asyncio.gather(rate(services, game(2, (ALICE, 1), (CAROL, 2))),
                                      rate(other, game(3, (DAVE, 1), (ALICE, 2))))
    finally:
        await other.db.close()
    assert rows(db_path, "SELECT user_id, games FROM ratings ORDER BY user_id") == [
        (ALICE, 3), (BOB, 1), (CAROL, 1), (DAVE, 1)]
    # One of the two went first; the other started from what it left.
    a, b = (o.of(ALICE) for o in shared)
    assert a.before == b.after or b.before == a.after


async def test_ranks_on_a_board_with_ties_and_after_forget_me(services, db_path):
    """The ranks the board and /stats give are the places in rating order (ties: the lower
    id first), counted from the rating points kept as games end; forget-me takes a player
    off them."""
    players = list(range(11, 23))
    for n in range(8):
        field = players[n % 3::2][:5]
        await rate(services, game(100 + n, *((u, i % 3 + 1) for i, u in enumerate(field))))
    stored = rows(db_path, "SELECT user_id, rating FROM ratings ORDER BY rating DESC, user_id")
    assert len({r for _, r in stored}) < len(stored)  # some ratings are tied
    for place, (user, _) in enumerate(stored, 1):
        card = await services.ratings.card(GUILD, user)
        assert card.rank == place and card.total == len(stored)
    gone, kept = stored[0][0], stored[1][0]
    async with services.db.transaction() as conn:  # as a version before migration 022 wrote
        await conn.executemany(
            "INSERT INTO rating_pairs (guild_id, day, user_a, user_b, games)"
            " VALUES (?, '2026-11-01', ?, ?, 1)", [(GUILD, gone, 99), (GUILD, 98, gone),
                                                   (GUILD, kept, 99)])
    await services.stats.forget(gone)
    assert rows(db_path, "SELECT user_a, user_b FROM rating_pairs") == [(kept, 99)]
    board = await services.ratings.board(GUILD, None, page=0, viewer_id=stored[-1][0])
    assert board.size == len(stored) - 1
    assert [r.user_id for r in board.rows] == [u for u, _ in stored[1:]][:10]
    assert board.viewer.rank == len(stored) - 1


async def test_a_big_race_with_a_capped_player_and_a_season_carried(services, db_path):
    """Everything a rated game writes, checked against the rows it leaves: a 10-player race
    (six carried from last season, four newcomers), games ended at once (sharing players,
    or not), a race where everyone is capped and one where only one player is; the boards'
    sizes, rating points, pair counts and game counts add up to the ratings and changes
    stored."""
    services.clock.now = 1_793_000_000.0  # 2026-10-26: October
    six = list(range(1, 7))
    await rate(services, game(1, *((u, u) for u in six)))
    services.clock.advance(10 * DAY)  # November
    # Three races of the six today, ended at once: every pair among them reaches the cap.
    await asyncio.gather(*(rate(services, game(n, *((u, (u + n) % 6 + 1) for u in six)))
                           for n in (2, 3, 4)))
    big = await rate(services, game(5, *((u, u % 4 + 1) for u in range(1, 11))))
    assert all(c.rated for c in big.changes)  # the four newcomers are fresh to everyone
    capped = await rate(services, game(6, *((u, u) for u in six)))
    assert {(c.rated, c.why_not) for c in capped.changes} == {(False, WhyNot.PAIR_CAP)}
    # Player 1 reaches the cap with 7 and 8 too (games ended at once with others'):
    await asyncio.gather(*(rate(services, game(n, (1, 1), (o, 2)))
                           for n, o in ((7, 7), (8, 7), (9, 8), (10, 8))))
    last = await rate(services, game(11, (7, 1), (1, 2), (2, 3), (8, 3)))
    assert [(c.user_id, c.rated) for c in last.changes] == [(7, True), (1, False), (2, True),
                                                           (8, True)]
    one = last.of(1)
    assert one.why_not == WhyNot.PAIR_CAP and one.before == one.after is not None
    # Games of other players ended at once move the same rating points and board size.
    await asyncio.gather(*(rate(services, game(100 + n, (n, 1), (n + 1, 2)))
                           for n in range(11, 19, 2)))

    october, november = "2026-10", "2026-11"
    ratings = rows(db_path, "SELECT user_id, season, mu, sigma, rating, games, total_games"
                            " FROM ratings ORDER BY user_id")
    assert {(u, s) for u, s, *_ in ratings} == {(u, november) for u in range(1, 19)}
    for user, _, mu, sigma, rating, games, total in ratings:
        assert abs(rating - shown(mu, sigma)) < 1e-9
        counted = rows(db_path, "SELECT g.season, COUNT(*) FROM rating_changes c JOIN"
                                " rated_games g USING (kind, source_id) WHERE c.user_id = ?"
                                " AND c.why_not IS NULL GROUP BY g.season", user)
        assert (games, total) == (dict(counted).get(november, 0), sum(n for _, n in counted))
        # this season's changes chain, each starting where one before it ended (games
        # ended at once are rated in whichever order their locks were granted): the
        # rating stored is the one the chain ends at
        chain = rows(db_path, "SELECT c.before, c.after FROM rating_changes c JOIN rated_games"
                              " g USING (kind, source_id) WHERE c.user_id = ? AND"
                              " c.why_not IS NULL AND g.season = ?", user, november)
        starts = {before for before, _ in chain}
        assert [after for _, after in chain if after not in starts] == [rating]
    assert rows(db_path, "SELECT season, user_id FROM season_standings ORDER BY user_id") == [
        (october, u) for u in six]
    assert dict(rows(db_path, "SELECT season, players FROM rating_seasons")) == {
        october: 6, november: 18}
    points = Counter(math.floor(r) for _, _, _, _, r, _, _ in ratings)
    stored = rows(db_path, "SELECT bucket, players FROM rating_buckets WHERE season = ?"
                           " AND players <> 0", november)
    assert dict(stored) == points
    # Each pair counts today once per game today that rated them both (the games' rows and
    # their changes, read on their own here).
    both = Counter()
    for (source,) in rows(db_path, "SELECT source_id FROM rated_games WHERE season = ?",
                          november):
        ids = [u for (u,) in rows(db_path, "SELECT user_id FROM rating_changes WHERE"
                                           " source_id = ? AND why_not IS NULL", source)]
        both.update(combinations(sorted(ids), 2))
    async with services.db.transaction() as conn:
        counts = await services.ratings.store.pair_counts(
            conn, GUILD, model.utc_day(services.clock()), range(1, 19))
    assert counts == both


async def test_pages_turned_from_a_row_are_the_pages_counted(services):
    """The board's buttons turn a page from the row shown (its last, or its first): a deep
    page costs its own rows, not its offset. Turned pages are the pages counted by number,
    ties split across pages included, on the current board and on an ended season's (its
    two homes merged); a turn from a place no row holds any more shows the rows next to
    it, ranked; a turn past either end shows that end."""
    size = 3
    for n in range(1, 13):  # a chain of matches: a dozen ratings, most apart
        await rate(services, game(n, (n + 1, 1), (n, 2)))
    await rate(services, game(20, *((u, 1) for u in range(30, 35))))  # five tied newcomers
    october = services.ratings.season(GUILD)

    async def walk(season: str | None) -> None:
        counted = []
        for page in range(100):
            board = await services.ratings.board(GUILD, season, page=page, viewer_id=1,
                                                 size=size)
            if board.page < page:
                break
            counted.append(board.rows)
        assert len(counted) == board.pages and sum(map(len, counted)) == board.size
        everyone = [row for rows in counted for row in rows]
        assert [r.rank for r in everyone] == list(range(1, board.size + 1))
        shown = counted[0]
        for page, expected in enumerate(counted[1:], 1):  # next, next, ...
            last = shown[-1]
            board = await services.ratings.board(
                GUILD, season, page=0, viewer_id=1, size=size,
                turn=PageTurn(last.rating, last.user_id, after=True))
            assert (board.page, board.rows) == (page, expected)
            shown = board.rows
        for page in range(len(counted) - 2, -1, -1):  # ... and back
            first = shown[0]
            board = await services.ratings.board(
                GUILD, season, page=0, viewer_id=1, size=size,
                turn=PageTurn(first.rating, first.user_id, after=False))
            assert (board.page, board.rows) == (page, counted[page])
            shown = board.rows
        # Past the ends: the end. From a place no row holds: the rows next to it, ranked.
        end = await services.ratings.board(GUILD, season, page=0, viewer_id=1, size=size,
                                           turn=PageTurn(-1e9, 0, after=True))
        assert end.rows == counted[-1]
        top = await services.ratings.board(GUILD, season, page=5, viewer_id=1, size=size,
                                           turn=PageTurn(1e9, 0, after=False))
        assert top.rows == counted[0]
        above, below = next((a, b) for a, b in pairwise(everyone)
                            if a.rating > b.rating and b.rank > size)
        moved = await services.ratings.board(  # a rating between theirs, as if one had moved
            GUILD, season, page=0, viewer_id=1, size=size,
            turn=PageTurn((above.rating + below.rating) / 2, 0, after=True))
        assert moved.rows == tuple(everyone[below.rank - 1:][:size])
        assert moved.page == (below.rank - 1) // size

    await walk(None)
    services.clock.advance(31 * DAY)  # November: six players carry their ratings into it
    for n in range(1, 4):
        await rate(services, game(100 + n, (2 * n, 1), (2 * n - 1, 2)))
    await walk(october)
    await walk(None)
