"""The safest optimal trees: the tie-break against an independent brute force on small
sizes, and every shipped tree against the table in docs/engine.md (total, worst case,
distribution)."""

from __future__ import annotations

import itertools
import re
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from engine import Rules
from engine.optimal import ExactSolver
from engine.safest import SafestSolver
from engine.space import space_for
from engine.trees import load, replay, shipped

README = Path(__file__).resolve().parent.parent / "docs" / "engine.md"


# ---- an independent brute force: plain Python, every guess, every tree ---------------------
def _reply(secret: tuple[int, ...], guess: tuple[int, ...]) -> tuple[int, int]:
    black = sum(a == b for a, b in zip(secret, guess, strict=True))
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def safest_by_brute_force(
    pegs: int, colors: int, repeats: bool, limit: int | None = None
) -> tuple[int, int, int] | None:
    """(total, worst case, codes at the worst case), least in that order, over every tree
    that solves every code (within ``limit`` guesses); None if no tree does."""
    codes = [
        c for c in itertools.product(range(colors), repeat=pegs) if repeats or len(set(c)) == pegs
    ]
    win = (pegs, 0)

    @cache
    def best(s: tuple[tuple[int, ...], ...], depth: int) -> tuple[int, int, int] | None:
        if depth == 0:
            return None
        options = []
        for g in codes:
            classes: dict[tuple[int, int], list] = {}
            for code in s:
                classes.setdefault(_reply(code, g), []).append(code)
            if len(classes) == 1 and win not in classes:
                continue  # learns nothing
            # [total, worst case, codes at it]: a code guessed now is solved at depth 1.
            shape = [len(s), 1, 1] if win in classes else [len(s), 0, 0]
            for reply, part in classes.items():
                if reply == win:
                    continue
                sub = best(tuple(part), depth - 1)
                if sub is None:
                    break
                shape[0] += sub[0]
                if sub[1] + 1 > shape[1]:
                    shape[1:] = [sub[1] + 1, sub[2]]
                elif sub[1] + 1 == shape[1]:
                    shape[2] += sub[2]
            else:
                options.append((shape[0], shape[1], shape[2]))
        return min(options, default=None)

    return best(tuple(codes), limit or 99)


SMALL = [(2, 2, True), (2, 3, True), (2, 4, True), (2, 5, True), (3, 2, True), (3, 3, True),
         (4, 2, True), (2, 4, False), (2, 5, False), (2, 6, False), (3, 3, False),
         (3, 4, False)]


def _shipped_shape(solver: SafestSolver, limit: int | None) -> tuple[int, int, int]:
    """(total, worst case, codes at it) of the tree the solver writes, replayed."""
    space = space_for(solver.rules)
    stats = replay(space, np.asarray(solver.tree(), dtype=np.int64), limit).stats
    return stats.total, stats.max, stats.distribution[stats.max]


@pytest.mark.parametrize(("pegs", "colors", "repeats"), SMALL)
def test_safest_tree_agrees_with_brute_force(pegs, colors, repeats):
    rules = Rules(pegs, colors, repeats=repeats)
    expected = safest_by_brute_force(pegs, colors, repeats)
    solver = SafestSolver(rules)
    assert (solver.value(), *solver.shape()) == expected
    assert _shipped_shape(solver, None) == expected


@pytest.mark.parametrize(("pegs", "colors", "limit"), [(2, 4, 3), (3, 3, 4), (2, 5, 4),
                                                       (3, 3, 3)])
def test_safest_tree_within_a_guess_limit_agrees_with_brute_force(pegs, colors, limit):
    expected = safest_by_brute_force(pegs, colors, True, limit)
    solver = SafestSolver(Rules(pegs, colors), limit)
    if expected is None:
        with pytest.raises(ValueError, match="guess limit"):
            solver.tree()
    else:
        assert _shipped_shape(solver, limit) == expected


def test_the_tie_break_changes_trees_the_plain_solver_would_write():
    # 2x5: the plain solver's first optimal tree needs 5 guesses for 2 codes; the safest
    # optimal tree never needs more than 4 (same total, 81).
    rules = Rules(2, 5)
    space = space_for(rules)
    plain = replay(space, np.asarray(ExactSolver(rules).tree(), dtype=np.int64), None).stats
    safest = SafestSolver(rules)
    assert plain.total == safest.value() == 81
    assert (plain.max, *safest.shape()) == (5, 4, 11)


# ---- the shipped trees, as docs/engine.md lists them -------------------------------------------
def _readme_trees() -> dict[str, tuple[int, int, dict[int, int]]]:
    """name -> (total, max, distribution) from the README's table of shipped trees."""
    rows = {}
    for line in README.read_text("utf-8").splitlines():
        cells = [c.strip().strip("*`") for c in line.strip().strip("|").split("|")]
        if len(cells) < 6 or not re.fullmatch(r"\d+x\d+(-norep)?(-max\d+)?", cells[0]):
            continue
        distribution = {
            int(k): int(v.replace(",", ""))
            for k, v in (pair.split(":") for pair in cells[5].split(", "))
        }
        rows[cells[0]] = (int(cells[2].replace(",", "")), int(cells[4]), distribution)
    return rows


def test_the_readme_lists_every_shipped_tree():
    assert sorted(_readme_trees()) == sorted(shipped().values())


@pytest.mark.parametrize("name", sorted(shipped().values()))
def test_each_shipped_tree_replays_to_its_readme_row(name):
    total, worst, distribution = _readme_trees()[name]
    stats = load(name).stats  # load replays the tree over every code
    assert (stats.total, stats.max, stats.distribution) == (total, worst, distribution)
