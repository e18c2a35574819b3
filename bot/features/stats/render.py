"""Leaderboard and stats embeds, and the forget-me prompt."""

from __future__ import annotations

from collections.abc import Callable

import discord

from i18n import tr, trn
from i18n.numbers import number, percent

from ...core.enums import CRACK_MODES, Mode, Period
from ...core.records import Standing
from ...core.results import MIN_CHALLENGES
from ...ui.messages import player_name, says
from .errors import BadSize, NotYourPrompt, SeasonWithoutRating
from .service import LeaderboardPage, PlayerStats

#: Each period's and board's name, in the reader's language (called where shown).
PERIOD_NAMES: dict[Period, Callable[[], str]] = {
    Period.ALL: lambda: tr("all time"), Period.MONTH: lambda: tr("this month"),
    Period.WEEK: lambda: tr("this week")}
MODE_NAMES: dict[Mode, Callable[[], str]] = {
    Mode.BREAKER: lambda: tr("Code breakers"), Mode.PRIVATE: lambda: tr("Private games"),
    Mode.CHALLENGE: lambda: tr("Hardest codes"),
    Mode.MATCH_BOT: lambda: tr("Matches against the bot"),
    Mode.MATCH_PEOPLE: lambda: tr("Matches between players")}
MATCH_MODES = (Mode.MATCH_BOT, Mode.MATCH_PEOPLE)


def match_record(won: int, lost: int, drawn: int) -> str:
    return tr("{won} won · {drawn} drawn · {lost} lost", won=number(won), drawn=number(drawn),
              lost=number(lost))


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
        return tr("{cracked} cracked · {average} avg guesses", cracked=number(s.won),
                  average=number(s.average or 0, 2))
    return trn("breakers needed {average} guesses on average · {count} challenge",
               "breakers needed {average} guesses on average · {count} challenges", s.played,
               average=number(s.average or 0, 2))


def _line(mode: Mode, s: Standing) -> str:
    return f"{_rank(s.rank)} **{player_name(s.name, NAME_WIDTH)}** · {_score(mode, s)}"


def _empty(mode: Mode) -> str:
    """A board with nobody on it yet: how to get on it."""
    if mode is Mode.BREAKER:
        return tr("Nobody has cracked a code here in this period yet: `/mastermind new`!")
    if mode is Mode.PRIVATE:
        return tr("Nobody has cracked a private game here in this period yet: "
                  "`/mastermind new private:True`!")
    if mode in MATCH_MODES:
        return tr("Nobody has finished a match here in this period yet: `/match`!")
    return trn("Nobody has finished {count} challenge here in this period yet: `/challenge`!",
               "Nobody has finished {count} challenges here in this period yet: `/challenge`!",
               MIN_CHALLENGES)


def _not_on_it(mode: Mode) -> str:
    if mode in CRACK_MODES:
        return tr("Not on this board yet: crack a code to get on it.")
    if mode in MATCH_MODES:
        return tr("Not on this board yet: finish a match to get on it.")
    return trn("Not on this board yet: finish {count} challenge to get on it.",
               "Not on this board yet: finish {count} challenges to get on it.", MIN_CHALLENGES)


def _ranking_rule(mode: Mode) -> str:
    if mode in CRACK_MODES:
        return tr("Ranked by codes cracked, then fewer guesses per crack")
    if mode in MATCH_MODES:
        return tr("Ranked by matches won, then points per match (2 a win, 1 a draw)")
    return trn("Ranked by the average guesses to break them (at least {count} code)",
               "Ranked by the average guesses to break them (at least {count} codes)",
               MIN_CHALLENGES)


def leaderboard_embed(page: LeaderboardPage, viewer_name: str, scope_name: str) -> discord.Embed:
    title = " · ".join((MODE_NAMES[page.mode](), scope_name, PERIOD_NAMES[page.period](),
                        page.size))
    description = ("\n".join(_line(page.mode, s) for s in page.rows) if page.rows
                   else _empty(page.mode))
    embed = discord.Embed(title=title[:256], description=description,
                          colour=discord.Colour.gold())
    rank_title = tr("{player}'s rank", player=player_name(viewer_name, NAME_WIDTH))
    if page.viewer is not None:
        value = tr("{rank} {score} (of {total})", rank=_rank(page.viewer.rank),
                   score=_score(page.mode, page.viewer), total=number(page.total))
        embed.add_field(name=rank_title, value=value, inline=False)
    else:
        embed.add_field(name=rank_title, value=_not_on_it(page.mode), inline=False)
    embed.set_footer(text=tr("Page {page}/{pages} · {rule} · periods are UTC",
                             page=page.page + 1, pages=page.pages,
                             rule=_ranking_rule(page.mode)))
    return embed


def histogram(counts: dict[int, int], width: int = 16) -> str:
    """A small text bar chart: one line per guess count."""
    if not counts:
        return tr("no wins yet")
    top = max(counts.values())
    lines = []
    for n_guesses in range(min(counts), max(counts) + 1):
        n = counts.get(n_guesses, 0)
        bar = "█" * max(1 if n else 0, round(n / top * width))
        lines.append(f"{n_guesses:>2} │{bar:<{width}} {number(n)}")
    return "```\n" + "\n".join(lines) + "\n```"


def _played(stats: PlayerStats) -> str:
    """``12 · 2 with hints · 3 private``."""
    parts = [number(stats.played)]
    if stats.hinted:
        # TRANSLATORS: {count} games played with hints (English has one form for both).
        parts.append(trn("{count} with hints", "{count} with hints", stats.hinted))
    if stats.private_played:
        # TRANSLATORS: {count} private games (English has one form for both).
        parts.append(trn("{count} private", "{count} private", stats.private_played))
    return " · ".join(parts)


def _challenges(stats: PlayerStats) -> str:
    if not stats.challenges:
        return tr("none yet")
    # TRANSLATORS: {count} challenges played (English has one form for both).
    return trn("{count} played · the bot needed {average} guesses on average · broke {broken}",
               "{count} played · the bot needed {average} guesses on average · broke {broken}",
               stats.challenges, average=number(stats.bot_average or 0, 2),
               broken=number(stats.bot_solved))


def stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    shown = player_name(name, 60)
    embed = discord.Embed(title=tr("Stats for {player} · {size}", player=shown, size=stats.size),
                          colour=discord.Colour.blurple())
    if not stats.played and not stats.challenges:
        embed.description = tr("{player} hasn't finished a game at {size} yet. Start one with "
                               "`/mastermind new` or `/challenge`.", player=shown,
                               size=stats.size)
    else:
        rate = percent(stats.win_rate) if stats.win_rate is not None else "—"
        average = number(stats.average_win, 2) if stats.average_win is not None else "—"
        best = (trn("{count} guess (game #{game})", "{count} guesses (game #{game})",
                    stats.best, game=stats.best_game) if stats.best else "—")
        embed.add_field(name=tr("Games played"), value=_played(stats))
        embed.add_field(name=tr("Codes cracked"),
                        value=trn("{won} of {count} game ({rate})",
                                  "{won} of {count} games ({rate})", stats.played,
                                  won=number(stats.won), rate=rate))
        embed.add_field(name=tr("Won by a teammate"), value=number(stats.team_wins))
        embed.add_field(name=tr("Guesses per crack"), value=average)
        embed.add_field(name=tr("Best game"), value=best)
        embed.add_field(name=tr("Challenges"), value=_challenges(stats))
        embed.add_field(name=tr("Cracks by number of guesses"),
                        value=histogram(stats.histogram), inline=False)
    for mode, label in ((Mode.MATCH_BOT, tr("Matches against the bot")),
                        (Mode.MATCH_PEOPLE, tr("Matches against people"))):
        if mode in stats.matches:
            embed.add_field(name=label, value=match_record(*stats.matches[mode]))
    embed.add_field(name=tr("Daily streak"), value=daily_streak(stats), inline=False)
    other = ", ".join(f"{size} ({number(n)})"
                      for size, n in list(stats.other_sizes.items())[:8])
    rule = streak_rule()
    footer = tr("Other sizes: {sizes} · choose with the size option · {rule}", sizes=other,
                rule=rule) if other else rule
    embed.set_footer(text=footer[:2048])
    return embed


def streak_rule() -> str:
    """The one streak: the daily code's, as in every daily puzzle (not per size, not any
    game)."""
    return tr("Daily streak: UTC days in a row with a finished /daily (alive until today ends)")


def daily_streak(stats: PlayerStats) -> str:
    if not stats.dailies:
        return tr("none yet: `/daily play` is today's code, the same for everyone")
    current, longest = stats.daily_streak
    return " · ".join((
        trn("{count} day now", "{count} days now", current),
        # TRANSLATORS: the longest daily streak, {count} days.
        trn("{count} longest", "{count} longest", longest),
        trn("{solved} of {count} daily solved", "{solved} of {count} dailies solved",
            stats.dailies, solved=number(stats.dailies_solved))))


def forget_embed() -> discord.Embed:
    return discord.Embed(
        title=tr("Delete your Mastermind data?"),
        description=tr(
            "This deletes your stats, leaderboard entries and daily plays in every server and "
            "removes your name from the guesses, replies, hints and setting changes you made. "
            "Games stay playable. It can't be undone."),
        colour=discord.Colour.red(),
    )


def forgotten_embed(counts: dict[str, int] | None) -> discord.Embed:
    """After the forget-me prompt: what was deleted, or that nothing was (cancelled)."""
    if counts is None:
        return discord.Embed(title=tr("Nothing was deleted"), colour=discord.Colour.dark_grey())
    return discord.Embed(
        title=tr("Your data is deleted"),
        description=trn(
            "Removed your stats and leaderboard entries and unlinked {count} guess or reply "
            "from you. The games themselves stay, without your name.",
            "Removed your stats and leaderboard entries and unlinked {count} guesses and "
            "replies from you. The games themselves stay, without your name.",
            counts["guesses"] + counts["replies"]),
        colour=discord.Colour.dark_grey(),
    )


# ---- the words for stats mistakes ---------------------------------------------------------
says(NotYourPrompt)(lambda e: (tr("That's not yours"),
                               tr("Only the person who asked can confirm this.")))


@says(BadSize)
def _bad_size(error: BadSize) -> tuple[str, str]:
    return tr("Unknown size"), tr(
        "{size} is not a rule size: write pegs x colours like `4x6`, or `5x8 no-repeats`.",
        size=repr(error.text))


says(SeasonWithoutRating)(lambda e: (tr("Seasons are for ratings"), tr(
    "`season:` picks a season of the ratings: use it with the rating mode. The other "
    "leaderboards take `period:` instead. Nothing was shown.")))
