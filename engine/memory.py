"""The engine's memory: process-wide caches bounded by bytes, and the slice a move works in.

Code spaces, their tables and the per-position candidate lists are expensive to build and
cheap to keep, until people play many sizes: then they are the process's largest memory.
Every such cache is a :class:`Cache` here, and all of them share one byte budget: past it,
the least recently used entry of any cache is dropped. Values are measured when they are
used, not only when stored, so tables a value builds lazily (a code space's feedback
table) count too. Benchmarks and tests read :func:`nbytes` and call :func:`clear`.

The engine's budget (:func:`set_budget`; the bot gives it half its ``MEMORY_BUDGET_MB``)
has two parts. A quarter of it, at most :data:`MAX_WORK`, is the *work* slice: the
temporaries of one decision, one filtering or one table build at any moment. Every large
computation runs in chunks whose size comes from :func:`rows_within`, so its temporaries
stay within the slice whatever the size played; beyond it a move holds only its inputs and
result (the possible codes and their keys, and numpy's index of the codes it samples
from: 16 MiB at 7x8). The rest of the budget bounds the caches.

Only the cache lets go of an entry: a caller still holding the value keeps it alive (a
game's own code space while it plays), and each move under way at once has its own slice.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

import numpy as np

V = TypeVar("V")

#: Default budget of the engine (caches and work slice): the bot sets its own.
DEFAULT_BUDGET = 256 * 2**20
#: The work slice is a quarter of the engine's budget, never more than this...
MAX_WORK = 64 * 2**20
#: ...and chunks are sized for at least this much, however small the budget.
MIN_WORK = 1 << 18

#: Before keeping an array this big, freed memory goes back to the system (see make_room).
ROOM_FOR = 8 << 20

_lock = threading.RLock()
_entries: OrderedDict[tuple[str, Hashable], tuple[Any, int]] = OrderedDict()
_budget = DEFAULT_BUDGET
_work = min(DEFAULT_BUDGET // 4, MAX_WORK)
_total = 0  # sum of the sizes in _entries
_caches: dict[str, Cache[Any]] = {}


def size_of(value: Any) -> int:
    """Bytes held by a cached value: arrays, objects with ``nbytes``, tuples of those."""
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    held = getattr(value, "nbytes", None)
    if isinstance(held, int):
        return held
    if isinstance(value, tuple | list | frozenset):
        return sys.getsizeof(value) + sum(size_of(v) for v in value)
    return sys.getsizeof(value)


class Cache(Generic[V]):
    """One named cache in the shared budget: ``get(key, build)`` builds on a miss."""

    def __init__(self, name: str):
        if name in _caches:
            raise ValueError(f"there is already an engine cache named {name!r}")
        self.name = name
        _caches[name] = self

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        full = (self.name, key)
        with _lock:
            found = _entries.get(full)
            if found is not None:
                _entries.move_to_end(full)
                _store(full, found[0])  # measured again: it may have grown since
                return found[0]
        value = build()  # outside the lock: building can take long, and may use other caches
        with _lock:
            _store(full, value)
        return value

    @property
    def nbytes(self) -> int:
        with _lock:
            return sum(size for (name, _), (_, size) in _entries.items() if name == self.name)

    def __len__(self) -> int:
        with _lock:
            return sum(1 for name, _ in _entries if name == self.name)

    def clear(self) -> None:
        global _total
        with _lock:
            for full in [full for full in _entries if full[0] == self.name]:
                _total -= _entries.pop(full)[1]


def _store(full: tuple[str, Hashable], value: Any) -> None:
    """Keep ``value`` as the newest entry, measured now, then fit the budget (call locked)."""
    global _total
    old = _entries.get(full)
    _total -= old[1] if old is not None else 0
    size = size_of(value)
    _entries[full] = (value, size)
    _entries.move_to_end(full)
    _total += size
    _shrink()


def _shrink() -> None:
    """Drop least recently used entries until the caches fit the budget (keeps the newest)."""
    global _total
    while _total > _budget - _work and len(_entries) > 1:
        _, (_, size) = _entries.popitem(last=False)
        _total -= size


def set_budget(nbytes: int, *, work: int | None = None) -> None:
    """Bound the engine to ``nbytes``: its work slice (``work`` bytes, by default a quarter
    of the budget and at most :data:`MAX_WORK`), and every cache together in the rest
    (drops cache entries at once if over)."""
    global _budget, _work
    with _lock:
        _budget = max(0, int(nbytes))
        _work = min(_budget // 4, MAX_WORK) if work is None else min(max(0, work), _budget)
        _shrink()


def budget() -> int:
    """The engine's whole budget: caches and work slice."""
    return _budget


def cache_budget() -> int:
    """What the caches may hold together: the budget less the work slice."""
    return _budget - _work


def work_budget() -> int:
    """Bytes of temporaries one computation may hold at once (see the module docstring)."""
    return _work


def rows_within(row_bytes: int, fixed: int = 0) -> int:
    """How many rows of ``row_bytes`` temporaries each fit in the work slice at once, after
    ``fixed`` bytes held for the whole computation (at least 1)."""
    room = max(_work, MIN_WORK) - fixed
    return max(1, room // max(1, row_bytes))


def _find_malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        trim: Callable[[int], int] = libc.malloc_trim  # glibc only
    except (OSError, AttributeError, TypeError):
        return None
    return trim


_malloc_trim = _find_malloc_trim()


def make_room(nbytes: int) -> None:
    """Call before allocating an array of ``nbytes`` that will be kept (a set of possible
    codes, a space's tables). glibc's malloc keeps freed blocks below its (growing) mmap
    threshold for reuse, so the sets of earlier games can stay resident; past
    :data:`ROOM_FOR` bytes that memory is handed back to the system first (a few ms), so
    the process's peak is what is live."""
    if nbytes >= ROOM_FOR and _malloc_trim is not None:
        _malloc_trim(0)


def nbytes() -> int:
    """Bytes held by every engine cache together, measured now (values that grew since
    they were stored may push older entries out first)."""
    global _total
    with _lock:
        for full, (value, _) in list(_entries.items()):
            _entries[full] = (value, size_of(value))
        _total = sum(size for _, size in _entries.values())
        _shrink()
        return _total


def report() -> dict[str, int]:
    """Bytes per cache name, for benchmarks and logs."""
    nbytes()
    with _lock:
        out = dict.fromkeys(_caches, 0)
        for (name, _), (_, size) in _entries.items():
            out[name] += size
        return out


def clear() -> None:
    """Empty every engine cache (the next use rebuilds what it needs)."""
    global _total
    with _lock:
        _entries.clear()
        _total = 0
