"""Bounding the engine's memory changes no move: every strategy plays the guesses recorded
before the bound existed (tests/data/decisions.json, by tests/record_decisions.py), with
the default work slice and with the smallest one, so that every matrix is cut in many chunks."""

import json
import os
from pathlib import Path

import pytest
from record_decisions import play

from engine import Rules, memory
from engine.codes import code_from_digits

RECORDED = json.loads((Path(__file__).parent / "data" / "decisions.json").read_text())


def _label(game: dict) -> str:
    norep = "" if game["repeats"] else "-norep"
    return f"{game['pegs']}x{game['colors']}{norep}-{game['strategy']}-{game['secret']}"


SIZES = sorted({(g["pegs"], g["colors"], g["repeats"]) for g in RECORDED})
#: The smallest slice cuts every matrix in many chunks; over the big sizes it is slow.
BIG = 500_000
skip_unless_slow = pytest.mark.skipif(
    not os.environ.get("RUN_SLOW"), reason="many small chunks at big sizes; set RUN_SLOW=1")


def _cases():
    for size in SIZES:
        yield pytest.param(size, None, id=f"{size[0]}x{size[1]}{'' if size[2] else '-norep'}")
        marks = [skip_unless_slow] if size[1] ** size[0] > BIG else []
        yield pytest.param(size, memory.MIN_WORK, marks=marks,
                           id=f"{size[0]}x{size[1]}{'' if size[2] else '-norep'}-256KiB")


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


@pytest.mark.parametrize(("size", "work"), list(_cases()))
def test_every_strategy_plays_the_recorded_guesses(size, work, restore_budget):
    memory.set_budget(memory.budget(), work=work)
    assert memory.work_budget() == (work or min(memory.budget() // 4, memory.MAX_WORK))
    for game in [g for g in RECORDED if (g["pegs"], g["colors"], g["repeats"]) == size]:
        rules = Rules(game["pegs"], game["colors"], 12, repeats=game["repeats"])
        guesses = play(rules, game["strategy"], code_from_digits(game["secret"]), game["moves"])
        assert guesses == game["guesses"], _label(game)
