"""``/mastermind help`` in pages, each one phone screen, turned with persistent buttons.

Each page is a pure function of its name: the buttons carry the page (``mmh:<page>``), so an
old help message still turns after a restart.
"""

from __future__ import annotations

from enum import StrEnum

import discord

from engine import PALETTE, STRATEGIES, Feedback, Rules
from engine.rules import MAX_COLORS, MAX_GUESSES, MAX_PEGS, MIN_COLORS, MIN_PEGS
from i18n import command, tr

from ...ui.pegs import (
    BLACK_PEG,
    SHARE_BLACK,
    SHARE_EMPTY,
    SHARE_WHITE,
    WHITE_PEG,
    code_line,
    feedback_row,
    peg_emoji,
)
from ..analysis.render import LUCK_HELP, SKILL_HELP


class Page(StrEnum):
    PLAY = "play"
    CODES = "codes"
    BOT = "bot"
    MORE = "more"


def tabs() -> dict[Page, str]:
    """Each page's button label, in the order the buttons show (one line on a 400 px phone,
    in every language: keep them short)."""
    return {Page.PLAY: tr("Play"), Page.CODES: tr("Codes"), Page.BOT: tr("Challenge"),
            Page.MORE: tr("More")}


def _play() -> discord.Embed:
    embed = discord.Embed(title=tr("How to play Mastermind"), description=tr(
        "I pick a secret code of coloured pegs; you find it by guessing. I answer each "
        "guess with key pegs:\n"
        "`{black}` **black**: a right colour in the right place\n"
        "`{white}` **white**: a right colour in the wrong place\n"
        "Each peg of the code counts once, and the key pegs don't say which pegs they "
        "mean: that is the puzzle.", black=BLACK_PEG, white=WHITE_PEG))
    embed.add_field(name=tr("Example"), inline=False, value=tr(
        "Code {code}; alice's guess 3 reads\n{row}\n1 black (the 5), 2 white (a 3 and a 2).",
        code=code_line((2, 5, 3, 2)),
        row=feedback_row(3, (3, 5, 2, 3), Feedback(1, 2), Rules(), "alice")))
    embed.add_field(name=tr("Start"), inline=False, value=tr(
        "`/mastermind new` starts a game here; anyone in the channel guesses: press "
        "**Guess** on the board and tap the colours, or type `/guess 1123`. "
        "`/mastermind board` shows it, `/mastermind quit` gives up.\n"
        "`/mastermind new private:True`: a game only you see, here or in a DM with me."))
    return embed


def _codes() -> discord.Embed:
    colours = "\n".join(tr("{peg} `{digit}` or `{letter}` {name}", peg=peg_emoji((c.digit,)),
                           digit=c.digit, letter=c.letter, name=c.spoken) for c in PALETTE)
    embed = discord.Embed(title=tr("Codes and colours"), description=tr(
        "Tap a code in the picker (**Guess** on a board), or type it as digits `1123`, with "
        "spaces or dashes `1 1 2 3`, as letters `RROY` (the same letters in every language), "
        "or paste pegs copied from a board.\n{colours}", colours=colours))
    embed.add_field(name=tr("Other sizes"), inline=False, value=tr(
        "`/mastermind new` takes `pegs` ({min_pegs}-{max_pegs}), `colors` ({min_colours}-"
        "{max_colours}), `max_guesses` (up to {max_guesses}) and `repeats` (may a colour "
        "come twice?). A server's defaults: `/mastermind settings`.", min_pegs=MIN_PEGS,
        max_pegs=MAX_PEGS, min_colours=MIN_COLORS, max_colours=MAX_COLORS,
        max_guesses=MAX_GUESSES))
    embed.add_field(name=tr("Stuck?"), inline=False, value=tr(
        "`/mastermind hint` gives everyone here a hint; a game won with hints doesn't "
        "count on the leaderboards."))
    return embed


def _bot() -> discord.Embed:
    embed = discord.Embed(title=tr("I break your code: /challenge"), description=tr(
        "Keep a code in mind; I guess it. Score each guess with the reply buttons or "
        "`/feedback`; **Reveal my code** shows any wrong reply."))
    embed.add_field(name=tr("How I guess: the strategy option"), inline=False,
                    value="\n".join(f"`{s.name}` {tr(s.description)}"
                                     for s in STRATEGIES.values()))
    return embed


def _more() -> discord.Embed:
    embed = discord.Embed(title=tr("Matches, the daily and more"))
    embed.add_field(name=command("/match"), inline=False, value=tr(
        "Rounds against me or a friend: each breaks the other's code in turn."))
    embed.add_field(name=command("/daily"), inline=False, value=tr(
        "`play` today's code, the same for everyone, once a day · `share` your grid: "
        "{black} right place, {white} wrong place, {empty} nothing", black=SHARE_BLACK,
        white=SHARE_WHITE, empty=SHARE_EMPTY))
    embed.add_field(name=tr("Analyse (a finished game's button)"), inline=False,
                    value=f"{SKILL_HELP}\n{LUCK_HELP}")
    embed.add_field(name=tr("Records"), inline=False, value=tr(
        "`/leaderboard`, `/daily leaderboard` · `/stats`, your daily streak among them · "
        "`/mastermind forget-me` deletes your data"))
    return embed


PAGES = {Page.PLAY: _play, Page.CODES: _codes, Page.BOT: _bot, Page.MORE: _more}


def help_embed(page: Page = Page.PLAY) -> discord.Embed:
    """A page of help, in the language being spoken (help is ephemeral: its reader's)."""
    embed = PAGES[page]()
    embed.colour = discord.Colour.blurple()
    return embed


def help_view(page: Page = Page.PLAY) -> discord.ui.View:
    """One button per page; the page shown is the blue one."""
    from .buttons import HelpButton  # the buttons call back into the cog, which imports this

    view = discord.ui.View(timeout=None)
    for tab, label in tabs().items():
        view.add_item(HelpButton(tab, label=label, current=tab is page))
    return view
