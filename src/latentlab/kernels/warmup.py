"""Warm numba kernels up once per process: one tiny run with the argument types of a real
fit compiles the kernels it calls (or loads them from numba's on-disk cache) before
anything is timed, and before worker processes are forked (they inherit them instead of
each loading the cache again). The tiny run has its own inputs and seeds, so no result
depends on it."""

from __future__ import annotations

from collections.abc import Callable, Hashable

_WARMED: set[Hashable] = set()


def warm_once(key: Hashable, run: Callable[[], object]) -> bool:
    """Call ``run()`` (the tiny run) unless ``key`` was warmed already in this process;
    the key names the kernels and the settings that select them. Returns whether it ran."""
    if key in _WARMED:
        return False
    run()
    _WARMED.add(key)
    return True
