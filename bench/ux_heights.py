"""How tall the screens are on a 400 px phone, measured with the shared renderer.

Run by hand: ``.venv/bin/python bench/ux_heights.py OUT_DIR [--png]``. It plays the scenes
through the test suite's fake Discord (the payloads the bot really sent, as
``bench/ux_dump.py`` does), draws each screen alone in the renderer at 400 px (Twemoji,
the bot's drawn pegs as its application emoji), and prints its height: the whole screen
(channel header included, as the renderer's phone
screenshot) and, for boards with buttons, down to the last button. ``--png`` also writes
each screen's phone screenshot beside its JSON, to look at.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

import discord  # noqa: E402
from conftest import CHALLENGE_TURN  # noqa: E402
from ux_dump import RENDERER, UX_PYTHON, V2_TEXT_CSS, Scene, dump  # noqa: E402
from ux_dump_daily import daily_code  # noqa: E402

from engine import score  # noqa: E402

#: Targets from the issue: a 4x6 challenge turn within 640 px, a help page one phone screen.
TURN_TARGET, PAGE_TARGET = 640, 700

MEASURE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from render import render_page, Shooter
screens, users, out, png, css = (json.load(open(sys.argv[2])), json.loads(sys.argv[3]),
                                 sys.argv[4], sys.argv[5] == "1", sys.argv[6])
pegs = json.load(open(f"{out}/pegs/map.json"))  # the drawn pegs, as Discord shows them
pegs = {key: f"{out}/pegs/{image}" for key, image in pegs.items()}
found = {}
with Shooter() as s:
    for name, items in screens.items():
        html = render_page(items, users=users, emoji="twemoji", custom_emoji=pegs)
        html = html.replace("</head>", css + "</head>", 1)
        if png:
            s.shot(html, f"{out}/{name}_phone.png", width=400, scale=2)
        page = s.browser.new_page(viewport={"width": 400, "height": 120})
        page.set_content(html.replace("<body>", "<body class='phone'>", 1), wait_until="load")
        page.evaluate("document.fonts.ready")
        found[name] = page.evaluate('''() => {
            const buttons = [...document.querySelectorAll('.button')];
            const last = buttons.length ? Math.max(...buttons.map(
                b => b.getBoundingClientRect().bottom + window.scrollY)) : null;
            return {page: document.documentElement.scrollHeight, buttons: last};
        }''')
        page.close()
print(json.dumps(found))
"""


def _text(scene: Scene, message) -> str:
    return scene.fake.message(message.id).text


async def challenge(scene: Scene) -> dict[str, list[dict]]:
    """A 4x6 challenge, every turn until the bot wins; an 8x9 one's two-step reply."""

    alice = scene.players[0]
    board = (await scene.slash("challenge", alice)).message
    screens = {}
    for turn in range(1, 11):
        found = CHALLENGE_TURN.search(_text(scene, board))
        if found is None:
            break
        screens[f"challenge_4x6_turn{turn}"] = [scene.payload(board)]
        fb = score("3632", found[2])
        await scene.click(scene.fake.message(board.id),
                          f"mmc:r:{board.custom_ids[0].split(':')[2]}:{found[1]}:"
                          f"{fb.black}:{fb.white}", alice)
    screens["challenge_4x6_won"] = [scene.payload(board)]
    big = (await scene.slash("challenge", alice, pegs=8, colors=9, max_guesses=20)).message
    screens["challenge_8x9_step1"] = [scene.payload(big)]
    step = next(c for c in big.custom_ids if c.startswith("mmc:b:") and c.endswith(":2"))
    await scene.click(big, step, alice)
    screens["challenge_8x9_step2"] = [scene.payload(big)]
    await scene.slash("mastermind quit", alice)
    return screens


async def classic(scene: Scene) -> dict[str, list[dict]]:
    """A classic game of ten guesses: the board after nine, then the lost board."""
    alice, bob, carol = scene.players
    started = await scene.slash("mastermind new", alice)
    screens = {"classic_new": [scene.payload(started.message)]}
    secret = scene.secret()
    codes = [c for c in (f"{a}{b}{a}{b}" for a in range(1, 7) for b in range(1, 7))
             if c != secret][:10]
    for i, code in enumerate(codes):
        last = await scene.slash("guess", scene.players[i % 3], code=code)
        if i == 8:
            screens["classic_9_guesses"] = [scene.payload(last.message)]
    screens["classic_10_guesses_lost"] = [scene.payload(last.message)]
    await scene.slash("mastermind new", bob)
    secret = scene.secret()
    for code in [c for c in codes[:4] if c != secret] + [secret]:
        won = await scene.slash("guess", carol, code=code)
    screens["classic_won"] = [scene.payload(won.message)]
    return screens


async def help_pages(scene: Scene) -> dict[str, list[dict]]:
    alice = scene.players[0]
    shown = await scene.slash("mastermind help", alice)
    screens = {}
    for custom_id in list(shown.message.custom_ids):
        await scene.click(scene.fake.message(shown.message.id), custom_id, alice)
        screens[f"help_{custom_id.split(':')[1]}"] = [scene.payload(shown.message)]
    return screens


async def records(scene: Scene) -> dict[str, list[dict]]:
    """A daily played and shared, then /stats with both kinds of game behind it."""
    alice = scene.players[0]
    code = daily_code(scene.db, scene.bot)
    for guess in [g for g in ("1122", "3456", "1345", "6543") if g != code] + [code]:
        await scene.slash("daily play", alice, guess=guess)
    shared = await scene.slash("daily share", alice)
    await scene.slash("mastermind new", alice)
    await scene.slash("guess", alice, code=scene.secret())
    stats = await scene.slash("stats", alice, options={"user": None})
    return {"daily_share": [scene.payload(shared.message)],
            "stats": [scene.payload(stats.message)]}


async def measure(out: Path, png: bool) -> dict[str, dict]:
    files = await dump(out, (challenge, classic, help_pages, records))
    screens = {f.stem: json.loads(f.read_text()) for f in files}
    (out / "screens.json").write_text(json.dumps(screens, ensure_ascii=False))
    result = subprocess.run(
        [str(UX_PYTHON), "-c", MEASURE, str(RENDERER.parent), str(out / "screens.json"),
         (out / "users.json").read_text(), str(out), "1" if png else "0", V2_TEXT_CSS],
        check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--png", action="store_true", help="also write phone screenshots")
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    heights = asyncio.run(measure(args.out, args.png))
    print(f"{'screen at 400 px':<28} {'screen':>7} {'to last button':>15}")
    for name, h in heights.items():
        target = TURN_TARGET if name.startswith("challenge_4x6_turn") else \
            PAGE_TARGET if name.startswith("help_") else None
        to_button = f"{h['buttons']:.0f} px" if h["buttons"] else "-"
        shown = h["page"] if name.startswith("help_") else h["buttons"] or h["page"]
        mark = "" if target is None else "  ok" if shown <= target else f"  OVER {target}"
        print(f"{name:<28} {h['page']:>4} px {to_button:>15}{mark}")


if __name__ == "__main__":
    main()
