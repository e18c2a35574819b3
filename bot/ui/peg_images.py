"""The pegs drawn with Pillow: one round peg per colour, a grey rim, and an empty hole.

Every peg has the same shape: a mid-grey rim (:data:`RIM`, whose luminance sits where it
stands at least 3:1 against both Discord themes, so every peg's outline shows on either),
a body in its colour shaded towards the lower right, and a highlight at the upper left.
The hole is a small grey ring, half a peg across, so it can't be taken for the black peg.

Drawn at 4x and reduced with a box filter (an average: the same pixels on every machine
with the same Pillow), 128x128 as Discord shows emoji. A peg's name carries a hash of its
pixels (not of the PNG bytes, which an encoder may write differently), so a name changes
exactly when the drawing does.
"""

from __future__ import annotations

import functools
import hashlib
import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import PALETTE

SIZE = 128  # Discord shows emoji at 128x128
_SCALE = 4  # drawn at 4x, then averaged down: smooth edges
#: The rim of every peg and hole: relative luminance 0.235, 3.3:1 or more against the
#: light theme's #FFFFFF and #F2F3F5 and the dark theme's #313338 and #2B2D31.
RIM = (0x85, 0x85, 0x85)

#: Body colours: (base, shadow, highlight). Hues far apart; brown darker than orange.
BODIES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "red": ((0xE5, 0x39, 0x35), (0xB7, 0x1C, 0x1C), (0xFF, 0xA4, 0xA2)),
    "orange": ((0xFF, 0x8F, 0x00), (0xE0, 0x66, 0x00), (0xFF, 0xD0, 0x80)),
    "yellow": ((0xFD, 0xD8, 0x35), (0xE8, 0xB4, 0x00), (0xFF, 0xF6, 0xC0)),
    "green": ((0x43, 0xA0, 0x47), (0x1B, 0x6E, 0x20), (0xA5, 0xD6, 0xA7)),
    "blue": ((0x1E, 0x88, 0xE5), (0x0D, 0x47, 0xA1), (0x9C, 0xCC, 0xF7)),
    "purple": ((0x8E, 0x24, 0xAA), (0x5E, 0x16, 0x75), (0xD1, 0x9E, 0xE0)),
    "brown": ((0x8D, 0x55, 0x24), (0x5D, 0x36, 0x14), (0xC8, 0x9A, 0x70)),
    "white": ((0xF5, 0xF5, 0xF5), (0xC8, 0xCB, 0xD0), (0xFF, 0xFF, 0xFF)),
    "black": ((0x24, 0x24, 0x26), (0x0E, 0x0E, 0x10), (0x7A, 0x7D, 0x83)),
}
#: The hole's name: an empty place in a code being put together.
HOLE = "hole"


@dataclass(frozen=True)
class PegImage:
    """One drawn peg: ``name`` is ``colour`` (or ``hole``); ``digit`` 0 for the hole."""

    name: str
    digit: int
    png: bytes
    pixel_hash: str  # sha256 of the RGBA pixels, hex


def _circle(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: tuple) -> None:
    s = _SCALE
    draw.ellipse(((x - r) * s, (y - r) * s, (x + r) * s - 1, (y + r) * s - 1), fill=fill)


def draw_peg(colour: str) -> Image.Image:
    """A round peg: grey rim, shaded body, highlight (RGBA, 128x128)."""
    base, shadow, light = BODIES[colour]
    image = Image.new("RGBA", (SIZE * _SCALE,) * 2, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    centre = SIZE / 2
    _circle(draw, centre, centre, 62, (*RIM, 255))
    _circle(draw, centre, centre, 52, (*shadow, 255))
    _circle(draw, centre - 3, centre - 3, 48, (*base, 255))
    _circle(draw, centre - 18, centre - 20, 13, (*light, 255))
    return image.reduce(_SCALE)


def draw_hole() -> Image.Image:
    """An empty hole: a small grey ring, open in the middle."""
    image = Image.new("RGBA", (SIZE * _SCALE,) * 2, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    centre = SIZE / 2
    _circle(draw, centre, centre, 30, (*RIM, 255))
    _circle(draw, centre, centre, 19, (0, 0, 0, 0))
    return image.reduce(_SCALE)


def _encoded(name: str, digit: int, image: Image.Image) -> PegImage:
    pixels = hashlib.sha256(f"{image.mode}{image.size}".encode() + image.tobytes()).hexdigest()
    out = io.BytesIO()
    image.save(out, format="PNG")
    return PegImage(name, digit, out.getvalue(), pixels)


@functools.cache
def peg_images() -> tuple[PegImage, ...]:
    """The nine pegs (digits 1-9) and the hole, drawn once per process."""
    pegs = [_encoded(c.name, c.digit, draw_peg(c.name)) for c in PALETTE]
    return (*pegs, _encoded(HOLE, 0, draw_hole()))
