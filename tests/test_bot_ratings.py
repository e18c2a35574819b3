"""Ratings through discord.py's real dispatch: a match between two people played to its end
moves both ratings by the library's numbers and shows each change on its result; a forfeit;
the daily cap per pair (set in /mastermind settings); a season's end kept on
``/leaderboard mode:rating season:``; ``/stats`` with the rating and its chart. The rules'
edge cases (a game ending twice at once, races of many) are in test_service_ratings.py."""

from __future__ import annotations

import contextlib
import sqlite3

import dbtools
import discord
import pytest
from openskill.models import PlackettLuce
from picking import tap
from test_bot_match import scoreboard

OCTOBER = 1_792_000_000.0  # 2026-10-14 UTC
DAY = 86_400.0


def rows(db_path, sql, *args) -> list[tuple]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        conn.row_factory = sqlite3.Row
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]


def shown(player) -> float:
    """The library's conservative rating, on the scale the bot shows (a newcomer: 1000)."""
    return player.ordinal(3.0, 20.0, 1000.0)


async def slash(fake, bot, world, command, user, **options):
    return await fake.slash(bot, command, user=user, channel=world.general, guild=world.guild,
                            **options)


def rating_field(embed) -> str:
    return next(f["value"] for f in embed.get("fields", []) if f["name"] == "Rating")


async def accepted_match(fake, bot, world, db_path, alice, bob):
    """A one-round match alice invites bob to, accepted (bob's code is awaited)."""
    invited = await slash(fake, bot, world, "match", alice, rounds=1, options={"opponent": bob})
    match_id = rows(db_path, "SELECT MAX(id) FROM matches")[0][0]
    await fake.click(bot, invited.message, f"mmm:accept:{match_id}", user=bob)
    return invited, match_id


async def forfeit(fake, bot, world, db_path, quitter, other):
    """A match alice invites bob to, which ``quitter`` forfeits: its result's scoreboard."""
    await accepted_match(fake, bot, world, db_path, world.alice, world.bob)
    return scoreboard(await slash(fake, bot, world, "mastermind quit", quitter))


@pytest.mark.both_databases
async def test_a_match_played_to_its_end_moves_ratings_by_the_librarys_numbers(
        fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    invited, match_id = await accepted_match(fake_discord, bot, world, db_path, alice, bob)

    async def set_code(board, half: int, code: str, setter) -> None:
        picker = await fake_discord.click(bot, board, f"mmm:code:{match_id}:{half}",
                                          user=setter)
        opened = await tap(fake_discord, bot, picker.message, "t", setter)
        await fake_discord.submit_modal(bot, opened, {"code": code}, user=setter)

    await set_code(fake_discord.message(invited.message.id), 0, "3456", bob)
    await slash(fake_discord, bot, world, "guess", alice, code="1111")
    half = await slash(fake_discord, bot, world, "guess", alice, code="3456")  # 2 moves
    await set_code(half.messages[-1], 1, "6543", alice)
    for wrong in ("1122", "3344", "5566"):
        await slash(fake_discord, bot, world, "guess", bob, code=wrong)
    ended = await slash(fake_discord, bot, world, "guess", bob, code="6543")  # 4 moves
    board = scoreboard(ended)
    assert board["title"] == "Match over: we have a winner"
    library = PlackettLuce()
    (won,), (lost,) = library.rate([[library.rating()], [library.rating()]], ranks=[1, 2])
    stored = dict((u, (mu, sigma)) for u, mu, sigma in rows(
        db_path, "SELECT user_id, mu, sigma FROM ratings"))
    assert stored[alice.id] == pytest.approx((won.mu, won.sigma))
    assert stored[bob.id] == pytest.approx((lost.mu, lost.sigma))
    up, down = round(shown(won)), round(shown(lost))
    assert rating_field(board) == (
        f"<@{alice.id}>: 1,000 → **{up:,}** (+{up - 1000}, provisional)\n"
        f"<@{bob.id}>: 1,000 → **{down:,}** (−{1000 - down}, provisional)")

    # The board of the season, and each player's /stats with the rating and its chart.
    shown_board = await slash(fake_discord, bot, world, "leaderboard", bob, mode="rating")
    assert not shown_board.ephemeral
    embed = shown_board.embed
    assert embed["title"].startswith("Ratings · Mastermind Club · season ")
    assert embed["description"].splitlines() == [
        f"🥇 **alice** · **{up:,}** *(provisional)* · 1 game",
        f"🥈 **bob** · **{down:,}** *(provisional)* · 1 game"]
    assert embed["fields"][0]["value"] == f"🥈 **{down:,}** *(provisional)* · 1 game (of 2)"
    stats = await slash(fake_discord, bot, world, "stats", alice, options={"user": None})
    field = next(f for f in stats.embed["fields"] if f["name"] == "Rating in this server")
    assert field["value"].startswith(f"**{up:,}** *(provisional)* · #1 of 2 this season")
    assert f"Last change: +{up - 1000} <t:" in field["value"]
    assert [a["filename"] for a in stats.message.attachments] == ["rating.png"]
    assert stats.message.attachments[0]["size"] > 1000
    assert stats.embed["image"]["url"] == "attachment://rating.png"


async def test_a_forfeit_and_the_daily_cap_per_pair(fake_discord, start_bot, world, db_path,
                                                    wall_clock):
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    admin = fake_discord.member(world.guild, fake_discord.user("admin"),
                                permissions=discord.Permissions(manage_guild=True))
    changed = await slash(fake_discord, bot, world, "mastermind settings", admin, pair_cap=1)
    assert changed.ephemeral and changed.embed["description"] == (
        "Changed: rated games per pair a day.")
    # Alice forfeits: bob is first, alice last.
    first = await forfeit(fake_discord, bot, world, db_path, alice, bob)
    library = PlackettLuce()
    (won,), (lost,) = library.rate([[library.rating()], [library.rating()]], ranks=[1, 2])
    lines = rating_field(first).splitlines()  # the winner first
    assert lines[0].startswith(f"<@{bob.id}>: 1,000 → **{round(shown(won)):,}** (+")
    assert lines[1].startswith(f"<@{alice.id}>: 1,000 → **{round(shown(lost)):,}** (−")
    # The second match between them today is not rated, and says why.
    second = await forfeit(fake_discord, bot, world, db_path, bob, alice)
    assert rating_field(second).splitlines() == [
        f"<@{alice.id}>: {round(shown(lost)):,} · not rated: today's limit of rated games "
        "against the same players is reached",
        f"<@{bob.id}>: {round(shown(won)):,} · not rated: today's limit of rated games "
        "against the same players is reached"]  # alice won this one: first
    assert rows(db_path, "SELECT games FROM ratings ORDER BY user_id") == [(1,), (1,)]
    # The next UTC day counts again.
    wall_clock.advance(DAY)
    third = await forfeit(fake_discord, bot, world, db_path, bob, alice)
    assert "not rated" not in rating_field(third)
    assert rows(db_path, "SELECT games FROM ratings ORDER BY user_id") == [(2,), (2,)]


async def test_a_season_ends_and_its_standings_are_kept(fake_discord, start_bot, world,
                                                        db_path, wall_clock):
    wall_clock.now = OCTOBER
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    await forfeit(fake_discord, bot, world, db_path, bob, alice)  # alice wins October
    october = await slash(fake_discord, bot, world, "leaderboard", alice, mode="rating")
    assert october.embed["title"].endswith("season 2026-10")
    wall_clock.advance(20 * DAY)  # November: nobody is rated yet
    november = await slash(fake_discord, bot, world, "leaderboard", alice, mode="rating")
    assert november.embed["title"].endswith("season 2026-11")
    assert november.embed["description"].startswith("Nobody is rated this season yet")
    await forfeit(fake_discord, bot, world, db_path, alice, bob)  # bob wins November's first
    final = await slash(fake_discord, bot, world, "leaderboard", bob, mode="rating",
                        season="2026-10")
    assert final.embed["title"].endswith("season 2026-10 (final)")
    assert final.embed["description"] == october.embed["description"]
    assert rows(db_path, "SELECT season, user_id FROM season_standings ORDER BY user_id") == [
        ("2026-10", alice.id), ("2026-10", bob.id)]
    assert rows(db_path, "SELECT DISTINCT season FROM ratings") == [("2026-11",)]
    # A season the server never had, and season: on another board: told, nothing shown.
    unknown = await slash(fake_discord, bot, world, "leaderboard", bob, mode="rating",
                          season="2025-01")
    assert unknown.ephemeral and unknown.embed["title"] == "No such season"
    assert "`2026-11`, `2026-10`" in unknown.embed["description"]
    wrong = await slash(fake_discord, bot, world, "leaderboard", bob, season="2026-10")
    assert wrong.ephemeral and wrong.embed["title"] == "Seasons are for ratings"


async def test_a_match_against_the_bot_and_a_dm_are_never_rated(fake_discord, start_bot,
                                                                world, db_path):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "match", world.alice, rounds=1)
    ended = await slash(fake_discord, bot, world, "mastermind quit", world.alice)
    assert "Rating" not in [f["name"] for f in scoreboard(ended).get("fields", [])]
    assert rows(db_path, "SELECT COUNT(*) FROM rated_games") == [(0,)]
    dm = await fake_discord.slash(bot, "leaderboard", user=world.alice.user,
                                  channel=fake_discord.dm(world.alice.user), mode="rating")
    assert dm.ephemeral and dm.embed["title"] == "Ratings are kept per server"


async def test_the_rating_boards_pages_and_forged_page_ids(fake_discord, start_bot, world,
                                                           db_path):
    bot = await start_bot()
    await forfeit(fake_discord, bot, world, db_path, world.alice, world.bob)
    board = await slash(fake_discord, bot, world, "leaderboard", world.alice, mode="rating")
    prev, nxt = board.message.custom_ids
    (top, rating), = rows(db_path, "SELECT user_id, rating FROM ratings ORDER BY rating DESC"
                                   " LIMIT 1")
    season = prev.split(":")[2]
    # the row each turns from: the page's first, its last (a deep page is not counted)
    assert prev == f"mmo:{world.guild.id}:{season}:0:prev:{rating!r}:{top}"
    assert nxt.startswith(f"mmo:{world.guild.id}:{season}:0:next:")
    assert board.message.components[0]["components"][1]["disabled"]  # one page only
    still = fake_discord.old_message(world.general, [nxt])  # as if it were enabled
    turned = await fake_discord.click(bot, still, nxt, user=world.bob)
    assert turned.ephemeral and turned.embed["title"] == board.embed["title"]
    assert "bob" in turned.embed["fields"][0]["name"]  # the clicker's own place
    # A button posted before the row was carried turns by the page's number, as it did.
    older = f"mmo:{world.guild.id}:{season}:0:next"
    again = await fake_discord.click(bot, fake_discord.old_message(world.general, [older]),
                                     older, user=world.bob)
    assert again.ephemeral and again.embed == turned.embed
    guild = world.guild.id
    forged = [f"mmo:{guild}:2026-13:0:next", f"mmo:{guild}:2026-Q5:0:next",
              f"mmo:{guild}:all:0", f"mmo:{guild}:all:0:next:1", f"mmo:{10**21}:all:0:next",
              "mmo:x:all:0:next", f"mmo:{guild}:all:{10**7}:next",
              f"mmo:{guild}:all:0:next:1000.5:{10**21}", f"mmo:{guild}:all:0:next:nan:1",
              f"mmo:{guild}:all:0:next:1.0.0:1", f"mmo:{guild}:all:0:prev:1000.5"]
    message = fake_discord.old_message(world.general, forged)
    for custom_id in forged:
        told = (await fake_discord.click(bot, message, custom_id, user=world.alice)).messages[-1]
        assert told.ephemeral and told.embed["title"] == "That button is out of date", custom_id


async def test_a_player_who_times_out_ranks_last(fake_discord, start_bot, world, db_path,
                                                 wall_clock):
    """Bob never sets his code: his late click finds the match abandoned, rated with bob
    last (a time-out ranks last) in the commit that ended it."""
    bot = await start_bot()
    alice, bob = world.alice, world.bob
    invited, match_id = await accepted_match(fake_discord, bot, world, db_path, alice, bob)
    wall_clock.advance(25 * 3600)
    late = await fake_discord.click(bot, invited.message, f"mmm:code:{match_id}:0", user=bob)
    assert late.ephemeral and late.embed["title"] == "This match expired"
    assert rows(db_path, "SELECT status FROM matches") == [("abandoned",)]
    changes = dict(rows(db_path, "SELECT user_id, place FROM rating_changes"))
    assert changes == {alice.id: 1, bob.id: 2}
    (alice_rating,), = rows(db_path, "SELECT rating FROM ratings WHERE user_id = ?", alice.id)
    assert alice_rating > 1000


async def test_next_and_prev_turn_a_deep_board_from_the_rows_shown(fake_discord, start_bot,
                                                                   world, db_path):
    """23 rated players: Next on the public board answers the clicker with page 2 (ranks
    11-20), found from page 1's last row; Next and Prev on that private page turn it."""
    from bot.core.enums import RatedKind
    from bot.features.ratings.service import Placement, RatedGame

    bot = await start_bot()
    await forfeit(fake_discord, bot, world, db_path, world.alice, world.bob)
    service = bot.get_cog("ratings").service
    for n in range(1, 4):  # three races of seven others
        players = range(100 * n, 100 * n + 7)
        async with service.db.transaction() as conn:
            await service.rate(conn, RatedGame(world.guild.id, RatedKind.RACE, 10**6 + n,
                                               tuple(Placement(u, u % 7 + 1)
                                                     for u in players)), service.clock())
    ranked = [u for (u,) in rows(db_path, "SELECT user_id FROM ratings"
                                          " ORDER BY rating DESC, user_id")]
    assert len(ranked) == 23

    def listed(embed) -> list[int]:
        """The ranks on a page past the medals (``# 11``)."""
        return [int("".join(filter(str.isdigit, line.split("**")[0])))
                for line in embed["description"].splitlines()]

    board = await slash(fake_discord, bot, world, "leaderboard", world.alice, mode="rating")
    assert board.embed["footer"]["text"].startswith("Page 1/3")
    nxt = board.message.custom_ids[1]
    assert nxt.endswith(f":{ranked[9]}")  # page 1's last row
    second = await fake_discord.click(bot, board.message, nxt, user=world.bob)
    assert second.ephemeral and second.embed["footer"]["text"].startswith("Page 2/3")
    assert listed(second.embed) == list(range(11, 21))
    third = await fake_discord.click(bot, second.message, second.message.custom_ids[1],
                                     user=world.bob)
    assert third.embed["footer"]["text"].startswith("Page 3/3")
    assert listed(third.embed) == [21, 22, 23]
    assert third.message.components[0]["components"][1]["disabled"]  # the last page
    back = await fake_discord.click(bot, third.message, third.message.custom_ids[0],
                                    user=world.bob)
    assert back.embed["description"] == second.embed["description"]
    fake_discord.assert_no_violations()
