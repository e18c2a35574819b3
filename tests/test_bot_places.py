"""Every command in every place Discord offers it: a server that added the bot, a server
reached through a player's own install (the bot is not a member), the bot's DM, and a group
DM; and the places it is not offered.

Through the real dispatch (the fake Discord enforces contexts, installs, 403 code 50001 for
channel messages where the bot is not a member, 5 follow-ups there, and answers turned
ephemeral without USE_EXTERNAL_APPS) and a real database, SQLite and PostgreSQL. Any broken
rule fails the test at teardown.
"""

from __future__ import annotations

import discord
import pytest
from conftest import secret_of
from fake_discord import InvalidInteraction
from picking import pick, tap
from test_bot_challenge import pending
from test_bot_private import private_secret, rows

from engine import format_code, score

PLACES = ("server", "elsewhere", "dm", "group")


class Place:
    """Who acts (alice, who installed the app to her account too) and where."""

    def __init__(self, fake, world, name: str):
        self.fake, self.name = fake, name
        self.alice = fake.user_install(world.alice.user)
        self.bob = world.bob.user
        if name == "server":
            self.where = {"channel": world.general, "guild": world.guild}
        elif name == "elsewhere":
            outside = fake.guild("Elsewhere", installed=False)
            fake.member(outside, self.alice)
            self.where = {"channel": next(iter(outside.channels.values())), "guild": outside}
        elif name == "group":
            self.where = {"channel": fake.group_dm(self.alice, self.bob, name="friends")}
        else:
            self.where = {}
        self.owner = world.guild.members[world.guild.owner_id] if name == "server" else None

    @property
    def channel_id(self) -> int:
        channel = self.where.get("channel")
        return channel.id if channel is not None else self.fake.dm(self.alice).id

    async def run(self, bot, command: str, user=None, **options):
        return await self.fake.slash(bot, command, user=user or self.alice, **self.where,
                                     **options)


@pytest.fixture(params=PLACES)
def place(request, fake_discord, world) -> Place:
    return Place(fake_discord, world, request.param)


def title(result) -> str:
    return result.messages[-1].embed["title"] if result.messages[-1].embeds else ""


async def test_games_everywhere(fake_discord, start_bot, place, db_path):
    """/mastermind new, /guess, board, hint, quit, help; a DM game is private."""
    bot = await start_bot()
    private = place.name == "dm"
    assert (await place.run(bot, "mastermind help")).ephemeral
    started = await place.run(bot, "mastermind new")
    assert started.ephemeral is private and "break the code" in title(started)
    secret = (private_secret(db_path, place.alice) if private
              else secret_of(db_path, place.channel_id))
    wrong = str(int(secret[0]) % 6 + 1) + secret[1:]
    first = await place.run(bot, "guess", code=wrong)
    assert first.ephemeral is private and "9 of 10" in first.embed["footer"]["text"]
    second = await place.run(bot, "guess", code=str(int(secret[0]) % 6 + 1) + "666")
    if place.name in ("elsewhere", "group"):
        # the bot can't edit there: the older board stays whole (nothing tried, nothing 403)
        board = fake_discord.message(first.message.id)
        assert board.embeds and board.revision == 0
    board = await place.run(bot, "mastermind board")
    assert board.ephemeral is private and board.embed["footer"]["text"].startswith(
        "Private game #" if private else "Game #")
    hint = await place.run(bot, "mastermind hint")
    if private:
        assert hint.ephemeral and title(hint) == "Not here"
    else:
        assert not hint.ephemeral and "codes" in str(hint.embed)
    ended = await place.run(bot, "mastermind quit")
    assert ended.ephemeral is private and secret in ended.embed["description"]
    assert rows(db_path, "SELECT private, status FROM games") == [(int(private), "quit")]
    assert not second.errors


async def test_challenges_everywhere(fake_discord, start_bot, place, db_path):
    """/challenge and /feedback (private in a DM), and its buttons."""
    bot = await start_bot()
    private = place.name == "dm"
    started = await place.run(bot, "challenge")
    board = started.message
    assert board.ephemeral is private
    turn, guess = pending(board)
    fb = score("3632", guess)
    answered = await place.run(bot, "feedback", black=fb.black, white=fb.white)
    assert answered.message.ephemeral is private
    assert pending(answered.message)[0] == turn + 1
    ended = await place.run(bot, "mastermind quit")
    assert ended.ephemeral is private
    assert rows(db_path, "SELECT kind, private, status FROM games") == [
        ("challenge", int(private), "quit")]


async def test_a_code_set_for_the_channel(fake_discord, start_bot, place, db_path):
    """/mastermind new setter:me: a peg picker only the setter sees, then a shared game; not
    in the bot's DM."""
    bot = await start_bot()
    asked = await place.run(bot, "mastermind new", setter="me")
    if place.name == "dm":
        assert asked.ephemeral and title(asked) == "Not here"
        return
    picker = asked.message
    assert picker.ephemeral and "Your secret code" in picker.content
    picker, _ = await pick(fake_discord, bot, picker, "1234", place.alice)
    set_ = await tap(fake_discord, bot, picker, "s", place.alice)
    board, = set_.followups
    assert not board.ephemeral and "set a secret code" in board.embed["description"]
    assert rows(db_path, "SELECT setter_id, private FROM games") == [(place.alice.id, 0)]


async def test_matches_where_they_are_offered(fake_discord, start_bot, place, db_path):
    """/match against the bot; not offered in the bot's DM."""
    bot = await start_bot()
    if place.name == "dm":
        with pytest.raises(InvalidInteraction, match="not offered in a DM with the bot"):
            await place.run(bot, "match", options={"opponent": None})
        return
    started = await place.run(bot, "match", options={"opponent": None}, rounds=1)
    assert not started.ephemeral and "Match" in str(started.embed)
    assert len(started.messages) == 2  # the scoreboard, then the first half-round's board
    secret = secret_of(db_path, place.channel_id)
    won = await place.run(bot, "guess", code=secret)  # the half ends: score and next board
    assert len(won.followups) <= 5 and not won.errors
    quit_ = await place.run(bot, "mastermind quit")
    assert not quit_.ephemeral
    assert rows(db_path, "SELECT status FROM matches") == [("forfeit",)]


async def test_boards_stats_daily_and_data_everywhere(fake_discord, start_bot, place, db_path):
    """/leaderboard (all servers outside one), /stats, /daily, forget-me, settings."""
    bot = await start_bot()
    board = await place.run(bot, "leaderboard")
    expected = "all servers" if place.name in ("dm", "group") else (
        "Mastermind Club" if place.name == "server" else "this server")
    assert f"· {expected} ·" in board.embed["title"]
    stats = await place.run(bot, "stats", options={"user": None})
    assert stats.embed["title"].startswith("Stats for alice")
    day = bot.services.daily.today()
    played = await place.run(bot, "daily play", guess=format_code(bot.services.daily.secret(day)))
    assert played.ephemeral and "broken in 1 guess" in played.embed["title"]
    shared = await place.run(bot, "daily share")
    assert "1/10" in (shared.content or "")
    assert shared.ephemeral is False
    today = await place.run(bot, "daily leaderboard")
    assert "alice" in str(today.embed)
    forget = await place.run(bot, "mastermind forget-me")
    assert forget.ephemeral
    cancelled = await fake_discord.click(bot, forget.message, label="Cancel", user=place.alice)
    assert title(cancelled) == "Nothing was deleted"
    if place.name == "server":
        settings = await place.run(bot, "mastermind settings", user=place.owner)
        assert settings.ephemeral and "settings" in title(settings).lower()
    else:
        refused = await place.run(bot, "mastermind settings")
        assert refused.ephemeral and title(refused) == "Not here"
        assert "belong to a server that added the bot" in refused.embed["description"]
    assert rows(db_path, "SELECT COUNT(*) FROM settings_log") == [(0,)]


async def test_nothing_is_offered_where_the_app_is_not_installed(fake_discord, start_bot,
                                                                 world):
    bot = await start_bot()
    bob = world.bob.user  # bob did not install the app to his account
    group = fake_discord.group_dm(bob, world.alice.user)
    outside = fake_discord.guild("Elsewhere", installed=False)
    for command in ("mastermind new", "guess", "challenge", "leaderboard", "daily play"):
        for where in ({"channel": group}, {"guild": outside}):
            with pytest.raises(InvalidInteraction, match="integration_types"):
                await fake_discord.slash(bot, command, user=bob, **where,
                                         **({"code": "1234"} if command == "guess" else {}))


async def test_a_server_that_turns_answers_ephemeral(fake_discord, start_bot, world, db_path):
    """Without USE_EXTERNAL_APPS a member's own apps answer them alone: shared games can't
    work there and say why; private games and the rest still work."""
    bot = await start_bot()
    alice = fake_discord.user_install(world.alice.user)
    strict = discord.Permissions(view_channel=True, send_messages=True,
                                 use_application_commands=True)
    outside = fake_discord.guild("Strict", installed=False, everyone_permissions=strict)
    where = {"guild": outside, "user": alice}
    for command, options in (("mastermind new", {}), ("challenge", {}),
                             ("match", {"options": {"opponent": None}})):
        refused = await fake_discord.slash(bot, command, **where, **options)
        assert refused.ephemeral and title(refused) == "Not here"
        assert "could only be seen by you" in refused.embed["description"]
    assert rows(db_path, "SELECT COUNT(*) FROM games") == [(0,)]
    own = await fake_discord.slash(bot, "mastermind new", **where, private=True)
    assert own.ephemeral and "your private game, seen by you alone" in own.embed["description"]
    won = await fake_discord.slash(bot, "guess", **where,
                                   code=private_secret(db_path, alice))
    assert won.ephemeral and won.embed["title"] == "Code broken in 1 guess!"
    board = await fake_discord.slash(bot, "leaderboard", **where, mode="private")
    assert board.ephemeral and "alice" in board.embed["description"]  # asked public
    # paging from a board Discord turned ephemeral turns that page (one page: a copy's button)
    next_page = board.message.component(label="Next ▶")["custom_id"]
    paged = await fake_discord.click(bot, fake_discord.old_message(world.general, [next_page]),
                                     next_page, user=alice)
    assert paged.ephemeral and "Private games" in paged.embed["title"]
    await fake_discord.slash(bot, "daily play", **where,
                             guess=format_code(bot.services.daily.secret(bot.services.daily.today())))
    shared = await fake_discord.slash(bot, "daily share", **where)  # asked public
    assert shared.ephemeral and "1/10" in (shared.content or "")
