"""Leaderboard and stats embeds, and the forget-me prompt."""

from __future__ import annotations

import discord

from ...core.enums import CRACK_MODES, Mode, Period
from ...core.results import MIN_CHALLENGES
from ...ui.messages import guesses, player_name
from .service import LeaderboardPage, PlayerStats, Standing

PERIOD_NAMES = {Period.ALL: "all time", Period.MONTH: "this month", Period.WEEK: "this week"}
MODE_NAMES = {Mode.BREAKER: "Code breakers", Mode.PRIVATE: "Private games",
              Mode.CHALLENGE: "Hardest codes",
              Mode.MATCH_BOT: "Matches against the bot",
              Mode.MATCH_PEOPLE: "Matches between players"}
MATCH_MODES = (Mode.MATCH_BOT, Mode.MATCH_PEOPLE)
MATCH_RULE = "Ranked by matches won, then points per match (2 a win, 1 a draw)"


def match_record(won: int, lost: int, drawn: int) -> str:
    return f"{won} won · {drawn} drawn · {lost} lost"


MEDALS = {1: "\N{FIRST PLACE MEDAL}", 2: "\N{SECOND PLACE MEDAL}", 3: "\N{THIRD PLACE MEDAL}"}
#: Longest name shown on a leaderboard line (cut, then escaped: see ``player_name``).
NAME_WIDTH = 24


def _rank(rank: int) -> str:
    """A medal for the top three (ties share it), the number below."""
    return MEDALS.get(rank) or f"`#{rank:>3}`"


def _score(mode: Mode, s: Standing) -> str:
    if mode in MATCH_MODES:  # average = points per match (see bot/store/stats.py)
        drawn = round((s.average or 0) * s.played) - 2 * s.won
        lost = s.played - s.won - drawn
        return match_record(s.won, lost, drawn)
    if mode in CRACK_MODES:
        return f"{s.won} cracked · {s.average:.2f} avg guesses"
    return f"breakers needed {s.average:.2f} guesses on average · {s.played} challenges"


def _line(mode: Mode, s: Standing) -> str:
    return f"{_rank(s.rank)} **{player_name(s.name, NAME_WIDTH)}** · {_score(mode, s)}"


def leaderboard_embed(page: LeaderboardPage, viewer_name: str, scope_name: str) -> discord.Embed:
    title = f"{MODE_NAMES[page.mode]} · {scope_name} · {PERIOD_NAMES[page.period]} · {page.size}"
    if page.rows:
        description = "\n".join(_line(page.mode, s) for s in page.rows)
    elif page.mode is Mode.BREAKER:
        description = "Nobody has cracked a code here in this period yet: `/mastermind new`!"
    elif page.mode is Mode.PRIVATE:
        description = ("Nobody has cracked a private game here in this period yet: "
                       "`/mastermind new private:True`!")
    elif page.mode in MATCH_MODES:
        description = "Nobody has finished a match here in this period yet: `/match`!"
    else:
        description = (f"Nobody has finished {MIN_CHALLENGES} challenges here in this period yet: "
                       f"`/challenge`!")
    embed = discord.Embed(title=title[:256], description=description,
                          colour=discord.Colour.gold())
    you = player_name(viewer_name, NAME_WIDTH)
    if page.viewer is not None:
        value = f"{_rank(page.viewer.rank)} {_score(page.mode, page.viewer)} (of {page.total})"
        embed.add_field(name=f"{you}'s rank", value=value, inline=False)
    else:
        how = ("crack a code to get on it" if page.mode in CRACK_MODES
               else "finish a match to get on it" if page.mode in MATCH_MODES
               else f"finish {MIN_CHALLENGES} challenges to get on it")
        embed.add_field(name=f"{you}'s rank", value=f"Not on this board yet: {how}.",
                        inline=False)
    rules = ("Ranked by codes cracked, then fewer guesses per crack"
             if page.mode in CRACK_MODES
             else MATCH_RULE if page.mode in MATCH_MODES
             else f"Ranked by the average guesses to break them (at least {MIN_CHALLENGES} codes)")
    embed.set_footer(text=f"Page {page.page + 1}/{page.pages} · {rules} · periods are UTC")
    return embed


def histogram(counts: dict[int, int], width: int = 16) -> str:
    """A small text bar chart: one line per guess count."""
    if not counts:
        return "no wins yet"
    top = max(counts.values())
    lines = []
    for n_guesses in range(min(counts), max(counts) + 1):
        n = counts.get(n_guesses, 0)
        bar = "█" * max(1 if n else 0, round(n / top * width))
        lines.append(f"{n_guesses:>2} │{bar:<{width}} {n}")
    return "```\n" + "\n".join(lines) + "\n```"


def stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    shown = player_name(name, 60)
    embed = discord.Embed(title=f"Stats for {shown} · {stats.size}",
                          colour=discord.Colour.blurple())
    if not stats.played and not stats.challenges:
        embed.description = (f"{shown} hasn't finished a game at {stats.size} yet. "
                             f"Start one with `/mastermind new` or `/challenge`.")
    else:
        rate = f"{stats.win_rate:.0%}" if stats.win_rate is not None else "—"
        average = f"{stats.average_win:.2f}" if stats.average_win is not None else "—"
        best = f"{guesses(stats.best)} (game #{stats.best_game})" if stats.best else "—"
        hinted = f" · {stats.hinted} with hints" if stats.hinted else ""
        private = f" · {stats.private_played} private" if stats.private_played else ""
        embed.add_field(name="Games played", value=f"{stats.played}{hinted}{private}")
        embed.add_field(name="Codes cracked",
                        value=f"{stats.won} of {stats.played} games ({rate})")
        embed.add_field(name="Won by a teammate", value=str(stats.team_wins))
        embed.add_field(name="Guesses per crack", value=average)
        embed.add_field(name="Best game", value=best)
        bot = (f"{stats.challenges} played · the bot needed {stats.bot_average or 0:.2f} "
               f"guesses on average · broke {stats.bot_solved}" if stats.challenges
               else "none yet")
        embed.add_field(name="Challenges", value=bot)
        embed.add_field(name="Cracks by number of guesses", value=histogram(stats.histogram),
                        inline=False)
    for mode, label in ((Mode.MATCH_BOT, "Matches against the bot"),
                        (Mode.MATCH_PEOPLE, "Matches against people")):
        if mode in stats.matches:
            embed.add_field(name=label, value=match_record(*stats.matches[mode]))
    embed.add_field(name="Daily streak", value=daily_streak(stats), inline=False)
    other = ", ".join(f"{size} ({n})" for size, n in list(stats.other_sizes.items())[:8])
    embed.set_footer(text=(f"Other sizes: {other} · choose with the size option · " if other
                           else "") + f"{STREAK_RULE}"[:2048])
    return embed


#: The one streak: the daily code's, as in every daily puzzle (not per size, not any game).
STREAK_RULE = "Daily streak: UTC days in a row with a finished /daily (alive until today ends)"


def daily_streak(stats: PlayerStats) -> str:
    if not stats.dailies:
        return "none yet: `/daily play` is today's code, the same for everyone"
    current, longest = stats.daily_streak
    days = "day" if current == 1 else "days"
    return (f"{current} {days} now · {longest} longest · {stats.dailies_solved} of "
            f"{stats.dailies} dailies solved")


def forget_embed() -> discord.Embed:
    return discord.Embed(
        title="Delete your Mastermind data?",
        description=(
            "This deletes your stats, leaderboard entries and daily plays in every server and "
            "removes your name from the guesses, replies, hints and setting changes you made. "
            "Games stay playable. It can't be undone."
        ),
        colour=discord.Colour.red(),
    )


def forgotten_embed(counts: dict[str, int] | None) -> discord.Embed:
    """After the forget-me prompt: what was deleted, or that nothing was (cancelled)."""
    if counts is None:
        return discord.Embed(title="Nothing was deleted", colour=discord.Colour.dark_grey())
    return discord.Embed(
        title="Your data is deleted",
        description=(
            f"Removed your stats and leaderboard entries and unlinked "
            f"{counts['guesses'] + counts['replies']} guesses and replies from you. "
            f"The games themselves stay, without your name."
        ),
        colour=discord.Colour.dark_grey(),
    )
