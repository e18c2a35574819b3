"""The engine's process-wide caches, bounded together by bytes and counted in one place.

Code spaces, their tables and the per-position candidate lists are expensive to build and
cheap to keep, until people play many sizes: then they are the process's largest memory.
Every such cache is a :class:`Cache` here, and all of them share one byte budget
(:func:`set_budget`): past it, the least recently used entry of any cache is dropped. Values
are measured when they are used, not only when stored, so tables a value builds lazily
(a code space's feedback table) count too. The bot gives this budget half its
``MEMORY_BUDGET_MB``; benchmarks and tests read :func:`nbytes` and call :func:`clear`.

Only the cache lets go of an entry: a caller still holding the value keeps it alive, so
the budget bounds what the engine keeps for later, not what a running move uses.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

import numpy as np

V = TypeVar("V")

#: Default budget of every engine cache together: the bot sets its own.
DEFAULT_BUDGET = 256 * 2**20

_lock = threading.RLock()
_entries: OrderedDict[tuple[str, Hashable], tuple[Any, int]] = OrderedDict()
_budget = DEFAULT_BUDGET
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
    while _total > _budget and len(_entries) > 1:
        _, (_, size) = _entries.popitem(last=False)
        _total -= size


def set_budget(nbytes: int) -> None:
    """Bound every engine cache together to ``nbytes`` (drops entries at once if over)."""
    global _budget
    with _lock:
        _budget = max(0, int(nbytes))
        _shrink()


def budget() -> int:
    return _budget


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
