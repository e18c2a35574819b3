"""Help, a board and a challenge in German, French, Japanese, Russian and Korean, as their
readers see them (issue 34: every word right, commands under the reader's names):
``.venv/bin/python bench/ux_words.py /tmp/ux/words --render``.

Per locale (the server and every player speak it): help's play and challenge pages, a
classic board after a mistake and three guesses, and a challenge after two replies. The
scenes run through the test suite's fake Discord like ``bench/ux_dump.py``'s, whose scene,
writer and renderer this reuses.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT), str(ROOT / "tests")]

from ux_dump import Scene, _pending, _wrong, cli  # noqa: E402
from ux_i18n import dump  # noqa: E402

from engine import score  # noqa: E402

LOCALES = ("de", "fr", "ja", "ru", "ko")


def scenes(locale: str):
    def speak(scene: Scene) -> None:
        scene.guild.locale = locale
        for player in scene.players:
            player.user.locale = locale

    async def help_and_board(scene: Scene) -> dict[str, list[dict]]:
        speak(scene)
        alice, bob, carol = scene.players
        shown = await scene.slash("mastermind help", alice)
        screens = {f"{locale}_help_play": [scene.payload(shown.message)]}
        await scene.click(shown.message, "mmh:bot", alice)
        screens[f"{locale}_help_challenge"] = [scene.payload(shown.message)]
        await scene.slash("mastermind new", alice)
        secret = scene.secret()
        mistake = await scene.slash("guess", bob, code="12a4")  # told to bob alone
        await scene.slash("guess", alice, code="1122" if secret != "1122" else "1123")
        for i, k in enumerate((1, 2)):
            code = _wrong(secret, k)
            if code != secret:
                last = await scene.slash("guess", [carol, bob][i], code=code)
        screens[f"{locale}_board"] = [scene.payload(mistake.message), scene.payload(last.message)]
        await scene.slash("mastermind quit", alice)
        return screens

    async def challenge(scene: Scene) -> dict[str, list[dict]]:
        speak(scene)
        alice = scene.players[0]
        board = (await scene.slash("challenge", alice)).message
        for _ in range(2):
            fb = score("3632", _pending(scene.fake.message(board.id)))
            ids = [c for c in scene.fake.message(board.id).custom_ids
                   if c.startswith("mmc:r:") and c.endswith(f":{fb.black}:{fb.white}")]
            await scene.click(scene.fake.message(board.id), ids[0], alice)
        screens = {f"{locale}_challenge": [scene.payload(board)]}
        taken = await scene.slash("mastermind new", alice)  # refused: a challenge runs here
        screens[f"{locale}_challenge_busy"] = [scene.payload(taken.message)]
        await scene.slash("mastermind quit", alice)
        return screens

    return help_and_board, challenge


if __name__ == "__main__":
    cli(lambda out: dump(out, tuple(play for locale in LOCALES for play in scenes(locale))))
