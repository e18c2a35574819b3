"""The size of a game: pegs, colours, guess limit and whether colours may repeat."""

from __future__ import annotations

from dataclasses import dataclass

from i18n import tr, trn

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
                raise InvalidRules(tr("{name} must be a whole number (got {value})",
                                      name=name, value=repr(value)))
            if not low <= value <= high:
                raise InvalidRules(tr("{name} must be between {low} and {high} (got {value})",
                                      name=name, low=low, high=high, value=value))
        if not self.repeats and self.colors < self.pegs:
            raise InvalidRules(trn(
                "without repeats every peg needs its own colour: {count} pegs need at least "
                "{count} colours (got {colours})",
                "without repeats every peg needs its own colour: {count} pegs need at least "
                "{count} colours (got {colours})", self.pegs, colours=self.colors))

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
        """A short label such as ``4 pegs · 6 colours · 10 guesses · repeats on``, in the
        reader's language."""
        return " · ".join((
            trn("{count} peg", "{count} pegs", self.pegs),
            trn("{count} colour", "{count} colours", self.colors),
            trn("{count} guess", "{count} guesses", self.max_guesses),
            tr("repeats on") if self.repeats else tr("no repeats"),
        ))

    @property
    def size_label(self) -> str:
        """Compact size such as ``4x6`` or ``4x6 no-repeats``, used to group scores."""
        label = f"{self.pegs}x{self.colors}"
        return label if self.repeats else f"{label} no-repeats"


CLASSIC = Rules()
