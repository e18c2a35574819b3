"""The analysis as the clicker sees it: one line per guess, the scores, the chart."""

from __future__ import annotations

from collections.abc import Callable

import discord

from engine import format_code
from i18n import tr
from i18n.numbers import number

from ...ui.messages import says
from ...ui.pegs import code_line, key_pegs, rows_within
from .errors import GameNotOver
from .service import PLAYERS, Report

CHART_NAME = "analysis.png"

class Words:
    """Words said in the reader's language each time they are shown (``f"{SKILL_HELP}"``):
    a constant other features show, such as the help's page on the analysis."""

    def __init__(self, words: Callable[[], str]):
        self._words = words

    def __str__(self) -> str:
        return self._words()

    def __format__(self, spec: str) -> str:
        return format(self._words(), spec)


#: What the scores mean (the help shows them too).
SKILL_HELP = Words(lambda: tr(
    "**Skill** (0-100): for each guess, how much it narrowed the codes on average compared "
    "with the best of your guess and the solver's, on a log scale (100 = as good as the "
    "solver every time)."))
LUCK_HELP = Words(lambda: tr(
    "**Luck** (0-100): for each guess, the share of the possible codes whose reply would "
    "have left you more codes than the reply you got. 50 is average luck."))


def _count(value: float) -> str:
    """An average count of codes: ``1,296`` from 10 on, ``2.5`` below."""
    return number(value, 0) if value >= 10 else number(value, 1)


def _move_line(report: Report, i: int) -> str:
    m = report.analysis.moves[i]
    impossible = "" if m.was_possible else " · " + tr("not a possible code")
    solver = ("= " + tr("solver") if m.guess == m.solver_guess
              else tr("solver `{code}` ≤{worst} ~{average}", code=format_code(m.solver_guess),
                      worst=number(m.solver_worst), average=_count(m.solver_average)))
    return (f"`{m.turn:>2}` {code_line(m.guess)} {key_pegs(m.feedback)} "
            f"{number(m.before)}→**{number(m.after)}** · ≤{number(m.worst)} ~{_count(m.average)}"
            f" · {solver}{impossible} · *{m.verdict}*")


def analysis_embed(report: Report) -> discord.Embed:
    result = report.analysis
    moves = range(len(result.moves))
    body = (rows_within(moves, lambda i: _move_line(report, i), 3900) if moves
            else tr("No guesses were made in this game."))
    if len(body) > 3900:
        body = body[:3900].rsplit("\n", 1)[0] + "\n…"
    embed = discord.Embed(
        title=tr("Analysis · {game} · {size}", game=report.source.title,
                 size=report.source.rules.size_label)[:256],
        description=body, colour=discord.Colour.teal())
    embed.add_field(name=tr("Skill"), value=f"**{result.skill}**/100")
    embed.add_field(name=tr("Luck"),
                    value="—" if result.luck is None else f"**{result.luck}**/100")
    you = " → ".join(number(n) for n in result.you_path) or "—"
    bot = " → ".join(number(n) for n in result.bot_path) or tr("the code is unknown")
    embed.add_field(name=tr("Codes left per guess"),
                    value=f"{PLAYERS[report.source.player]()}: {you}\n{tr('solver')}: {bot}"[:1024],
                    inline=False)
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text=tr("before→after codes possible · ≤ worst case · ~ average left · "
                             "skill and luck: /mastermind help"))
    return embed


@says(GameNotOver)
def _not_over(error: GameNotOver) -> tuple[str, str]:
    return tr("This game is still running"), tr(
        "Game #{id} is still running: its analysis would help its players. Press Analyse "
        "once it is over.", id=error.game.id)
