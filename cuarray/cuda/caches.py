"""The one registry of cuarray's in-process caches: every memo of kernels, launch configs, plans,
handles and workspaces registers here with a name, so that `info()` can list them (entries, and
bytes where known) and `clear()` can empty them all (`cuarray.cuda.cache_info`,
`cuarray.cuda.clear_caches`, and the fake device of the tests, which clears them when it is put in
and taken out so no placeholder kernel outlives it).

Library handles (cuBLAS, cuSOLVER, cuSPARSE, cuDSS: one per device and thread) are listed here too,
as `kept` entries that `clear()` leaves alone: a handle is not a memo that can be made again at
will, since what was made with it (a cuDSS factorization, a cuSOLVER params object) keeps using it;
they go when their thread ends and at exit.

A module-level cache registers its dict (`register(name, table)`) or, when the module rebinds or
guards it, callables (`register(name, count=..., clear=...)`). A class whose instances each own
tables (an elementwise Definition's kernels and plans) registers once with `instances(name,
tables)` and adds each new instance to the WeakSet it gets back: the registry reaches every live
instance's tables with no scan of the heap, and the look-ups on the launch path are untouched (a
table is still a plain dict read where it was).

This module sits at the bottom of the layers (it imports nothing of cuarray): the engine above it
registers itself here, never the other way round.
"""

from __future__ import annotations

import contextlib
import functools
import weakref

__all__ = ["register", "instances", "memo", "info", "clear", "names", "kept"]


class _Entry:
    __slots__ = ("name", "count", "clear", "nbytes", "code", "kept")

    def __init__(self, name, count, clear, nbytes, code, kept):
        self.name, self.count, self.clear, self.nbytes, self.code = name, count, clear, nbytes, code
        self.kept = kept


_entries: dict = {}  # name -> _Entry, in registration order
_copying = [0]  # module copies running (`copying`)


@contextlib.contextmanager
def copying():
    """While a private copy of an imported module runs (the fake device's `host_module`), the
    copy's registrations of the names its real module took are not kept: the copy's tables are its
    own and go with it."""
    _copying[0] += 1
    try:
        yield
    finally:
        _copying[0] -= 1


def register(name: str, table=None, *, count=None, clear=None, nbytes=None, code: bool = False,
             kept: bool = False) -> None:
    """Register the cache `name`: either `table` (a dict-like this registry may `len` and `clear`)
    or `count()` and `clear()`; `nbytes()` gives its size in bytes where known. `code`: it holds
    compiled modules (filled below the compile seam, `_observe`, which the fake device replaces, so
    no placeholder reaches it): `clear(code=False)` keeps it. `kept`: listed with `count()` only,
    never emptied (the library handles). A second registration of one name is an error (two caches
    would hide behind one row)."""
    if kept:
        if count is None or table is not None or clear is not None:
            raise TypeError("a kept entry is registered with count only (clear never empties it)")
        clear = _keep
    elif table is not None:
        if count is not None or clear is not None:
            raise TypeError("register takes a table or count and clear, not both")
        count, clear = table.__len__, table.clear
    elif count is None or clear is None:
        raise TypeError("register needs a table, or both count and clear")
    if name in _entries:
        if _copying[0]:
            return
        raise ValueError("a cache named {!r} is registered already".format(name))
    _entries[name] = _Entry(name, count, clear, nbytes, code, kept)


def _keep() -> None:
    """A kept entry's clear: `clear()` skips kept entries; this is never called."""
    raise AssertionError("a kept entry is never cleared")


def _live(objects: weakref.WeakSet) -> list:
    # Another thread may add an instance while this one iterates: try again (construction is rare).
    while True:
        try:
            return list(objects)
        except RuntimeError:
            continue


def instances(name: str, tables) -> weakref.WeakSet:
    """Register the cache `name` as the tables of every live instance of a class: `tables(obj)` is
    the dicts `obj` owns. Returns the WeakSet the class adds each instance to when it makes it
    (the class needs a ``__weakref__`` slot)."""
    objects: weakref.WeakSet = weakref.WeakSet()

    def count():
        return sum(len(t) for o in _live(objects) for t in tables(o))

    def empty():
        for o in _live(objects):
            for t in tables(o):
                t.clear()

    register(name, count=count, clear=empty)
    return objects


def memo(name: str, maxsize=None):
    """Decorator: `functools.lru_cache(maxsize)` of the function, registered as the cache `name`
    (its entries counted by `cache_info`, emptied by `cache_clear`)."""
    def wrap(fn):
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        register(name, count=lambda: cached.cache_info().currsize, clear=cached.cache_clear)
        return cached
    return wrap


def names() -> list:
    """The registered caches' names, in registration order."""
    return list(_entries)


def kept() -> list:
    """The names of the kept entries (listed, never emptied by `clear()`)."""
    return [e.name for e in list(_entries.values()) if e.kept]


def info() -> dict:
    """name -> (entries, bytes or None where not known) of every registered cache."""
    return {e.name: (e.count(), None if e.nbytes is None else e.nbytes()) for e in list(_entries.values())}


def clear(*, code: bool = True, names=None) -> None:
    """Empty every registered cache but the kept ones (with code=False, all but those holding
    compiled modules too; with `names`, only those of these names that are registered: a module not
    imported has none)."""
    for e in list(_entries.values()):
        if not e.kept and (code or not e.code) and (names is None or e.name in names):
            e.clear()
