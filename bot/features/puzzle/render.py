"""The puzzle board: its clues as board rows, then, once answered, how the try went.

The answer is never in a message (nor a button id) before the player's one try.
"""

from __future__ import annotations

import discord

from engine.puzzle import Level

from ...store.puzzles import PuzzlePlay
from ...ui.messages import says
from ...ui.pegs import code_line, feedback_row, key_pegs
from .service import NoOpenPuzzle, NotYourPuzzle, PuzzleAnswered, miss_of

#: What each level asks of the player, in the words of its spread.
LEVEL_WORDS = {
    Level.EASY: "easy: leave out one clue and only 2-3 codes remain",
    Level.MEDIUM: "medium: leave out any clue and 4-9 codes remain",
    Level.HARD: "hard: leave out any clue and 10 or more codes remain",
}
SOLVED = "\N{WHITE HEAVY CHECK MARK}"
MISSED = "\N{CROSS MARK}"


def puzzle_title(play: PuzzlePlay) -> str:
    if play.kind == "daily":
        return f"Puzzle of {play.day}"
    return f"Puzzle #{play.id} · {play.level.value} · {play.rules.pegs}x{play.rules.colors}"


def clue_rows(play: PuzzlePlay) -> str:
    return "\n".join(feedback_row(n, clue.guess, clue.feedback, play.rules)
                     for n, clue in enumerate(play.clues, 1))


def puzzle_embed(play: PuzzlePlay, *, streak: tuple[int, int] | None = None,
                 tally: tuple[int, int] | None = None) -> discord.Embed:
    """The clues; once answered, the answer, the player's try and why a miss misses."""
    parts = []
    if play.open:
        parts.append("Exactly one code gives every clue below its key pegs. Name it: "
                     "**one try**.")
    parts.append(clue_rows(play))
    colour = discord.Colour.blurple()
    if not play.open:
        parts.append(_outcome(play))
        colour = discord.Colour.green() if play.status == "solved" else discord.Colour.red()
    if streak is not None and play.kind == "daily" and not play.open:
        current, longest = streak
        parts.append(f"Puzzle streak: **{current}** day{'s' * (current != 1)} "
                     f"(best {longest})")
    if tally is not None and tally[0]:
        parts.append(f"-# Today {tally[1]} of {tally[0]} players solved it.")
    embed = discord.Embed(title=puzzle_title(play), description="\n\n".join(parts), colour=colour)
    footer = LEVEL_WORDS[play.level]
    if play.open:
        footer += " · answer with the button, or /puzzle answer code:1234"
    embed.set_footer(text=footer)
    return embed


def _outcome(play: PuzzlePlay) -> str:
    assert play.named is not None
    if play.status == "solved":
        return f"{SOLVED} **Solved!** {code_line(play.answer)} is the only code that fits."
    miss = miss_of(play)
    lines = [f"{MISSED} **Not it.** You named {code_line(play.named)}."]
    if miss is not None:
        clue = play.clues[miss.clue - 1]
        lines.append(f"It breaks clue {miss.clue}: against it, that guess would score "
                     f"{key_pegs(miss.would_score)}, not {key_pegs(clue.feedback)}.")
    lines.append(f"The answer was {code_line(play.answer)}.")
    return "\n".join(lines)


@says(NoOpenPuzzle)
def _no_open(error: NoOpenPuzzle) -> tuple[str, str]:
    return "No puzzle to answer", (
        "You have no puzzle waiting for an answer, so nothing was stored. Start one with "
        "`/puzzle today` or `/puzzle new`.")


@says(PuzzleAnswered)
def _answered(error: PuzzleAnswered) -> tuple[str, str]:
    how = "solved" if error.play.status == "solved" else "missed"
    return "Already answered", (
        f"You already answered that puzzle ({how}): each puzzle takes one try, so nothing "
        f"changed. Try `/puzzle new` for another.")


@says(NotYourPuzzle)
def _not_yours(error: NotYourPuzzle) -> tuple[str, str]:
    return "Not your puzzle", (
        "That puzzle belongs to someone else, so nothing changed. Start your own with "
        "`/puzzle today` or `/puzzle new`.")
