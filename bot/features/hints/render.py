"""A hint as the channel sees it, and the words for the hints' refusals."""

from __future__ import annotations

import discord

from ...core.errors import HintsOff
from ...core.records import GameRecord
from ...ui.messages import mention, says
from ...ui.pegs import code_line
from ..breaker.render import HINT_MARK, hinted_note
from .service import LEVELS, Hint, HintNeedsAGuess, HintRaced, NoHintsInMatches, NoMoreHints

TITLES = {1: "How many codes are left", 2: "A colour", 3: "A code that fits"}


def hint_embed(game: GameRecord, hint: Hint, user_id: int) -> discord.Embed:
    text = hint.text
    if hint.level == 3 and hint.code is not None:
        text = f"{code_line(hint.code)} fits every reply so far."
    embed = discord.Embed(
        title=f"{HINT_MARK} Hint {hint.level} of {LEVELS}: {TITLES[hint.level]}",
        description=f"{text}\n\nAsked by {mention(user_id)} · game #{game.id}: "
                    f"{hinted_note(game.hints)}.",
        colour=discord.Colour.yellow())
    more = ("Ask again for a colour." if hint.level == 1 else
            "Ask again for a code that fits." if hint.level == 2 else "That was the last hint.")
    embed.set_footer(text=f"{more} Hints are shown to everyone here and recorded.")
    return embed


@says(HintsOff)
def _hints_off(error: HintsOff) -> tuple[str, str]:
    return "Hints are off here", (
        "This server's settings switch hints off, so nothing was given or recorded. Someone "
        "with Manage Server can turn them on in `/mastermind settings`.")


@says(NoMoreHints)
def _no_more(error: NoMoreHints) -> tuple[str, str]:
    return "No hints left", (
        f"Game #{error.game.id} already had all {LEVELS} hints: the count, a colour and a code "
        f"that fits. Nothing more was recorded.")


@says(HintRaced)
def _raced(error: HintRaced) -> tuple[str, str]:
    return "The board moved on", (
        "Someone played while your hint was being worked out, so it would be out of date. "
        "Nothing was recorded: ask again.")


@says(HintNeedsAGuess)
def _needs_a_guess(error: HintNeedsAGuess) -> tuple[str, str]:
    return "Guess first", (
        "The next hint is a colour, and before the first reply nothing about the colours is "
        "known. Make a guess with `/guess`, then ask again. Nothing was recorded.")


@says(NoHintsInMatches)
def _match(error: NoHintsInMatches) -> tuple[str, str]:
    return "No hints in a match", (
        "A match is scored by the moves each breaker needs, so it has no hints. Nothing was "
        "given or recorded.")
