"""Play a match through the test suite's fake Discord and dump the screens players see.

Run by hand: ``.venv/bin/python bench/ux_match.py OUT_DIR [--render]`` writes one JSON file
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

from picking import button
from ux_dump import Scene, cli, dump

from engine import Feedback, SolverSession, code_from_digits, score
from engine.rules import Rules


def _running(db: Path) -> sqlite3.Row:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute("SELECT * FROM games WHERE status = 'active'").fetchone()


def _bot_guess(db: Path, game: sqlite3.Row) -> str:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        replies = conn.execute("SELECT guess, black, white FROM challenge_replies WHERE game_id"
                               " = ? AND taken_back_at IS NULL ORDER BY turn",
                               (game["id"],)).fetchall()
    rules = Rules(game["pegs"], game["colors"], game["max_guesses"], bool(game["repeats"]))
    session = SolverSession.restore(rules, game["strategy"], [
        (code_from_digits(g), Feedback(b, w)) for g, b, w in replies], seed=game["seed"])
    return "".join(map(str, session.next_guess()))


async def against_the_bot(scene: Scene) -> dict[str, list[dict]]:
    alice = scene.players[0]
    await scene.slash("match", alice, rounds=2)
    screens = {"match_start": scene.channel()}
    secret = scene.secret()
    await scene.slash("guess", alice, code="1122" if secret != "1122" else "3344")
    done = await scene.slash("guess", alice, code=secret)
    screens["match_half"] = [scene.payload(m) for m in done.messages[-2:]]
    for _ in range(10):
        game = _running(scene.db)
        if game is None or game["kind"] != "challenge":
            break
        fb = score("3632", _bot_guess(scene.db, game))
        board = scene.fake.message(game["board_message_id"])
        last = await scene.click(board, f"mmc:r:{game['id']}:{_turn(scene.db, game)}:"
                                        f"{fb.black}:{fb.white}", alice)
    screens["match_round_two"] = [scene.payload(m) for m in last.messages[-2:]]
    for code in ("1111", "2222", "3333"):
        if code != scene.secret():
            await scene.slash("guess", alice, code=code)
    quit_ = await scene.slash("mastermind quit", alice)
    screens["match_forfeit"] = [scene.payload(quit_.message)]
    return screens


def _turn(db: Path, game: sqlite3.Row) -> int:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT COUNT(*) FROM challenge_replies WHERE game_id = ? AND"
                            " taken_back_at IS NULL", (game["id"],)).fetchone()[0] + 1


async def set_code(scene: Scene, scoreboard, custom_id: str, code: str, user):
    """Set my code: the picker only the setter sees, the colours tapped in, then submit.
    Returns the picker (now saying the code is set)."""
    picker = (await scene.fake.click(scene.bot, scoreboard, custom_id, user=user)).message
    for digit in code:
        await scene.fake.click(scene.bot, picker, button(picker, digit)["custom_id"], user=user)
        picker = scene.fake.message(picker.id)
    await scene.fake.click(scene.bot, picker, button(picker, "s")["custom_id"], user=user)
    return picker


async def two_people(scene: Scene) -> dict[str, list[dict]]:
    alice, bob = scene.players[:2]
    invited = await scene.slash("match", alice, rounds=1, options={"opponent": bob})
    screens = {"match_invitation": [scene.payload(invited.message)]}
    match_id = invited.message.custom_ids[0].split(":")[2]
    await scene.click(invited.message, f"mmm:accept:{match_id}", bob)
    screens["match_set_code"] = [scene.payload(invited.message)]
    picker = await set_code(scene, invited.message, f"mmm:code:{match_id}:0", "3456", bob)
    screens["match_code_set"] = [scene.payload(picker)]
    await scene.slash("guess", alice, code="1234")
    half = await scene.slash("guess", alice, code="3456")
    await set_code(scene, half.messages[-1], f"mmm:code:{match_id}:1", "6543", alice)
    for code in ("1122", "3344", "5566"):
        await scene.slash("guess", bob, code=code)
    final = await scene.slash("guess", bob, code="6543")
    screens["match_people_final"] = [scene.payload(final.messages[-1])]
    return screens


if __name__ == "__main__":
    cli(lambda out: dump(out, (against_the_bot, two_people)))
