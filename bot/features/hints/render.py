"""A hint as the channel sees it, and the words for the hints' refusals."""

from __future__ import annotations

import discord

from i18n import tr

from ...core.records import GameRecord
from ...ui.messages import mention, says
from ...ui.pegs import code_line
from ..breaker.render import HINT_MARK, hinted_note
from .errors import HintNeedsAGuess, HintRaced, HintsOff, NoHintsInMatches, NoMoreHints
from .service import LEVELS, Hint


def _title(level: int) -> str:
    return (tr("How many codes are left"), tr("A colour"), tr("A code that fits"))[level - 1]


def _next(level: int) -> str:
    return (tr("Ask again for a colour."), tr("Ask again for a code that fits."),
            tr("That was the last hint."))[level - 1]


def hint_embed(game: GameRecord, hint: Hint, user_id: int) -> discord.Embed:
    """The hint as everyone in the channel reads it (render it in the channel's language)."""
    text = hint.words(code_line(hint.code)) if hint.code is not None else hint.text
    embed = discord.Embed(
        title=HINT_MARK + " " + tr("Hint {level} of {levels}: {title}", level=hint.level,
                                    levels=LEVELS, title=_title(hint.level)),
        description=text + "\n\n" + tr("Asked by {player} · game #{id}: {note}.",
                                         player=mention(user_id), id=game.id,
                                         note=hinted_note(game.hints)),
        colour=discord.Colour.yellow())
    embed.set_footer(text=_next(hint.level) + " " + tr(
        "Hints are shown to everyone here and recorded."))
    return embed


@says(HintsOff)
def _hints_off(error: HintsOff) -> tuple[str, str]:
    return tr("Hints are off here"), tr(
        "This server's settings switch hints off, so nothing was given or recorded. Someone "
        "with Manage Server can turn them on in `/mastermind settings`.")


@says(NoMoreHints)
def _no_more(error: NoMoreHints) -> tuple[str, str]:
    return tr("No hints left"), tr(
        "Game #{id} already had all {levels} hints: the count, a colour and a code that fits. "
        "Nothing more was recorded.", id=error.game.id, levels=LEVELS)


@says(HintRaced)
def _raced(error: HintRaced) -> tuple[str, str]:
    return tr("The board moved on"), tr(
        "Someone played while your hint was being worked out, so it would be out of date. "
        "Nothing was recorded: ask again.")


@says(HintNeedsAGuess)
def _needs_a_guess(error: HintNeedsAGuess) -> tuple[str, str]:
    return tr("Guess first"), tr(
        "The next hint is a colour, and before the first reply nothing about the colours is "
        "known. Make a guess with `/guess`, then ask again. Nothing was recorded.")


@says(NoHintsInMatches)
def _match(error: NoHintsInMatches) -> tuple[str, str]:
    return tr("No hints in a match"), tr(
        "A match is scored by the moves each breaker needs, so it has no hints. Nothing was "
        "given or recorded.")
