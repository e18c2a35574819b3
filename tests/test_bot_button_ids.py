"""Every kind of persistent button reads its custom_id strictly: exactly the parts its action
needs, none defaulted, none extra, each in range. Anything else, aimed at a live game, a
live match or a real player, is told "out of date" and changes nothing. Through the real
dispatch, on both databases."""

from __future__ import annotations

import contextlib

import dbtools
from test_bot_challenge import game_id, pending, start

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
