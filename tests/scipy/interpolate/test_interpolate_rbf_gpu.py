"""RBFInterpolator on the GPU against scipy.interpolate (cuSOLVER's solve against LAPACK's: the
tolerances are those of the systems' conditioning, kept small by smoothing)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

si = pytest.importorskip("scipy.interpolate")

import cuarray  # noqa: E402
from cuarray.scipy import interpolate as ci  # noqa: E402

G = cuarray.asarray
KERNELS = ["linear", "thin_plate_spline", "cubic", "quintic", "multiquadric", "inverse_multiquadric",
           "inverse_quadratic", "gaussian"]


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def close(got, ref, tol):
    got = got.get()
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    scale = max(1.0, float(np.abs(ref).max(initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("neighbors", [None, 10])
def test_kernels(kernel, neighbors):
    rng = _rng("rbf", kernel, neighbors)
    y = rng.uniform(-1, 1, (60, 2))
    d = np.cos(2 * y[:, 0]) * y[:, 1]
    x = rng.uniform(-1.2, 1.2, (50, 2))
    kw = dict(kernel=kernel, epsilon=1.3, neighbors=neighbors, smoothing=0.01)
    ref = si.RBFInterpolator(y, d, **kw)(x)  # (first: a failure here is SciPy's, not cuarray's)
    close(ci.RBFInterpolator(G(y), G(d), **kw)(G(x)), ref, 1e-6)


def test_complex_batched_values_and_degree():
    rng = _rng("rbf-complex")
    y = rng.uniform(-1, 1, (40, 3))
    d = rng.normal(size=(40, 2)) + 1j * rng.normal(size=(40, 2))
    x = rng.uniform(-1, 1, (9, 3))
    for degree in (-1, 2):
        kw = dict(kernel="thin_plate_spline", degree=degree, smoothing=0.1)
        close(ci.RBFInterpolator(G(y), G(d), **kw)(G(x)), si.RBFInterpolator(y, d, **kw)(x), 1e-7)
    close(ci.RBFInterpolator(G(y), G(d))(G(x[:0])), si.RBFInterpolator(y, d)(x[:0]), 1e-7)


@pytest.mark.parametrize("ndim,ny,k", [(2, 20000, 50), (1, 3000, 7), (3, 4000, 1), (5, 2000, 20), (2, 500, 200),
                                       (2, 30, 40)])
def test_neighbors_from_the_tree(ndim, ny, k, monkeypatch):
    # the neighbourhoods from cuarray's KDTree (its grid search up to 128 neighbours, its brute
    # search past them, k >= ny: every centre), the evaluation in several chunks, complex values
    # and a smoothing array, against SciPy's cKDTree and its per-neighbourhood solves
    from cuarray.scipy.interpolate import _rbf

    monkeypatch.setattr(_rbf, "_CHUNK_BYTES", 1 << 22)  # a few hundred queries a chunk
    rng = _rng("rbf-tree", ndim, ny, k)
    y = rng.uniform(-1, 1, (ny, ndim))
    d = np.sin(3 * y[:, 0]) + 1j * np.cos(2 * y[:, -1])
    # k = 200: SciPy solves one 203-square system a query (2 s for 3,000 on two idle cores; past
    # pytest's 200 s beside 15 other workers on the GPU machine): 400 queries, still 34 chunks
    x = rng.uniform(-1.1, 1.1, (3000 if k < 200 else 400, ndim))
    x[:3] = y[:3]  # queries at centres
    smoothing = rng.uniform(0.001, 0.01, ny)
    kw = dict(kernel="linear" if k == 1 else "thin_plate_spline", neighbors=k, smoothing=smoothing)  # (k = 1: degree 0)
    # SciPy's reference first: cuarray raises SciPy's own "Singular matrix." text, so the line that
    # fails says whose solve it was. (SciPy 1.17.1 and 1.18.1 solve every neighbourhood of these
    # cases: cond <= 2e4, the smallest Bunch-Kaufman pivot of the (2, 500, 200) ones 3e-3.)
    ref = si.RBFInterpolator(y, d, **kw)(x)
    close(ci.RBFInterpolator(G(y), G(d), **kw)(G(x)), ref, 1e-7)
