"""The size of a game: pegs, colours, guess limit and whether colours may repeat."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidRules

MIN_PEGS, MAX_PEGS = 2, 8
MIN_COLORS, MAX_COLORS = 2, 9
MIN_GUESSES, MAX_GUESSES = 1, 20


@dataclass(frozen=True, slots=True)
class Rules:
    """Immutable game rules; constructing one validates it.

    ``repeats=False`` is the Bulls-and-Cows style: every colour of a code is different,
    so there must be at least as many colours as pegs.
    """

    pegs: int = 4
    colors: int = 6
    max_guesses: int = 10
    repeats: bool = True

    def __post_init__(self) -> None:
        for name, value, low, high in (
            ("pegs", self.pegs, MIN_PEGS, MAX_PEGS),
            ("colors", self.colors, MIN_COLORS, MAX_COLORS),
            ("max_guesses", self.max_guesses, MIN_GUESSES, MAX_GUESSES),
        ):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRules(f"{name} must be a whole number (got {value!r})")
            if not low <= value <= high:
                raise InvalidRules(f"{name} must be between {low} and {high} (got {value})")
        if not self.repeats and self.colors < self.pegs:
            raise InvalidRules(
                f"without repeats every peg needs its own colour: {self.pegs} pegs need at "
                f"least {self.pegs} colours (got {self.colors})"
            )

    @property
    def code_count(self) -> int:
        """How many secret codes these rules allow."""
        if self.repeats:
            return self.colors**self.pegs
        count = 1
        for k in range(self.pegs):
            count *= self.colors - k
        return count

    def describe(self) -> str:
        """A short human label such as ``4 pegs · 6 colours · 10 guesses · repeats on``."""
        repeats = "repeats on" if self.repeats else "no repeats"
        return (
            f"{self.pegs} pegs · {self.colors} colours · {self.max_guesses} guesses · {repeats}"
        )

    @property
    def size_label(self) -> str:
        """Compact size such as ``4x6`` or ``4x6 no-repeats``, used to group scores."""
        label = f"{self.pegs}x{self.colors}"
        return label if self.repeats else f"{label} no-repeats"


CLASSIC = Rules()
