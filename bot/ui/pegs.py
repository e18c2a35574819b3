"""Codes and key pegs as Discord text: colour emoji with the digits beside them."""

from __future__ import annotations

from collections.abc import Sequence

from engine import PALETTE, Feedback, Rules, format_code, format_emoji

BLACK_PEG = "\N{BLACK LARGE SQUARE}"
WHITE_PEG = "\N{WHITE LARGE SQUARE}"
NO_PEG = "\N{WHITE SMALL SQUARE}\ufe0f"


def pegs(feedback: Feedback, size: int) -> str:
    """``⬛⬛⬜▫️`` for 2 black, 1 white of 4."""
    empty = size - feedback.black - feedback.white
    return BLACK_PEG * feedback.black + WHITE_PEG * feedback.white + NO_PEG * empty


def code_line(code: Sequence[int]) -> str:
    """Colour emoji with the digits beside them (readable without telling colours apart)."""
    return f"{format_emoji(code)} `{format_code(code)}`"


def feedback_row(turn: int, code: Sequence[int], feedback: Feedback, rules: Rules) -> str:
    """One row of a board: turn, the code, its key pegs and the counts."""
    return (f"`{turn:>2}` {code_line(code)} {pegs(feedback, rules.pegs)} "
            f"**{feedback.black}**B **{feedback.white}**W")


def legend(rules: Rules) -> str:
    return "  ".join(f"{c.digit}{c.emoji}{c.letter}" for c in PALETTE[: rules.colors])
