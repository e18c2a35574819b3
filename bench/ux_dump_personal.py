"""The personal screens in German and Japanese, through the fake Discord: the daily (board,
share, day's leaderboard), /stats and /leaderboard, a puzzle, the settings summary, and the
analysis with its chart.

Run by hand: ``.venv/bin/python bench/ux_dump_personal.py /tmp/ux/personal --render`` (see
``bench/ux_dump.py``); the charts are written beside the screens as ``chart_<locale>.png``.
"""

from __future__ import annotations

import contextlib
import io
import sqlite3
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent)]

import discord  # noqa: E402
from ux_dump import Scene, _wrong, cli, dump  # noqa: E402

from bot.features.analysis.service import build_report, source_of_game  # noqa: E402
from bot.features.daily.service import secret_for  # noqa: E402
from engine import format_code  # noqa: E402
from i18n import catalog_locale, speaking  # noqa: E402

LOCALES = ("de", "ja")


def _one(db: Path, sql: str) -> str:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return conn.execute(sql).fetchone()[0]


def personal(locale: str, out: Path):
    async def play(scene: Scene) -> dict[str, list[dict]]:
        alice, bob, carol = scene.players
        scene.guild.locale = locale
        for player in scene.players:
            player.user.locale = locale
        seed = _one(scene.db, "SELECT value FROM bot_settings WHERE name = 'daily_seed'")
        secret = format_code(secret_for(seed, scene.bot.services.daily.today()))
        screens: dict[str, list[dict]] = {}

        first = await scene.slash("daily play", alice, guess=_wrong(secret, 0))
        screens[f"daily_running_{locale}"] = [scene.payload(first.message)]
        await scene.slash("daily play", alice, guess=_wrong(secret, 2))
        won = await scene.slash("daily play", alice, guess=secret)
        await scene.slash("daily play", bob, guess=secret)
        misses = [c for c in ("1111", "2222", "3333", "4444", "5555", "6666", "1212", "3434",
                              "5656", "1313") if c != secret]
        for code in misses[:9]:  # carol runs out of guesses: the code wins
            await scene.slash("daily play", carol, guess=code)
        shared = await scene.slash("daily share", alice)
        day_board = await scene.slash("daily leaderboard", bob)
        screens[f"daily_won_{locale}"] = [scene.payload(won.message)]
        screens[f"daily_public_{locale}"] = [scene.payload(shared.message),
                                             scene.payload(day_board.message)]

        for round_ in range(3):
            for i, player in enumerate(scene.players):
                await scene.slash("mastermind new", player)
                code = scene.secret()
                for k in range((i + round_) % 3 + 1):
                    await scene.slash("guess", player, code=_wrong(code, k))
                await scene.slash("guess", player, code=code)
        stats = await scene.slash("stats", alice, options={"user": None})
        board = await scene.slash("leaderboard", bob)
        screens[f"stats_{locale}"] = [scene.payload(stats.message)]
        screens[f"leaderboard_{locale}"] = [scene.payload(board.message)]

        today = await scene.slash("puzzle today", alice)
        screens[f"puzzle_open_{locale}"] = [scene.payload(today.message)]
        answer = _one(scene.db, "SELECT answer FROM puzzle_plays ORDER BY id DESC LIMIT 1")
        missed = await scene.slash("puzzle answer", alice, code=_wrong(answer, 1))
        screens[f"puzzle_missed_{locale}"] = [scene.payload(missed.message)]

        admin = scene.fake.member(scene.guild, scene.fake.user("admin"),
                                  permissions=discord.Permissions(manage_guild=True))
        admin.user.locale = locale
        await scene.slash("mastermind settings", admin, hints=False)
        summary = await scene.slash("mastermind settings", admin, language="ko")
        screens[f"settings_{locale}"] = [scene.payload(summary.message)]

        analysed = await scene.click(won.message, won.message.custom_ids[0], alice)
        screens[f"analysis_{locale}"] = [scene.payload(analysed.messages[-1])]
        game = await scene.bot.services.games.get(int(_one(scene.db, "SELECT MAX(id) FROM games")))
        assert game is not None
        with speaking(catalog_locale(locale)):
            report = build_report(source_of_game(game))
        out.mkdir(parents=True, exist_ok=True)
        (out / f"chart_{locale}.png").write_bytes(io.BytesIO(report.chart).getvalue())
        return screens

    return play


if __name__ == "__main__":
    cli(lambda out: dump(out, [personal(locale, out) for locale in LOCALES]))
