"""Bounding the engine's memory changes no move: every strategy plays the guesses recorded
before the bound existed (tests/data/decisions.json, by tests/record_decisions.py), with
the default work slice and with the smallest one, so that every matrix is cut in many chunks.

The default run keeps one game of each code path at each slice; ``RUN_SLOW=1`` plays
every recorded game at both slices, as before:

* the smallest slice (256 KiB) is played at every size of at most 500,000 codes: 4x6 (the
  full table), 5x7 without repeats, 5x8 (exact decisions, the lookahead's book), 6x7 (the
  large-space budget, the bounded-work mode, the lookahead's sampled ranking, its search
  around the best guesses and its sampled completions); past that, many small chunks are
  slow and cut nothing more;
* the default slice (64 MiB) is played at every size but 6x7: it cuts the scoring of many
  candidates in chunks from 5x8 on, and the filtering and the tables too at 7x8, the
  largest space listed whole (three look-up parts a code), and at 8x9, the only space
  decoded on the fly (its sets filtered by halves, the lookahead's smaller completions);
  6x7's default run goes through the paths of those and of its 256 KiB run: slow only;
* where no tree is shipped, ``optimal`` is the lookahead until its own search answers a
  set of a few codes (engine/strongest.py): both were recorded playing the same guesses
  (checked below), so its games at 6x7, 7x8 and 8x9 would recompute the lookahead's, and
  are slow only; its own search is played at 4x6, 5x7 without repeats and 5x8. At 7x8 the
  lookahead itself takes about 1.5 s a move and goes through 6x7's paths: slow only."""

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
#: (size, work slice) -> the strategies whose games are slow only there (see the docstring).
SLOW = {
    ((6, 7, True), None): set(STRATEGIES),
    ((6, 7, True), memory.MIN_WORK): {"optimal"},
    ((7, 8, True), None): {"optimal", "lookahead"},
    ((8, 9, True), None): {"optimal"},
}


def _name(size: tuple[int, int, bool], work: int | None) -> str:
    return f"{size[0]}x{size[1]}{'' if size[2] else '-norep'}{'-256KiB' if work else ''}"


def _cases():
    for size in SIZES:
        for work in (None, memory.MIN_WORK):
            slow = set(STRATEGIES) if work and size[1] ** size[0] > BIG else SLOW.get(
                (size, work), set())
            fast = [s for s in STRATEGIES if s not in slow]
            if fast:
                yield pytest.param(size, work, fast, id=_name(size, work))
            if slow:
                yield pytest.param(size, work, sorted(slow), marks=[pytest.mark.slow,
                                                                    skip_unless_slow],
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
    RUN_SLOW: the lookahead's games there are played, and were recorded the same."""
    games = {(g["pegs"], g["colors"], g["repeats"], g["secret"], g["strategy"]): g["guesses"]
             for g in RECORDED}
    skipped = {size for (size, _), slow in SLOW.items() if "optimal" in slow}
    for pegs, colors, repeats, secret, strategy in games:
        if strategy == "optimal" and (pegs, colors, repeats) in skipped:
            assert tree_for(Rules(pegs, colors, repeats=repeats)) is None
            assert games[pegs, colors, repeats, secret, "optimal"] == games[
                pegs, colors, repeats, secret, "lookahead"]


@pytest.mark.parametrize(("size", "work", "strategies"), list(_cases()))
def test_every_strategy_plays_the_recorded_guesses(size, work, strategies, restore_budget):
    memory.set_budget(memory.budget(), work=work)
    assert memory.work_budget() == (work or min(memory.budget() // 4, memory.MAX_WORK))
    games = [g for g in RECORDED if (g["pegs"], g["colors"], g["repeats"]) == size
             and g["strategy"] in strategies]
    assert {g["strategy"] for g in games} == set(strategies)
    for game in games:
        rules = Rules(game["pegs"], game["colors"], 12, repeats=game["repeats"])
        guesses = play(rules, game["strategy"], code_from_digits(game["secret"]), game["moves"])
        assert guesses == game["guesses"], _label(game)
