"""``--analyse``: the post-game analysis of ``play`` and ``crack``, as terminal lines."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Code, Rules, Turn
from engine.analysis import GameAnalysis, analyse

from .render import Style

SKILL = ("skill: 100 = every guess split the codes as well as the solver's would "
         "(on average), 0 = no progress")
LUCK = "luck: 50 = average replies, higher = the replies left fewer codes than usual"


def analysis_lines(result: GameAnalysis, style: Style, who: str = "you") -> list[str]:
    """One line per guess, the scores, and the codes left per guess against the solver's."""
    lines = [style.bold("Analysis")]
    for m in result.moves:
        mark = "" if m.was_possible else style.dim(" (could not be the code)")
        lines.append(
            f"{m.turn:>2} {style.code(m.guess)}  {m.before:,} -> {m.after:,} codes"
            f"  worst {m.worst:,}, avg {m.average:.1f}"
            f" | solver {style.code(m.solver_guess)} worst {m.solver_worst:,},"
            f" avg {m.solver_average:.1f}  {m.verdict}{mark}")
    luck = "—" if result.luck is None else str(result.luck)
    lines.append(f"Skill {result.skill}/100 · luck {luck}/100")
    you = " ".join(f"{n:,}" for n in result.you_path)
    lines.append(f"Codes left per guess, {who}: {you}")
    if result.bot_path:
        lines.append(f"Codes left per guess, solver: {' '.join(f'{n:,}' for n in result.bot_path)}")
    lines.append(style.dim(SKILL))
    lines.append(style.dim(LUCK))
    return lines


def print_analysis(rules: Rules, turns: Sequence[Turn], secret: Code | None, *, out,
                   style: Style, who: str = "you") -> None:
    if not turns:
        print("No guesses to analyse.", file=out)
        return
    result = analyse(rules, [(t.guess, t.feedback) for t in turns], secret=secret)
    print(file=out)
    for line in analysis_lines(result, style, who):
        print(line, file=out)
