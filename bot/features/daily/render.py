"""The daily's private board, its spoiler-free share grid and the day's leaderboard."""

from __future__ import annotations

import discord

from engine import Code, example, format_code
from i18n import command, tr, trn
from i18n.numbers import day as show_day
from i18n.numbers import number

from ...core.enums import CodeEntry
from ...core.records import DailyPlay
from ...ui.messages import mention, player_name, says, typed_as
from ...ui.pegs import code_line, feedback_row, legend, share_rows
from ..analysis.buttons import AnalyseButton
from .errors import DailyAlreadyPlayed, DailyNotFinished, DailyRaced, DailyRepeat
from .service import DAILY_RULES, DayStanding

RULES = DAILY_RULES


def _standing_line(standing: DayStanding) -> str:
    """``3 of 5 solved · you are #2``."""
    line = tr("{solved} of {finished} solved", solved=number(standing.solved),
              finished=number(standing.finished))
    if standing.rank:
        line += " · " + tr("you are #{rank}", rank=standing.rank)
    return line


def daily_embed(day: str, play: DailyPlay | None, *, secret: Code | None,
                here: DayStanding | None = None, everywhere: DayStanding | None = None,
                yesterday: Code | None = None) -> discord.Embed:
    """The player's own board (sent privately). ``secret`` only once they finished."""
    rows = [feedback_row(g.turn, g.code, g.feedback, RULES) for g in (play.guesses if play else ())]
    shown = show_day(day)
    if play is None or not play.finished:
        left = RULES.max_guesses - (len(play.guesses) if play else 0)
        # TRANSLATORS: {left} of {total} guesses are left (10 in all): word it so that any
        # count reads right, e.g. "Guesses left: {left}/{total}".
        head = tr("Today's code is the same for everyone, on every server. Only you see this "
                  "board. {left} of {total} guesses left: `{command}`", left=left,
                  total=RULES.max_guesses, command=command(f"/daily play guess:{example(RULES)}"))
        colour = discord.Colour.blurple()
        title = tr("Daily code · {day}", day=shown)
    else:
        assert secret is not None
        title = (trn("Daily {day}: broken in {count} guess!",
                     "Daily {day}: broken in {count} guesses!", len(play.guesses), day=shown)
                 if play.solved else tr("Daily {day}: the code wins", day=shown))
        head = tr("The code was {code}. `/daily share` shows your grid to the channel.",
                  code=code_line(secret))
        colour = discord.Colour.green() if play.solved else discord.Colour.red()
    embed = discord.Embed(title=title, description="\n\n".join(
        [head, "\n".join(rows) or tr("*No guesses yet.*")]), colour=colour)
    if here is not None:
        embed.add_field(name=tr("Today, this server"), value=_standing_line(here))
    if everywhere is not None:
        embed.add_field(name=tr("Today, all servers"), value=_standing_line(everywhere))
    embed.add_field(name=tr("Colours"), value=legend(RULES), inline=False)
    if yesterday is not None:  # its day is over: no spoiler
        embed.add_field(name=tr("Yesterday's code"), value=code_line(yesterday), inline=False)
    embed.set_footer(text=tr("{rules} · a new code at 00:00 UTC", rules=RULES.describe()))
    return embed


def daily_view(day: str, play: DailyPlay | None) -> discord.ui.View | None:
    """A finished daily's Analyse button (for its player only: the board is private)."""
    if play is None or not play.finished:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(AnalyseButton(day=day))
    return view


def share_text(play: DailyPlay, user_id: int) -> str:
    """The spoiler-free result: key pegs per guess, no colours (bot.ui.pegs.share_rows)."""
    score = len(play.guesses) if play.solved else "X"
    grid = "\n".join(share_rows([g.feedback for g in play.guesses], RULES.pegs))
    heading = tr("**Mastermind daily {day}** · {score}/{total} · {player}", day=show_day(play.day),
                 score=score, total=RULES.max_guesses, player=mention(user_id))
    return f"{heading}\n{grid}"


def leaderboard_embed(standing: DayStanding, scope_name: str) -> discord.Embed:
    lines = []
    for i, row in enumerate(standing.rows, start=1):
        name = player_name(row.name)
        how = (trn("{count} guess", "{count} guesses", row.guesses) if row.solved
               else tr("not solved"))
        lines.append(f"`#{i:>2}` **{name}** · {how}")
    embed = discord.Embed(
        title=tr("Daily {day} · {scope}", day=show_day(standing.day), scope=scope_name),
        description="\n".join(lines) or tr(
            "Nobody has finished today's code here yet: `/daily play`!"),
        colour=discord.Colour.gold())
    embed.set_footer(text=tr("{standing} · solved first, then fewest guesses, then earliest",
                             standing=_standing_line(standing)))
    return embed


typed_as(CodeEntry.DAILY)(lambda code: command(f"/daily play guess:{code}"))


@says(DailyNotFinished)
def _not_finished(error: DailyNotFinished) -> tuple[str, str]:
    return tr("Finish the daily first"), tr(
        "That would show the daily of {day} before you finished it. Play it with "
        "`/daily play`: your result opens once you finish.", day=show_day(error.day))


@says(DailyAlreadyPlayed)
def _already(error: DailyAlreadyPlayed) -> tuple[str, str]:
    day = show_day(error.day)
    text = (trn("You already played the daily of {day} (you broke it in {count} guess): one "
                "attempt per day, on every server. `/daily share` posts your grid, `/daily "
                "leaderboard` shows how others did. A new code comes at 00:00 UTC.",
                "You already played the daily of {day} (you broke it in {count} guesses): one "
                "attempt per day, on every server. `/daily share` posts your grid, `/daily "
                "leaderboard` shows how others did. A new code comes at 00:00 UTC.",
                error.guesses, day=day) if error.won else
            tr("You already played the daily of {day} (the code won): one attempt per day, on "
               "every server. `/daily share` posts your grid, `/daily leaderboard` shows how "
               "others did. A new code comes at 00:00 UTC.", day=day))
    return tr("Already played today"), text


@says(DailyRepeat)
def _repeat(error: DailyRepeat) -> tuple[str, str]:
    g = error.earlier
    return tr("Already on your board"), tr(
        "`{code}` is already your guess {turn}, so it costs no guess. Try a code that fits "
        "every row.", code=format_code(g.code), turn=g.turn)


@says(DailyRaced)
def _raced(error: DailyRaced) -> tuple[str, str]:
    return tr("Two guesses at once"), tr(
        "Another guess of yours was stored at the same moment; this one wasn't. "
        "`/daily play` shows your board.")
