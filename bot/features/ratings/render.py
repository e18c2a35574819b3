"""Ratings in words: each player's change on a rated result (a match's, a race's), the
reasons a game didn't count, and the season's name. Called where shown, so the words are
the reader's language."""

from __future__ import annotations

from collections.abc import Callable

from i18n import tr
from i18n.numbers import number

from ...ui.messages import mention
from . import model
from .service import RatingChange, RatingOutcome, WhyNot

#: Why a game didn't move a player's rating, in words.
WHY_NOT: dict[str, Callable[[], str]] = {
    WhyNot.PAIR_CAP: lambda: tr("not rated: you have played each other the most rated games "
                                "for today"),
    WhyNot.ALONE: lambda: tr("not rated: nobody to be rated against"),
    WhyNot.DM: lambda: tr("not rated: ratings are kept per server"),
}


def rating_number(value: float) -> str:
    """A shown rating, a whole number in the reader's digits (``1,234``)."""
    return number(round(value), 0)


def provisional_mark() -> str:
    # TRANSLATORS: marks a rating from a player's first few rated games (like chess's "?").
    return tr("provisional")


def signed(delta: float) -> str:
    """``+12``, ``−7``, ``±0`` (a true minus sign)."""
    whole = round(delta)
    if whole == 0:
        return "±0"
    return ("+" if whole > 0 else "\N{MINUS SIGN}") + number(abs(whole), 0)


def change_words(change: RatingChange) -> str:
    """One player's change: ``1,000 → 1,098 (+98, provisional)``, or why it didn't count."""
    if not change.rated:
        shown = rating_number(change.before) if change.before is not None else "—"
        return f"{shown} · {WHY_NOT.get(change.why_not or '', WHY_NOT[WhyNot.ALONE])()}"
    before = model.newcomer() if change.before is None else change.before
    after = change.after if change.after is not None else before
    note = signed(after - before)
    if change.provisional:
        note = f"{note}, {provisional_mark()}"
    return f"{rating_number(before)} → **{rating_number(after)}** ({note})"


def outcome_lines(outcome: RatingOutcome) -> list[str]:
    """Each player's change as a line for a result embed (``<@id>: 1,000 → 1,098 (+98)``),
    in the order given; empty when nobody has a rating to show (a DM)."""
    if all(c.why_not == WhyNot.DM for c in outcome.changes):
        return []
    return [f"{mention(c.user_id)}: {change_words(c)}" for c in outcome.changes]


def outcome_field(outcome: RatingOutcome) -> tuple[str, str] | None:
    """(name, value) of a result embed's field, or None when there is nothing to show."""
    lines = outcome_lines(outcome)
    if not lines:
        return None
    return tr("Rating"), "\n".join(lines)[:1024]


def season_name(season: str) -> str:
    """``2026-11``, ``2026 Q4`` or "all seasons" (seasons off)."""
    if season == model.NO_SEASONS:
        return tr("all time")
    return season.replace("-Q", " Q")
