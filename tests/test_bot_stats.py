"""Leaderboards and stats through the bot's real dispatch: what Discord shows (the /stats
and /leaderboard answers and their options, a public board paged privately by each clicker,
the forget-me prompt). The numbers, ranks, pages, periods, scopes, sizes and the rebuild are
checked at service level on both databases (``tests/test_service_stats.py``), so these run
on SQLite only."""

from __future__ import annotations

import contextlib
import datetime as dt

import dbtools
import pytest
from conftest import CHALLENGE_TURN, secret_of

from engine import score

SUNDAY_LATE = dt.datetime(2026, 11, 22, 23, 58, tzinfo=dt.UTC).timestamp()


@pytest.fixture
def league(fake_discord):
    """Two servers; alice, bob and carol play in the first, alice and dave in the second."""
    one = fake_discord.guild("One")
    two = fake_discord.guild("Two")
    users = {name: fake_discord.user(name) for name in ("alice", "bob", "carol", "dave")}
    members = {
        (one.id, name): fake_discord.member(one, users[name]) for name in ("alice", "bob", "carol")
    }
    members |= {(two.id, name): fake_discord.member(two, users[name]) for name in ("alice", "dave")}

    channels = {"one": next(iter(one.channels.values())),
                "two": next(iter(two.channels.values()))}

    class League:
        """Servers, their first channels, and members by (server, name)."""

        def __init__(self):
            self.guilds = {"one": one, "two": two}
            self.channels = channels

        def member(self, guild: str, name: str):
            return members[(self.guilds[guild].id, name)]

    return League()


def wrong(secret: str, k: int = 1) -> str:
    code = list(secret)
    code[k % 4] = str(int(code[k % 4]) % 6 + 1)
    return "".join(code)


async def play(fake, bot, league, db_path, guild, moves, **options):
    """Start a game in ``guild`` and play ``moves``: (player, "win" | "miss")."""
    channel, g = league.channels[guild], league.guilds[guild]
    starter = league.member(guild, moves[0][0])
    started = await fake.slash(bot, "mastermind new", user=starter, channel=channel, guild=g,
                               **options)
    assert not started.ephemeral, started.embed
    secret = secret_of(db_path, channel.id)
    last = None
    for k, (player, kind) in enumerate(moves):
        code = secret if kind == "win" else wrong(secret, k)
        last = await fake.slash(bot, "guess", user=league.member(guild, player),
                                channel=channel, guild=g, code=code)
        assert not last.ephemeral, last.embed
    return last


async def stats_of(fake, bot, league, viewer, guild="one", options=None):
    result = await fake.slash(bot, "stats", user=league.member(guild, viewer),
                              channel=league.channels[guild], guild=league.guilds[guild],
                              options=options or {"user": None})
    assert not result.ephemeral, result.embed
    return result.embed


def fields(embed) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


async def board(fake, bot, league, viewer, guild="one", **options):
    result = await fake.slash(bot, "leaderboard", user=league.member(guild, viewer),
                              channel=league.channels[guild], guild=league.guilds[guild],
                              **options)
    assert not result.ephemeral, result.embed
    return result


async def crack_challenge(fake, bot, league, player, secret, guild="one"):
    """A /challenge answered truthfully with the reply buttons until the bot wins."""
    started = await fake.slash(bot, "challenge", user=league.member(guild, player),
                               channel=league.channels[guild], guild=league.guilds[guild])
    message = started.message
    for _ in range(10):
        found = CHALLENGE_TURN.search(message.text)
        if not found:
            return message
        fb = score(secret, found[2])
        gid = message.custom_ids[0].split(":")[2]
        await fake.click(bot, message, f"mmc:r:{gid}:{found[1]}:{fb.black}:{fb.white}",
                         user=league.member(guild, player))
        message = fake.message(message.id)
    raise AssertionError("challenge did not end")


def rank_of(line: str) -> int:
    """A leaderboard line's rank: a medal for the top three, ``#n`` below."""
    medals = {"\N{FIRST PLACE MEDAL}": 1, "\N{SECOND PLACE MEDAL}": 2,
              "\N{THIRD PLACE MEDAL}": 3}
    return medals.get(line[0]) or int(line.split("`")[1].strip("# "))


def tables(db_path) -> dict[str, list[tuple]]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall())
                for t in ("results", "standings")}


async def test_stats_and_leaderboards_as_shown(fake_discord, start_bot, league, db_path):
    """/stats (one's own, another's), /leaderboard and its mode and period options, after a
    game two played and a challenge. The arithmetic over a longer series, ties and the
    rebuild: tests/test_service_stats.py."""
    bot = await start_bot()
    await play(fake_discord, bot, league, db_path, "one", [("alice", "miss"), ("bob", "win")])
    await crack_challenge(fake_discord, bot, league, "alice", "6543")

    alice = await stats_of(fake_discord, bot, league, "alice")
    assert alice["title"] == "Stats for alice · 4x6"
    alice = fields(alice)
    assert alice["Games played"] == "1"
    assert alice["Codes cracked"] == "0 of 1 game (0%)"
    assert alice["Won by a teammate"] == "1"
    assert "1 played" in alice["Challenges"] and "broke 1" in alice["Challenges"]
    assert alice["Daily streak"].startswith("none yet: `/daily play`")
    bob = await stats_of(fake_discord, bot, league, "alice",
                         options={"user": league.member("one", "bob")})
    assert bob["title"] == "Stats for bob · 4x6"
    assert fields(bob)["Codes cracked"] == "1 of 1 game (100%)"
    assert fields(bob)["Best game"].startswith("2 guesses (game #")  # the game's guesses

    top = (await board(fake_discord, bot, league, "carol")).embed
    assert " · One · " in top["title"]
    lines = top["description"].splitlines()
    assert len(lines) == 1 and "bob" in lines[0] and "1 cracked" in lines[0]
    assert lines[0].startswith("\N{FIRST PLACE MEDAL}")
    assert "Not on this board yet" in fields(top)["carol's rank"]
    week = (await board(fake_discord, bot, league, "bob", period="week")).embed
    assert "bob" in week["description"] and "(of 1)" in fields(week)["bob's rank"]
    # the hardest-codes board (a player counts there from 3 challenges: service level)
    hard = (await board(fake_discord, bot, league, "alice", mode="challenge")).embed
    assert hard["description"].startswith("Nobody has finished 3 challenges here")


async def test_a_public_board_is_paged_by_each_clicker_alone(fake_discord, start_bot, league,
                                                              db_path):
    """Two pages: ten players cracked in 1 guess, the eleventh in 3. The ranks and pages over
    23 players are checked at service level (tests/test_service_stats.py)."""
    bot = await start_bot()
    guild, channel = league.guilds["one"], league.channels["one"]
    players = []
    for n in range(11):
        user = fake_discord.member(guild, fake_discord.user(f"player{n:02d}"))
        players.append(user)
        await fake_discord.slash(bot, "mastermind new", user=user, channel=channel, guild=guild)
        secret = secret_of(db_path, channel.id)
        for k in range(2 if n == 10 else 0):
            await fake_discord.slash(bot, "guess", user=user, channel=channel, guild=guild,
                                     code=wrong(secret, k))
        await fake_discord.slash(bot, "guess", user=user, channel=channel, guild=guild,
                                 code=secret)
    last = players[-1]  # player10: 3 guesses, on the second page
    first = await fake_discord.slash(bot, "leaderboard", user=last, channel=channel, guild=guild)
    page1 = first.message
    assert not first.ephemeral
    assert len(page1.embed["description"].splitlines()) == 10
    assert page1.embed["footer"]["text"].startswith("Page 1/2")
    you = fields(page1.embed)["player10's rank"]
    assert "(of 11)" in you and "3.00" in you
    prev, nxt = page1.buttons
    assert prev["disabled"] and not nxt.get("disabled")

    public = page1.embed
    # Paging is the clicker's own: Next on the public board answers them alone.
    clicked = await fake_discord.click(bot, page1, nxt["custom_id"], user=last)
    assert clicked.ephemeral
    page2 = clicked.message
    assert page2.id != page1.id and fake_discord.message(page1.id).embed == public
    assert page2.embed["footer"]["text"].startswith("Page 2/2")
    assert [rank_of(line) for line in page2.embed["description"].splitlines()] == [11]
    assert page2.buttons[1].get("disabled")

    await fake_discord.click(bot, page2, page2.buttons[0]["custom_id"], user=last)
    back = fake_discord.message(page2.id)  # their private page turns
    assert back.embed["footer"]["text"].startswith("Page 1/2")
    assert fake_discord.message(page1.id).embed == public  # the public board never moved

    # Someone else paging the same public board sees their own rank, privately.
    other = await fake_discord.click(bot, page1, nxt["custom_id"], user=players[0])
    assert other.ephemeral and "player00's rank" in fields(other.message.embed)
    assert fake_discord.message(page1.id).embed == public


async def test_global_scope_over_two_servers(fake_discord, start_bot, league, db_path):
    bot = await start_bot()
    await play(fake_discord, bot, league, db_path, "one", [("alice", "win")])
    await play(fake_discord, bot, league, db_path, "two", [("dave", "miss"), ("dave", "win")])
    await play(fake_discord, bot, league, db_path, "two", [("alice", "win")])
    here = (await board(fake_discord, bot, league, "alice", "one")).embed
    assert "dave" not in here["description"]
    assert "1 cracked" in here["description"]
    everywhere = (await board(fake_discord, bot, league, "alice", "one", scope="global")).embed
    lines = everywhere["description"].splitlines()
    assert "alice" in lines[0] and "2 cracked" in lines[0]
    assert "dave" in lines[1]
    assert "all servers" in everywhere["title"]


async def test_forget_me(fake_discord, start_bot, league, db_path):
    bot = await start_bot()
    await play(fake_discord, bot, league, db_path, "one", [("alice", "miss"), ("bob", "win")])
    await play(fake_discord, bot, league, db_path, "one", [("alice", "win")])
    # A running game with one of alice's guesses in it:
    await play(fake_discord, bot, league, db_path, "one", [("alice", "miss")])

    asked = await fake_discord.slash(bot, "mastermind forget-me",
                                     user=league.member("one", "alice"),
                                     channel=league.channels["one"], guild=league.guilds["one"])
    assert asked.ephemeral and "can't be undone" in asked.embed["description"]
    prompt = asked.message
    alice_id = league.member("one", "alice").id
    done = await fake_discord.click(bot, prompt, f"mmf:yes:{alice_id}",
                                    user=league.member("one", "alice"))
    assert "deleted" in fake_discord.message(prompt.id).embed["title"]
    assert done.responded

    gone = await stats_of(fake_discord, bot, league, "alice")
    assert "hasn't finished a game" in gone["description"]
    top = (await board(fake_discord, bot, league, "bob")).embed
    assert "alice" not in top["description"] and "bob" in top["description"]
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM guesses WHERE player_id = ?",
                            (alice_id,)).fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM players WHERE user_id = ?",
                            (alice_id,)).fetchone() == (0,)
    # The running game is still playable, by anyone.
    secret = secret_of(db_path, league.channels["one"].id)
    won = await fake_discord.slash(bot, "guess", user=league.member("one", "bob"),
                                   channel=league.channels["one"], guild=league.guilds["one"],
                                   code=secret)
    assert won.embed["title"].startswith("Code broken")
    before = tables(db_path)
    await bot.services.stats.recompute()
    assert tables(db_path) == before


async def test_a_user_with_no_games(fake_discord, start_bot, league):
    bot = await start_bot()
    embed = await stats_of(fake_discord, bot, league, "carol")
    assert "hasn't finished a game at 4x6 yet" in embed["description"]
    empty = (await board(fake_discord, bot, league, "carol")).embed
    assert "Nobody has cracked a code" in empty["description"]


async def test_sizes_are_never_mixed(fake_discord, start_bot, league, db_path):
    bot = await start_bot()
    await play(fake_discord, bot, league, db_path, "one", [("alice", "win")], pegs=5, colors=8)
    await play(fake_discord, bot, league, db_path, "one", [("bob", "win")])
    classic = (await board(fake_discord, bot, league, "alice")).embed
    assert "bob" in classic["description"] and "alice" not in classic["description"]
    big = (await board(fake_discord, bot, league, "alice", size="5x8")).embed
    assert "alice" in big["description"] and "bob" not in big["description"]
    bad = await fake_discord.slash(bot, "leaderboard", user=league.member("one", "alice"),
                                   channel=league.channels["one"], guild=league.guilds["one"],
                                   size="huge")
    assert bad.ephemeral and "not a rule size" in bad.embed["description"]
    mine = await stats_of(fake_discord, bot, league, "alice")
    assert "5x8 (1)" in mine["footer"]["text"]
