"""The chart of codes left per guess, you against the solver, drawn as a PNG with Pillow.

A log scale: the first guesses cut thousands of codes, the last ones a handful. Its words
are the reader's, drawn with the first font on the machine that has every letter of them
(Pillow's own font has ASCII only); where none has them, the chart speaks English rather
than draw empty boxes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from i18n import speaking, tr
from i18n.numbers import number

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 20, 36, 44
BACKGROUND = (43, 45, 49)  # Discord's dark embed background
GRID = (78, 80, 88)
TEXT = (219, 222, 225)
YOU = (88, 101, 242)  # blurple
BOT = (250, 166, 26)  # amber


#: Fonts with more than ASCII where Linux distributions install them (Debian's
#: fonts-dejavu-core, fonts-noto-core, fonts-liberation; for Chinese, Japanese and Korean
#: fonts-noto-cjk, fonts-wqy-microhei, fonts-droid-fallback), tried in this order.
FONT_FILES = tuple(Path(p) for p in (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
))
Font = ImageFont.ImageFont | ImageFont.FreeTypeFont


@lru_cache(maxsize=16)
def load_font(size: int, path: Path | None = None) -> Font:
    if path is not None:
        return ImageFont.truetype(str(path), size)
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def draws(font: Font, text: str) -> bool:
    """Does ``font`` have a glyph for every character of ``text``? (A missing one is drawn
    as the font's "missing" box, the same as a character no font has.)"""
    missing = bytes(font.getmask("\uffff"))
    return all(ch.isspace() or bytes(font.getmask(ch)) != missing for ch in set(text))


@lru_cache(maxsize=64)
def font_for(text: str) -> Path | None:
    """The first font file here that draws all of ``text``; None: Pillow's own does (ASCII),
    or nothing here does (see :func:`codes_left_chart`)."""
    if draws(load_font(13), text):
        return None
    return next((p for p in FONT_FILES if p.exists() and draws(load_font(13, p), text)), None)


Label = Callable[[], str]


def _you() -> str:
    return tr("you")


def _solver() -> str:
    return tr("solver")


def _words(start: int, you_label: Label, bot_label: Label
           ) -> tuple[list[str], str, str, str, str]:
    """Every word and number the chart draws, in the current language."""
    decades = max(1, math.ceil(math.log10(max(start, 2))))
    return ([number(10**d) for d in range(decades + 1)], tr("guess"),
            tr("codes still possible"), you_label(), bot_label())


def codes_left_chart(start: int, you: Sequence[int], bot: Sequence[int], *,
                     you_label: Label = _you, bot_label: Label = _solver,
                     you_won: bool = False, bot_won: bool = True) -> bytes:
    """PNG bytes: codes possible before any guess (``start``) and after each guess; a ring
    marks the guess that found the code. The labels are asked for their words (in the
    current language) when drawn."""
    words = _words(start, you_label, bot_label)
    text = "".join(words[0]) + "".join(words[1:])
    path = font_for(text)
    if path is None and not draws(load_font(13), text):  # no font here has these letters
        with speaking(None):
            words = _words(start, you_label, bot_label)
    ticks, axis, heading, you_name, bot_name = words
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, label = load_font(13, path), load_font(15, path)
    turns = max(len(you), len(bot), 1)
    decades = len(ticks) - 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(turn: int) -> float:
        return LEFT + plot_w * turn / turns

    def y(value: int) -> float:
        return TOP + plot_h * (1 - math.log10(max(value, 1)) / decades)

    for d in range(decades + 1):
        yy = y(10**d)
        draw.line([(LEFT, yy), (WIDTH - RIGHT, yy)], fill=GRID)
        draw.text((LEFT - 8, yy), ticks[d], fill=TEXT, font=small, anchor="rm")
    for t in range(turns + 1):
        draw.text((x(t), HEIGHT - BOTTOM + 8), str(t), fill=TEXT, font=small, anchor="mt")
    draw.text((LEFT + plot_w / 2, HEIGHT - 14), axis, fill=TEXT, font=small, anchor="mm")
    draw.text((LEFT, 10), heading, fill=TEXT, font=label)
    # The key, top right: the player's line last, each entry as wide as its name.
    you_x = WIDTH - RIGHT - 20 - small.getlength(you_name)
    keys = {0: you_x - 44 - small.getlength(bot_name), 1: you_x}
    for line, colour, name, offset, won in ((bot, BOT, bot_name, 0, bot_won),
                                            (you, YOU, you_name, 1, you_won)):
        if not line:
            continue
        points = [(x(t), y(v)) for t, v in enumerate((start, *line))]
        draw.line(points, fill=colour, width=3 + offset)
        for px, py in points:
            draw.ellipse([px - 4, py - 4, px + 4, py + 4], fill=colour)
        if won:
            px, py = points[-1]
            draw.ellipse([px - 9, py - 9, px + 9, py + 9], outline=colour, width=3)
        key_x = keys[offset]
        draw.rectangle([key_x, 12, key_x + 14, 24], fill=colour)
        draw.text((key_x + 20, 18), name, fill=TEXT, font=small, anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)  # fast; the chart is small anyway
    return out.getvalue()
