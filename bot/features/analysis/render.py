"""The analysis as the clicker sees it: one line per guess, the scores, the chart."""

from __future__ import annotations

import discord

from engine import format_code

from ...core.errors import GameNotOver
from ...ui.messages import says
from ...ui.pegs import code_line, key_pegs, rows_within
from .service import Report

CHART_NAME = "analysis.png"

SKILL_HELP = ("**Skill** (0-100): for each guess, how much it narrowed the codes on average "
              "compared with the best of your guess and the solver's, on a log scale "
              "(100 = as good as the solver every time).")
LUCK_HELP = ("**Luck** (0-100): for each guess, the share of the possible codes whose reply "
             "would have left you more codes than the reply you got. 50 is average luck.")


def _count(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:.1f}"


def _move_line(report: Report, i: int) -> str:
    m = report.analysis.moves[i]
    impossible = "" if m.was_possible else " · not a possible code"
    solver = ("= solver" if m.guess == m.solver_guess
              else f"solver `{format_code(m.solver_guess)}` ≤{m.solver_worst:,} "
                   f"~{_count(m.solver_average)}")
    return (f"`{m.turn:>2}` {code_line(m.guess)} {key_pegs(m.feedback)} "
            f"{m.before:,}→**{m.after:,}** · ≤{m.worst:,} ~{_count(m.average)} · {solver}"
            f"{impossible} · *{m.verdict}*")


def analysis_embed(report: Report) -> discord.Embed:
    result = report.analysis
    moves = range(len(result.moves))
    body = (rows_within(moves, lambda i: _move_line(report, i), 3900) if moves
            else "No guesses were made in this game.")
    if len(body) > 3900:
        body = body[:3900].rsplit("\n", 1)[0] + "\n…"
    embed = discord.Embed(
        title=f"Analysis · {report.source.title} · {report.source.rules.size_label}",
        description=body, colour=discord.Colour.teal())
    embed.add_field(name="Skill", value=f"**{result.skill}**/100")
    embed.add_field(name="Luck", value="—" if result.luck is None else f"**{result.luck}**/100")
    you = " → ".join(f"{n:,}" for n in result.you_path) or "—"
    bot = " → ".join(f"{n:,}" for n in result.bot_path) or "the code is unknown"
    embed.add_field(name="Codes left per guess",
                    value=f"{report.source.player}: {you}\nsolver: {bot}"[:1024], inline=False)
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text="before→after codes possible · ≤ worst case · ~ average left · "
                          "skill and luck: /mastermind help")
    return embed


@says(GameNotOver)
def _not_over(error: GameNotOver) -> tuple[str, str]:
    return "This game is still running", (
        f"Game #{error.game.id} is still running: its analysis would help its players. "
        f"Press Analyse once it is over.")
