"""The series modules' own source, run over a NumPy stand-in of their array namespace (_xp), against
numpy.polynomial: every function's algorithm, result dtype and shape checked without a GPU. The GPU
test (test_series_functions_gpu.py) runs the same bodies on the device."""

import numpy
import numpy.polynomial as NPP
import pytest

from _numpy_xp import shadow_package
from _series_cases import CLASS, PREFIX, extra_results, fit_results, function_results

SP = shadow_package()
BASES = sorted(PREFIX)


def same(got, want, rtol=1e-10, atol=1e-10):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        g, w = numpy.asarray(g), numpy.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (i, g.dtype, w.dtype, g.shape, w.shape)
        numpy.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=str(i))


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, numpy.complex128], ids=str)
@pytest.mark.parametrize("basis", BASES)
def test_functions_as_numpy(basis, dtype):
    tol = 2e-4 if dtype == numpy.float32 else 1e-9
    same(function_results(getattr(SP, basis), numpy.array, basis, dtype, 1),
         function_results(getattr(NPP, basis), numpy.array, basis, dtype, 1), tol, tol)


@pytest.mark.parametrize("basis", BASES)
def test_fit_and_extras_as_numpy(basis):
    same(fit_results(getattr(SP, basis), numpy.array, basis, 2), fit_results(getattr(NPP, basis), numpy.array, basis, 2))
    same(extra_results(getattr(SP, basis), numpy.array, basis), extra_results(getattr(NPP, basis), numpy.array, basis))
