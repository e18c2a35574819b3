"""Play a race through the test suite's fake Discord and dump the screens players see.

Run by hand: ``.venv/bin/python bench/ux_race.py OUT_DIR [--render]`` writes one JSON file
per screen (the payloads the bot sent) for ``../shared/ux/render.py``; ``--render`` also
screenshots them (desktop and phone, Twemoji). Uses ``bench/ux_dump.py``'s scene.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ux_dump import Scene, cli, dump


def _race(db: Path) -> tuple[int, str]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT id, secret FROM races ORDER BY id DESC LIMIT 1").fetchone()


def _miss(secret: str, nth: int) -> str:
    first = (int(secret[0]) + nth) % 6 + 1
    code = str(first) + secret[1:]
    return code if code != secret else str(first % 6 + 1) + secret[1:]


async def race(scene: Scene) -> dict[str, list[dict]]:
    alice, bob, carol = scene.players
    opened = await scene.slash("race", alice, max_guesses=4)
    board = opened.message
    race_id, secret = _race(scene.db)
    await scene.click(board, f"mmr:join:{race_id}", bob)
    await scene.click(board, f"mmr:join:{race_id}", carol)
    screens = {"race_lobby": [scene.payload(board)]}
    await scene.click(board, f"mmr:start:{race_id}", alice)
    mine = await scene.click(board, f"mmr:board:{race_id}", bob)
    await scene.slash("guess", bob, code=_miss(secret, 0))
    await scene.slash("guess", alice, code=_miss(secret, 1))
    shown = await scene.slash("guess", alice, code=secret)
    screens["race_own_board"] = [scene.payload(mine.message), scene.payload(shown.message)]
    await scene.bot.rest_budget.settled(5)
    screens["race_standings"] = [scene.payload(board)]
    for nth in (2, 3, 4):
        await scene.slash("guess", bob, code=_miss(secret, nth))
    await scene.click(board, f"mmr:leave:{race_id}", carol)
    await scene.fake.wait_until(lambda: len(scene.channel()) > 1, what="the result")
    await scene.bot.rest_budget.settled(5)
    screens["race_result"] = [p for p in scene.channel() if not p.get("flags", 0) & 64][-2:]
    return screens


async def race_left_out(scene: Scene) -> dict[str, list[dict]]:
    """bob started a private game after joining: the start leaves him out, and says so."""
    alice, bob, carol = scene.players
    opened = await scene.slash("race", alice, max_guesses=4)
    board = opened.message
    race_id, _ = _race(scene.db)
    for racer in (bob, carol):
        await scene.click(board, f"mmr:join:{race_id}", racer)
    await scene.slash("mastermind new", bob, private=True)
    since = board.id
    await scene.click(board, f"mmr:start:{race_id}", alice)
    public = [p for p in scene.channel(since=since) if not p.get("flags", 0) & 64]
    return {"race_left_out": [scene.payload(board), *public]}


if __name__ == "__main__":
    cli(lambda out: dump(out, (race, race_left_out)))
