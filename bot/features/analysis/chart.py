"""The chart of codes left per guess, you against the solver, drawn as a PNG with Pillow.

A log scale: the first guesses cut thousands of codes, the last ones a handful."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 20, 36, 44
BACKGROUND = (43, 45, 49)  # Discord's dark embed background
GRID = (78, 80, 88)
TEXT = (219, 222, 225)
YOU = (88, 101, 242)  # blurple
BOT = (250, 166, 26)  # amber


@lru_cache(maxsize=4)
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def codes_left_chart(start: int, you: Sequence[int], bot: Sequence[int], *,
                     you_label: str = "you", bot_label: str = "solver",
                     you_won: bool = False, bot_won: bool = True) -> bytes:
    """PNG bytes: codes possible before any guess (``start``) and after each guess; a ring
    marks the guess that found the code."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, label = _font(13), _font(15)
    turns = max(len(you), len(bot), 1)
    top_value = max(start, 2)
    decades = max(1, math.ceil(math.log10(top_value)))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(turn: int) -> float:
        return LEFT + plot_w * turn / turns

    def y(value: int) -> float:
        return TOP + plot_h * (1 - math.log10(max(value, 1)) / decades)

    for d in range(decades + 1):
        yy = y(10**d)
        draw.line([(LEFT, yy), (WIDTH - RIGHT, yy)], fill=GRID)
        draw.text((LEFT - 8, yy), f"{10**d:,}", fill=TEXT, font=small, anchor="rm")
    for t in range(turns + 1):
        draw.text((x(t), HEIGHT - BOTTOM + 8), str(t), fill=TEXT, font=small, anchor="mt")
    draw.text((LEFT + plot_w / 2, HEIGHT - 14), "guess", fill=TEXT, font=small, anchor="mm")
    draw.text((LEFT, 10), "codes still possible", fill=TEXT, font=label)
    for path, colour, name, offset, won in ((bot, BOT, bot_label, 0, bot_won),
                                            (you, YOU, you_label, 1, you_won)):
        if not path:
            continue
        points = [(x(t), y(v)) for t, v in enumerate((start, *path))]
        draw.line(points, fill=colour, width=3 + offset)
        for px, py in points:
            draw.ellipse([px - 4, py - 4, px + 4, py + 4], fill=colour)
        if won:
            px, py = points[-1]
            draw.ellipse([px - 9, py - 9, px + 9, py + 9], outline=colour, width=3)
        key_x = WIDTH - RIGHT - 150 + 80 * offset - (80 if offset == 0 else 0)
        draw.rectangle([key_x, 12, key_x + 14, 24], fill=colour)
        draw.text((key_x + 20, 18), name, fill=TEXT, font=small, anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)  # fast; the chart is small anyway
    return out.getvalue()
