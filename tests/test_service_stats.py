"""Leaderboards and stats at service level (``StatsService``), on a real database, SQLite and
PostgreSQL: the numbers, the ranks, the pages, the periods and scopes, the sizes, forgetting a
player, and the rebuild from stored guesses; the words through the feature's render
functions. Games are played through the services (``BreakerService``,
``ChallengeService``), so every row comes from the same code the bot runs. What only Discord
shows (paging a public board privately, the /stats and /leaderboard answers, the forget-me
prompt) is in ``tests/test_bot_stats.py``."""

from __future__ import annotations

import contextlib
import datetime as dt

from dbtools import connect
from service_kit import action, rows

from bot.core.enums import Mode, Period
from bot.features.stats.render import leaderboard_embed, stats_embed
from engine import Rules, format_code, score, strongest_strategy

SUNDAY_LATE = dt.datetime(2026, 11, 22, 23, 58, tzinfo=dt.UTC).timestamp()
CLASSIC = Rules(4, 6, 10, True)
ONE, TWO = 1001, 1002  # two servers, each with one channel
CHANNEL = {ONE: 2001, TWO: 2002}
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}


def name(user: int) -> str:
    return NAMES.get(user, f"player{user - 100:02d}")


def wrong(secret: str, k: int = 1) -> str:
    code = list(secret)
    code[k % 4] = str(int(code[k % 4]) % 6 + 1)
    return "".join(code)


async def play(s, guild: int, moves, rules: Rules = CLASSIC):
    """A game in ``guild``'s channel started by the first mover, then ``moves``: (player,
    "win" | "miss")."""
    opened = await s.breaker.new_game(guild_id=guild, channel_id=CHANNEL[guild],
                                      user_id=moves[0][0], user_name=name(moves[0][0]),
                                      rules=rules, action_id=action())
    secret = format_code(opened.game.secret)
    for k, (player, kind) in enumerate(moves):
        await s.breaker.guess(channel_id=CHANNEL[guild], user_id=player, user_name=name(player),
                              text=secret if kind == "win" else wrong(secret, k),
                              action_id=action())


async def crack_challenge(s, player: int, secret: str, guild: int = ONE) -> int:
    """A /challenge answered truthfully until the bot wins: its guesses."""
    state, _ = await s.challenges.start(
        guild_id=guild, channel_id=CHANNEL[guild], user_id=player, user_name=name(player),
        rules=CLASSIC, strategy=strongest_strategy(CLASSIC), action_id=action())
    game = state.game
    while game.active:
        fb = score(secret, format_code(game.pending_guess))
        reply = s.challenges.check_reply(game, (fb.black, fb.white), turn=len(game.replies) + 1,
                                         action_id=action(), player_id=player)
        game = (await s.challenges.commit_reply(reply)).game
    return len(game.replies)


async def board(s, viewer: int, guild: int = ONE, *, mode: Mode = Mode.BREAKER,
                period: Period = Period.ALL, size: str = "4x6", page: int = 0,
                scope: int | None = None):
    return await s.stats.leaderboard(mode=mode, scope=guild if scope is None else scope,
                                     period=period, size=size, page=page, viewer_id=viewer)


def lines(page) -> list[str]:
    """The board's lines as players read them."""
    return leaderboard_embed(page, "viewer", "One").description.splitlines()


def rank_of(line: str) -> int:
    """A leaderboard line's rank: a medal for the top three, ``#n`` below."""
    medals = {"\N{FIRST PLACE MEDAL}": 1, "\N{SECOND PLACE MEDAL}": 2,
              "\N{THIRD PLACE MEDAL}": 3}
    return medals.get(line[0]) or int(line.split("`")[1].strip("# "))


async def fields(s, user: int, size: str = "4x6") -> dict[str, str]:
    embed = stats_embed(await s.stats.player(user, size), name(user))
    return {f.name: f.value for f in embed.fields}


def tables(db_path) -> dict[str, list[tuple]]:
    with contextlib.closing(connect(db_path)) as conn:
        return {t: sorted(tuple(r) for r in conn.execute(f"SELECT * FROM {t}").fetchall())
                for t in ("results", "standings")}


async def test_stats_after_a_scripted_series(services, db_path, wall_clock):
    s = services
    wall_clock.now = SUNDAY_LATE - 86400  # Saturday
    await play(s, ONE, [(ALICE, "miss"), (BOB, "miss"), (ALICE, "win")])  # alice: 3
    await play(s, ONE, [(BOB, "win")])                                     # bob: 1
    await play(s, ONE, [(ALICE, "miss"), (BOB, "miss")], Rules(4, 6, 2, True))  # lost
    wall_clock.advance(86400)  # Sunday
    await play(s, ONE, [(ALICE, "miss"), (ALICE, "win")])                  # alice: 2
    for secret in ("1234", "6543", "2525"):
        await crack_challenge(s, ALICE, secret)

    alice = await fields(s, ALICE)
    assert alice["Games played"] == "3"
    assert alice["Codes cracked"] == "2 of 3 games (67%)"
    assert alice["Guesses per crack"] == "2.50"
    assert alice["Best game"].startswith("2 guesses")
    # one streak, the daily code's: games at a size, won two days running, are no streak
    assert alice["Daily streak"].startswith("none yet: `/daily play`")
    assert "3 played" in alice["Challenges"] and "broke 3" in alice["Challenges"]
    assert " 2 │" in alice["Cracks by number of guesses"]
    assert " 3 │" in alice["Cracks by number of guesses"]
    bob = await fields(s, BOB)
    assert bob["Games played"] == "3" and bob["Codes cracked"] == "1 of 3 games (33%)"
    assert bob["Best game"].startswith("1 guess (game #")
    assert bob["Daily streak"].startswith("none yet")
    # a win rate of your own cracks; the game alice cracked with bob counts apart for bob
    assert alice["Won by a teammate"] == "0" and bob["Won by a teammate"] == "1"

    top = await board(s, CAROL)
    shown = lines(top)
    assert "alice" in shown[0] and "2 cracked" in shown[0] and "2.50" in shown[0]
    assert "bob" in shown[1] and "1 cracked" in shown[1]
    assert [rank_of(line) for line in shown] == [1, 2]
    assert top.viewer is None  # carol: "Not on this board yet"
    assert "Not on this board yet" in leaderboard_embed(top, "carol", "One").fields[0].value
    hard = lines(await board(s, ALICE, mode=Mode.CHALLENGE))
    assert "alice" in hard[0] and "3 challenges" in hard[0]

    # Every number can be recomputed from the stored guesses and replies.
    before = tables(db_path)
    await s.stats.recompute()
    assert tables(db_path) == before


async def test_ties_share_a_rank(services):
    s = services
    await play(s, ONE, [(ALICE, "miss"), (ALICE, "win")])
    await play(s, ONE, [(BOB, "miss"), (BOB, "win")])
    await play(s, ONE, [(CAROL, "miss"), (CAROL, "miss"), (CAROL, "win")])
    page = await board(s, CAROL)
    assert [row.rank for row in page.rows] == [1, 1, 3]
    shown = lines(page)
    assert [rank_of(line) for line in shown] == [1, 1, 3]  # two gold medals, then bronze
    assert "carol" in shown[2]


async def test_pages_and_the_viewers_rank(services):
    """23 players, player n needing n % 5 + 1 guesses: three pages of at most 10, ranks
    running on across pages, and a viewer off the first page still told their rank."""
    s = services
    players = [100 + n for n in range(23)]
    for n, player in enumerate(players):
        await play(s, ONE, [*[(player, "miss")] * (n % 5), (player, "win")])
    last = players[-1]  # player22: 3 guesses, somewhere after the first page
    first = await board(s, last)
    assert (first.page, first.pages, first.total, len(first.rows)) == (0, 3, 23, 10)
    assert first.viewer is not None and first.viewer.user_id == last
    assert first.viewer.average == 3.0
    you = leaderboard_embed(first, name(last), "One").fields[0].value
    assert "(of 23)" in you and "3.00" in you
    second = await board(s, last, page=1)
    ranks = [row.rank for row in second.rows]
    assert ranks == sorted(ranks) and min(ranks) >= 6
    assert ranks == [rank_of(line) for line in lines(second)]
    third = await board(s, last, page=2)
    assert (third.page, len(third.rows)) == (2, 3)
    assert (await board(s, last, page=9)).page == 2  # past the end: the last page
    other = await board(s, players[0], page=1)  # someone else's view of the same page
    assert other.viewer is not None and other.viewer.user_id == players[0]
    assert other.rows == second.rows


async def test_periods_across_a_week_boundary(services, wall_clock):
    s = services
    wall_clock.now = SUNDAY_LATE
    await play(s, ONE, [(ALICE, "win")])  # Sunday 23:58
    wall_clock.advance(5 * 60)            # Monday 00:03: a new ISO week, the same month
    await play(s, ONE, [(BOB, "win")])
    week = lines(await board(s, ALICE, period=Period.WEEK))
    assert len(week) == 1 and "bob" in week[0]
    month = "\n".join(lines(await board(s, ALICE, period=Period.MONTH)))
    assert "bob" in month and "alice" in month
    assert len(lines(await board(s, ALICE))) == 2


async def test_a_server_and_all_servers(services):
    s = services
    await play(s, ONE, [(ALICE, "win")])
    await play(s, TWO, [(DAVE, "miss"), (DAVE, "win")])
    await play(s, TWO, [(ALICE, "win")])
    here = "\n".join(lines(await board(s, ALICE, ONE)))
    assert "dave" not in here and "1 cracked" in here
    everywhere = lines(await board(s, ALICE, ONE, scope=0))  # the global scope
    assert "alice" in everywhere[0] and "2 cracked" in everywhere[0]
    assert "dave" in everywhere[1]


async def test_forget_me(services, db_path):
    s = services
    await play(s, ONE, [(ALICE, "miss"), (BOB, "win")])
    await play(s, ONE, [(ALICE, "win")])
    await play(s, ONE, [(ALICE, "miss")])  # a running game with one of alice's guesses in it
    await s.stats.forget(ALICE)
    gone = stats_embed(await s.stats.player(ALICE, "4x6"), "alice")
    assert "hasn't finished a game" in gone.description
    top = "\n".join(lines(await board(s, BOB)))
    assert "alice" not in top and "bob" in top
    assert rows(db_path, "SELECT COUNT(*) FROM guesses WHERE player_id = ?", ALICE) == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM players WHERE user_id = ?", ALICE) == [(0,)]
    # The running game is still playable, by anyone.
    game = await s.games.running(CHANNEL[ONE])
    won = await s.breaker.guess(channel_id=CHANNEL[ONE], user_id=BOB, user_name="bob",
                                text=format_code(game.secret), action_id=action())
    assert won.winner_id == BOB
    before = tables(db_path)
    await s.stats.recompute()
    assert tables(db_path) == before


async def test_a_player_with_no_games(services):
    s = services
    shown = stats_embed(await s.stats.player(CAROL, "4x6"), "carol")
    assert "hasn't finished a game at 4x6 yet" in shown.description
    empty = leaderboard_embed(await board(s, CAROL), "carol", "One")
    assert "Nobody has cracked a code" in empty.description


async def test_sizes_are_never_mixed(services):
    s = services
    await play(s, ONE, [(ALICE, "win")], Rules(5, 8, 10, True))
    await play(s, ONE, [(BOB, "win")])
    classic = "\n".join(lines(await board(s, ALICE)))
    assert "bob" in classic and "alice" not in classic
    big = "\n".join(lines(await board(s, ALICE, size="5x8")))
    assert "alice" in big and "bob" not in big
    mine = stats_embed(await s.stats.player(ALICE, "4x6"), "alice")
    assert "5x8 (1)" in mine.footer.text


async def test_the_sizes_played_for_autocomplete(services):
    s = services
    assert await s.stats.sizes() == []
    await play(s, ONE, [(ALICE, "win")], Rules(5, 8, 10, True))
    await play(s, ONE, [(BOB, "win")])
    await play(s, ONE, [(BOB, "win")], Rules(4, 6, 10, False))
    assert await s.stats.sizes() == ["4x6", "4x6 no-repeats", "5x8"]
