"""A player's rating history in a server, drawn as a PNG with Pillow (the analysis chart's
look and fonts): the shown rating after each rated game, the provisional games fainter.
Drawn in a worker thread (the caller's ``asyncio.to_thread``)."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from i18n import speaking, tr
from i18n.numbers import number

from ..analysis.chart import BACKGROUND, GRID, TEXT, YOU, draws, font_for, load_font

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 20, 36, 44
FAINT = (140, 146, 230)  # the provisional games: a paler blurple
#: Rating steps the grid may use (a round one giving 3 to 6 lines).
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)


def _grid(low: float, high: float) -> list[int]:
    span = max(high - low, 1.0)
    step = next((s for s in STEPS if span / s <= 5), STEPS[-1])
    first = math.floor(low / step) * step
    return list(range(int(first), int(high) + step, step))


def _words(games: int) -> tuple[str, str]:
    return tr("Rating in this server"), tr("rated games ({count})", count=number(games))


def rating_chart(ratings: Sequence[float], provisional: int) -> bytes:
    """PNG bytes of ``ratings`` (oldest first; the first ``provisional`` drawn fainter)."""
    words = _words(len(ratings))
    text = "".join(words)
    path = font_for(text)
    if path is None and not draws(load_font(13), text):  # no font here has these letters
        with speaking(None):
            words = _words(len(ratings))
    heading, axis = words
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, label = load_font(13, path), load_font(15, path)
    lines = _grid(min(ratings, default=1000.0), max(ratings, default=1000.0))
    low, high = lines[0], lines[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = max(len(ratings), 2)

    def x(i: int) -> float:
        return LEFT + plot_w * i / (count - 1)

    def y(value: float) -> float:
        return TOP + plot_h * (1 - (value - low) / max(high - low, 1))

    for value in lines:
        draw.line([(LEFT, y(value)), (WIDTH - RIGHT, y(value))], fill=GRID)
        draw.text((LEFT - 8, y(value)), number(value), fill=TEXT, font=small, anchor="rm")
    draw.text((LEFT + plot_w / 2, HEIGHT - 14), axis, fill=TEXT, font=small, anchor="mm")
    draw.text((LEFT, 10), heading, fill=TEXT, font=label)
    points = [(x(i), y(v)) for i, v in enumerate(ratings)]
    if len(points) > 1:
        draw.line(points, fill=YOU, width=3)
    for i, (px, py) in enumerate(points):
        colour = FAINT if i < provisional else YOU
        draw.ellipse([px - 4, py - 4, px + 4, py + 4], fill=colour)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()
