"""Exact play: the guess that minimises the total number of guesses over a set of codes.

The value of a set ``S`` of possible codes is ``|S| + min_g sum(value(C))`` over the reply
classes ``C`` of guess ``g`` other than the win (any code may be guessed, not only a
possible one), optionally with every code solved within a guess limit. It is found by
branch and bound:

* a lower bound for every candidate at once, from the sizes of the classes its replies
  split ``S`` into: a class of ``m`` codes needs at least the total of a tree that finishes
  1 code at depth 1, ``R`` at depth 2, ``R**2`` at depth 3 ... (``R`` non-winning replies);
* candidates explored in order of that bound, each child solved with the budget the best
  total so far leaves it, and cut as soon as it cannot win;
* exact values and proven lower bounds memoised per set (and guess limit);
* one candidate per orbit of the symmetries that fix every guess so far (colour and
  position permutations; at the root one guess per partition of the pegs), and candidates
  whose replies split ``S`` identically explored once.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .candidates import first_move_candidates
from .counting import ReplyClasses, reply_counts
from .rules import Rules
from .space import CodeSpace, space_for

#: Depth used for "no guess limit" (deeper than any optimal tree of a playable size).
UNLIMITED = 64
#: Group elements kept per node for the symmetry reduction (a subset is still exact).
MAX_GROUP = 4096
#: ...and at most this many code images in all (bounds the symmetry tables' memory).
GROUP_ENTRIES = 1 << 22
_INF = 1 << 40


class BudgetExceeded(Exception):
    """The solver visited more sets than its budget allowed (answer with a heuristic)."""


@dataclass
class _Entry:
    value: int
    exact: bool
    guess: int = -1


@dataclass
class SolveStats:
    """Work of the last search: sets searched (``max_nodes`` bounds them)."""

    nodes: int = 0


class ExactSolver:
    """Optimal totals and guesses for sets of codes of one rule size.

    ``limit`` is the most guesses any code may take (``None``: no limit). ``max_nodes``
    bounds the work of one search (raises :class:`BudgetExceeded`); ``max_set`` is the
    largest set that will be asked about (sizes the bound tables).
    """

    def __init__(
        self,
        rules: Rules,
        limit: int | None = None,
        *,
        max_nodes: int | None = None,
        max_set: int | None = None,
    ):
        self.space: CodeSpace = space_for(rules)
        self.rules = rules
        self.limit = UNLIMITED if limit is None else limit
        self.max_nodes = max_nodes
        self.stats = SolveStats()
        self._memo: dict[tuple[bytes, int], _Entry] = {}
        space = self.space
        self._all = space.all_indices()
        self._win = space.win
        replies = _reply_values(space)
        self.nonwin_replies = len(replies) - 1
        largest = space.size if max_set is None else min(max_set, space.size)
        self._lbt = _depth_bounds(self.nonwin_replies, largest, min(self.limit, UNLIMITED))
        self._colour_perms: np.ndarray | None = None

    # ---- public API ---------------------------------------------------------------------
    def value(
        self,
        possible: np.ndarray | None = None,
        depth: int | None = None,
        played: frozenset[int] | None = None,
    ) -> int:
        """The optimal total of guesses over ``possible`` (``None``: every code).

        ``played`` (colours guessed so far, 0-based, when ``possible`` is what the replies
        to those guesses left) speeds the search up: colours never played are then
        interchangeable. Without it no symmetry of ``possible`` is assumed.
        """
        return self._root(possible, depth, played)[0]

    def best_guess(
        self,
        possible: np.ndarray | None = None,
        depth: int | None = None,
        played: frozenset[int] | None = None,
    ) -> int:
        """An optimal next guess for ``possible`` (``None``: every code)."""
        return self._root(possible, depth, played)[1]

    def _root(
        self, possible: np.ndarray | None, depth: int | None, played: frozenset[int] | None
    ) -> tuple[int, int]:
        d = self.limit if depth is None else min(depth, UNLIMITED)
        self.stats.nodes = 0
        if possible is None:
            value, guess = self._solve_first(d)
        else:
            s = np.asarray(possible, dtype=np.int64)
            if len(s) <= 2:
                return (1 if len(s) == 1 else 3), int(s[0])
            value, exact = self._solve(s, d, _INF, self._group_for(played))
            if not exact:
                raise ValueError("these codes cannot all be solved within the guess limit")
            guess = self._memo[(_key(s), d)].guess
        if value >= _INF:
            raise ValueError("these codes cannot all be solved within the guess limit")
        return value, guess

    def _solve_first(self, d: int) -> tuple[int, int]:
        """Every code possible: one candidate per partition of the pegs, each with its group."""
        s = self._all
        key = (_key(s), d)
        hit = self._memo.get(key)
        if hit is not None and hit.exact:
            return hit.value, hit.guess
        firsts = first_move_candidates(self.space)
        counts = reply_counts(self.space.against(s).feedback(firsts), self.space.n_feedback)
        lbs = self._bounds(counts, len(s), d)
        best, best_guess = _INF, -1
        for i in np.argsort(lbs, kind="stable"):
            if lbs[i] >= best:
                break
            g = int(firsts[i])
            total, exact = self._try(s, g, d, best, self._stabiliser_of_first(g))
            if exact and total < best:
                best, best_guess = total, g
        self._memo[key] = _Entry(best, True, best_guess)
        return best, best_guess

    # ---- branch and bound ---------------------------------------------------------------
    def _row(self, d: int) -> np.ndarray:
        return self._lbt[min(max(d, 0), len(self._lbt) - 1)]

    def _bounds(self, counts: np.ndarray, n: int, d: int) -> np.ndarray:
        """Lower bound of the total for each candidate row of reply ``counts``."""
        child = self._row(d - 1 if d < UNLIMITED else d)
        c = counts.copy()
        c[:, self._win] = 0
        out = child[c].sum(axis=1) + n
        out[c.max(axis=1) >= n] = _INF  # learns nothing
        return out

    def _solve(
        self, s: np.ndarray, d: int, ub: int, group: np.ndarray | None
    ) -> tuple[int, bool]:
        """``(value, True)`` if the optimum is below ``ub``, else ``(bound >= ub, False)``."""
        known = self._known(s, d, ub)
        if known is not None:
            return known
        key = (_key(s), d)
        self.stats.nodes += 1
        if self.max_nodes is not None and self.stats.nodes > self.max_nodes:
            raise BudgetExceeded(f"more than {self.max_nodes} sets")
        best, best_guess, floor = self._search(s, d, ub, group)
        if best_guess >= 0:
            self._memo[key] = _Entry(best, True, best_guess)
            return best, True
        bound = max(floor, ub)
        hit = self._memo.get(key)
        if hit is None or hit.value < bound:
            self._memo[key] = _Entry(bound, False)
        return bound, False

    def _known(self, s: np.ndarray, d: int, ub: int) -> tuple[int, bool] | None:
        """The answer without a search: tiny sets, the size bound, or the memo."""
        n = len(s)
        if n <= 2:
            need = 2 * n - 1  # 1 guess for one code, 1 + 2 for two
            return (need, True) if d >= n else (_INF, False)
        if d <= 1:
            return _INF, False
        own = int(self._row(d)[n])
        if own >= ub:
            return own, False
        hit = self._memo.get((_key(s), d))
        if hit is None:
            return None
        if hit.exact or hit.value >= ub:
            return hit.value, hit.exact
        return None

    def _search(
        self, s: np.ndarray, d: int, ub: int, group: np.ndarray | None
    ) -> tuple[int, int, int]:
        """Branch and bound over the candidates: ``(best total, its guess or -1, floor)``.

        ``floor`` is a proven lower bound of every candidate's total when none beats ``ub``.
        """
        cands = self._candidates(group)
        fb = self.space.against(s).feedback(cands)
        counts = reply_counts(fb, self.space.n_feedback)
        lbs = self._bounds(counts, len(s), d)
        in_s = counts[:, self._win] > 0
        best, best_guess, floor = ub, -1, _INF
        seen: set[bytes] = set()
        for i in np.lexsort((~in_s, lbs)):
            lb = int(lbs[i])
            if lb >= best:
                floor = min(floor, lb)
                break
            row = fb[i].tobytes()
            if row in seen:  # splits s exactly like a candidate already tried
                continue
            seen.add(row)
            g = int(cands[i])
            total, exact = self._try(s, g, d, best, self._stabiliser(group, g), fb[i], lb)
            if exact and total < best:
                best, best_guess = total, g
            elif not exact:
                floor = min(floor, total)
        return best, best_guess, floor

    def _try(
        self,
        s: np.ndarray,
        g: int,
        d: int,
        best: int,
        group: np.ndarray | None,
        row: np.ndarray | None = None,
        lb: int | None = None,
    ) -> tuple[int, bool]:
        """Total of playing ``g`` at ``s``: exact if below ``best``, else a bound >= best."""
        if row is None:
            row = self.space.feedback_one(g, s)
        classes = ReplyClasses(self.space, s, row)
        sizes = classes.sizes
        child_d = d - 1 if d < UNLIMITED else d
        child_lbt = self._row(child_d)
        total = int(len(s) + child_lbt[sizes].sum()) if lb is None else lb
        if total >= best:
            return total, False
        # Largest classes first: they decide most cuts.
        for value in sorted(np.flatnonzero(sizes > 2), key=lambda v: -sizes[v]):
            size = int(sizes[value])
            part = np.sort(classes.of(value))
            base = int(child_lbt[size])
            v, exact = self._solve(part, child_d, best - (total - base), group)
            total += v - base
            if not exact or total >= best:
                return max(total, best), False
        return total, True

    # ---- symmetry -------------------------------------------------------------------------
    def _candidates(self, group: np.ndarray | None) -> np.ndarray:
        if group is None or len(group) <= 1:
            return self._all
        keep = (group.min(axis=0) == np.arange(self.space.size))
        return np.flatnonzero(keep).astype(np.int64)

    @staticmethod
    def _stabiliser(group: np.ndarray | None, g: int) -> np.ndarray | None:
        if group is None:
            return None
        sub = group[group[:, g] == g]
        return sub if len(sub) > 1 else None

    def _group_for(self, played: frozenset[int] | None) -> np.ndarray | None:
        """Renamings of the colours not in ``played``."""
        if played is None or self.space.colors - len(played) <= 1:
            return None
        identity = tuple(range(self.space.pegs))
        return self._images_pairs([(identity, pi) for pi in self._colour_perms_fixing(played)])

    def _stabiliser_of_first(self, g: int) -> np.ndarray | None:
        """Every colour x position permutation that maps the first guess ``g`` to itself."""
        gd = self.space.digits(np.array([g]))[0].astype(np.int64)
        perms = self._all_colour_perms()
        elements: list[tuple[tuple[int, ...], np.ndarray]] = []
        for sigma in itertools.permutations(range(self.space.pegs)):
            moved = gd[list(sigma)]
            ok = (perms[:, moved] == gd[None, :]).all(axis=1)
            elements.extend((sigma, pi) for pi in perms[ok])
        return self._images_pairs(elements[:MAX_GROUP])

    def _all_colour_perms(self) -> np.ndarray:
        if self._colour_perms is None:
            self._colour_perms = np.array(
                list(itertools.permutations(range(self.space.colors))), dtype=np.int64
            )
        return self._colour_perms

    def _colour_perms_fixing(self, played: frozenset[int]) -> np.ndarray:
        """Permutations of the colours that fix every colour in ``played`` (at most a few)."""
        unplayed = [c for c in range(self.space.colors) if c not in played]
        out = []
        for perm in itertools.islice(itertools.permutations(unplayed), MAX_GROUP):
            pi = np.arange(self.space.colors, dtype=np.int64)
            pi[unplayed] = perm
            out.append(pi)
        return np.array(out)

    def _images_pairs(self, pairs: list[tuple[tuple[int, ...], np.ndarray]]) -> np.ndarray | None:
        """``(len(pairs), size)`` index of each code's image under each (positions, colours)."""
        pairs = pairs[: max(1, GROUP_ENTRIES // self.space.size)]
        if len(pairs) <= 1:
            return None
        digits = self.space.digits().astype(np.int64)
        radix = self.space.radix
        dtype = np.int16 if self.space.size < (1 << 15) else np.int32
        out = np.empty((len(pairs), self.space.size), dtype=dtype)
        for k, (sigma, pi) in enumerate(pairs):
            out[k] = self._lookup[pi[digits[:, list(sigma)]] @ radix]
        return out

    @cached_property
    def _lookup(self) -> np.ndarray:
        return _value_lookup(self.space)

    # ---- trees --------------------------------------------------------------------------
    def tree(self, depth: int | None = None) -> list[int]:
        """The optimal decision tree for every code, as its guesses in pre-order.

        Only sets of three or more codes are listed: with one or two left the lowest
        possible code is always an optimal guess. See :mod:`engine.trees` for the format.
        """
        d = self.limit if depth is None else depth
        self.value(None, d)
        out: list[int] = []
        self._emit(self._all, d, None, out)
        return out

    def _emit(self, s: np.ndarray, d: int, group: np.ndarray | None, out: list[int]) -> None:
        if len(s) <= 2:
            return
        g = self._tree_guess(s, d, group)
        out.append(g)
        child_group = self._child_group(s, group, g)
        for part in split(self.space, s, g):
            self._emit(part, d - 1 if d < UNLIMITED else d, child_group, out)

    def _child_group(self, s: np.ndarray, group: np.ndarray | None, g: int) -> np.ndarray | None:
        """The symmetries left once ``g`` is played at ``s`` (with ``group`` before it)."""
        if len(s) == self.space.size:  # the first guess
            return self._stabiliser_of_first(g)
        return self._stabiliser(group, g)

    def _tree_guess(self, s: np.ndarray, d: int, group: np.ndarray | None) -> int:
        """The guess the tree plays at ``s`` (an optimal one)."""
        entry = self._memo.get((_key(s), d))
        if entry is None or not entry.exact:
            self._solve(s, d, _INF, group)
            entry = self._memo[(_key(s), d)]
        return entry.guess


def split(space: CodeSpace, s: np.ndarray, guess: int) -> list[np.ndarray]:
    """The non-winning reply classes of ``guess`` over ``s``, in reply order (sorted sets)."""
    return [np.sort(part) for _, part in ReplyClasses.of_guess(space, s, guess)]


def _key(s: np.ndarray) -> bytes:
    return s.astype(np.int32).tobytes()


def _reply_values(space: CodeSpace) -> np.ndarray:
    """Replies that occur at all for this size (the win included)."""
    if space.size <= 4096:
        table = space.full_table
        assert table is not None
        return np.unique(table)
    pegs = space.pegs
    return np.array([b * (pegs + 1) + w for b in range(pegs + 1) for w in range(pegs + 1 - b)
                     if not (b == pegs - 1 and w == 1)])


def _depth_bounds(replies: int, size: int, limit: int) -> np.ndarray:
    """``out[d][m]``: least total of ``m`` codes solved within ``d`` guesses (huge if none).

    At most one code is solved by each guess, and a guess that does not win leaves
    at most ``replies`` classes, so depth ``k`` holds at most ``replies**(k-1)`` codes.
    """
    depths = min(limit, 24)
    out = np.full((depths + 1, size + 1), _INF, dtype=np.int64)
    out[:, 0] = 0
    m = np.arange(size + 1, dtype=np.int64)
    for d in range(1, depths + 1):
        total = np.zeros(size + 1, dtype=np.int64)
        left = m.copy()
        for k in range(1, d + 1):
            cap = min(replies ** (k - 1), size + 1)
            take = np.minimum(left, cap)
            total += take * k
            left -= take
        out[d] = np.where(left == 0, total, _INF)
    return out


def _value_lookup(space: CodeSpace) -> np.ndarray:
    """Index of each code by its digits' base-``colours`` value (-1 where none)."""
    values = space.digits().astype(np.int64) @ space.radix
    lookup = np.full(space.colors**space.pegs, -1, dtype=np.int64)
    lookup[values] = np.arange(space.size)
    return lookup
