"""``mastermind puzzle``: a few guesses and their key pegs; exactly one code fits. Name it."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import TextIO

from engine import InvalidCode, Rules, example, parse_code
from engine.puzzle import Level, Puzzle, check_answer, generate

from .render import Style
from .session import Quit, Read, ask


@dataclass(frozen=True)
class PuzzleResult:
    solved: bool
    puzzle: Puzzle


def daily_seed(day: dt.date) -> int:
    """The terminal's puzzle of the day: the same for everyone on that (UTC) date."""
    return int.from_bytes(hashlib.sha256(f"puzzle:{day.isoformat()}".encode()).digest()[:8])


def clue_lines(puzzle: Puzzle, style: Style) -> list[str]:
    rules = puzzle.rules
    width = style.code_width(rules.pegs)
    lines = [style.dim(f"{'#':>3}  {'guess':<{width}}  reply")]
    for n, clue in enumerate(puzzle.clues, 1):
        lines.append(f"{n:>3}  {style.code(clue.guess)}  {style.reply(clue.feedback, rules.pegs)}")
    return lines


def solve_puzzle(puzzle: Puzzle, *, read: Read, out: TextIO, style: Style | None = None,
                 title: str = "Puzzle") -> PuzzleResult:
    """Show the clues, take one answer (a malformed one is asked again), say how it went."""
    style = style or Style()
    rules = puzzle.rules

    def say(text: str = "") -> None:
        print(text, file=out)

    say(style.bold(f"{title}: {len(puzzle.clues)} clues, {puzzle.level} "
                   f"({rules.pegs} pegs, {rules.colors} colours"
                   f"{'' if rules.repeats else ', no repeats'})"))
    say("Exactly one code fits every clue below. Name it: you have one try.")
    for line in clue_lines(puzzle, style):
        say(line)
    say()
    while True:
        try:
            text = ask(read, f"Your answer (like {example(rules)})> ", out)
        except Quit:
            say(f"You gave up. The answer was {style.code(puzzle.answer)}.")
            return PuzzleResult(False, puzzle)
        if not text:
            continue
        try:
            answer = parse_code(text, rules)
        except InvalidCode as error:
            say(f"{style.bad('Not a code:')} {error} (your try is still yours)")
            continue
        break
    miss = check_answer(puzzle, answer)
    if miss is None:
        say(style.good("Solved! That is the only code that fits every clue."))
        return PuzzleResult(True, puzzle)
    clue = puzzle.clues[miss.clue - 1]
    say(style.bad("Not it.") + f" {style.code(answer)} breaks clue {miss.clue}: "
        f"{style.code(clue.guess)} would score {miss.would_score} against it, "
        f"not {clue.feedback}.")
    say(f"The answer was {style.code(puzzle.answer)}.")
    return PuzzleResult(False, puzzle)


def puzzle_for(rules: Rules, level: Level, seed: int | None, daily: bool,
               today: dt.date | None = None) -> tuple[Puzzle, str]:
    if daily:
        day = today or dt.datetime.now(dt.UTC).date()
        return generate(rules, level, seed=daily_seed(day)), f"Puzzle of {day.isoformat()}"
    return generate(rules, level, seed=seed), "Puzzle"
