"""numpy.polynomial.polyutils' helpers: the host-side domain maps on the CPU, the device ones
(trimcoef, as_series, getdomain) against NumPy on a GPU."""

import numpy
import pytest
from numpy.polynomial import polyutils as npu

from cuarray.polynomial import polyutils as pu


def test_names_as_numpy():
    for name in ("as_series", "trimseq", "trimcoef", "getdomain", "mapparms", "mapdomain"):
        assert callable(getattr(pu, name))


@pytest.mark.parametrize("old, new", [((0, 1), (-1, 1)), ((-2.0, 6.0), (0.0, 3.0)), ([1, 3], [3, 1])])
def test_mapparms_and_mapdomain_host(old, new):
    assert numpy.allclose(pu.mapparms(old, new), npu.mapparms(old, new))
    x = numpy.linspace(-3, 3, 7)
    numpy.testing.assert_allclose(pu.mapdomain(x, old, new), npu.mapdomain(x, old, new))


def test_trimcoef_negative_tol():
    with pytest.raises(ValueError, match="tol must be non-negative"):
        pu.trimcoef([1.0], tol=-1)


@pytest.mark.gpu
@pytest.mark.parametrize("c, tol", [([1.0, 2.0, 0.0, 1e-9], 1e-6), ([0.0, 0.0], 0), ([3, 0, 1, 0, 0], 0),
                                    ([1e-3, 1e-4], 1e-2)])
def test_trimcoef_as_numpy(c, tol):
    from cuarray.cuda import _backend

    if not _backend.is_available():
        pytest.skip("no CUDA device: {}".format(_backend.unavailable_reason()))
    got = pu.trimcoef(c, tol)
    want = npu.trimcoef(c, tol)
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(got.get(), want)
    [s] = pu.as_series([numpy.array(c)])
    numpy.testing.assert_array_equal(s.get(), npu.as_series([numpy.array(c)])[0])
    numpy.testing.assert_array_equal(pu.getdomain(numpy.array(c) + 1.0), npu.getdomain(numpy.array(c) + 1.0))
