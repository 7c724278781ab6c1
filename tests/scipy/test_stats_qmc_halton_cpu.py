"""qmc.Halton without a GPU: the bases and the scrambling permutations against SciPy's engine
(seeds as ints, Generators and the legacy `seed`); the coordinate function of
templates/halton.cuh built with g++ (every step rounded on its own, as on the device) and driven
as the kernel's threads are, standing in for the launch, against SciPy's points bit for bit
(unscrambled and scrambled, continued draws, fast_forward, reset, many dimensions, past 2^31);
the errors."""

from __future__ import annotations

import copy
import ctypes
import pathlib
import shutil

import numpy as np
import pytest

sq = pytest.importorskip("scipy.stats.qmc")
from scipy.stats import _qmc  # noqa: E402  (van_der_corput: SciPy's private function)

import cuarray  # noqa: E402
from cuarray.scipy.stats import qmc as cq  # noqa: E402
from cuarray.scipy.stats.qmc import _halton, _kernels  # noqa: E402
from cuarray.testing.fake_device import host_modules  # noqa: E402

import host_build  # noqa: E402  (tests/ is on sys.path)

HOST = r"""
#include "halton.cuh"
extern "C" void draw(const long long* bases, const int* perms, const long long* offsets, const int* counts,
                     double* out, long long start, long long n, int d, int scrambled) {
  for (long long i = 0; i < n * d; ++i) {  // the kernel's threads, one coordinate each
    const long long p = i / d;
    const int j = (int)(i - p * d);
    out[i] = cuarray_qmc::halton_point(start + p, bases[j], scrambled ? perms + offsets[j] : nullptr,
                                       scrambled ? counts[j] : 0);
  }
}
"""
_CORE = pathlib.Path(cuarray.__file__).parent / "_core" / "templates"


@pytest.fixture(scope="module")
def lib():
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    return host_build.library_of(HOST, ["-O2", "-ffp-contract=off", "-shared", "-fPIC", "-I", str(_kernels.TEMPLATES),
                                        "-I", str(_CORE)])


@pytest.fixture
def host_engine(lib):
    """Halton from a private copy of its module whose launch is the g++ build of the same
    coordinate function (and whose arrays are NumPy's)."""

    def draw(name, total, bases, perms, offsets, counts, out, start, n, d, scrambled):
        assert name == "halton_draw" and total == n * d
        ptr = lambda a: a.ctypes.data_as(ctypes.c_void_p)  # noqa: E731
        lib.draw(ptr(bases), ptr(perms), ptr(offsets), ptr(counts), ptr(out), ctypes.c_longlong(start), ctypes.c_longlong(n),
                 ctypes.c_int(d), ctypes.c_int(scrambled))

    return host_modules({_halton: {"draw": draw, "empty": np.empty, "asarray": np.asarray}})[_halton].Halton


def test_engine_state_as_scipys():
    for d in (1, 3, 200):
        assert cq.Halton(d).base == list(sq.Halton(d).base)
        for kw in ({"rng": 12345}, {"rng": np.random.default_rng(7)}, {"seed": 3}, {"seed": np.random.RandomState(7)}):
            k2 = copy.deepcopy(kw)  # before ours draws from (or spawns off) the generator
            ours, theirs = cq.Halton(d, **kw), sq.Halton(d, **k2)
            for a, b in zip(ours._permutations, theirs._permutations, strict=True):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("scramble", [False, True])
def test_points_as_scipys(host_engine, scramble):
    ours, theirs = host_engine(7, scramble=scramble, rng=11), sq.Halton(7, scramble=scramble, rng=11)
    for step in (lambda e: e.random(50), lambda e: e.random(1), lambda e: e.random(0), lambda e: e.fast_forward(13).random(9),
                 lambda e: e.reset().random(20), lambda e: e.random(5, workers=2)):
        got, want = step(ours), step(theirs)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)  # the same operations in the same order, each rounded once
        assert ours.num_generated == theirs.num_generated
    big, bigs = host_engine(300, scramble=scramble, rng=2), sq.Halton(300, scramble=scramble, rng=2)
    np.testing.assert_array_equal(big.random(16), bigs.random(16))
    start = 2**31 + 5  # indices past 2^31 (SciPy's fast_forward would compute the points it skips)
    want = np.stack([_qmc.van_der_corput(3, b, start_index=start, scramble=scramble, permutations=p)
                     for b, p in zip(bigs.base[:4], bigs._permutations[:4])], axis=1)
    np.testing.assert_array_equal(big.fast_forward(start - 16).random(3)[:, :4], want)


def test_errors_as_scipys(host_engine):
    for cls in (host_engine, sq.Halton):
        with pytest.raises(ValueError, match="Invalid number of workers"):
            cls(2).random(4, workers=0)
        with pytest.raises(ValueError, match="d must be a non-negative integer"):
            cls(-1)
