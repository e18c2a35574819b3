"""The lookahead's opening books: the shipped ones load and are what live games play, the
builder is never worse than the lookahead it improves, and 5x8 games end in time."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engine import Rules, SolverSession, evaluate, lookahead, memory, score_codes
from engine.decision import history_key
from engine.lookahead import LookaheadBudget, book_for, parse_book
from engine.openings import BOOK_PLANS, BookBuilder, book_json
from engine.space import space_for


@pytest.mark.parametrize("plan", BOOK_PLANS, ids=lambda p: f"{p.pegs}x{p.colors}")
def test_each_shipped_book_loads_and_plays_its_first_moves(plan):
    rules = plan.rules
    book = book_for(rules)
    assert len(book) > 1
    space = space_for(rules)
    secret = space.code(int(np.random.default_rng(5).integers(space.size)))
    session = SolverSession(rules, "lookahead")
    for _ in range(2):  # the first guess, and the one the book gives for its reply
        planned = book[session.history]
        assert session.next_guess() == space.code(planned)
        session.tell(score_codes(secret, session.next_guess()))
        if session.solved or session.history not in book:
            break


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_5x8_games_end_within_the_guess_limit(seed):
    rules = Rules(5, 8)
    space = space_for(rules)
    secret = space.code(int(np.random.default_rng(seed).integers(space.size)))
    session = SolverSession(rules, "lookahead")
    while not session.solved:
        session.tell(score_codes(secret, session.next_guess()))
    assert session.turns[-1].guess == secret
    assert len(session.turns) <= 7  # the worst case over all 32,768 secrets (README)


@pytest.fixture(scope="module")
def small_book():
    """The book of :func:`_small_plan`, built once for the three tests that start from it
    (0.7 s a build); each takes a copy."""
    return BookBuilder(_small_plan()).build()


def test_a_book_is_never_worse_than_the_lookahead_it_improves(monkeypatch, small_book):
    # 3x6, small enough to play every code in a second (the smallest size where the book
    # gains: 854 guesses against the lookahead's 855; 4x6: 5,628 against 5,630 in 7 s).
    plan = _small_plan()
    rules = plan.rules
    moves = dict(small_book)
    assert parse_book(rules, book_json(plan, moves, 0.0)) == moves
    memory.clear()  # no decision remembered from a book another test played
    plain = evaluate(rules, "lookahead")  # no book ships for 3x6
    monkeypatch.setattr(lookahead, "book_for", lambda _rules: moves)
    memory.clear()  # as a process shipping this book: no decision remembered from before it
    booked = evaluate(rules, "lookahead")
    assert booked.total < plain.total


def test_a_rebuild_keeps_the_previous_books_moves_in_the_sets_it_leaves_alone(small_book):
    # 3x6: after the first guess every set holds fewer than 100 codes.
    plan = _small_plan()
    first = dict(small_book)
    assert len(first) > 1
    coarse = dataclasses.replace(plan, min_set=100)
    assert BookBuilder(coarse).build() == {b"": first[b""]}
    # The previous book's first guess is a candidate again (and wins the tie), and its
    # moves in the smaller sets are kept as they are.
    assert BookBuilder(coarse, previous=first).build() == first


def _small_plan(**changes):
    """A book for 3x6 (216 codes): every first guess up to symmetry played out, then 8
    candidates at each reply of 10 codes or more; built in about a second."""
    return dataclasses.replace(BOOK_PLANS[0], **{
        "pegs": 3, "colors": 6, "candidates": (0, 8), "min_set": 10, **changes})


def test_kept_first_guesses_stay_and_the_moves_below_them_are_refined(small_book):
    # The previous book holds only a first guess the builder would not choose: it is kept,
    # and the second guesses after it are chosen for it.
    plan = _small_plan(kept=1)
    chosen = small_book[b""]
    space = space_for(plan.rules)
    other = space.index((1, 1, 2))
    assert chosen != other
    moves = BookBuilder(plan, previous={b"": other}).build()
    assert moves[b""] == other
    after = history_key(space, ((other, 0),))[:-1]  # the first guess, any reply
    seconds = [key for key in moves if key]
    assert seconds and all(key.startswith(after) for key in seconds)


def test_a_deciding_budget_other_than_the_live_one_never_makes_the_book_worse(monkeypatch):
    # A weak deciding budget (one candidate completed) with no ranked candidates: the live
    # lookahead's own choice is a candidate at every node, so the book still plays at least
    # as well as the live lookahead, node by node.
    weak = LookaheadBudget(top=1)
    plan = _small_plan(candidates=(1, 0), deciding=weak)
    moves = BookBuilder(plan).build()
    memory.clear()  # no decision remembered from a book another test played
    plain = evaluate(plan.rules, "lookahead")
    monkeypatch.setattr(lookahead, "book_for", lambda _rules: moves)
    memory.clear()
    assert evaluate(plan.rules, "lookahead").total <= plain.total


def test_forked_workers_build_the_same_book():
    plan = _small_plan(candidates=(2, 0))  # two or three first guesses played out, in parallel
    assert BookBuilder(plan, processes=2).build() == BookBuilder(plan).build()


def test_build_trees_books_starts_from_the_books_of_the_previous_folder(tmp_path, monkeypatch):
    # How a shipped book's inputs are named (docs/engine.md, "Opening books"): the previous
    # book from a folder, or from no book when the folder has none of that size.
    import io

    from cli import build_trees
    from cli.main import main

    plan = _small_plan(candidates=(1,), kept=1)  # the first guess only, kept where given
    monkeypatch.setattr(build_trees, "BOOK_PLANS", (plan,))
    other = space_for(plan.rules).index((1, 1, 2))
    given, empty = tmp_path / "given", tmp_path / "empty"
    given.mkdir()
    empty.mkdir()
    (given / "3x6.json").write_text(book_json(plan, {b"": other}, 0.0))
    books = {}
    for folder in (given, empty):
        out = tmp_path / f"out-{folder.name}"
        argv = ["build-trees", "--books", "3x6", "--previous", str(folder), "--out", str(out)]
        assert main(argv, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()) == 0
        books[folder.name] = parse_book(plan.rules, (out / "3x6.json").read_text())
    assert books["given"] == {b"": other}
    assert books["empty"] == BookBuilder(plan).build() != books["given"]
