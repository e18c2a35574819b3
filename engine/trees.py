"""Optimal decision trees shipped with the package, verified when loaded.

A tree file (``engine/data/trees/*.json``) holds a header (rules, guess limit, total,
maximum, distribution) and the tree itself: the guess (code index) of every decision
node with three or more possible codes, in pre-order with children in reply order, as
little-endian integers in base64. With one or two codes left the lowest is guessed, so
those nodes need no data. Loading replays the tree over every code and checks the header,
so a damaged file is refused instead of played. See :mod:`engine.build_trees`.
"""

from __future__ import annotations

import base64
import json
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from .decision import history_key
from .memory import Cache
from .rules import Rules
from .space import CodeSpace, space_for

FORMAT = 1
_DATA = "data/trees"


class CorruptTree(ValueError):
    """A tree file that does not replay to its own header."""


@dataclass(frozen=True)
class TreeStats:
    total: int
    max: int
    distribution: dict[int, int]


@dataclass(frozen=True)
class Tree:
    """A verified tree: the next guess for each history it plans for."""

    rules: Rules
    limit: int | None
    stats: TreeStats
    moves: dict[bytes, int]
    nodes: int
    #: Memory held (measured once: the engine's cache asks on every use).
    nbytes: int

    def guess_after(self, history: bytes) -> int | None:
        """The planned guess after ``history`` (see :func:`engine.solver.history_key`)."""
        return self.moves.get(history)


def tree_name(rules: Rules, limit: int | None) -> str:
    label = f"{rules.pegs}x{rules.colors}" + ("" if rules.repeats else "-norep")
    return label + ("" if limit is None else f"-max{limit}")


def encode(space: CodeSpace, guesses: list[int]) -> str:
    dtype = "<u2" if space.size <= 1 << 16 else "<u4"
    return base64.b64encode(np.asarray(guesses, dtype=dtype).tobytes()).decode("ascii")


def decode(space: CodeSpace, data: str) -> np.ndarray:
    dtype = "<u2" if space.size <= 1 << 16 else "<u4"
    return np.frombuffer(base64.b64decode(data), dtype=dtype).astype(np.int64)


def replay(space: CodeSpace, guesses: np.ndarray, limit: int | None) -> Tree:
    """Play the pre-order ``guesses`` over every code; raises :class:`CorruptTree`."""
    moves: dict[bytes, int] = {}
    distribution: dict[int, int] = {}
    depth_cap = limit if limit is not None else 40
    cursor = 0
    # (possible codes, history of (guess, reply), depth of the next guess)
    stack: list[tuple[np.ndarray, tuple[tuple[int, int], ...], int]] = [
        (space.all_indices(), (), 1)
    ]
    while stack:
        s, history, depth = stack.pop()
        if depth + min(len(s), 2) - 1 > depth_cap:
            raise CorruptTree(f"a game needs more than {depth_cap} guesses")
        if len(s) <= 2:  # the lowest code, then the other: no need to score
            _finish_small(space, s, history_key(space, history), depth, moves, distribution)
            continue
        if cursor >= len(guesses):
            raise CorruptTree("the tree ends early")
        guess = int(guesses[cursor])
        cursor += 1
        if not 0 <= guess < space.size:
            raise CorruptTree(f"guess {guess} is not a code")
        moves[history_key(space, history)] = guess
        row = space.feedback_one(guess, s)
        won = bool((row == space.win).any())
        if won:
            distribution[depth] = distribution.get(depth, 0) + 1
        replies = [int(v) for v in np.unique(row) if v != space.win]
        if len(replies) == 1 and not won:
            raise CorruptTree("a guess learns nothing")
        # Pushed in reverse so they pop (and read their guesses) in reply order.
        for value in reversed(replies):
            stack.append((s[row == value], (*history, (guess, value)), depth + 1))
    if cursor != len(guesses):
        raise CorruptTree("the tree has guesses left over")
    total = sum(d * c for d, c in distribution.items())
    stats = TreeStats(total, max(distribution), dict(sorted(distribution.items())))
    held = sys.getsizeof(moves) + sum(sys.getsizeof(k) + 28 for k in moves)
    return Tree(space.rules, limit, stats, moves, cursor, held)


def _finish_small(
    space: CodeSpace,
    s: np.ndarray,
    key: bytes,
    depth: int,
    moves: dict[bytes, int],
    distribution: dict[int, int],
) -> None:
    """One or two codes left: guess the lowest, then the other."""
    moves[key] = int(s[0])
    distribution[depth] = distribution.get(depth, 0) + 1
    if len(s) == 2:
        reply = int(space.feedback_one(int(s[0]), s[1:])[0])
        moves[key + history_key(space, [(int(s[0]), reply)])] = int(s[1])
        distribution[depth + 1] = distribution.get(depth + 1, 0) + 1


def to_json(rules: Rules, limit: int | None, guesses: list[int], seconds: float) -> str:
    space = space_for(_plain(rules))
    tree = replay(space, np.asarray(guesses, dtype=np.int64), limit)
    header = {
        "format": FORMAT,
        "pegs": rules.pegs,
        "colors": rules.colors,
        "repeats": rules.repeats,
        "limit": limit,
        "codes": space.size,
        "total": tree.stats.total,
        "average": round(tree.stats.total / space.size, 4),
        "max": tree.stats.max,
        "distribution": {str(k): v for k, v in tree.stats.distribution.items()},
        "nodes": tree.nodes,
        "build_seconds": round(seconds, 2),
        "guesses": encode(space, guesses),
    }
    return json.dumps(header, indent=1) + "\n"


def parse(text: str) -> Tree:
    """A tree from its file text, verified against its header."""
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise CorruptTree(f"unknown tree format {data.get('format')!r}")
    rules = Rules(data["pegs"], data["colors"], repeats=data["repeats"])
    limit = data["limit"]
    space = space_for(rules)
    tree = replay(space, decode(space, data["guesses"]), limit)
    expected = TreeStats(
        data["total"], data["max"], {int(k): v for k, v in data["distribution"].items()}
    )
    if tree.stats != expected:
        raise CorruptTree(f"{tree_name(rules, limit)} replays to {tree.stats}, not {expected}")
    return tree


@lru_cache(maxsize=1)
def shipped() -> dict[tuple[int, int, bool, int | None], str]:
    """Every shipped tree's name (its file without ``.json``) by (pegs, colours, repeats,
    limit)."""
    out: dict[tuple[int, int, bool, int | None], str] = {}
    folder = resources.files("engine").joinpath(_DATA)
    if not folder.is_dir():
        return out
    for entry in folder.iterdir():
        if not entry.name.endswith(".json"):
            continue
        label = entry.name[: -len(".json")]
        size, *flags = label.split("-")
        pegs, colors = (int(x) for x in size.split("x"))
        limit = next((int(f[3:]) for f in flags if f.startswith("max")), None)
        out[(pegs, colors, "norep" not in flags, limit)] = label
    return out


_TREES: Cache[Tree] = Cache("optimal trees")


def load(name: str) -> Tree:
    """The shipped tree file ``name``, verified (cached within the engine's memory budget)."""
    def build() -> Tree:
        text = resources.files("engine").joinpath(_DATA, f"{name}.json").read_text("utf-8")
        return parse(text)

    return _TREES.get(name, build)


def tree_for(rules: Rules) -> Tree | None:
    """The best shipped tree for ``rules``: fewest guesses in total within its guess limit.

    When no tree solves every code within the limit, the one with the fewest guesses at
    most is the best there is. ``None`` when no tree of this size is shipped.
    """
    trees = [
        load(name)
        for (pegs, colors, repeats, _), name in shipped().items()
        if (pegs, colors, repeats) == (rules.pegs, rules.colors, rules.repeats)
    ]
    if not trees:
        return None
    fitting = [t for t in trees if t.stats.max <= rules.max_guesses]
    if fitting:
        return min(fitting, key=lambda t: (t.stats.total, t.stats.max))
    return min(trees, key=lambda t: (t.stats.max, t.stats.total))


def _plain(rules: Rules) -> Rules:
    """The rules with the default guess limit: trees do not depend on it."""
    return Rules(rules.pegs, rules.colors, repeats=rules.repeats)
