"""The series modules' own source, run with NumPy stand-ins for the cuarray routines they import, against
numpy.polynomial: every function's algorithm, result dtype and shape checked without a GPU. The GPU
test (test_series_functions_gpu.py) runs the same bodies on the device."""

import types

import _numpy_xp as numpy_xp
import numpy
import numpy.polynomial as NPP
import pytest

from _numpy_xp import shadow_package
from _series_cases import (PREFIX, class_results, error_cases, extra_results, fit_results, function_results,
                           long_results)

SP = shadow_package()
BASES = sorted(PREFIX)


def same(got, want, rtol=1e-10, atol=1e-10):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        g, w = numpy.asarray(g), numpy.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (i, g.dtype, w.dtype, g.shape, w.shape)
        numpy.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=str(i))


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, numpy.complex128, numpy.float16], ids=str)
@pytest.mark.parametrize("basis", BASES)
def test_functions_as_numpy(basis, dtype):
    tol = {numpy.float32: 2e-4, numpy.float16: 2e-2}.get(dtype, 1e-9)
    same(function_results(getattr(SP, basis), numpy.array, basis, dtype, 1),
         function_results(getattr(NPP, basis), numpy.array, basis, dtype, 1), tol, tol)


@pytest.mark.parametrize("basis", BASES)
def test_fit_and_extras_as_numpy(basis):
    same(fit_results(getattr(SP, basis), numpy.array, basis, 2),
         fit_results(getattr(NPP, basis), numpy.array, basis, 2))
    same(extra_results(getattr(SP, basis), numpy.array, basis), extra_results(getattr(NPP, basis), numpy.array, basis))
    same(long_results(getattr(SP, basis), numpy.array, basis), long_results(getattr(NPP, basis), numpy.array, basis))


@pytest.mark.parametrize("basis", BASES)
def test_class_as_numpy(basis):
    got = class_results(SP, numpy.array, basis, 3)
    want = class_results(NPP, numpy.array, basis, 3)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        if isinstance(w, (str, bool, int, tuple)):
            assert g == w, (i, g, w)
        else:
            same([g], [w])


def _raised(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001  (the type is what is compared)
        return type(exc), str(exc)
    return None, None


@pytest.mark.parametrize("basis", BASES)
def test_errors_as_numpy(basis):
    got, want = error_cases(SP, numpy.array, basis), error_cases(NPP, numpy.array, basis)
    for name in want:
        (gt, gm), (wt, wm) = _raised(got[name]), _raised(want[name])
        assert wt is not None, name
        assert gt is wt, (name, gt, gm, wt, wm)
        if wt is not TypeError or "must be" in wm or "expected" in wm:
            assert gm == wm, (name, gm, wm)


@pytest.mark.parametrize("basis", BASES)
def test_valnd_as_numpy(basis):
    """NumPy 2.5's `<prefix>valnd(pts, c)`: the same values as val2d/val3d (NumPy's own valnd where
    it has one), for a sequence of coordinates, an array of rows, and extra coefficient axes."""
    p = PREFIX[basis]
    ours, theirs = getattr(SP, basis), getattr(NPP, basis)
    rng = numpy.random.default_rng(9)
    x, y, z = rng.standard_normal((3, 4, 2))
    c3, c2 = rng.standard_normal((3, 2, 4, 5)), rng.standard_normal((2, 3))
    same([getattr(ours, p + "valnd")((x, y, z), c3), getattr(ours, p + "valnd")(numpy.stack([x, y]), c2)],
         [getattr(theirs, p + "val3d")(x, y, z, c3), getattr(theirs, p + "val2d")(x, y, c2)])
    if hasattr(theirs, p + "valnd"):
        same([getattr(ours, p + "valnd")([x, y, z], c3)], [getattr(theirs, p + "valnd")([x, y, z], c3)])
    with pytest.raises(ValueError, match="ordinates are incompatible"):
        getattr(ours, p + "valnd")((x, y, z[:1], x), c3)


def _eigvals_numpy25(m):
    """NumPy 2.5's eigvals (gh-30411): complex eigenvalues of a real matrix, whatever their values."""
    w = numpy.linalg.eigvals(m)
    return w.astype(numpy.result_type(w.dtype, numpy.complex64))


def _numpy25_package():
    xp = types.ModuleType("numpy25_xp")
    xp.__dict__.update(vars(numpy_xp))
    xp.eigvals = _eigvals_numpy25
    return shadow_package("shadow_polynomial_np25", xp)


@pytest.mark.parametrize("basis", BASES)
def test_roots_types_as_numpy25(basis):
    """Under NumPy 2.5's always-complex eigvals, the result types NumPy 2.5.2 gives: polyroots,
    lagroots and hermroots back to real when every root is (numpy commit 7be2b88), chebroots,
    legroots and hermeroots complex; degree one real in every basis. (The NumPy installed is
    checked by test_functions_as_numpy.)"""
    p = PREFIX[basis]
    roots = getattr(getattr(_numpy25_package(), basis), p + "roots")
    fromroots = getattr(getattr(NPP, basis), p + "fromroots")
    to_real = basis in ("polynomial", "laguerre", "hermite")
    real_roots = numpy.array([-0.75, -0.25, 0.5])
    for dtype, complex_dtype in ((numpy.float64, numpy.complex128), (numpy.float32, numpy.complex64)):
        got = roots(fromroots(real_roots).astype(dtype))
        assert got.dtype == (dtype if to_real else complex_dtype), (dtype, got.dtype)
        numpy.testing.assert_allclose(got, real_roots, atol=1e-4 if dtype == numpy.float32 else 1e-12)
    pair = fromroots(numpy.array([0.5 + 1j, 0.5 - 1j])).real
    assert roots(pair).dtype == numpy.complex128
    assert roots(numpy.array([1.0, 2.0])).dtype == numpy.float64
