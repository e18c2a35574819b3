"""How well an emoji stands out on Discord's dark and light themes, measured, not guessed.

Two kinds are measured: the unicode emoji (from their Twemoji fills, below) and the pegs the
bot draws itself (from their pixels: :func:`image_contrast`).

Discord's clients draw unicode emoji as Twemoji images, whatever the device, so an emoji's
colours are the fills of its Twemoji SVG (``@discordapp/twemoji`` 16.0.1, ``dist/svg``).
An emoji reads on a background when one of its parts (its body, a rim, seams) has a
WCAG contrast of at least 3:1 against it: ⬛ is a single #31373D square, 1.15:1 on the
dark embed, so it vanishes there. Every emoji a board may show is in :data:`TWEMOJI_FILLS`;
a test checks every board against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter

DARK_EMBED = "#2B2D31"  # the embed background of Discord's dark theme
DARK_CHAT = "#313338"  # the dark theme's message background
LIGHT = "#FFFFFF"  # the light theme's message background
LIGHT_EMBED = "#F2F3F5"  # the embed background of Discord's light theme
#: Every background a peg is drawn on: chat and embed, dark and light.
BACKGROUNDS = (DARK_CHAT, DARK_EMBED, LIGHT, LIGHT_EMBED)
MIN_CONTRAST = 3.0  # WCAG 2.1 for graphical objects

#: Fills of each Twemoji SVG (copied from the files; #RGB written out as #RRGGBB).
TWEMOJI_FILLS: dict[str, tuple[str, ...]] = {
    # the code pegs (bot.ui.pegs.PEG_EMOJI)
    "\N{OCTAGONAL SIGN}": ("#DD2E44", "#CCD6DD"),
    "\N{BASKETBALL AND HOOP}": ("#F4900C", "#231F20"),
    "\N{BABY CHICK}": ("#F4900C", "#FFAC33", "#FFCC4D", "#662113"),
    "\N{BROCCOLI}": ("#77B255", "#5C913B", "#3E721D"),
    "\N{RADIO BUTTON}": ("#226699", "#BBDDF5"),
    "\N{CRYSTAL BALL}": ("#BF6952", "#854836", "#AA8DD8", "#744EAA"),
    "\N{LARGE BROWN CIRCLE}": ("#C1694F",),
    "\N{BASEBALL}": ("#E1E8ED", "#B3BEC4", "#DD2E44"),
    "\N{BILLIARDS}": ("#31373D", "#E1E8ED"),
    # medals and celebrations
    "\N{FIRST PLACE MEDAL}": ("#55ACEE", "#3B88C3", "#FFAC33", "#9E5200"),
    "\N{SECOND PLACE MEDAL}": ("#55ACEE", "#3B88C3", "#CCD6DD", "#627077"),
    "\N{THIRD PLACE MEDAL}": ("#55ACEE", "#3B88C3", "#FF8A3B", "#7C4119"),
    "\N{PARTY POPPER}": ("#DD2E44", "#EA596E", "#A0041E", "#AA8DD8", "#77B255", "#5C913B",
                         "#9266CC", "#FFCC4D"),
    "\N{TROPHY}": ("#FFAC33", "#FFCC4D", "#C1694F"),
    # buttons on boards: Play again, Analyse
    "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}": ("#3B88C3", "#FFFFFF"),
    "\N{BAR CHART}": ("#CCD6DD", "#E1E8ED", "#5C913B", "#3B94D9", "#DD2E44"),
    # the share grid's key pegs (bot.ui.pegs.SHARE_*): hit, wrong place, empty hole
    "\N{DIRECT HIT}": ("#DD2E44", "#FFFFFF", "#FFAC33", "#55ACEE", "#3A87C2"),
    "\N{TWISTED RIGHTWARDS ARROWS}": ("#3B88C3", "#FFFFFF"),
    "\N{HOLE}": ("#31373D", "#7D8B93", "#CCD6DD"),
    # the peg picker: a board's Guess (the same 🎯 as the share grid), and Type in the picker
    "\N{KEYBOARD}": ("#292F33", "#99AAB5"),
    # what the boards used to show (the engine's palette and ⬛⬜▫️): for the tests
    "\N{BLACK LARGE SQUARE}": ("#31373D",),
    "\N{WHITE LARGE SQUARE}": ("#E6E7E8",),
    "\N{WHITE SMALL SQUARE}": ("#E6E7E8",),
    "\N{MEDIUM WHITE CIRCLE}": ("#E6E7E8",),
    "\N{MEDIUM BLACK CIRCLE}": ("#31373D",),
    "\N{LARGE RED CIRCLE}": ("#DD2E44",),
    "\N{LARGE ORANGE CIRCLE}": ("#F4900C",),
    "\N{LARGE YELLOW CIRCLE}": ("#FDCB58",),
    "\N{LARGE GREEN CIRCLE}": ("#78B159",),
    "\N{LARGE BLUE CIRCLE}": ("#55ACEE",),
    "\N{LARGE PURPLE CIRCLE}": ("#AA8ED6",),
}


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#RRGGBB``."""
    channels = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def emoji_contrast(emoji: str, background: str) -> float:
    """The contrast of the emoji's part that stands out most against ``background``."""
    fills = TWEMOJI_FILLS[emoji.replace("\ufe0f", "")]
    return max(contrast(fill, background) for fill in fills)


def legible(emoji: str) -> bool:
    """Readable on both themes (unknown emoji are not: measure them first)."""
    key = emoji.replace("\ufe0f", "")
    return key in TWEMOJI_FILLS and all(
        emoji_contrast(key, bg) >= MIN_CONTRAST for bg in (DARK_EMBED, LIGHT))


#: Emoji as Discord finds them in text: astral pictographs, BMP symbols drawn as emoji by
#: default (Emoji_Presentation), and other symbols followed by U+FE0F. Plain symbols such
#: as the key pegs ● and ○ stay text, drawn in the theme's own text colour.
_BMP_PRESENTATION = (
    "\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648-\u2653\u267f"
    "\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5"
    "\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797"
    "\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55"
)
EMOJI = re.compile(f"[\U0001f000-\U0001faff]|[\u2000-\u2bff]\ufe0f|[{_BMP_PRESENTATION}]")


def emoji_in(text: str) -> list[str]:
    return [m.group().replace("\ufe0f", "") for m in EMOJI.finditer(text)]


# ---- images the bot draws ------------------------------------------------------------------
#: Pixels this close to a peg's edge (out of 128) are its outline.
OUTLINE_WIDTH = 6


@dataclass(frozen=True)
class ImageContrast:
    """How a drawn peg stands out on one background: ``outline`` is the lowest contrast of
    any solid pixel of its outline (so its whole shape shows), ``body`` the median contrast
    of the solid pixels inside it (of the outline, for a ring too thin to have an inside)."""

    outline: float
    body: float


def _luminances(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of each pixel (an array of 0-255 channels, last axis RGB)."""
    c = rgb.astype(np.float64) / 255
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return np.asarray(linear @ np.array([0.2126, 0.7152, 0.0722]))


def image_contrast(image: Image.Image, background: str) -> ImageContrast:
    """Measure an RGBA image's solid pixels (edges blend into the background: they are no
    part of their own) against ``background`` (``#RRGGBB``)."""
    pixels = np.asarray(image.convert("RGBA"))
    solid = pixels[..., 3] == 255
    inner = np.asarray(image.getchannel("A").filter(
        ImageFilter.MinFilter(2 * OUTLINE_WIDTH + 1))) == 255
    lum = _luminances(pixels[..., :3])
    behind = luminance(background)
    ratio = (np.maximum(lum, behind) + 0.05) / (np.minimum(lum, behind) + 0.05)
    outline, body = ratio[solid & ~inner], ratio[solid & inner]
    return ImageContrast(float(outline.min()),
                         float(np.median(body if body.size else outline)))
