"""Screenshots of the Activity as headless Chromium draws it, at a phone's width (400 px) and
a desktop's (1000 px), in several languages: the real bot (``python -m bot`` with
``ACTIVITY_PORT``) against the test suite's fake Discord, the client inside the parent page
that plays Discord's client (tests/activity_browser.py).

    .venv/bin/python bench/ux_activity.py docs/ux [--locales en-US,ja,de]

Each locale gives a channel game with three players' guesses (``activity_<locale>_phone.png``
and ``..._desktop.png``); English also a challenge on a phone
(``activity_challenge_phone.png``) and its Give up asking again
(``activity_give_up_phone.png``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from activity_browser import DESKTOP, PHONE, Stack, missing_browser, running_activity  # noqa: E402


async def channel_game(stack: Stack, out: Path, locale: str) -> None:
    """Three players, three guesses, the next row half placed."""
    tag = locale.split("-")[0]
    channel = stack.channel(f"game-{tag}")
    names = {"en": ("Ada", "Ben", "Chloé"), "ja": ("さくら", "ハルト", "Yui"),
             "de": ("Jürgen", "Anna", "Lukas")}.get(tag, ("Ada", "Ben", "Chloé"))
    users = [stack.user(n, locale=locale) for n in names]
    phone, desktop, third = await stack.open_game(channel, *users)
    await phone.page.set_viewport_size(PHONE)
    await desktop.page.set_viewport_size(DESKTOP)
    await phone.new_game()
    secret = stack.secret(channel)
    guesses = [c for c in ("1122", "3345", "2516", "6431") if c != secret][:3]
    for page, code in zip((phone, desktop, third), guesses, strict=True):
        await page.wait_playable()
        await page.tap_code(code)
        await page.app.click("[data-key='submit']")
        await page.wait_rows(guesses.index(code) + 1)
    for page in (phone, desktop):
        await page.wait_rows(3)
        await page.tap_code(secret[:2])
    await phone.page.screenshot(path=out / f"activity_{tag}_phone.png", full_page=True)
    await desktop.page.screenshot(path=out / f"activity_{tag}_desktop.png")
    for page in (phone, desktop, third):
        await stack.discord.close(page)


async def challenge(stack: Stack, out: Path) -> None:
    channel = stack.channel("challenge")
    user = stack.user("Dana")
    (page,) = await stack.open_game(channel, user, viewport=PHONE, platform="mobile")
    await page.start_challenge()
    for turn in (1, 2):
        await page.answer_challenge("4415")
        await page.wait_rows(turn)
        await page.wait_playable()
    await page.app.click("[data-key='black-more']")
    await page.page.screenshot(path=out / "activity_challenge_phone.png", full_page=True)
    await page.app.click("[data-key='give-up']")  # once: it asks again
    await page.page.screenshot(path=out / "activity_give_up_phone.png",
                               clip={"x": 0, "y": 300, "width": PHONE["width"], "height": 320})
    await stack.discord.close(page)


async def main(out: Path, locales: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        async with running_activity(Path(work)) as stack:
            for locale in locales:
                await channel_game(stack, out, locale)
            await challenge(stack, out)
    print(f"screenshots in {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--locales", default="en-US,ja,de")
    args = parser.parse_args()
    if (why := missing_browser()) is not None:
        sys.exit(why)
    asyncio.run(main(args.out, args.locales.split(",")))
