"""All codes of a rule size as integer indices, and fast vectorised scoring between them.

Code ``i`` is the ``i``-th code in lexicographic order, so the lowest index is the lowest
code. Colours are 0-based inside this module. Small spaces keep every code's digits and
look-up keys in memory (at most 2**21 codes, ~30 MiB); larger ones decode index slices on
the fly so a game never holds more than about 64 MiB of tables. Tables are built, and
feedback blocks sized, in chunks that fit the engine's work slice (:mod:`engine.memory`).
"""

from __future__ import annotations

import itertools
import threading
import weakref
from functools import cached_property

import numpy as np

from . import memory
from .codes import Code
from .memory import Cache
from .rules import Rules

#: Largest space whose digits and colour counts are kept in memory.
MATERIALIZE_LIMIT = 1 << 21
#: Largest space that also keeps the full guess x secret feedback table (N*N bytes).
FULL_TABLE_LIMIT = 4096
#: Sets of code indices (possible codes, canonical guesses) are kept in 32 bits: the
#: largest space, 8x9, has 9**8 < 2**31 codes. Half of int64 where sets are biggest.
INDEX = np.int32
#: Temporary bytes per code of decoding an index (the int64 halves, gathered digits).
_DECODE_BYTES = 48


class CodeSpace:
    """Every code of one rule size, addressed by index."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.pegs = rules.pegs
        self.colors = rules.colors
        self.size = rules.code_count
        #: Number of distinct feedback values: encode() ranges over 0 .. pegs*(pegs+1).
        self.n_feedback = self.pegs * (self.pegs + 1) + 1
        self.win = self.pegs * (self.pegs + 1)
        self.materialized = self.size <= MATERIALIZE_LIMIT
        #: What one step of each position's colour adds to a code's index (with repeats).
        self.radix = self.colors ** np.arange(self.pegs - 1, -1, -1, dtype=np.int64)
        if not rules.repeats:
            flat = itertools.chain.from_iterable(
                itertools.permutations(range(self.colors), self.pegs))
            perms = np.fromiter(flat, np.uint8, self.size * self.pegs).reshape(-1, self.pegs)
            self._perm_values = perms.astype(np.int64) @ self.radix
            self._all_digits = perms
        elif self.materialized:
            memory.make_room(self.size * self.pegs)
            self._all_digits = np.empty((self.size, self.pegs), dtype=np.uint8)
            for start, stop in self.chunks(_DECODE_BYTES + self.pegs):
                self._all_digits[start:stop] = self._decode_repeats(
                    np.arange(start, stop, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        """Bytes of the tables this space holds now (some are built on first use)."""
        held = 0
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                held += value.nbytes
            elif isinstance(value, list):
                held += sum(v.nbytes for v in value if isinstance(v, np.ndarray))
            elif isinstance(value, _GatherScorer):
                held += value.nbytes
        return held

    # ---- conversion -----------------------------------------------------------------------
    @cached_property
    def _half_digits(self) -> np.ndarray:
        """Digits of every code of ``ceil(pegs/2)`` pegs: decodes big indices by two look-ups."""
        width = (self.pegs + 1) // 2
        return every_code(self.colors, width)

    def _decode_repeats(self, idx: np.ndarray) -> np.ndarray:
        low_width = (self.pegs + 1) // 2
        high, low = np.divmod(np.asarray(idx, dtype=np.int64), self.colors**low_width)
        halves = self._half_digits
        high_width = self.pegs - low_width
        return np.concatenate([halves[high][:, low_width - high_width :], halves[low]], axis=1)

    def digits(self, idx: np.ndarray | None = None) -> np.ndarray:
        """``(n, pegs)`` uint8 colours (0-based) of the codes at ``idx`` (all codes if None)."""
        if idx is None:
            if not self.materialized:
                raise MemoryError("this space is too large to list every code at once")
            return self._all_digits
        if self.materialized or not self.rules.repeats:
            return self._all_digits[idx]
        return self._decode_repeats(idx)

    def index(self, code: Code) -> int:
        """Index of a valid code (1-based colour digits)."""
        value = int(np.dot(np.asarray(code, dtype=np.int64) - 1, self.radix))
        if self.rules.repeats:
            return value
        pos = int(np.searchsorted(self._perm_values, value))
        if pos >= len(self._perm_values) or self._perm_values[pos] != value:
            raise ValueError(f"{code} is not a code of these rules")
        return pos

    def code(self, index: int) -> Code:
        """The code (1-based colour digits) at ``index``."""
        row = self.digits(np.array([index], dtype=np.int64))[0]
        return tuple(int(d) + 1 for d in row)

    def all_indices(self) -> np.ndarray:
        return np.arange(self.size, dtype=np.int64)

    def chunks(self, code_bytes: int, total: int | None = None) -> list[tuple[int, int]]:
        """``(start, stop)`` slices of ``total`` codes (default: the whole space) such that
        ``code_bytes`` temporaries per code fit the work slice."""
        total = self.size if total is None else total
        step = memory.rows_within(code_bytes)
        return [(start, min(start + step, total)) for start in range(0, total, step)]

    # ---- scoring --------------------------------------------------------------------------
    @cached_property
    def full_table(self) -> np.ndarray | None:
        """The whole guess x secret feedback table, for small spaces only."""
        if self.size > FULL_TABLE_LIMIT:
            return None
        idx = self.all_indices()
        batch = SecretBatch(self, idx, use_table=False)
        table = np.empty((self.size, self.size), dtype=np.uint8)
        for start, stop in self.chunks(batch.row_bytes):
            table[start:stop] = batch.feedback(idx[start:stop])
        return table

    @cached_property
    def _all_keys(self) -> list[np.ndarray]:
        scorer = self.gather_scorer
        keys = [np.empty(self.size, dtype=np.uint16) for _ in range(1 + len(scorer.parts))]
        for start, stop in self.chunks(scorer.key_bytes):
            for out, part in zip(keys, scorer.keys(self._all_digits[start:stop]), strict=True):
                out[start:stop] = part
        return keys

    def gather_keys(self, idx: np.ndarray) -> list[np.ndarray]:
        """Table look-up keys of the codes at ``idx`` (see :class:`_GatherScorer`)."""
        if self.materialized or not self.rules.repeats:
            return [k[idx] for k in self._all_keys]
        return self.gather_scorer.keys(self.digits(idx))

    @cached_property
    def _gather(self) -> _GatherScorer | None:
        scorer = _GatherScorer(self.pegs, self.colors, self.rules.repeats)
        return scorer if scorer.usable else None

    @property
    def gather_scorer(self) -> _GatherScorer:
        """The look-up scorer; only for spaces where it is usable (``_gather`` is set)."""
        scorer = self._gather
        if scorer is None:
            raise ValueError("this space has too many colour multisets for look-up scoring")
        return scorer

    def against(self, secrets: np.ndarray) -> SecretBatch:
        """Prepare ``secrets`` once for scoring many blocks of guesses against them."""
        return SecretBatch(self, np.asarray(secrets, dtype=np.int64))

    def feedback_block(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        """``(len(guesses), len(secrets))`` uint8 encoded feedback, ``black*(pegs+1) + white``."""
        return self.against(secrets).feedback(guesses)

    def feedback_one(self, guess: int, secrets: np.ndarray) -> np.ndarray:
        """Encoded feedback of one guess against many secrets (1-D uint8)."""
        table = self.full_table
        if table is not None:
            return table[guess, secrets]
        return self.feedback_block(np.array([guess], dtype=np.int64), secrets)[0]


class SecretBatch:
    """Secrets prepared for repeated scoring: picks the fastest method the space allows."""

    def __init__(self, space: CodeSpace, secrets: np.ndarray, *, use_table: bool = True):
        self.space = space
        self.secrets = secrets
        self._table = space.full_table if use_table and space.size <= FULL_TABLE_LIMIT else None
        if self._table is not None:
            return
        self._gather = space._gather
        if self._gather is not None:
            self._keys = space.gather_keys(secrets)
        else:
            self._digits = space.digits(secrets)
            self._counts = color_counts(self._digits, space.colors)

    def __len__(self) -> int:
        return len(self.secrets)

    @property
    def row_bytes(self) -> int:
        """Temporary bytes per guess of :meth:`feedback`, its result included."""
        s = len(self.secrets)
        if self._table is not None:
            return s
        space = self.space
        # Decoding the guesses' digits, when the space does not keep them.
        decode = 0 if space.materialized else _DECODE_BYTES + space.pegs
        gather = self._gather
        if gather is not None:
            # The result, the black count and one look-up; a look-up by whole rows first
            # copies a table row per guess.
            widest = max(t.shape[1] for t in (gather.common, *gather.black_tables))
            keys = 0 if space.materialized else gather.key_bytes
            return 3 * s + min(widest, 4 * s) + decode + keys
        # feedback_matrix's four g x s arrays, and the guesses' digits and colour counts.
        return 4 * s + decode + 2 * space.pegs + space.colors

    def feedback(self, guesses: np.ndarray) -> np.ndarray:
        if self._table is not None:
            if len(guesses) == self.space.size and _is_everything(guesses):
                return self._table[:, self.secrets]
            return self._table[np.ix_(guesses, self.secrets)]
        if self._gather is not None:
            return self._gather.block(self.space.gather_keys(guesses), self._keys)
        gd = self.space.digits(guesses)
        gc = color_counts(gd, self.space.colors)
        return feedback_matrix(gd, gc, self._digits, self._counts, self.space.pegs)


class _GatherScorer:
    """Feedback by table look-ups instead of per-peg arithmetic (about 7x faster).

    The common count (black + white) depends only on the two codes' colour multisets, and
    the black count is a sum over groups of at most three positions; both come from small
    precomputed tables, so a block costs a few gathers per entry.
    """

    PART = 3
    MAX_MULTISETS = 4096

    def __init__(self, pegs: int, colors: int, repeats: bool):
        self.pegs, self.colors = pegs, colors
        choose = itertools.combinations_with_replacement if repeats else itertools.combinations
        multisets = list(choose(range(colors), pegs))
        self.usable = len(multisets) <= self.MAX_MULTISETS
        if not self.usable:
            return
        counts = np.array(
            [np.bincount(np.array(m, dtype=np.int64), minlength=colors) for m in multisets],
            dtype=np.uint8,
        )
        self._base = (pegs + 1) ** np.arange(colors, dtype=np.int64)
        keys = counts.astype(np.int64) @ self._base
        order = np.argsort(keys)
        self._multiset_keys = keys[order]
        counts = counts[order]
        # Pegs in common of every two multisets, a few rows at a time (3,432 squared at 7x8).
        n = len(counts)
        self.common = np.empty((n, n), dtype=np.uint8)
        step = memory.rows_within(n * (colors + 1))
        for a in range(0, n, step):
            np.minimum(counts[a : a + step, None, :], counts[None, :, :]).sum(
                -1, dtype=np.uint8, out=self.common[a : a + step])
        self.parts = [(a, min(a + self.PART, pegs)) for a in range(0, pegs, self.PART)]
        self.black_tables: list[np.ndarray] = []
        for a, b in self.parts:
            digits = every_code(colors, b - a)
            table = (digits[:, None, :] == digits[None, :, :]).sum(-1, dtype=np.uint8)
            self.black_tables.append(table)

    @property
    def key_bytes(self) -> int:
        """Temporary bytes per code of :meth:`keys`."""
        return 9 * self.colors + self.pegs + 8 * (3 + 2 * len(self.parts))

    @property
    def nbytes(self) -> int:
        if not self.usable:
            return 0
        tables = [self.common, self._multiset_keys, *self.black_tables]
        return sum(t.nbytes for t in tables)

    def keys(self, digits: np.ndarray) -> list[np.ndarray]:
        """Look-up keys of codes: their multiset id, then one id per group of positions."""
        counts = color_counts(digits, self.colors).astype(np.int64)
        out = [np.searchsorted(self._multiset_keys, counts @ self._base)]
        for a, b in self.parts:
            radix = self.colors ** np.arange(b - a - 1, -1, -1, dtype=np.int64)
            out.append(digits[:, a:b].astype(np.int64) @ radix)
        return out

    def block(self, gkeys: list[np.ndarray], skeys: list[np.ndarray]) -> np.ndarray:
        fb = _lookup(self.common, gkeys[0], skeys[0])
        black = _lookup(self.black_tables[0], gkeys[1], skeys[1])
        for table, gk, sk in zip(self.black_tables[1:], gkeys[2:], skeys[2:], strict=True):
            black += _lookup(table, gk, sk)
        black *= self.pegs
        fb += black
        return fb


def _lookup(table: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``table[rows[:, None], cols[None, :]]``, by whole-row copies when that is cheaper."""
    if len(cols) * 4 >= table.shape[1]:
        return np.take(table[rows], cols, axis=1)
    return table[rows.astype(np.intp)[:, None], cols.astype(np.intp)[None, :]]


_EVERY_CODE: Cache[np.ndarray] = Cache("every code of a width")
_SPACES: Cache[CodeSpace] = Cache("code spaces")


def every_code(colors: int, width: int) -> np.ndarray:
    """``(colors**width, width)`` uint8 digits of every code of that width, in index order."""
    def build() -> np.ndarray:
        out = np.array(list(itertools.product(range(colors), repeat=width)), np.uint8)
        out.setflags(write=False)
        return out
    return _EVERY_CODE.get((colors, width), build)


def _is_everything(idx: np.ndarray) -> bool:
    return bool(idx[0] == 0 and (np.diff(idx) == 1).all())


def color_counts(digits: np.ndarray, colors: int) -> np.ndarray:
    """``(n, colors)`` uint8: how many pegs of each colour every code has."""
    counts = np.zeros((len(digits), colors), dtype=np.uint8)
    for c in range(colors):
        np.sum(digits == c, axis=1, out=counts[:, c], dtype=np.uint8)
    return counts


def feedback_matrix(
    gd: np.ndarray, gc: np.ndarray, sd: np.ndarray, sc: np.ndarray, pegs: int
) -> np.ndarray:
    """Encoded feedback ``black * pegs + common`` (== black*(pegs+1) + white) for every pair.

    Works position by position and colour by colour so temporaries stay ``g x s`` bytes.
    """
    g, s = len(gd), len(sd)
    black = np.zeros((g, s), dtype=np.uint8)
    tmp = np.empty((g, s), dtype=np.bool_)
    for p in range(gd.shape[1]):
        np.equal(gd[:, p, None], sd[None, :, p], out=tmp)
        black += tmp
    common = np.zeros((g, s), dtype=np.uint8)
    small = np.empty((g, s), dtype=np.uint8)
    for c in range(gc.shape[1]):
        col = gc[:, c]
        if not col.any():
            continue
        np.minimum(col[:, None], sc[None, :, c], out=small)
        common += small
    black *= pegs
    black += common
    return black


#: Every space still in use, cached or not: a game holding one that the cache let go
#: gets it back instead of a second copy.
_LIVE: weakref.WeakValueDictionary[Rules, CodeSpace] = weakref.WeakValueDictionary()
_LIVE_LOCK = threading.Lock()


def space_for(rules: Rules) -> CodeSpace:
    """Shared code space per rule size (read-only), kept within the engine's memory budget."""
    def build() -> CodeSpace:
        with _LIVE_LOCK:
            live = _LIVE.get(rules)
        if live is not None:
            return live
        space = CodeSpace(rules)  # outside the lock: building a big space takes seconds
        with _LIVE_LOCK:
            return _LIVE.setdefault(rules, space)
    return _SPACES.get(rules, build)
