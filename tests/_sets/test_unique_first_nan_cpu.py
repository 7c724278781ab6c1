"""unique's values alone of complex input holding several NaNs: NumPy (2.4, 2.5) finds them with a
hash set, which keeps the input's first NaN (every complex NaN equal), where the sort keeps the
first of NumPy's order of NaNs. unique's copy with host-backed arrays and NumPy stand-ins, the
sort's values as NumPy's sort path gives them (return_counts), against NumPy's unique; union1d
through unique. The device: test_sets_gpu.py."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray._sets import unique as unique_mod
from cuarray.testing.fake_device import from_np as F
from cuarray.testing.fake_device import host_module
from cuarray.testing.fake_device import to_np as H


@pytest.fixture(scope="module")
def host_unique():
    return host_module(unique_mod, {
        "as_array": lambda a, fn: a,
        "_unique1d": lambda x, ri, rinv, rc, en: (F(np.unique(H(x), return_counts=True, equal_nan=en)[0]),),
        "take": lambda a, i: F(np.take(H(a), H(i))), "argmax": lambda a: F(np.asarray(np.argmax(H(a)))),
        "isnan": lambda a: F(np.isnan(H(a))),
        "copyto_where_unchecked": lambda d, s, m: np.copyto(H(d), H(s), where=H(m))})


def _same(got, want):
    return (got.shape == want.shape and np.array_equal(got.real, want.real, equal_nan=True)
            and np.array_equal(got.imag, want.imag, equal_nan=True))


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_values_keep_the_first_nan(host_unique, dt):
    rng = np.random.default_rng()
    n = np.nan
    fixed = [np.array([complex(n, -0.5), complex(-2, n), 1, complex(n, n)], dt),
             np.array([complex(1, n), complex(n, 0), 3, complex(-np.inf, n), complex(n, -2)], dt),
             np.array([1, 2, 1], dt), np.zeros(0, dt)]
    bad = []
    for x in fixed + [rng.integers(-3, 3, (int(rng.integers(1, 40)),)).astype(dt) for _ in range(20)]:
        if x.size > 2:
            k = rng.random(x.size) < 0.4
            x.real[k & (rng.random(x.size) < 0.6)] = n
            x.imag[k & ~np.isnan(x)] = n
        for kw in ({}, {"equal_nan": True}, {"equal_nan": False}):
            got, want = H(host_unique.unique(F(x), **kw)), np.unique(x, **kw)
            if not _same(got, want):
                bad.append((x, kw, got, want))
        # a 2-d input: the first NaN of its C order
        y = np.resize(x, (2, x.size)).T.copy() if x.size else x
        if not _same(H(host_unique.unique(F(y))), np.unique(y)):
            bad.append((y, H(host_unique.unique(F(y))), np.unique(y)))
    assert not bad, bad[:3]
