"""``--analyse``: the post-game analysis of ``play`` and ``crack``, as terminal lines."""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from engine import Code, Rules, Turn
from engine.analysis import GameAnalysis, MoveAnalysis, analyse
from i18n import tr, trn
from i18n.numbers import number

from .render import Style
from .words import columns as visible
from .words import words

#: Columns the analysis fits in when the output is not a terminal (a pipe, a file).
WIDTH = 100
#: Where a move's wrapped fields continue: under its guess.
INDENT = "   "

def legend() -> list[str]:
    """What the skill and luck scores mean, in the reader's language."""
    return [tr("skill: 100 = every guess split the codes as well as the solver's would "
               "(on average), 0 = no progress"),
            tr("luck: per move, 50 = an average reply, higher = a reply that left fewer codes "
               "than most would have (a find among many codes is lucky); the game's luck is "
               "the mean of its moves")]


def analysis_lines(result: GameAnalysis, style: Style, who: str = "you",
                   width: int = WIDTH) -> list[str]:
    """One line per guess (wrapped between its fields to fit ``width``), the scores, and
    the codes left per guess against the solver's."""
    lines = [style.bold(tr("Analysis"))]
    for move in result.moves:
        lines.extend(fit(_fields(move, style), width))
    lines.extend(fit([tr("Skill {skill}/100 ·", skill=result.skill), _luck(result)], width,
                     joint=" "))
    mine = (tr("Codes left per guess, the computer:") if who == "the computer"
            else tr("Codes left per guess, you:"))
    lines.extend(fit([mine, *(number(n) for n in result.you_path)], width, joint=" "))
    if result.bot_path:
        lines.extend(fit([tr("Codes left per guess, solver:"),
                          *(number(n) for n in result.bot_path)], width, joint=" "))
    for text in legend():
        lines.extend(style.dim(line) for line in fit(words(text), width, joint=""))
    return lines


def _fields(m: MoveAnalysis, style: Style) -> list[str]:
    impossible = "" if m.was_possible else style.dim(" " + tr("(could not be the code)"))
    return [f"{m.turn:>2} {style.code(m.guess)}",
            trn("{before} -> {number} code", "{before} -> {number} codes", m.after,
                before=number(m.before), number=number(m.after)),
            tr("worst {worst}, avg {average}", worst=number(m.worst),
               average=number(m.average, 1)),
            tr("| solver {code} worst {worst}, avg {average}", code=style.code(m.solver_guess),
               worst=number(m.solver_worst), average=number(m.solver_average, 1)),
            f"{m.verdict}{impossible}"]


def _luck(result: GameAnalysis) -> str:
    """The game's luck, with each move's beside it: a lucky find is one move of several."""
    if result.luck is None:
        return tr("luck —")
    moves = ", ".join("—" if m.luck is None else str(round(100 * m.luck))
                      for m in result.moves)
    return tr("luck {luck}/100 (the mean of each move's: {moves})", luck=result.luck,
              moves=moves)


def fit(fields: Sequence[str], width: int, *, joint: str = "  ") -> list[str]:
    """Fields joined on a line while they fit in ``width``, the rest on further lines
    (indented): a line breaks between fields, never inside one."""
    lines: list[str] = []
    line = ""
    for field in fields:
        if line and visible((line + joint + field).rstrip()) > width:
            lines.append(line.rstrip())
            line = INDENT + field.lstrip()
        else:
            line = f"{line}{joint}{field}" if line else field
    if line:
        lines.append(line.rstrip())
    return lines


def print_analysis(rules: Rules, turns: Sequence[Turn], secret: Code | None, *, out,
                   style: Style, who: str = "you") -> None:
    if not turns:
        print(tr("No guesses to analyse."), file=out)
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
