"""The cache registry on a device (`cuarray/cuda/caches.py`): real work fills the registered caches
(kernels, Definitions, plans, pinned staging, the compiled modules with their code's bytes);
`clear_caches()` empties every one of them but the math libraries' handles (listed, kept), and the
same work then gives the same results (each cache is made again, nothing kept a stale kernel, plan
or workspace)."""

from __future__ import annotations

import numpy
import pytest

import cuarray
from cuarray._core import _staging
from cuarray.cuda import _backend, caches

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(
                  _backend.unavailable_reason()))]


def _work(rng):
    """(name, cuarray result, NumPy's) of operations reaching several registered caches."""
    import cuarray.fft
    import cuarray.scipy.ndimage as ndi
    import scipy.ndimage

    x = rng.standard_normal(4096)
    m = rng.standard_normal((64, 48)).astype(numpy.float32)
    big = rng.standard_normal(5 << 20).astype(numpy.float32)  # 20 MiB: past the staging threshold
    dx, dm = cuarray.asarray(x), cuarray.asarray(m)
    return [
        ("sum", dx.sum(), x.sum()),
        ("cumsum", cuarray.cumsum(dx), numpy.cumsum(x)),
        ("arange", cuarray.arange(3, 1000, 7, dtype=cuarray.float32), numpy.arange(3, 1000, 7, dtype=numpy.float32)),
        ("linspace", cuarray.linspace(0, 1, 33), numpy.linspace(0, 1, 33)),
        ("tril", cuarray.tril(dm), numpy.tril(m)),
        ("convolve", cuarray.convolve(dx[:100], dx[:7]), numpy.convolve(x[:100], x[:7])),
        ("matmul", dm @ dm.T, m @ m.T),
        ("fft", cuarray.fft.fft(dx), numpy.fft.fft(x)),
        ("uniform_filter1d", ndi.uniform_filter1d(dm, 5, axis=1), scipy.ndimage.uniform_filter1d(m, 5, axis=1)),
        ("upload", cuarray.asarray(big)[-3:], big[-3:]),
    ]


def _check(results):
    for name, got, want in results:
        numpy.testing.assert_allclose(cuarray.asnumpy(got), want, rtol=1e-4, atol=1e-4, err_msg=name)


def test_clear_caches_empties_every_cache_and_the_work_is_made_again():
    rng = numpy.random.default_rng()
    _check(_work(rng))
    info = cuarray.cuda.cache_info()
    for name in ("kernel families", "compiled modules", "elementwise kernels and strided plans", "scan kernels",
                 "arange prepared launches", "linspace definitions", "tril/triu definitions", "convolve plans",
                 "pinned staging buffers"):
        assert info[name][0] > 0, (name, info[name])
    n, nbytes = info["compiled modules"]
    assert nbytes > 1000 * n, info["compiled modules"]  # each module's code (a cubin) counted in bytes
    staged, staged_bytes = info["pinned staging buffers"]
    assert staged_bytes == staged * 2 * _staging.PINNED_CHUNK, info["pinned staging buffers"]
    # the math libraries' handles (matmul's and fft's) are listed, and kept: a factorization made
    # with a handle keeps using it
    handles = {name: info[name][0] for name in caches.kept()}
    assert sum(handles.values()) > 0, handles
    cuarray.cuda.clear_caches()
    info = cuarray.cuda.cache_info()
    left = {name: n for name, (n, _) in info.items() if n and name not in handles}
    assert left == {}
    assert {name: info[name][0] for name in handles} == handles
    _check(_work(rng))  # every cache made again from empty
