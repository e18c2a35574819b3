"""Screens of the daily, the analysis, hints and settings, for docs/playing.md (run by hand).

``.venv/bin/python bench/ux_dump_daily.py OUT_DIR [--render]`` plays them through the test
suite's fake Discord, writes the payloads the bot sent (one JSON per screen, for
``../shared/ux/render.py``) and the analysis chart as the PNG the bot attaches.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

import discord  # noqa: E402
from ux_dump import Scene, cli, dump  # noqa: E402

from bot.app import MastermindBot  # noqa: E402
from bot.features.analysis.service import build_report, source_of_game  # noqa: E402
from bot.features.daily.service import secret_for  # noqa: E402
from engine import format_code  # noqa: E402


def daily_code(db: Path, bot: MastermindBot) -> str:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        (seed,), = conn.execute(
            "SELECT value FROM bot_settings WHERE name = 'daily_seed'").fetchall()
    return format_code(secret_for(seed, bot.services.daily.today()))


async def screens(scene: Scene, out: Path) -> dict[str, list[dict]]:
    alice, bob, carol = scene.players
    found: dict[str, list[dict]] = {}
    await scene.slash("mastermind new", alice)
    secret = scene.secret()
    guesses = [g for g in ("1122", "1344", "3526") if g != secret] + [secret]
    await scene.slash("guess", alice, code=guesses[0])
    hint = await scene.slash("mastermind hint", bob)
    found["hint"] = [scene.payload(hint.message)]
    for code in guesses[1:]:
        last = await scene.slash("guess", carol if code == secret else alice, code=code)
    clicked = await scene.click(last.message, "mma:g:1", bob)
    found["analysis"] = [scene.payload(clicked.message)]
    game = await scene.bot.services.games.get(1)
    assert game is not None
    (out / "analysis_chart.png").write_bytes(build_report(source_of_game(game)).chart)

    code = daily_code(scene.db, scene.bot)
    plays = ((alice, ["1122", "3456"]), (bob, ["1234"]), (carol, ["1123", "4456", "2331"]))
    for user, tries in plays:
        for guess in [t for t in tries if t != code] + [code]:
            result = await scene.slash("daily play", user, guess=guess)
    found["daily_result"] = [scene.payload(result.message)]
    shared = await scene.slash("daily share", alice)
    found["daily_share"] = [scene.payload(shared.message)]
    board = await scene.slash("daily leaderboard", alice)
    found["daily_leaderboard"] = [scene.payload(board.message)]
    return found


async def with_settings(scene: Scene, out: Path) -> dict[str, list[dict]]:
    """The screens above, then an admin changing the server's settings."""
    found = await screens(scene, out)
    admin = scene.fake.member(scene.guild, scene.fake.user("admin"),
                              permissions=discord.Permissions(manage_guild=True))
    scene.players.append(admin)
    changed = await scene.slash("mastermind settings", admin, hints=False, idle_hours=12.0)
    found["settings"] = [scene.payload(changed.message)]
    return found


if __name__ == "__main__":
    cli(lambda out: dump(out, (lambda scene: with_settings(scene, out),)))
