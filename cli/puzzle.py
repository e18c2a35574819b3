"""``mastermind puzzle``: a few guesses and their key pegs; exactly one code fits. Name it."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import TextIO

from engine import InvalidCode, Rules, example, parse_code
from engine.puzzle import Level, Puzzle, check_answer, generate
from i18n import tr, trc, trn

from .render import Style
from .session import Quit, Read, ask


@dataclass(frozen=True)
class PuzzleResult:
    solved: bool
    puzzle: Puzzle


def daily_seed(day: dt.date) -> int:
    """The terminal's puzzle of the day: the same for everyone on that (UTC) date."""
    return int.from_bytes(hashlib.sha256(f"puzzle:{day.isoformat()}".encode()).digest()[:8])


def level_name(level: Level) -> str:
    """The level as the reader says it (``--level`` itself takes the English word)."""
    names = {Level.EASY: trc("puzzle level", "easy"), Level.MEDIUM: trc("puzzle level", "medium"),
             Level.HARD: trc("puzzle level", "hard")}
    return names[level]


def clue_lines(puzzle: Puzzle, style: Style) -> list[str]:
    rules = puzzle.rules
    lines = [style.header(rules.pegs)]
    for n, clue in enumerate(puzzle.clues, 1):
        lines.append(f"{n:>3}  {style.code(clue.guess)}  {style.reply(clue.feedback, rules.pegs)}")
    return lines


def solve_puzzle(puzzle: Puzzle, *, read: Read, out: TextIO, style: Style | None = None,
                 title: str | None = None) -> PuzzleResult:
    """Show the clues, take one answer (a malformed one is asked again), say how it went."""
    style = style or Style()
    rules = puzzle.rules

    def say(text: str = "") -> None:
        print(text, file=out)

    if rules.repeats:
        size = tr("{pegs} pegs, {colors} colours", pegs=rules.pegs, colors=rules.colors)
    else:
        size = tr("{pegs} pegs, {colors} colours, no repeats", pegs=rules.pegs,
                  colors=rules.colors)
    say(style.bold(trn("{title}: {count} clue, {level} ({size})",
                       "{title}: {count} clues, {level} ({size})", len(puzzle.clues),
                       title=title or tr("Puzzle"), level=level_name(puzzle.level),
                       size=size)))
    say(tr("Exactly one code fits every clue below. Name it: you have one try."))
    for line in clue_lines(puzzle, style):
        say(line)
    say()
    while True:
        try:
            text = ask(read, tr("Your answer (like {example})> ", example=example(rules)), out)
        except Quit:
            say(tr("You gave up. The answer was {code}.", code=style.code(puzzle.answer)))
            return PuzzleResult(False, puzzle)
        if not text:
            continue
        try:
            answer = parse_code(text, rules)
        except InvalidCode as error:
            label = style.bad(tr("Not a code:"))
            say(tr("{not_a_code} {error} (your try is still yours)", not_a_code=label,
                   error=error))
            continue
        break
    miss = check_answer(puzzle, answer)
    if miss is None:
        say(style.good(tr("Solved! That is the only code that fits every clue.")))
        return PuzzleResult(True, puzzle)
    clue = puzzle.clues[miss.clue - 1]
    say(style.bad(tr("Not it.")) + " " + tr(
        "{code} breaks clue {clue}: {guess} would score {would} against it, not {given}.",
        code=style.code(answer), clue=miss.clue, guess=style.code(clue.guess),
        would=miss.would_score, given=clue.feedback))
    say(tr("The answer was {code}.", code=style.code(puzzle.answer)))
    return PuzzleResult(False, puzzle)


def puzzle_for(rules: Rules, level: Level, seed: int | None, daily: bool,
               today: dt.date | None = None) -> tuple[Puzzle, str]:
    if daily:
        day = today or dt.datetime.now(dt.UTC).date()
        title = tr("Puzzle of {date}", date=day.isoformat())
        return generate(rules, level, seed=daily_seed(day)), title
    return generate(rules, level, seed=seed), tr("Puzzle")
