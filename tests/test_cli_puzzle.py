"""``mastermind puzzle``: one try at the code the clues leave, through the real command line."""

from __future__ import annotations

import datetime as dt
import io

from cli.main import main
from cli.puzzle import puzzle_for
from engine import Rules, format_code
from engine.puzzle import Level, generate, verify


def run(argv, typed):
    out, err = io.StringIO(), io.StringIO()
    code = main(["puzzle", "--color", "never", *argv], stdin=io.StringIO(typed), stdout=out,
                stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_naming_the_answer_solves_it_and_every_clue_is_shown():
    puzzle = generate(Rules(4, 6), Level.MEDIUM, seed=7)
    code, out, _ = run(["--seed", "7"], format_code(puzzle.answer) + "\n")
    assert code == 0
    assert "Solved!" in out
    for n, clue in enumerate(puzzle.clues, 1):
        assert f"{n:>3}  {format_code(clue.guess)}  " in out
    assert format_code(puzzle.answer) not in out.split("Your answer")[0]  # not given away


def test_a_miss_says_which_clue_it_breaks_then_the_answer_and_a_typo_keeps_the_try():
    puzzle = generate(Rules(5, 8), Level.HARD, seed=3)
    wrong = format_code(puzzle.witnesses[-1])
    code, out, _ = run(["--seed", "3", "--pegs", "5", "--colors", "8", "--level", "hard"],
                       f"12x\n{wrong}\n")
    assert code == 1
    assert "Not a code" in out and "your try is still yours" in out
    assert f"Not it. {wrong} breaks clue {len(puzzle.clues)}:" in out
    assert f"The answer was {format_code(puzzle.answer)}." in out


def test_the_daily_puzzle_is_the_same_all_day_and_changes_the_next():
    rules = Rules(4, 6)
    day = dt.date(2026, 11, 26)
    first, title = puzzle_for(rules, Level.MEDIUM, None, True, today=day)
    again, _ = puzzle_for(rules, Level.MEDIUM, 99, True, today=day)
    tomorrow, _ = puzzle_for(rules, Level.MEDIUM, None, True, today=day + dt.timedelta(1))
    verify(first)
    assert first == again != tomorrow
    assert title == "Puzzle of 2026-11-26"


def test_a_level_the_size_cannot_have_is_a_usage_error():
    code, _, err = run(["--pegs", "2", "--colors", "2", "--level", "hard"], "")
    assert code == 2
    assert "no hard puzzle found at 2x2: try another level or a larger size" in err
