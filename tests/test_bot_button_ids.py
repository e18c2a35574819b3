"""Every kind of persistent button reads its custom_id strictly: exactly the parts its action
needs, none defaulted, none extra, each in range. Anything else, aimed at a live game, a
live match or a real player, is told "out of date" and changes nothing. Through the real
dispatch, on both databases."""

from __future__ import annotations

import contextlib
from typing import ClassVar

import dbtools
import discord
import pytest
from test_bot_challenge import game_id, pending, start

from bot.ui.buttons import ReportingButton, unknown_button

HUGE = "99999999999999999999"  # past 2^63


def every_row(db_path) -> dict[str, list]:
    """Every row of every table: a refused click must leave all of them as they were."""
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return {table: [tuple(r) for r in conn.execute(f"SELECT * FROM {table}").fetchall()]
                for table in sorted(dbtools.table_names(db_path))}


def forged_ids(gid: int, match_id: int, alice: int, guild: int, turn: int) -> list[str]:
    """Ids one part short, one part long, or out of range, for each button kind, aimed at
    the running challenge ``gid`` (on ``turn``), the invitation ``match_id``, a player."""
    return [
        # challenge replies: white missing, both missing, one extra, huge, past 8 pegs, turn 0
        f"mmc:r:{gid}:{turn}:0", f"mmc:r:{gid}:{turn}", f"mmc:r:{gid}:{turn}:0:1:0",
        f"mmc:r:{gid}:{turn}:0:{HUGE}", f"mmc:r:{gid}:{turn}:9:0", f"mmc:r:{gid}:0:0:1",
        f"mmc:r:{gid}:{HUGE}:0:1", f"mmc:r:{HUGE}:{turn}:0:1", f"mmc:r:{gid}:21:0:1",
        # the two-step reply, its way back, take-back, reveal, play again
        f"mmc:b:{gid}:{turn}", f"mmc:b:{gid}:{turn}:0:0", f"mmc:b:{gid}:{turn}:9",
        f"mmc:back:{gid}", f"mmc:back:{gid}:{turn}:0", f"mmc:undo:{gid}",
        f"mmc:undo:{gid}:{turn}:1", f"mmc:reveal:{gid}:{turn}", f"mmc:again:{gid}:1",
        f"mmc:r::{turn}:0:1", f"mmc:r:{gid}:{turn}:0:1:",
        # a match invitation and its code button
        f"mmm:accept:{match_id}:1", f"mmm:decline:{match_id}:0", f"mmm:code:{match_id}",
        f"mmm:code:{match_id}:0:1", f"mmm:accept:{HUGE}", f"mmm:decline:{match_id}:{HUGE}",
        # forget-me, leaderboard pages, play again, analyse
        f"mmf:yes:{alice}:1", f"mmf:yes:{alice}:", f"mmf:yes:{HUGE}", "mmf:yes",
        f"mml:breaker:{guild}:all:4x6:0:next:1", f"mml:breaker:{guild}:all:4x6:next",
        f"mml:breaker:{guild}:all:4x6:{HUGE}:next", f"mml:breaker:{HUGE}:all:4x6:0:next",
        f"mmb:again:{gid}:1", "mmb:again", f"mmb:again:{HUGE}",
        f"mma:g:{gid}:1", "mma:g", f"mma:g:{HUGE}", "mma:d:2026-01-01:1", "mma:d",
        # a race's join, start, board and leave
        "mmr:join:1:2", "mmr:join", f"mmr:start:{HUGE}", "mmr:board:0", "mmr:leave:x",
        "mmr:fly:1",
    ]


async def test_every_button_kind_refuses_ids_with_missing_extra_or_huge_parts(
        fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    board = (await start(fake_discord, bot, world)).message
    gid, (turn, _) = game_id(board), pending(board)
    invited = await fake_discord.slash(bot, "match", user=world.bob, channel=world.other,
                                       guild=world.guild, opponent=world.alice)
    match_id = int(invited.message.custom_ids[0].split(":")[2])
    before = every_row(db_path)
    forged = forged_ids(gid, match_id, world.alice.id, world.guild.id, turn)
    for k in range(0, len(forged), 25):  # at most 25 buttons to a message
        message = fake_discord.old_message(world.general, forged[k:k + 25])
        for custom_id in forged[k:k + 25]:
            result = await fake_discord.click(bot, message, custom_id, user=world.alice)
            told = result.messages[-1]
            assert told.ephemeral and told.embed["title"] == "That button is out of date", (
                custom_id, told.embed)
            assert "Nothing was changed" in told.embed["description"]
    assert every_row(db_path) == before
    fake_discord.assert_no_violations()

    # The ids the bot itself made still work: the reply with both counts is stored as given.
    offered = next(c for c in board.custom_ids if c.startswith(f"mmc:r:{gid}:{turn}:"))
    *_, black, white = offered.split(":")
    clicked = await fake_discord.click(bot, board, offered, user=world.alice)
    assert not clicked.ephemeral, clicked.embed
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        stored = conn.execute("SELECT turn, black, white FROM challenge_replies").fetchall()
    assert [tuple(r) for r in stored] == [(turn, int(black), int(white))]


class _LaterButton(ReportingButton, prefix="mmy"):
    """A kind of button registered after start-up, as a feature loaded later would."""

    clicked: ClassVar[list[str]] = []

    def __init__(self, body: str = "x") -> None:
        super().__init__(discord.ui.Button(label="y", custom_id=f"mmy:{body}"))
        self.body = body

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(match["body"])

    async def run(self, interaction: discord.Interaction) -> None:
        self.clicked.append(self.body)
        await interaction.response.send_message("later", ephemeral=True)


async def click_old(fake_discord, bot, world, custom_id: str):
    old = fake_discord.old_message(world.general, [custom_id])
    return await fake_discord.click(bot, old, custom_id, user=world.alice)


async def test_a_prefix_no_registered_button_owns_is_out_of_date(fake_discord, start_bot,
                                                                 world):
    """The unknown-button template is built from the registered buttons' prefixes: each
    feature's prefix reaches its own button only, any other ``mm`` prefix (an older
    version's, or one a feature gives up) is told out of date, once."""
    bot = await start_bot()
    _LaterButton.clicked.clear()  # run once per database
    owned = {"mma", "mmb", "mmc", "mmf", "mmh", "mml", "mmm", "mmo", "mmp", "mmr", "mmz"}
    assert bot.button_prefixes == owned
    for custom_id in ("mmq:1", "mmd:share:1", "mms:x", "mm:1", "mmcc:r:1:1:0:0"):
        told = (await click_old(fake_discord, bot, world, custom_id)).messages[-1]
        assert told.ephemeral and told.embed["title"] == "That button is out of date", custom_id

    bot.add_dynamic_items(_LaterButton)
    answered = await click_old(fake_discord, bot, world, "mmy:1")
    assert answered.ephemeral and answered.content == "later"
    assert _LaterButton.clicked == ["1"]
    bot.remove_dynamic_items(_LaterButton)
    told = (await click_old(fake_discord, bot, world, "mmy:2")).messages[-1]
    assert told.embed["title"] == "That button is out of date"
    assert _LaterButton.clicked == ["1"]
    fake_discord.assert_no_violations()  # every click answered exactly once


def test_a_button_names_one_prefix_of_ours():
    with pytest.raises(TypeError):
        type("Bad", (ReportingButton,), {}, prefix="xy")
    with pytest.raises(TypeError):
        type("Neither", (ReportingButton,), {})
    assert unknown_button({"mma", "mmb"}).__discord_ui_compiled_template__.pattern == (
        r"(?!(?:mma|mmb):)mm[a-z]*:.*")
