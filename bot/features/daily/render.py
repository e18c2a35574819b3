"""The daily's private board, its spoiler-free share grid and the day's leaderboard."""

from __future__ import annotations

import discord

from engine import Code, example, format_code

from ...core.errors import DailyAlreadyPlayed, DailyNotFinished
from ...store.daily import DailyPlay
from ...ui.messages import guesses, mention, player_name, says
from ...ui.pegs import code_line, feedback_row, legend, share_rows
from ..analysis.buttons import AnalyseButton
from .service import DAILY_RULES, DailyRaced, DailyRepeat, DayStanding

RULES = DAILY_RULES


def daily_embed(day: str, play: DailyPlay | None, *, secret: Code | None,
                here: DayStanding | None = None, everywhere: DayStanding | None = None,
                yesterday: Code | None = None) -> discord.Embed:
    """The player's own board (sent privately). ``secret`` only once they finished."""
    rows = [feedback_row(g.turn, g.code, g.feedback, RULES) for g in (play.guesses if play else ())]
    if play is None or not play.finished:
        used = len(play.guesses) if play else 0
        head = (f"Today's code is the same for everyone, on every server. Only you see this "
                f"board. {RULES.max_guesses - used} of {RULES.max_guesses} guesses left: "
                f"`/daily play guess:{example(RULES)}`")
        colour = discord.Colour.blurple()
        title = f"Daily code · {day}"
    else:
        assert secret is not None
        n = len(play.guesses)
        title = (f"Daily {day}: broken in {guesses(n)}!" if play.solved
                 else f"Daily {day}: the code wins")
        head = f"The code was {code_line(secret)}. `/daily share` shows your grid to the channel."
        colour = discord.Colour.green() if play.solved else discord.Colour.red()
    embed = discord.Embed(title=title, description="\n\n".join(
        [head, "\n".join(rows) or "*No guesses yet.*"]), colour=colour)
    for standing, where in ((here, "this server"), (everywhere, "all servers")):
        if standing is not None:
            rank = f" · you are #{standing.rank}" if standing.rank else ""
            embed.add_field(name=f"Today, {where}",
                            value=f"{standing.solved} of {standing.finished} solved{rank}")
    embed.add_field(name="Colours", value=legend(RULES), inline=False)
    if yesterday is not None:  # its day is over: no spoiler
        embed.add_field(name="Yesterday's code", value=code_line(yesterday), inline=False)
    embed.set_footer(text=f"{RULES.describe()} · a new code at 00:00 UTC")
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
    return (f"**Mastermind daily {play.day}** · {score}/{RULES.max_guesses} · "
            f"{mention(user_id)}\n{grid}")


def leaderboard_embed(standing: DayStanding, scope_name: str) -> discord.Embed:
    lines = []
    for i, row in enumerate(standing.rows, start=1):
        name = player_name(row.name)
        how = guesses(row.guesses) if row.solved else "not solved"
        lines.append(f"`#{i:>2}` **{name}** · {how}")
    embed = discord.Embed(
        title=f"Daily {standing.day} · {scope_name}",
        description="\n".join(lines) or "Nobody has finished today's code here yet: `/daily play`!",
        colour=discord.Colour.gold())
    rank = f" · you are #{standing.rank}" if standing.rank else ""
    embed.set_footer(text=f"{standing.solved} of {standing.finished} solved{rank} · solved "
                          f"first, then fewest guesses, then earliest")
    return embed


@says(DailyNotFinished)
def _not_finished(error: DailyNotFinished) -> tuple[str, str]:
    return "Finish the daily first", (
        f"That would show the daily of {error.day} before you finished it. Play it with "
        f"`/daily play`: your result opens once you finish.")


@says(DailyAlreadyPlayed)
def _already(error: DailyAlreadyPlayed) -> tuple[str, str]:
    how = f"you broke it in {guesses(error.guesses)}" if error.won else "the code won"
    return "Already played today", (
        f"You already played the daily of {error.day} ({how}): one attempt per day, on every "
        f"server. `/daily share` posts your grid, `/daily leaderboard` shows how others did. "
        f"A new code comes at 00:00 UTC.")


@says(DailyRepeat)
def _repeat(error: DailyRepeat) -> tuple[str, str]:
    g = error.earlier
    return "Already on your board", (
        f"`{format_code(g.code)}` is already your guess {g.turn}, so it costs no guess. Try a "
        f"code that fits every row.")


@says(DailyRaced)
def _raced(error: DailyRaced) -> tuple[str, str]:
    return "Two guesses at once", (
        "Another guess of yours was stored at the same moment; this one wasn't. "
        "`/daily play` shows your board.")
