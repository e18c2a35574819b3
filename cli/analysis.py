"""``--analyse``: the post-game analysis of ``play`` and ``crack``, as terminal lines."""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence

from engine import Code, Rules, Turn
from engine.analysis import GameAnalysis, MoveAnalysis, analyse

from .render import Style
from .session import plural

#: Columns the analysis fits in when the output is not a terminal (a pipe, a file).
WIDTH = 100
#: Where a move's wrapped fields continue: under its guess.
INDENT = "   "
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

SKILL = ("skill: 100 = every guess split the codes as well as the solver's would "
         "(on average), 0 = no progress")
LUCK = ("luck: per move, 50 = an average reply, higher = a reply that left fewer codes than "
        "most would have (a find among many codes is lucky); the game's luck is the mean of "
        "its moves")


def analysis_lines(result: GameAnalysis, style: Style, who: str = "you",
                   width: int = WIDTH) -> list[str]:
    """One line per guess (wrapped between its fields to fit ``width``), the scores, and
    the codes left per guess against the solver's."""
    lines = [style.bold("Analysis")]
    for move in result.moves:
        lines.extend(fit(_fields(move, style), width))
    lines.extend(fit([f"Skill {result.skill}/100 ·", _luck(result)], width, joint=" "))
    lines.extend(fit([f"Codes left per guess, {who}:",
                      *(f"{n:,}" for n in result.you_path)], width, joint=" "))
    if result.bot_path:
        lines.extend(fit(["Codes left per guess, solver:",
                          *(f"{n:,}" for n in result.bot_path)], width, joint=" "))
    lines.extend(style.dim(line) for line in fit(SKILL.split(" "), width, joint=" "))
    lines.extend(style.dim(line) for line in fit(LUCK.split(" "), width, joint=" "))
    return lines


def _fields(m: MoveAnalysis, style: Style) -> list[str]:
    mark = "" if m.was_possible else style.dim(" (could not be the code)")
    return [f"{m.turn:>2} {style.code(m.guess)}",
            f"{m.before:,} -> {plural(m.after, 'code')}",
            f"worst {m.worst:,}, avg {m.average:,.1f}",
            f"| solver {style.code(m.solver_guess)} worst {m.solver_worst:,}, "
            f"avg {m.solver_average:,.1f}",
            f"{m.verdict}{mark}"]


def _luck(result: GameAnalysis) -> str:
    """The game's luck, with each move's beside it: a lucky find is one move of several."""
    if result.luck is None:
        return "luck —"
    moves = ", ".join("—" if m.luck is None else str(round(100 * m.luck))
                      for m in result.moves)
    return f"luck {result.luck}/100 (the mean of each move's: {moves})"


def visible(text: str) -> int:
    """Columns ``text`` takes on a terminal (colour codes take none)."""
    return len(_ANSI.sub("", text))


def fit(fields: Sequence[str], width: int, *, joint: str = "  ") -> list[str]:
    """Fields joined on a line while they fit in ``width``, the rest on further lines
    (indented): a line breaks between fields, never inside one."""
    lines: list[str] = []
    line = ""
    for field in fields:
        if line and visible(line + joint + field) > width:
            lines.append(line)
            line = INDENT + field
        else:
            line = f"{line}{joint}{field}" if line else field
    if line:
        lines.append(line)
    return lines


def print_analysis(rules: Rules, turns: Sequence[Turn], secret: Code | None, *, out,
                   style: Style, who: str = "you") -> None:
    if not turns:
        print("No guesses to analyse.", file=out)
        return
    result = analyse(rules, [(t.guess, t.feedback) for t in turns], secret=secret)
    print(file=out)
    for line in analysis_lines(result, style, who, width=columns(out)):
        print(line, file=out)


def columns(out) -> int:
    """The terminal's width (at most :data:`WIDTH`), or :data:`WIDTH` for a pipe or file."""
    try:
        tty = out.isatty()
    except (AttributeError, ValueError):
        tty = False
    return min(WIDTH, shutil.get_terminal_size((WIDTH, 24)).columns) if tty else WIDTH
