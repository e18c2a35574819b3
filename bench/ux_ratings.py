"""Play rated matches through the test suite's fake Discord and dump the rating screens.

Run by hand: ``.venv/bin/python bench/ux_ratings.py OUT_DIR [--render]`` writes one JSON
file per screen (a rated match's result, ``/leaderboard mode:rating``, ``/stats`` with the
rating, the settings summary) for ``../shared/ux/render.py``; ``--render`` also screenshots
them. The renderer doesn't draw attached images: the rating chart is written beside them as
``ratings_chart.png``, drawn by the bot's own function from the same history.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import discord
from ux_dump import Scene, cli, dump
from ux_match import two_people

from bot.features.ratings.chart import rating_chart


async def ratings(scene: Scene) -> dict[str, list[dict]]:
    screens = await two_people(scene)  # alice beats bob, 2 moves to 4: rated
    screens = {"ratings_match_result": screens["match_people_final"]}
    alice, bob, carol = scene.players[:3]
    names = ("dora", "eve", "frank", "grace", "heidi", "ivan", "judy", "mallory")
    others = [scene.fake.member(scene.guild, scene.fake.user(n)) for n in names]
    scene.players.extend(others)
    for n, player in enumerate([carol, *others]):  # each invites someone, one forfeits
        opponent = (alice, bob)[n % 2]
        invited = await scene.slash("match", player, rounds=1, options={"opponent": opponent})
        match_id = invited.message.custom_ids[0].split(":")[2]
        await scene.click(invited.message, f"mmm:accept:{match_id}", opponent)
        quitter = player if n % 3 else opponent
        last = await scene.slash("mastermind quit", quitter)
    screens["ratings_forfeit"] = [scene.payload(last.message)]
    board = await scene.slash("leaderboard", bob, mode="rating")
    screens["ratings_board"] = [scene.payload(board.message)]
    stats = await scene.slash("stats", alice, options={"user": None})
    screens["ratings_stats"] = [scene.payload(stats.message)]
    admin = scene.fake.member(scene.guild, scene.fake.user("admin"),
                              permissions=discord.Permissions(manage_guild=True))
    changed = await scene.slash("mastermind settings", admin, seasons="quarterly", pair_cap=2)
    screens["ratings_settings"] = [scene.payload(changed.message)]
    card = await scene.bot.services.ratings.card(scene.guild.id, alice.id)
    assert card is not None
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    (out / "ratings_chart.png").write_bytes(rating_chart(
        [c.after for c in card.history if c.after is not None], 4))
    return screens


if __name__ == "__main__":
    cli(lambda out: dump(out, (ratings,)))
