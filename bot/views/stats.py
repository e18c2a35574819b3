"""Leaderboard and stats embeds, the leaderboard's paging buttons and forget-me's confirm."""

from __future__ import annotations

import re

import discord

from ..errors import NotAllowed
from ..replies import report_error
from ..stats import LeaderboardPage, PlayerStats, Standing
from ..store.stats import MIN_CHALLENGES

PERIOD_NAMES = {"all": "all time", "month": "this month", "week": "this week"}
MODE_NAMES = {"breaker": "Code breakers", "challenge": "Hardest codes for the bot"}
SIZE_PATTERN = re.compile(r"^[2-8]x[2-9]( no-repeats)?$")


def size_code(size: str) -> str:
    """``4x6 no-repeats`` -> ``4x6n`` (fits a custom_id, no spaces)."""
    return size.replace(" no-repeats", "n")


def size_from_code(code: str) -> str:
    return code[:-1] + " no-repeats" if code.endswith("n") else code


def _line(mode: str, s: Standing) -> str:
    name = discord.utils.escape_markdown(s.name)[:40]
    if mode == "breaker":
        return f"`#{s.rank:>3}` **{name}** · {s.won} cracked · {s.average:.2f} avg guesses"
    return (f"`#{s.rank:>3}` **{name}** · the bot needed {s.average:.2f} guesses on average "
            f"· {s.played} challenges")


def leaderboard_embed(page: LeaderboardPage, viewer_name: str, scope_name: str) -> discord.Embed:
    title = f"{MODE_NAMES[page.mode]} · {scope_name} · {PERIOD_NAMES[page.period]} · {page.size}"
    if page.rows:
        description = "\n".join(_line(page.mode, s) for s in page.rows)
    elif page.mode == "breaker":
        description = "Nobody has cracked a code here in this period yet: `/mastermind new`!"
    else:
        description = (f"Nobody has finished {MIN_CHALLENGES} challenges here in this period yet: "
                       f"`/challenge`!")
    embed = discord.Embed(title=title[:256], description=description,
                          colour=discord.Colour.gold())
    you = discord.utils.escape_markdown(viewer_name)[:40]
    if page.viewer is not None:
        value = _line(page.mode, page.viewer).replace(f"**{page.viewer.name}**", "") + (
            f" (of {page.total})")
        embed.add_field(name=f"{you}'s rank", value=value.strip(), inline=False)
    else:
        how = ("crack a code to get on it" if page.mode == "breaker"
               else f"finish {MIN_CHALLENGES} challenges to get on it")
        embed.add_field(name=f"{you}'s rank", value=f"Not on this board yet: {how}.",
                        inline=False)
    rules = ("Ranked by codes cracked, then fewer guesses per crack" if page.mode == "breaker"
             else f"Ranked by the bot's average guesses (at least {MIN_CHALLENGES} challenges)")
    embed.set_footer(text=f"Page {page.page + 1}/{page.pages} · {rules} · periods are UTC")
    return embed


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mml:(?P<mode>breaker|challenge):(?P<scope>\d+):(?P<period>all|month|week)"
             r":(?P<size>[2-8]x[2-9]n?):(?P<page>\d+):(?P<way>prev|next)",
):
    """Prev/next on a leaderboard; the custom_id says which board and page to show."""

    def __init__(self, mode: str, scope: int, period: str, size: str, page: int, way: str, *,
                 disabled: bool = False):
        self.mode, self.scope, self.period, self.size, self.page = mode, scope, period, size, page
        super().__init__(discord.ui.Button(
            label="◀ Prev" if way == "prev" else "Next ▶", style=discord.ButtonStyle.secondary,
            custom_id=f"mml:{mode}:{scope}:{period}:{size_code(size)}:{page}:{way}",
            disabled=disabled,
        ))

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /) -> PageButton:
        return cls(match["mode"], int(match["scope"]), match["period"],
                   size_from_code(match["size"]), int(match["page"]), match["way"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            embed, view = await render_leaderboard(
                interaction, mode=self.mode, scope=self.scope, period=self.period,
                size=self.size, page=self.page,
            )
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as exc:  # report_error logs the unexpected ones
            await report_error(interaction, exc)


async def render_leaderboard(interaction: discord.Interaction, *, mode: str, scope: int,
                             period: str, size: str, page: int):
    service = interaction.client.stats  # type: ignore[attr-defined]
    board = await service.leaderboard(mode=mode, scope=scope, period=period, size=size,
                                      page=page, viewer_id=interaction.user.id)
    scope_name = "all servers" if scope == 0 else (
        interaction.guild.name if interaction.guild else "this server")
    name = getattr(interaction.user, "display_name", interaction.user.name)
    embed = leaderboard_embed(board, name, scope_name)
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(mode, scope, period, size, max(board.page - 1, 0), "prev",
                             disabled=board.page == 0))
    view.add_item(PageButton(mode, scope, period, size, min(board.page + 1, board.pages - 1),
                             "next", disabled=board.page >= board.pages - 1))
    return embed, view


def histogram(counts: dict[int, int], width: int = 16) -> str:
    """A small text bar chart: one line per guess count."""
    if not counts:
        return "no wins yet"
    top = max(counts.values())
    lines = []
    for guesses in range(min(counts), max(counts) + 1):
        n = counts.get(guesses, 0)
        bar = "█" * max(1 if n else 0, round(n / top * width))
        lines.append(f"{guesses:>2} │{bar:<{width}} {n}")
    return "```\n" + "\n".join(lines) + "\n```"


def stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    shown = discord.utils.escape_markdown(name)[:60]
    embed = discord.Embed(title=f"Stats for {shown} · {stats.size}"[:256],
                          colour=discord.Colour.blurple())
    if not stats.played and not stats.challenges:
        embed.description = (f"{shown} hasn't finished a game at {stats.size} yet. "
                             f"Start one with `/mastermind new` or `/challenge`.")
    else:
        rate = f"{stats.win_rate:.0%}" if stats.win_rate is not None else "—"
        average = f"{stats.average_win:.2f}" if stats.average_win is not None else "—"
        plural = "guess" if stats.best == 1 else "guesses"
        best = f"{stats.best} {plural} (game #{stats.best_game})" if stats.best else "—"
        embed.add_field(name="Games played", value=str(stats.played))
        embed.add_field(name="Codes cracked", value=f"{stats.won} ({rate})")
        embed.add_field(name="Guesses per crack", value=average)
        embed.add_field(name="Best game", value=best)
        embed.add_field(name="Daily streak",
                        value=f"{stats.current_streak} now · {stats.longest_streak} longest")
        bot = (f"{stats.challenges} played · the bot needed {stats.bot_average:.2f} guesses on "
               f"average · broke {stats.bot_solved}" if stats.challenges else "none yet")
        embed.add_field(name="Challenges", value=bot)
        embed.add_field(name="Cracks by number of guesses", value=histogram(stats.histogram),
                        inline=False)
    if stats.other_sizes:
        other = ", ".join(f"{size} ({n})" for size, n in list(stats.other_sizes.items())[:8])
        embed.set_footer(text=f"Other sizes: {other} · choose with the size option"[:2048])
    else:
        embed.set_footer(text="Streaks count UTC days with a finished game")
    return embed


class ForgetButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mmf:(?P<action>yes|no):(?P<user>\d+)",
):
    def __init__(self, action: str, user_id: int):
        self.action, self.user_id = action, user_id
        label, style = (("Delete my data", discord.ButtonStyle.danger) if action == "yes"
                        else ("Cancel", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"mmf:{action}:{user_id}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /) -> ForgetButton:
        return cls(match["action"], int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if interaction.user.id != self.user_id:
                raise NotAllowed("Only the person who asked can confirm this.")
            if self.action == "no":
                embed = discord.Embed(title="Nothing was deleted",
                                      colour=discord.Colour.dark_grey())
            else:
                counts = await interaction.client.stats.forget(self.user_id)  # type: ignore
                embed = discord.Embed(
                    title="Your data is deleted",
                    description=(
                        f"Removed your stats and leaderboard entries and unlinked "
                        f"{counts['guesses'] + counts['replies']} guesses and replies from you. "
                        f"The games themselves stay, without your name."
                    ),
                    colour=discord.Colour.dark_grey(),
                )
            await interaction.response.edit_message(embed=embed, view=None)
        except Exception as exc:  # report_error logs the unexpected ones
            await report_error(interaction, exc)


def forget_prompt(user_id: int) -> tuple[discord.Embed, discord.ui.View]:
    embed = discord.Embed(
        title="Delete your Mastermind data?",
        description=(
            "This deletes your stats and leaderboard entries in every server and removes your "
            "name from the guesses and replies you made. Games stay playable. It can't be undone."
        ),
        colour=discord.Colour.red(),
    )
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton("yes", user_id))
    view.add_item(ForgetButton("no", user_id))
    return embed, view

