"""sqdist_exact.cuh (the euclidean family's direct formula, which the distance epilogues use where
the expanded form cancels) built for the host with g++ and compared with SciPy's cdist: equal bit
for bit, since it forms the same terms in SciPy's order with no FMA (SciPy's x86-64 builds have none)."""

from __future__ import annotations

import ctypes
import pathlib
import zlib

import host_build  # tests/ is on sys.path
import numpy as np
import pytest
from scipy.spatial import distance as sd

from cuarray.scipy.spatial import _sqdist_tiles as T

from ._exact_cases import CASES

_DIR = pathlib.Path(T.__file__).parent / "templates"
_CORE = pathlib.Path(T.__file__).parents[2] / "_core" / "templates"  # cuarray/rounded.cuh
DRIVER = r'''
#include "sqdist_exact.cuh"
extern "C" void pairs(const double* a, long long m, const double* b, long long n, long long k, int mode,
                      const double* p, double* out) {
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j)
      out[i * n + j] = cuarray_sqdist::exact_square(reinterpret_cast<const char*>(a + i * k), 8,
                                                    reinterpret_cast<const char*>(b + j * k), 8, k, mode, p);
}
'''


@pytest.fixture(scope="module")
def lib():
    return host_build.library_of(DRIVER, ["-O2", "-ffp-contract=off", "-shared", "-fPIC", "-I", str(_DIR), "-I", str(_CORE)])


def _pairs(lib, a, b, mode, p=None):
    a, b = np.ascontiguousarray(a, np.float64), np.ascontiguousarray(b, np.float64)
    out = np.empty((a.shape[0], b.shape[0]))
    ptr = (lambda x: x.ctypes.data_as(ctypes.c_void_p))
    pp = None if p is None else np.ascontiguousarray(p, np.float64)
    lib.pairs(ptr(a), ctypes.c_longlong(a.shape[0]), ptr(b), ctypes.c_longlong(b.shape[0]),
              ctypes.c_longlong(a.shape[1]), ctypes.c_int(T.EXACT_MODES[mode]), None if pp is None else ptr(pp),
              ptr(out))
    return out


@pytest.mark.parametrize("case", sorted(CASES) + ["random"])
def test_exact_square_is_scipys(lib, case):
    rng = np.random.default_rng(zlib.crc32(case.encode()))
    X = rng.standard_normal((30, 4)) if case == "random" else CASES[case](rng)
    A, B = X[::2], X[1::2]
    k = X.shape[1]
    w, V = rng.random(k) + 0.1, rng.random(k) + 0.5
    Q = rng.standard_normal((k, k))
    VI = Q @ Q.T + k * np.eye(k)
    np.testing.assert_array_equal(np.sqrt(_pairs(lib, A, B, "plain")), sd.cdist(A, B))
    np.testing.assert_array_equal(_pairs(lib, A, B, "plain"), sd.cdist(A, B, "sqeuclidean"))
    np.testing.assert_array_equal(np.sqrt(_pairs(lib, A, B, "weighted", w)), sd.cdist(A, B, w=w))
    np.testing.assert_array_equal(_pairs(lib, A, B, "weighted_sq", w), sd.cdist(A, B, "sqeuclidean", w=w))
    # mahalanobis: SciPy's C dot products take two terms at a time where built with SSE2; VI is
    # well conditioned (eigenvalues in [k, k + |Q|^2]), so the orders differ by a few ulps of d.VI.d
    np.testing.assert_allclose(np.sqrt(_pairs(lib, A, B, "quad", VI)), sd.cdist(A, B, "mahalanobis", VI=VI),
                               rtol=1e-14, atol=0)
    # seuclidean: SciPy's C loop takes two columns at a time where its build has SSE2 (x86-64), one
    # where not; either way the sums differ by a few ulps at most (k <= 5 terms of one sign)
    np.testing.assert_allclose(np.sqrt(_pairs(lib, A, B, "variance", V)), sd.cdist(A, B, "seuclidean", V=V),
                               rtol=4e-16 * k, atol=0)
    # duplicates: exactly 0 in every formula
    for mode, p in (("plain", None), ("weighted", w), ("weighted_sq", w), ("variance", V), ("quad", VI)):
        assert (_pairs(lib, X, X, mode, p).diagonal() == 0).all()

