"""The peg picker's screens, played with taps through the test suite's fake Discord.

Run by hand: ``.venv/bin/python bench/ux_picker.py OUT_DIR [--render]`` writes one JSON file
per screen (the payloads the bot sent, in channel order; the picker is the private message
at the bottom) for ``../shared/ux/render.py``; ``--render`` screenshots them (desktop and
phone, Twemoji). Uses ``bench/ux_dump.py``'s scene.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from picking import button, open_picker  # noqa: E402
from ux_dump import Scene, cli, dump  # noqa: E402


async def taps(scene: Scene, picker, code: str, user):
    for digit in code:
        await scene.fake.click(scene.bot, picker, button(picker, digit)["custom_id"], user=user)
        picker = scene.fake.message(picker.id)
    return picker


async def guessing(scene: Scene) -> dict[str, list[dict]]:
    alice, bob = scene.players[:2]
    started = await scene.slash("mastermind new", alice)
    board = started.message
    screens = {"picker_board": [scene.payload(board)]}
    _, picker = await open_picker(scene.fake, scene.bot, board, alice)
    screens["picker_empty"] = [scene.payload(board), scene.payload(picker)]
    picker = await taps(scene, picker, "123", alice)
    screens["picker_three"] = [scene.payload(board), scene.payload(picker)]
    secret = scene.secret()
    last = "4" if secret[:3] + "4" != secret else "5"
    picker = await taps(scene, picker, last, alice)
    screens["picker_full"] = [scene.payload(board), scene.payload(picker)]
    await scene.fake.click(scene.bot, picker, button(picker, "s")["custom_id"], user=alice)
    screens["picker_sent"] = scene.channel(since=board.id - 1)
    await scene.slash("mastermind quit", alice)
    started = await scene.slash("mastermind new", bob, pegs=8, colors=9, repeats=False)
    _, picker = await open_picker(scene.fake, scene.bot, started.message, bob)
    picker = await taps(scene, picker, "3157", bob)
    screens["picker_8x9"] = [scene.payload(started.message), scene.payload(picker)]
    return screens


async def codes(scene: Scene) -> dict[str, list[dict]]:
    """A code set for the channel, a challenge's reveal, the daily played in place."""
    alice, bob = scene.players[:2]
    opened = await scene.slash("mastermind new", alice, setter="me")
    picker = await taps(scene, opened.message, "65", alice)
    screens = {"picker_setter": [scene.payload(picker)]}
    picker = await taps(scene, picker, "43", alice)
    await scene.fake.click(scene.bot, picker, button(picker, "s")["custom_id"], user=alice)
    screens["picker_setter_done"] = scene.channel()
    await scene.slash("mastermind quit", alice)
    started = await scene.slash("challenge", bob)
    _, picker = await open_picker(scene.fake, scene.bot, started.message, bob,
                                  label="Reveal my code")
    picker = await taps(scene, picker, "36", bob)
    screens["picker_reveal"] = [scene.payload(started.message), scene.payload(picker)]
    await scene.slash("mastermind quit", bob)
    board = (await scene.slash("daily play", alice, guess="1122")).message
    screens["picker_daily_board"] = [scene.payload(board)]
    _, picker = await open_picker(scene.fake, scene.bot, board, alice)
    picker = await taps(scene, picker, "34", alice)
    screens["picker_daily"] = [scene.payload(picker)]
    return screens


if __name__ == "__main__":
    cli(lambda out: dump(out, (guessing, codes)))
