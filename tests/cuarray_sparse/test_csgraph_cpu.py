"""connected_components without a GPU: the plan at its boundaries, the kernels compile for sm_90,
and the whole routine on the host: templates/csgraph.cu built with g++
(each CUDA thread a call, the virtual threads spread over host threads so the union-find's
compare-and-swaps and the propagation passes really race), driven by a private copy of
`_traversal` on NumPy stand-ins, against SciPy on random graphs (weak labels exactly SciPy's,
strong labels SciPy's components numbered by their smallest vertex), with and without the
host tail, and SciPy's errors."""

from __future__ import annotations

import ctypes
import functools
import types

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg

from cuarray.sparse.csgraph import _plan as plan
from cuarray.sparse.csgraph import _traversal as tr
from cuarray.testing.fake_device import host_modules

# -- the plan -----------------------------------------------------------------------------------------


def test_index_dtype_boundaries():
    big = np.iinfo(np.int32).max
    assert plan.index_dtype(0) == plan.index_dtype(big) == np.int32
    assert plan.index_dtype(big + 1) == np.int64
    assert plan.index_dtype(5, np.int64) == np.int64 and plan.index_dtype(5, np.int32) == np.int32


@pytest.mark.parametrize("sm", [1, 132])
def test_grids(sm):
    cap = plan.BLOCKS_PER_SM * sm
    assert plan.grid(0, sm) == 0 and plan.grid(-1, sm) == 0
    assert plan.grid(1, sm) == 1 and plan.grid(plan.BLOCK, sm) == 1
    assert plan.grid(plan.BLOCK + 1, sm) == min(2, cap)
    assert plan.grid(10**12, sm) == cap
    assert plan.csr_grid(0, sm) == 0 and plan.csr_grid(1, sm) == 1
    assert plan.csr_grid(plan.BLOCK * plan.CSR_CHUNK, sm) == 1
    assert plan.csr_grid(plan.BLOCK * plan.CSR_CHUNK + 1, sm) == min(2, cap)


def test_trim_and_host_tail_rules():
    assert not plan.trim_again(0, 10) and not plan.trim_again(5, 0)
    live = 10 * plan.TRIM_STOP
    assert plan.trim_again(10, live) and not plan.trim_again(9, live)
    assert not plan.to_host(100, 0, False) and not plan.to_host(0, 10**6, True)
    assert plan.to_host(plan.HOST_TAIL, 0, True) and not plan.to_host(plan.HOST_TAIL + 1, 0, True)
    assert plan.to_host(10**6, plan.MAX_PASSES, True) and not plan.to_host(10**6, plan.MAX_PASSES - 1, True)
    assert not plan.to_host(10**6, 10**9, False)  # without SciPy the passes go on


def test_kernel_names_cover_the_family():
    for dt in (np.int32, np.int64):
        names = plan.kernel_names(dt)
        assert set(names) == set(tr.CSGRAPH.decls) and all(v.startswith(k + "<") for k, v in names.items())


@pytest.mark.nvrtc_fast
def test_kernels_compile_for_sm90():
    from cubin_info import compile_sm90  # tests/ is on sys.path

    names = sorted({tr.CSGRAPH.name_expression(v) for dt in (np.int32, np.int64) for v in plan.kernel_names(dt).values()})
    cubin, lowered = compile_sm90(tr.CSGRAPH.source(), names)
    assert cubin and set(lowered) == set(names)


# -- the kernels with g++ -----------------------------------------------------------------------------
PREAMBLE = r"""
#include <thread>
#include <vector>
struct Dim3 { unsigned x, y, z; };
static thread_local Dim3 threadIdx, blockIdx;
static Dim3 blockDim, gridDim;
#define __global__
#define __device__
#define __forceinline__ inline
static int atomicCAS(int* p, int cmp, int val) {
  __atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return cmp; }
static unsigned long long atomicCAS(unsigned long long* p, unsigned long long cmp, unsigned long long val) {
  __atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return cmp; }
template <typename T> static T atomic_pick(T* p, T v, bool larger) {
  T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while ((larger ? old < v : old > v) &&
         !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
  return old; }
static int atomicMax(int* p, int v) { return atomic_pick(p, v, true); }
static long long atomicMax(long long* p, long long v) { return atomic_pick(p, v, true); }
static int atomicMin(int* p, int v) { return atomic_pick(p, v, false); }
static long long atomicMin(long long* p, long long v) { return atomic_pick(p, v, false); }
static unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
#include "csgraph.cu"
// A launch: grid x block virtual threads, spread round-robin over four host threads.
template <typename F> static void run(unsigned grid, unsigned block, F body) {
  gridDim.x = grid; blockDim.x = block;
  std::vector<std::thread> ts;
  for (unsigned w = 0; w < 4; ++w)
    ts.emplace_back([=] {
      for (unsigned t = w; t < grid * block; t += 4) { blockIdx.x = t / block; threadIdx.x = t % block; body(); }
    });
  for (auto& t : ts) t.join();
}
"""
_CT = {"int": ctypes.c_int, "long long": ctypes.c_longlong}


def _wrappers():
    """One extern "C" launcher per kernel and index type, written from the family's declarations:
    (C++ text, {(kernel, C type): ctypes argument types})."""
    text, sigs = [], {}
    for name, (tparams, params, _) in tr.CSGRAPH.decls.items():
        for ct in ("int", "long long"):
            decl = [("{} {}".format(p.ctype.replace("I", ct) if p.base == "I" else p.ctype, p.name)) for p in params]
            text.append('extern "C" void {}_{}(unsigned grid, unsigned block, {}) {{ run(grid, block, [=] {{ '
                        'cuarray_csgraph::{}<{}>({}); }}); }}'.format(name, ct.replace(" ", "_"), ", ".join(decl),
                                                                     name, ct, ", ".join(p.name for p in params)))
            sigs[name, ct] = [ctypes.c_void_p if p.pointer else _CT.get(ct if p.base == "I" else p.base, ctypes.c_longlong)
                              for p in params]
    return "\n".join(text), sigs


@functools.cache
def _library():
    import host_build  # tests/ is on sys.path
    import pathlib

    src, sigs = _wrappers()
    lib = host_build.library_of(PREAMBLE + src, ["-O1", "-std=c++17", "-shared", "-fPIC", "-pthread",
                                                 "-I", str(pathlib.Path(tr.__file__).parents[1] / "templates")])
    for (name, ct), args in sigs.items():
        f = getattr(lib, "{}_{}".format(name, ct.replace(" ", "_")))
        f.argtypes = [ctypes.c_uint, ctypes.c_uint] + args
        f.restype = None
    return lib


class P(np.ndarray):
    """A host array whose `.data.ptr` is its address (what the launches pass)."""

    @property
    def data(self):
        return types.SimpleNamespace(ptr=self.ctypes.data if self.size else 0)

    def get(self):
        return np.asarray(self).copy()


def _as_p(out):
    if isinstance(out, tuple):
        return tuple(_as_p(o) for o in out)
    return np.ascontiguousarray(out).view(P) if isinstance(out, np.ndarray) else out


def _p(fn):
    def f(*a, **k):
        return _as_p(fn(*a, **k))
    return f


class _HostKernel:
    def __init__(self, f):
        self.f = f

    def launch(self, grid, block, *args):
        if grid:
            self.f(grid, block, *args)


def _host_kernels(dtype):
    ct = {np.dtype(np.int32): "int", np.dtype(np.int64): "long_long"}[np.dtype(dtype)]
    lib = _library()
    return {k: _HostKernel(getattr(lib, "{}_{}".format(k, ct))) for k in plan.KERNELS}


def _expand(indptr, nnz, dtype):
    return np.repeat(np.arange(indptr.size - 1), np.diff(np.asarray(indptr))).astype(dtype).view(P)


class FakeSparse:
    """What `_graph` reads of a cuarray sparse matrix, over host arrays."""

    def __init__(self, m, fmt):
        m = m.asformat(fmt)
        self.shape, self.format = m.shape, fmt
        if fmt in ("csr", "csc"):
            self.indptr, self.indices = np.asarray(m.indptr).view(P), np.asarray(m.indices).view(P)
            self.nnz = m.nnz
        else:
            self.row, self.col = np.asarray(m.row).view(P), np.asarray(m.col).view(P)


@pytest.fixture(scope="module")
def host():
    names = ("empty full ones zeros arange take equal not_equal isfinite logical_and multiply subtract cumsum "
             "flatnonzero nonzero argmax bincount").split()
    stand = {n: _p(getattr(np, n)) for n in names}
    stand.update(from_host=_p(np.asarray), to_host=np.asarray, as_literal_or_array=lambda x, fn: _p(np.asarray)(x),
                 issparse=lambda x: isinstance(x, FakeSparse), _kernels=_host_kernels,
                 canon=types.SimpleNamespace(expand=_expand),
                 _device=types.SimpleNamespace(get_device_id=lambda: 0, _sm_count=lambda i: 2))
    _library()
    return host_modules({tr: stand})[tr]


def _random_graph(rng, n, density, self_loops=True, symmetric=False, dtype=np.float64):
    m = ssp.random(n, n, density=density, random_state=rng, format="coo", dtype=dtype)
    if not self_loops:
        m.setdiag(0)
        m.eliminate_zeros()
    if symmetric:
        m = m + m.T
    return m.tocsr()


def _strong_by_smallest(m):
    """SciPy's strong components, numbered by their smallest vertex."""
    k, lab = scg.connected_components(m, directed=True, connection="strong")
    smallest = np.full(k, m.shape[0])
    np.minimum.at(smallest, lab, np.arange(m.shape[0]))
    return k, np.argsort(np.argsort(smallest))[lab].astype(np.int32)


CASES = [(n, d, seed) for seed, (n, d) in enumerate([(0, 0.1), (1, 0.0), (1, 1.0), (7, 0.0), (30, 0.02), (60, 0.03),
                                                    (200, 0.006), (300, 0.004), (500, 0.01)])]


@pytest.mark.parametrize("n,density,seed", CASES)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dense"])
def test_host_kernels_give_scipys_components(host, n, density, seed, fmt):
    rng = np.random.default_rng([seed, len(fmt)])
    m = _random_graph(rng, n, density)
    g = FakeSparse(m, fmt) if fmt != "dense" else m.toarray().view(P)
    for directed, connection in ((False, "weak"), (True, "weak"), (True, "strong"), (False, "strong")):
        want = scg.connected_components(m, directed=directed, connection=connection)
        got = host.connected_components(g, directed=directed, connection=connection)
        assert got[0] == want[0] and type(got[0]) is int, (directed, connection)
        if directed and connection == "strong":
            want = _strong_by_smallest(m)
        assert got[1].dtype == np.int32
        np.testing.assert_array_equal(got[1], want[1], err_msg=str((directed, connection)))
        assert host.connected_components(g, directed=directed, connection=connection, return_labels=False) == want[0]


@pytest.mark.parametrize("seed", range(4))
def test_strong_on_the_device_alone(host, seed):
    """host=False: every vertex by trimming, the pivot's reachability or colouring rounds (graphs
    of many small cycles, a long chain both ways, random ones), as SciPy's."""
    rng = np.random.default_rng(seed)
    n = 400
    graphs = [_random_graph(rng, n, 0.004), _random_graph(rng, n, 0.02, self_loops=False)]
    perm = rng.permutation(n)  # cycles of 1..9 vertices over shuffled ids, linked one way
    cyc, start = [], 0
    while start < n:
        k = int(rng.integers(1, 10))
        ids = perm[start:start + k]
        cyc += [(ids[i], ids[(i + 1) % len(ids)]) for i in range(len(ids))] + ([(ids[0], perm[start + k])]
                                                                            if start + k < n else [])
        start += k
    r, c = np.array(cyc).T
    graphs.append(ssp.csr_array((np.ones(r.size), (r, c)), shape=(n, n)))
    chain = np.arange(n - 1)
    graphs.append(ssp.csr_array((np.ones(n - 1), (chain[::-1] + 1, chain[::-1])), shape=(n, n)))
    for m in graphs:
        g = host._graph(FakeSparse(ssp.csr_array(m), "csr"))
        roots = host.strong_roots(g, host=False)
        k, want = _strong_by_smallest(ssp.csr_array(m))
        got_k, got = host._ranked(roots, n)
        assert got_k == k
        np.testing.assert_array_equal(got, want)


def test_dense_null_values_and_errors(host):
    a = np.array([[0, np.inf, 0], [-np.inf, 0, np.nan], [0, -2.0, 0]])
    for directed in (True, False):
        for conn in ("weak", "strong"):
            want = scg.connected_components(a, directed=directed, connection=conn)
            got = host.connected_components(a.view(P), directed=directed, connection=conn)
            assert got[0] == want[0]
    assert host.connected_components([[0, 1], [0, 0]])[0] == 1  # a list, as SciPy takes array_like
    for bad, match in ((np.zeros((2, 3)), "square array"), (np.zeros((2, 2, 2)), "two dimensions")):
        with pytest.raises(ValueError, match=match):
            scg.connected_components(bad)
        with pytest.raises(ValueError, match=match):
            host.connected_components(bad.view(P))
    with pytest.raises(ValueError, match="compressed-sparse graph must be shape"):
        host.connected_components(FakeSparse(ssp.csr_array(np.ones((2, 3))), "csr"))
    for conn in ("Strong", "WEAK"):
        assert host.connected_components(np.eye(3).view(P), connection=conn)[0] == 3
    with pytest.raises(ValueError, match="connection must be 'weak' or 'strong'"):
        host.connected_components(np.eye(3).view(P), connection="medium")


def test_signature_and_namespaces():
    import inspect

    import cuarray.scipy.sparse as csp
    import cuarray.sparse as sp

    assert inspect.signature(tr.connected_components) == inspect.signature(scg.connected_components)
    assert csp.csgraph.connected_components is sp.csgraph.connected_components is tr.connected_components
    assert "csgraph" in dir(sp)
