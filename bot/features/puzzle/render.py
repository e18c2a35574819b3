"""The puzzle board: its clues as board rows, then, once answered, how the try went.

The answer is never in a message (nor a button id) before the player's one try.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from engine.puzzle import Level
from i18n import command, tr, trn
from i18n.numbers import day as show_day
from i18n.numbers import number

from ...core.enums import CodeEntry, PuzzleKind, PuzzleStatus
from ...core.records import PuzzlePlay
from ...ui.messages import says, typed_as
from ...ui.pegs import code_line, feedback_row, key_pegs
from .errors import NoOpenPuzzle, NotYourPuzzle, PuzzleAnswered
from .service import miss_of

#: Each level's name as players read it (its value, ``medium``, is what /puzzle new takes).
LEVEL_NAMES: dict[Level, Callable[[], str]] = {
    Level.EASY: lambda: tr("easy"), Level.MEDIUM: lambda: tr("medium"),
    Level.HARD: lambda: tr("hard")}
#: What each level asks of the player, in the words of its spread.
LEVEL_WORDS: dict[Level, Callable[[], str]] = {
    Level.EASY: lambda: tr("easy: leave out one clue and only 2-3 codes remain"),
    Level.MEDIUM: lambda: tr("medium: leave out any clue and 4-9 codes remain"),
    Level.HARD: lambda: tr("hard: leave out any clue and 10 or more codes remain"),
}
SOLVED = "\N{WHITE HEAVY CHECK MARK}"
MISSED = "\N{CROSS MARK}"


def puzzle_title(play: PuzzlePlay) -> str:
    if play.kind is PuzzleKind.DAILY:
        return tr("Puzzle of {day}", day=show_day(play.day or ""))
    return tr("Puzzle #{id} · {level} · {size}", id=play.id, level=LEVEL_NAMES[play.level](),
              size=f"{play.rules.pegs}x{play.rules.colors}")


def clue_rows(play: PuzzlePlay) -> str:
    return "\n".join(feedback_row(n, clue.guess, clue.feedback, play.rules)
                     for n, clue in enumerate(play.clues, 1))


def puzzle_embed(play: PuzzlePlay, *, streak: tuple[int, int] | None = None,
                 tally: tuple[int, int] | None = None) -> discord.Embed:
    """The clues; once answered, the answer, the player's try and why a miss misses."""
    parts = []
    if play.open:
        parts.append(tr("Exactly one code gives every clue below its key pegs. Name it: "
                        "**one try**."))
    parts.append(clue_rows(play))
    colour = discord.Colour.blurple()
    if not play.open:
        parts.append(_outcome(play))
        solved = play.status is PuzzleStatus.SOLVED
        colour = discord.Colour.green() if solved else discord.Colour.red()
    if streak is not None and play.kind is PuzzleKind.DAILY and not play.open:
        current, longest = streak
        parts.append(trn("Puzzle streak: **{count}** day (best {best})",
                         "Puzzle streak: **{count}** days (best {best})", current, best=longest))
    if tally is not None and tally[0]:
        # TRANSLATORS: {count} players answered today's puzzle; English says "players" always.
        parts.append("-# " + trn("Today {solved} of {count} players solved it.",
                                 "Today {solved} of {count} players solved it.", tally[0],
                                 solved=number(tally[1])))
    embed = discord.Embed(title=puzzle_title(play), description="\n\n".join(parts), colour=colour)
    footer = LEVEL_WORDS[play.level]()
    if play.open:
        footer += " · " + tr("answer with the button, or /puzzle answer code:1234")
    embed.set_footer(text=footer)
    return embed


def _outcome(play: PuzzlePlay) -> str:
    assert play.named is not None
    if play.status is PuzzleStatus.SOLVED:
        return f"{SOLVED} " + tr("**Solved!** {code} is the only code that fits.",
                                 code=code_line(play.answer))
    miss = miss_of(play)
    lines = [f"{MISSED} " + tr("**Not it.** You named {code}.", code=code_line(play.named))]
    if miss is not None:
        clue = play.clues[miss.clue - 1]
        lines.append(tr("It breaks clue {clue}: against it, that guess would score {would}, "
                        "not {given}.", clue=miss.clue, would=key_pegs(miss.would_score),
                        given=key_pegs(clue.feedback)))
    lines.append(tr("The answer was {code}.", code=code_line(play.answer)))
    return "\n".join(lines)


typed_as(CodeEntry.PUZZLE)(lambda code: command(f"/puzzle answer code:{code}"))


@says(NoOpenPuzzle)
def _no_open(error: NoOpenPuzzle) -> tuple[str, str]:
    return tr("No puzzle to answer"), tr(
        "You have no puzzle waiting for an answer, so nothing was stored. Start one with "
        "`/puzzle today` or `/puzzle new`.")


@says(PuzzleAnswered)
def _answered(error: PuzzleAnswered) -> tuple[str, str]:
    text = (tr("You already answered that puzzle (solved): each puzzle takes one try, so "
               "nothing changed. Try `/puzzle new` for another.")
            if error.play.status is PuzzleStatus.SOLVED else
            tr("You already answered that puzzle (missed): each puzzle takes one try, so "
               "nothing changed. Try `/puzzle new` for another."))
    return tr("Already answered"), text


@says(NotYourPuzzle)
def _not_yours(error: NotYourPuzzle) -> tuple[str, str]:
    return tr("Not your puzzle"), tr(
        "That puzzle belongs to someone else, so nothing changed. Start your own with "
        "`/puzzle today` or `/puzzle new`.")
