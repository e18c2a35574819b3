"""The challenge, the pickers, a match and a hint in German and Japanese, as players see them.

Run by hand: ``.venv/bin/python bench/ux_challenge_i18n.py OUT_DIR [--render]`` writes one
JSON file per screen, named ``<locale>_<screen>`` (the server and its players speak
``locale``), for ``../shared/ux/render.py``; ``--render`` screenshots them (desktop and
phone, Twemoji). Uses ``bench/ux_dump.py``'s scene and ``bench/ux_picker.py``'s taps.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from picking import button, open_picker  # noqa: E402
from ux_dump import Scene, _pending, cli, dump  # noqa: E402
from ux_picker import taps  # noqa: E402

from engine import score  # noqa: E402
from i18n import speaking, tr  # noqa: E402

#: The catalogs shown, by the locale a Discord client sends.
LOCALES = {"de": "de", "ja": "ja"}


def scenes(locale: str):
    """The plays for one language (the server's and every player's)."""

    def speak(scene: Scene) -> None:
        scene.guild.locale = LOCALES[locale]
        for player in scene.players:
            player.user.locale = LOCALES[locale]

    async def challenge(scene: Scene) -> dict[str, list[dict]]:
        speak(scene)
        alice = scene.players[0]
        board = (await scene.slash("challenge", alice)).message
        screens = {f"{locale}_challenge_start": [scene.payload(board)]}
        for _ in range(2):
            fb = score("3632", _pending(scene.fake.message(board.id)))
            ids = [c for c in scene.fake.message(board.id).custom_ids
                   if c.startswith("mmc:r:") and c.endswith(f":{fb.black}:{fb.white}")]
            await scene.click(scene.fake.message(board.id), ids[0], alice)
        screens[f"{locale}_challenge_mid"] = [scene.payload(board)]
        with speaking(locale):
            reveal = tr("Reveal my code")
        _, picker = await open_picker(scene.fake, scene.bot, scene.fake.message(board.id), alice,
                                      label=reveal)
        picker = await taps(scene, picker, "36", alice)
        screens[f"{locale}_picker_reveal"] = [scene.payload(board), scene.payload(picker)]
        picker = await taps(scene, picker, "32", alice)
        await scene.fake.click(scene.bot, picker, button(picker, "s")["custom_id"], user=alice)
        screens[f"{locale}_challenge_revealed"] = scene.channel(since=board.id)
        started = await scene.slash("challenge", alice, pegs=8, colors=9, max_guesses=20)
        screens[f"{locale}_challenge_8x9"] = [scene.payload(started.message)]
        black = [c for c in started.message.custom_ids if c.startswith("mmc:b:")]
        await scene.click(started.message, black[2], alice)
        screens[f"{locale}_challenge_8x9_step"] = [scene.payload(started.message)]
        await scene.slash("mastermind quit", alice)
        return screens

    async def setter(scene: Scene) -> dict[str, list[dict]]:
        speak(scene)
        alice = scene.players[0]
        opened = await scene.slash("mastermind new", alice, setter="me", pegs=8, colors=9,
                                   repeats=False)
        picker = await taps(scene, opened.message, "653", alice)
        screens = {f"{locale}_picker_setter_8x9": [scene.payload(picker)]}
        typed = await scene.fake.click(scene.bot, picker, button(picker, "t")["custom_id"],
                                       user=alice)
        screens[f"{locale}_picker_form"] = [typed.modal]
        picker = await taps(scene, picker, "12478", alice)
        await scene.fake.click(scene.bot, picker, button(picker, "s")["custom_id"], user=alice)
        screens[f"{locale}_picker_setter_done"] = scene.channel()
        await scene.slash("mastermind quit", alice)
        return screens

    async def match(scene: Scene) -> dict[str, list[dict]]:
        speak(scene)
        alice = scene.players[0]
        started = await scene.slash("match", alice, rounds=2)
        screens = {f"{locale}_match_start": [scene.payload(m) for m in started.messages]}
        won = await scene.slash("guess", alice, code=scene.secret())
        screens[f"{locale}_match_half"] = [scene.payload(m) for m in won.followups]
        await scene.slash("mastermind quit", alice)
        screens[f"{locale}_match_quit"] = scene.channel()[-1:]
        await scene.slash("mastermind new", alice)
        hint = await scene.slash("mastermind hint", alice)
        screens[f"{locale}_hint"] = [scene.payload(hint.message)]
        return screens

    return challenge, setter, match


if __name__ == "__main__":
    cli(lambda out: dump(out, tuple(play for locale in LOCALES for play in scenes(locale))))
