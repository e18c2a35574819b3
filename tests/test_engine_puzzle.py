"""Puzzles: every generated puzzle's certificate checked, by :func:`verify` and by an
independent brute force that shares no code with the generator."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from engine import Feedback, Rules
from engine.puzzle import SPREADS, Clue, Level, PuzzleError, check_answer, generate, verify


def brute_score(secret, guess):
    black = sum(a == b for a, b in zip(secret, guess, strict=True))
    return black, sum(min(secret.count(c), guess.count(c)) for c in set(guess)) - black


def brute_table(rules, clues):
    """Every code of ``rules`` with, for each clue, whether it scores that clue as shown: each
    code scored once against each clue, and every subset of the clues read from it."""
    codes = itertools.product(range(1, rules.colors + 1), repeat=rules.pegs)
    return [(c, [brute_score(c, cl.guess) == tuple(cl.feedback) for cl in clues])
            for c in codes if rules.repeats or len(set(c)) == rules.pegs]


SIZES = [Rules(3, 4), Rules(4, 4), Rules(4, 6), Rules(4, 6, repeats=False), Rules(5, 6)]


@pytest.mark.parametrize("rules", SIZES, ids=lambda r: f"{r.pegs}x{r.colors}"
                         + ("" if r.repeats else "-norep"))
@pytest.mark.parametrize("level", list(Level))
def test_every_puzzle_is_certified_and_brute_force_agrees(rules, level):
    for seed in range(4):
        try:
            puzzle = generate(rules, level, seed=seed)
        except PuzzleError:
            assert rules.code_count < 300, "only tiny sizes may lack a level"
            continue
        verify(puzzle)
        table = brute_table(rules, puzzle.clues)
        assert [code for code, fits in table if all(fits)] == [puzzle.answer]
        # How many codes fit every clue but clue n: at least 2 (no clue can be dropped).
        left = [sum(all(fits[:n] + fits[n + 1:]) for _, fits in table)
                for n in range(len(puzzle.clues))]
        assert min(left) >= 2
        assert puzzle.level is level
        low, high = SPREADS[level]
        assert low <= puzzle.spread <= high
        assert min(left) == puzzle.spread


def test_the_same_seed_gives_the_same_puzzle_and_another_seed_another():
    rules = Rules(4, 6)
    assert generate(rules, Level.HARD, seed=11) == generate(rules, Level.HARD, seed=11)
    assert generate(rules, Level.HARD, seed=11) != generate(rules, Level.HARD, seed=12)


def test_verify_refuses_a_forged_certificate():
    puzzle = generate(Rules(4, 6), Level.MEDIUM, seed=5)
    first = puzzle.clues[0]
    wrong = Feedback(first.feedback.black, first.feedback.white + 1) if (
        sum(first.feedback) < 4) else Feedback(first.feedback.black - 1, first.feedback.white)
    forged = [
        dataclasses.replace(puzzle, clues=(Clue(first.guess, wrong), *puzzle.clues[1:])),
        dataclasses.replace(puzzle, clues=puzzle.clues[1:], witnesses=puzzle.witnesses[1:]),
        dataclasses.replace(puzzle, witnesses=(puzzle.answer, *puzzle.witnesses[1:])),
        dataclasses.replace(puzzle, spread=puzzle.spread + 1),
        dataclasses.replace(puzzle, clues=(*puzzle.clues, puzzle.clues[0]),
                            witnesses=(*puzzle.witnesses, puzzle.witnesses[0])),
    ]
    for bad in forged:
        with pytest.raises(PuzzleError):
            verify(bad)


def test_a_miss_names_the_first_clue_it_breaks_and_what_it_would_score():
    puzzle = generate(Rules(4, 6), Level.EASY, seed=2)
    assert check_answer(puzzle, puzzle.answer) is None
    for witness in puzzle.witnesses:
        miss = check_answer(puzzle, witness)
        assert miss is not None
        clue = puzzle.clues[miss.clue - 1]
        assert tuple(miss.would_score) == brute_score(witness, clue.guess) != tuple(clue.feedback)
        assert all(brute_score(witness, c.guess) == tuple(c.feedback)
                   for c in puzzle.clues[: miss.clue - 1])


def test_a_size_too_small_for_a_level_says_so():
    with pytest.raises(PuzzleError, match="no hard puzzle"):
        generate(Rules(2, 2), Level.HARD, seed=0)


def test_certify_works_the_certificate_out_again_and_refuses_loose_clues():
    from engine.puzzle import certify
    puzzle = generate(Rules(4, 6), Level.HARD, seed=4)
    assert certify(puzzle.rules, puzzle.clues, puzzle.answer) == puzzle
    with pytest.raises(PuzzleError, match="exactly the answer"):
        certify(puzzle.rules, puzzle.clues[1:], puzzle.answer)
    with pytest.raises(PuzzleError, match="can be dropped"):
        certify(puzzle.rules, (*puzzle.clues, Clue(puzzle.answer, Feedback(4, 0))),
                puzzle.answer)
