"""Bounding the engine's memory changes no move: every strategy plays the guesses recorded
before the bound existed (tests/data/decisions.json, by tests/record_decisions.py), with
the default work slice and with the smallest one, so that every matrix is cut in many chunks.

The default run plays one game of each code path at each slice; ``RUN_SLOW=1`` plays every
recorded game at both slices, as before (the cases named "-slow"):

* the smallest slice (256 KiB) at every size of at most 500,000 codes, every strategy:
  4x6 (the full table), 5x7 without repeats, 5x8 (exact decisions, the lookahead's book,
  optimal's own search), 6x7 (the large-space budget, the bounded-work mode, the
  lookahead's sampled ranking, its search around the best guesses and its sampled
  completions); past that, many small chunks are slow and cut nothing more;
* the default slice (64 MiB) at 4x6 (nothing cut), 6x9 (3 moves, the bounded-work mode
  and the book) and where it cuts more than the scoring: 7x8, the largest space listed
  whole (three look-up parts a code; one secret: the second re-checks the same paths),
  and 8x9, the only space decoded on the fly (sets filtered by halves, the lookahead's
  smaller completions; knuth and entropy, whose integer and float scores stand for the
  four partition strategies: the same decision with another reducer of the counts). At
  5x7 without repeats, 5x8 and 6x7 it cuts only the scoring, into bigger chunks than the
  256 KiB runs, which go through every path there: slow only;
* where no tree is shipped, ``optimal`` is the lookahead until its own search answers a
  set of a few codes (engine/strongest.py): both were recorded playing the same guesses
  (checked below), so its games at 6x7, 7x8 and 8x9 are slow only, like the lookahead's at
  7x8 (6x7's paths, at 1.5 s a move)."""

import json
import os
from pathlib import Path

import pytest
from record_decisions import play

from engine import STRATEGIES, Rules, memory
from engine.codes import code_from_digits
from engine.trees import tree_for

RECORDED = json.loads((Path(__file__).parent / "data" / "decisions.json").read_text())


def _label(game: dict) -> str:
    norep = "" if game["repeats"] else "-norep"
    return f"{game['pegs']}x{game['colors']}{norep}-{game['strategy']}-{game['secret']}"


SIZES = sorted({(g["pegs"], g["colors"], g["repeats"]) for g in RECORDED})
#: The smallest slice cuts every matrix in many chunks; over the big sizes it is slow.
BIG = 500_000
skip_unless_slow = pytest.mark.skipif(
    not os.environ.get("RUN_SLOW"), reason="re-checks a path a faster case checks; set RUN_SLOW=1")
PARTITIONS = ("knuth", "expected-size", "entropy", "most-parts")
#: (size, work slice) -> the strategies played by default there, where not all of them
#: (see the docstring); every other game is slow only.
DEFAULT = {
    ((5, 7, False), None): (),
    ((5, 8, True), None): (),
    ((6, 7, True), None): (),
    ((6, 7, True), memory.MIN_WORK): tuple(s for s in STRATEGIES if s != "optimal"),
    ((7, 8, True), None): (*PARTITIONS, "first-consistent", "random-consistent"),
    ((8, 9, True), None): ("knuth", "entropy", "random-consistent", "lookahead"),
}
#: Sizes whose default games are those of their first recorded secret only.
ONE_SECRET = {(7, 8, True)}


def _size(game: dict) -> tuple[int, int, bool]:
    return game["pegs"], game["colors"], game["repeats"]


def _by_default(game: dict, work: int | None) -> bool:
    size = _size(game)
    if work and size[1] ** size[0] > BIG:
        return False
    first = next(g["secret"] for g in RECORDED if _size(g) == size)
    return game["strategy"] in DEFAULT.get((size, work), STRATEGIES) and (
        size not in ONE_SECRET or game["secret"] == first)


def _name(size: tuple[int, int, bool], work: int | None) -> str:
    return f"{size[0]}x{size[1]}{'' if size[2] else '-norep'}{'-256KiB' if work else ''}"


def _cases():
    for size in SIZES:
        for work in (None, memory.MIN_WORK):
            games = [g for g in RECORDED if _size(g) == size]
            fast = [_label(g) for g in games if _by_default(g, work)]
            slow = [_label(g) for g in games if not _by_default(g, work)]
            if fast:
                yield pytest.param(size, work, fast, id=_name(size, work))
            if slow:
                yield pytest.param(size, work, slow, marks=[pytest.mark.slow, skip_unless_slow],
                                   id=_name(size, work) + "-slow")


@pytest.fixture
def restore_budget():
    before = memory.budget()
    memory.clear()
    yield
    memory.set_budget(before)
    memory.clear()


def test_the_recording_covers_every_strategy_from_4x6_to_8x9():
    strategies = {g["strategy"] for g in RECORDED}
    assert len(strategies) == 8 and {(8, 9, True), (7, 8, True)} <= set(SIZES)
    assert all(g["guesses"] for g in RECORDED)


def test_where_no_tree_is_shipped_optimal_was_recorded_playing_the_lookahead():
    """What lets the default run leave ``optimal``'s games at 6x7, 7x8 and 8x9 to
    RUN_SLOW: its moves there are the lookahead's, whose paths are played."""
    games = {(_size(g), g["secret"], g["strategy"]): g["guesses"] for g in RECORDED}
    for size, secret, strategy in games:
        if strategy == "optimal" and not any(
                _by_default(g, work) for g in RECORDED
                if _size(g) == size and g["strategy"] == "optimal"
                for work in (None, memory.MIN_WORK)):
            assert tree_for(Rules(size[0], size[1], repeats=size[2])) is None
            assert games[size, secret, "optimal"] == games[size, secret, "lookahead"]


def test_with_run_slow_every_game_is_played_at_both_slices():
    labels = [label for case in _cases() for label in case.values[2]]
    assert sorted(labels) == sorted(_label(g) for g in RECORDED for _ in (None, 1))


@pytest.mark.parametrize(("size", "work", "labels"), list(_cases()))
def test_every_strategy_plays_the_recorded_guesses(size, work, labels, restore_budget):
    memory.set_budget(memory.budget(), work=work)
    assert memory.work_budget() == (work or min(memory.budget() // 4, memory.MAX_WORK))
    for game in [g for g in RECORDED if _label(g) in labels]:
        rules = Rules(game["pegs"], game["colors"], 12, repeats=game["repeats"])
        guesses = play(rules, game["strategy"], code_from_digits(game["secret"]), game["moves"])
        assert guesses == game["guesses"], _label(game)
