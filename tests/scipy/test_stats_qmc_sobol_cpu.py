"""qmc.Sobol without a GPU: the host-made direction numbers and scrambling against SciPy's engine
state (dimensions, bits on both sides of 32, seeds as ints and Generators, the legacy `seed`);
the point function of templates/sobol.cuh built with g++ and driven as the kernel's threads are,
standing in for the launch, against SciPy's points bit for bit (unscrambled and scrambled, draws
continued, fast_forward, reset, random_base2, the warnings and errors); NVRTC compiles the kernel
for sm_90."""

from __future__ import annotations

import copy
import ctypes
import shutil
import warnings

import numpy as np
import pytest

sq = pytest.importorskip("scipy.stats.qmc")

from cuarray.cuda import compiler  # noqa: E402
from cuarray.scipy.stats import qmc as cq  # noqa: E402
from cuarray.scipy.stats.qmc import _kernels, _sobol  # noqa: E402
from cuarray.testing.fake_device import host_modules  # noqa: E402

import host_build  # noqa: E402  (tests/ is on sys.path)

HOST = r"""
#include "sobol.cuh"
template <typename U>
static void draw(const U* sv, const U* shift, double* out, unsigned long long start, long long n, int d, int bits,
                 double scale) {
  for (long long i = 0; i < n * d; ++i) {  // the kernel's threads, one coordinate each
    const long long p = i / d;
    const int j = (int)(i - p * d);
    out[i] = (double)cuarray_qmc::sobol_point<U>(sv + (long long)j * bits, shift[j], start + (unsigned long long)p, bits) * scale;
  }
}
extern "C" void draw32(const unsigned int* sv, const unsigned int* shift, double* out, unsigned long long start,
                       long long n, int d, int bits, double scale) { draw<unsigned int>(sv, shift, out, start, n, d, bits, scale); }
extern "C" void draw64(const unsigned long long* sv, const unsigned long long* shift, double* out,
                       unsigned long long start, long long n, int d, int bits, double scale) {
  draw<unsigned long long>(sv, shift, out, start, n, d, bits, scale);
}
"""


@pytest.fixture(scope="module")
def lib():
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    return host_build.library_of(HOST, ["-O2", "-shared", "-fPIC", "-I", str(_kernels.TEMPLATES)])


@pytest.fixture
def host_engine(lib):
    """Sobol from a private copy of its module whose launch is the g++ build of the same point
    function (and whose arrays are NumPy's)."""

    def draw(name, total, sv, shift, out, start, n, d, bits, scale):
        assert total == n * d
        fn = lib.draw32 if name == "sobol_draw<unsigned int>" else lib.draw64
        fn(sv.ctypes.data_as(ctypes.c_void_p), shift.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p),
           ctypes.c_ulonglong(start), ctypes.c_longlong(n), ctypes.c_int(d), ctypes.c_int(bits), ctypes.c_double(scale))

    return host_modules({_sobol: {"draw": draw, "empty": np.empty, "asarray": np.asarray, "floor": np.floor}})[_sobol].Sobol


def _quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return f(*a, **k)


@pytest.mark.parametrize("bits", [None, 10, 32, 40, 64])
def test_engine_state_as_scipys(bits):
    for d in (1, 4, 50):
        for kw in ({"scramble": False}, {"rng": 12345}, {"rng": np.random.default_rng(7)}, {"seed": 3},
                   {"seed": np.random.default_rng(7)}, {"seed": np.random.RandomState(7)}):
            k2 = {k: copy.deepcopy(v) for k, v in kw.items()}
            ours, theirs = cq.Sobol(d, bits=bits, **kw), sq.Sobol(d, bits=bits, **k2)
            assert ours._sv.dtype == theirs._sv.dtype and ours._shift.dtype == theirs._shift.dtype
            np.testing.assert_array_equal(ours._sv, theirs._sv, err_msg=str((d, bits, kw)))
            np.testing.assert_array_equal(ours._shift, theirs._shift, err_msg=str((d, bits, kw)))


def test_many_dimensions_as_scipys():
    ours, theirs = cq.Sobol(2000, scramble=False), sq.Sobol(2000, scramble=False)
    np.testing.assert_array_equal(ours._sv, theirs._sv)


@pytest.mark.parametrize("bits", [None, 12, 64])
@pytest.mark.parametrize("scramble", [False, True])
def test_points_as_scipys(host_engine, bits, scramble):
    ours, theirs = host_engine(5, bits=bits, scramble=scramble, rng=99), sq.Sobol(5, bits=bits, scramble=scramble, rng=99)
    steps = [lambda e: e.random(8), lambda e: _quiet(e.random, 3), lambda e: e.random(1), lambda e: e.random(0),
             lambda e: e.reset().random_base2(4), lambda e: e.random_base2(4)]
    if bits != 64:  # SciPy's fast_forward of 64-bit engines fails (a uint32 buffer expected)
        steps.insert(4, lambda e: e.fast_forward(5).random(4))
    for step in steps:
        got, want = step(ours), step(theirs)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)  # the same integers times 2^-bits: exact
        assert ours.num_generated == theirs.num_generated
    first = host_engine(3, scramble=scramble, rng=5).random(1)
    np.testing.assert_array_equal(first, sq.Sobol(3, scramble=scramble, rng=5).random(1))


def test_warnings_and_errors_as_scipys(host_engine):
    for cls in (host_engine, sq.Sobol):
        with pytest.warns(UserWarning, match="balance properties"):
            cls(2).random(5)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            e = cls(2)
            e.random(4)
            e.random(3)  # only a first draw is checked
        with pytest.raises(ValueError, match="require n to be a power of 2"):
            e.random_base2(2)
        with pytest.raises(ValueError, match="At most 2\\*\\*4=16 distinct points"):
            cls(2, bits=4).random(32)
        with pytest.raises(ValueError, match="Maximum supported dimensionality"):
            cls(21202)
        with pytest.raises(ValueError, match="Maximum supported 'bits' is 64"):
            cls(2, bits=65)
        with pytest.raises(ValueError, match="d must be a non-negative integer"):
            cls(-1)
        with pytest.raises(ValueError, match="d must be a non-negative integer"):
            cls(2.0)
        with pytest.raises(ValueError, match="must be integers"):
            cls(2).integers([0.5, 1])
        with pytest.raises(TypeError):
            cls(2, rng=1, seed=1)


def test_kernels_compile_for_sm90():
    names = ["cuarray_qmc::sobol_draw<unsigned int>", "cuarray_qmc::sobol_draw<unsigned long long>",
             "cuarray_qmc::halton_draw"]
    cubin, mapping = compiler.compile_cubin(_kernels.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)
