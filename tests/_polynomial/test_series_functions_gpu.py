"""cuarray.polynomial's six bases on the device against numpy.polynomial: every module function and
class method on fresh random coefficients (the bodies in _series_cases.py, which the CPU test also
runs over NumPy), with NumPy's dtypes, shapes, text and exceptions."""

import numpy
import numpy.polynomial as NPP
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
import cuarray.polynomial as CPP  # noqa: E402
from _series_cases import (PREFIX, class_results, error_cases, extra_results, fit_results,  # noqa: E402
                           function_results, long_results)

BASES = sorted(PREFIX)


def put(a):
    return cuarray.asarray(numpy.asarray(a))


def host(v):
    return v.get() if isinstance(v, cuarray.ndarray) else v


def same(got, want, tol):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        if isinstance(w, (str, bool, tuple)) and not isinstance(w, numpy.ndarray):
            assert g == w, (i, g, w)
            continue
        g, w = numpy.asarray(host(g)), numpy.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (i, g.dtype, w.dtype, g.shape, w.shape)
        numpy.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=str(i))


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, numpy.complex128], ids=str)
@pytest.mark.parametrize("basis", BASES)
def test_functions(basis, dtype):
    tol = 2e-4 if dtype == numpy.float32 else 1e-8
    same(function_results(getattr(CPP, basis), put, basis, dtype, 11),
         function_results(getattr(NPP, basis), numpy.array, basis, dtype, 11), tol)


@pytest.mark.parametrize("basis", BASES)
def test_fit_conversions_quadrature(basis):
    same(fit_results(getattr(CPP, basis), put, basis, 12),
         fit_results(getattr(NPP, basis), numpy.array, basis, 12), 1e-8)
    same(extra_results(getattr(CPP, basis), put, basis), extra_results(getattr(NPP, basis), numpy.array, basis), 1e-8)


def test_series_past_the_tables_legendre():
    # Legendre's products stay bounded: the recursions' results compare at a tight tolerance
    same(long_results(CPP.legendre, put, "legendre"), long_results(NPP.legendre, numpy.array, "legendre"), 1e-8)


@pytest.mark.parametrize("basis", BASES)
def test_class(basis):
    same(class_results(CPP, put, basis, 13), class_results(NPP, numpy.array, basis, 13), 1e-8)


def _raised(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001  (the type is what is compared)
        return type(exc), str(exc)
    return None, None


@pytest.mark.parametrize("basis", BASES)
def test_errors(basis):
    got, want = error_cases(CPP, put, basis), error_cases(NPP, numpy.array, basis)
    for name in want:
        (gt, gm), (wt, wm) = _raised(got[name]), _raised(want[name])
        assert wt is not None and gt is wt, (name, gt, gm, wt, wm)


def test_convert_between_kinds_and_evaluate_series():
    c = numpy.random.default_rng(14).uniform(-1, 1, 5)
    for src in ("Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE", "Polynomial"):
        for dst in ("Polynomial", "Chebyshev", "HermiteE"):
            got = getattr(CPP, src)(put(c), domain=[-2, 3]).convert(kind=getattr(CPP, dst))
            want = getattr(NPP, src)(c, domain=[-2, 3]).convert(kind=getattr(NPP, dst))
            assert type(got).__name__ == dst
            numpy.testing.assert_allclose(got.coef.get(), want.coef, rtol=1e-8, atol=1e-8)
            numpy.testing.assert_array_equal(got.domain, want.domain)


@pytest.mark.parametrize("basis", BASES)
@pytest.mark.parametrize("shape", [(), (5,), (2, 3)])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.int32], ids=str)
def test_vander_dtype_shape_layout(basis, shape, dtype):
    h = numpy.asarray(numpy.random.default_rng(15).uniform(-2, 2, shape)).astype(dtype)
    name = PREFIX[basis] + "vander"
    got, want = getattr(getattr(CPP, basis), name)(put(h), 3), getattr(getattr(NPP, basis), name)(h, 3)
    assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5)


def test_print_style():
    c = numpy.array([1.0, -2.5, 0.0, 3.0])
    try:
        for style in ("ascii", "unicode"):
            CPP.set_default_printstyle(style)
            NPP.set_default_printstyle(style)
            for name in ("Polynomial", "Chebyshev", "HermiteE"):
                assert str(getattr(CPP, name)(put(c), domain=[0, 2])) == str(getattr(NPP, name)(c, domain=[0, 2]))
    finally:
        CPP.set_default_printstyle("unicode")
        NPP.set_default_printstyle("unicode")
