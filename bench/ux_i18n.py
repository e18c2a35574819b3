"""Dump (and with ``--render`` draw) the breaker's boards and the help pages in German and in
Japanese, as their readers see them:
``.venv/bin/python bench/ux_i18n.py /tmp/ux/i18n --render``.

A German server (its boards German) where one player reads Japanese (her errors, her private
game and her help Japanese); then the same classic game in a Japanese server. The scenes run
through the test suite's fake Discord like ``bench/ux_dump.py``'s, whose scene and writer this
reuses.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT), str(ROOT / "tests")]

from fake_discord import FakeClock, FakeDiscord  # noqa: E402
from ux_dump import Scene, _wrong, cli, emoji_images, write_screens  # noqa: E402

from bot.app import MastermindBot  # noqa: E402
from bot.core.errors import UserError  # noqa: E402


def _speaking(scene: Scene, server: str, *players: str) -> None:
    scene.guild.locale = server
    for member, locale in zip(scene.players, players, strict=False):
        member.user.locale = locale


async def _classic(scene: Scene, name: str) -> dict[str, list[dict]]:
    alice, bob, carol = scene.players
    await scene.slash("mastermind new", alice)
    secret = scene.secret()
    screens = {f"{name}_new": scene.channel()}
    await scene.slash("guess", bob, code="12a4")  # bob's mistake: his language, him alone
    await scene.slash("guess", alice, code="1122" if secret != "1122" else "1123")
    screens[f"{name}_first"] = scene.channel()
    for i, k in enumerate((1, 2)):
        code = _wrong(secret, k)
        if code != secret:
            await scene.slash("guess", [carol, bob][i], code=code)
    await scene.slash("guess", bob, code=secret)
    screens[f"{name}_won"] = scene.channel()
    return screens


async def german(scene: Scene) -> dict[str, list[dict]]:
    """A German server; bob reads Japanese."""
    _speaking(scene, "de", "de", "ja", "de")
    return await _classic(scene, "de_classic")


async def japanese(scene: Scene) -> dict[str, list[dict]]:
    _speaking(scene, "ja", "ja", "ja", "ja")
    return await _classic(scene, "ja_classic")


async def help_pages(scene: Scene) -> dict[str, list[dict]]:
    alice, bob, _ = scene.players
    _speaking(scene, "de", "de", "ja")
    screens = {}
    for who, locale in ((alice, "de"), (bob, "ja")):
        shown = await scene.slash("mastermind help", who)
        screens[f"{locale}_help_play"] = [scene.payload(shown.message)]
        await scene.click(shown.message, "mmh:codes", who)
        screens[f"{locale}_help_codes"] = [scene.payload(shown.message)]
    return screens


async def private_and_big(scene: Scene) -> dict[str, list[dict]]:
    """bob's private game in the German server (Japanese), then a German 8x9 of 20 rows."""
    alice, bob, _ = scene.players
    _speaking(scene, "de", "de", "ja", "de")
    mine = await scene.slash("mastermind new", bob, private=True)
    screens = {"ja_private_new": [scene.payload(mine.message)]}
    moved = await scene.slash("guess", bob, code="1234")
    screens["ja_private_moved"] = [scene.payload(moved.message)]
    await scene.slash("mastermind quit", bob, game="private")
    await scene.slash("mastermind new", alice, pegs=8, colors=9, max_guesses=20)
    secret = scene.secret()
    codes = [c for c in (f"{a}{b}" * 4 for a in range(1, 10) for b in range(1, 10))
             if c != secret][:20]
    last = None
    for i, code in enumerate(codes):
        last = await scene.slash("guess", scene.players[i % 3], code=code)
    assert last is not None
    screens["de_board_8x9"] = [scene.payload(last.message)]
    return screens


async def dump(out: Path, plays) -> list[Path]:
    """``ux_dump.dump``, where a player's mistake (an error told to them) is normal flow."""
    out.mkdir(parents=True, exist_ok=True)
    screens: dict[str, list[dict]] = {}
    users: dict[str, str] = {}
    emoji_map: dict[str, str] = {}
    for play in plays:
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "ux.sqlite3"
            fake = FakeDiscord(clock=FakeClock(), timeout=60, ignore_errors=(UserError,))
            async with fake:
                bot = MastermindBot(database=db)
                await fake.login(bot)
                scene = Scene(fake, bot, db)
                screens.update(await play(scene))
                users.update(scene.users())
                emoji_images(fake, out, emoji_map)
    (out / "pegs" / "map.json").write_text(json.dumps(emoji_map))
    return write_screens(out, screens, users)


if __name__ == "__main__":
    cli(lambda out: dump(out, (german, japanese, help_pages, private_and_big)))
