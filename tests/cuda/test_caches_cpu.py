"""The cache registry (`cuarray/cuda/caches.py`): every cache of kernels, launch configs and plans
is listed by `cuarray.cuda.cache_info()` and emptied by `cuarray.cuda.clear_caches()`; the engine's
per-instance tables are reached with no scan of the heap; the fake device empties the registry
when it is put in and taken out (keeping the compiled modules, which it never fills)."""

from __future__ import annotations

import contextlib
import gc

import pytest

import cuarray
from cuarray._core import elementwise, reduction, scan
from cuarray.cuda import caches, compiler, launch
from cuarray.testing import fake_device

# The caches the fake device's placeholders can reach, and the compiled modules.
NAMED = ("launch configs", "compiled modules", "kernel families", "elementwise kernels and strided plans",
         "elementwise flat launches", "reduction kernels and launchers", "reduction fast path", "scan kernels")
# The engine's classes that own tables of kernels, plans or launch configs.
ENGINE = (elementwise.Definition, elementwise.FlatLaunch, reduction.ReductionDef, scan.ScanOp)


@contextlib.contextmanager
def _fake_work():
    """Under `recording()` with the fake compile observer (the distributed tests' fake runtime): an
    elementwise op (contiguous and strided), a reduction through its fast path and a scan; a launch
    config (the recorder's are tuples, not cached: one is put in the recorder's table)."""
    with fake_device.recording_fake_compiles():
        a = cuarray.arange(10, dtype=cuarray.float32)
        (a + a)[::2] + 1
        a.sum()
        a.sum()
        cuarray.cumsum(a)
        launch._configs[(1, 1, 0)] = ("cfg", 1, 1, 0)
        yield


def test_the_registry_lists_every_named_cache():
    info = cuarray.cuda.cache_info()
    assert set(NAMED) <= set(info), sorted(set(NAMED) - set(info))
    for name, (entries, nbytes) in info.items():
        assert isinstance(entries, int) and entries >= 0, name
        assert nbytes is None or isinstance(nbytes, int), name


def test_clear_caches_empties_them_all(monkeypatch):
    monkeypatch.setitem(compiler._modules, ("a key no compile makes",), object())
    with _fake_work():
        filled = {name for name, (n, _) in cuarray.cuda.cache_info().items() if n}
        assert set(NAMED) <= filled, sorted(set(NAMED) - filled)
        cuarray.cuda.clear_caches()
        left = {name: n for name, (n, _) in cuarray.cuda.cache_info().items() if n}
        assert left == {}


def test_the_fake_device_empties_all_but_the_compiled_modules(monkeypatch):
    """On exit from `recording()` nothing it made is left in a cache; the compiled modules (filled
    below the compile seam the fake device replaces) stay for the next GPU test."""
    key = ("a key no compile makes",)
    monkeypatch.setitem(compiler._modules, key, object())
    with _fake_work():
        pass
    left = {name: n for name, (n, _) in cuarray.cuda.cache_info().items() if n and name != "compiled modules"}
    assert left == {}
    assert key in compiler._modules


def test_every_table_an_engine_object_owns_is_registered():
    """A dict in an engine object's slots is a table of kernels, plans or configs: one the registry
    does not reach (a new table left out of its class's `caches.instances` entry, or a class that
    does not add its instances) would keep a fake device's placeholder for the next test."""
    with _fake_work():
        tables = []
        for o in gc.get_objects():
            if isinstance(o, ENGINE):
                for slot in type(o).__slots__:
                    t = getattr(o, slot, None)
                    if isinstance(t, dict):
                        t[("sentinel",)] = None
                        tables.append((type(o).__name__, slot, t))
        assert {cls for cls, _, _ in tables} == {c.__name__ for c in ENGINE}
        caches.clear(code=False)
        left = sorted({(cls, slot) for cls, slot, t in tables if t})
        assert left == []


def test_a_name_is_registered_once():
    with pytest.raises(ValueError, match="registered already"):
        caches.register("scan kernels", {})
    with pytest.raises(TypeError):
        caches.register("a cache with no way to count it", clear=lambda: None)


def test_memo_is_a_registered_lru_cache():
    calls = []

    @caches.memo("a test memo (test_caches_cpu)", maxsize=4)
    def plan(n):
        calls.append(n)
        return (n,)

    try:
        assert plan(1) is plan(1) and calls == [1]
        plan(2)
        assert cuarray.cuda.cache_info()["a test memo (test_caches_cpu)"] == (2, None)
        cuarray.cuda.clear_caches()
        assert cuarray.cuda.cache_info()["a test memo (test_caches_cpu)"] == (0, None)
        plan(1)
        assert calls == [1, 2, 1]
    finally:
        caches._entries.pop("a test memo (test_caches_cpu)")


class _Code:
    def __init__(self, nbytes):
        self.nbytes = nbytes


def test_bytes_of_compiled_modules_and_workspaces(monkeypatch):
    """The compiled modules report their code's bytes, the reductions' workspaces their device
    bytes (partials and counter slabs), and `python -m cuarray info` prints them."""
    from cuarray import _info
    from cuarray._core import reduction

    before = cuarray.cuda.cache_info()["compiled modules"][1]
    monkeypatch.setitem(compiler._modules, ("a key no compile makes",), _Code(1000))
    assert cuarray.cuda.cache_info()["compiled modules"][1] == before + 1000
    monkeypatch.setitem(reduction._workspaces, (0, 12345), (0, 0, 8192, None))
    n, nbytes = cuarray.cuda.cache_info()["reduction workspaces"]
    assert n >= 1 and nbytes >= 8192
    rows = dict(_info._caches())
    assert rows["reduction workspaces"] == "{} entries, {} bytes".format(n, nbytes)
    assert rows["compiled modules"].endswith("{} bytes".format(before + 1000))


def test_every_memo_holding_device_memory_reports_bytes():
    """The caches of device or pinned memory give their bytes (None is for kernels and plans)."""
    import cuarray.scipy.ndimage  # noqa: F401  (registers its constant tables)
    from cuarray.cuda.libs import cublas  # noqa: F401  (and the library workspaces)

    info = cuarray.cuda.cache_info()
    for name in ("reduction workspaces", "pinned staging buffers", "library workspaces", "ndimage constant tables",
                 "compiled modules"):
        assert isinstance(info[name][1], int), name


LIBRARY_HANDLES = ("cuBLAS handles", "cuBLASLt handles", "cuSOLVER handles", "cuSOLVER params",
                   "cuSOLVER syevj settings", "cuSOLVER gesvdj settings", "cuSPARSE handles", "cuDSS handles")


def test_library_handles_are_listed_and_kept():
    """Each math library's per-thread handles are a registry entry (counted); `clear_caches()`
    leaves them (a cuDSS factorization keeps using the handle it was made with), the fake device's
    clears too; they go with their thread."""
    import threading

    from cuarray.cuda.libs import _handles, cublas, cudss, cusolver, cusparse  # noqa: F401  (their entries)

    assert set(LIBRARY_HANDLES) <= set(caches.kept()), sorted(set(LIBRARY_HANDLES) - set(caches.kept()))
    destroyed = []
    name = "test handles (test_caches_cpu)"
    hs = _handles.PerThreadHandle(lambda: object(), destroyed.append, activate=lambda d: None, name=name)
    try:
        h = hs.get()
        assert cuarray.cuda.cache_info()[name] == (1, None) and name in caches.kept()
        cuarray.cuda.clear_caches()
        caches.clear(code=False)
        assert destroyed == [] and hs.get() is h and cuarray.cuda.cache_info()[name] == (1, None)
        t = threading.Thread(target=hs.get)
        t.start()
        t.join()
        assert len(destroyed) == 1 and cuarray.cuda.cache_info()[name] == (1, None)  # the thread's went with it
        with pytest.raises(TypeError, match="count only"):
            caches.register("a kept table (test_caches_cpu)", {}, kept=True)
    finally:
        hs.destroy_all()
        caches._entries.pop(name)
