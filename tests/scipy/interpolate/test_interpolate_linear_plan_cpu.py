"""interp1d's one-kernel linear route (`_linear`) without a GPU: the planner's decisions and the
choice of SciPy's formula (1.17's slope or 1.18's weights) from the installed version. The launch,
the NVRTC compile and the host build of the template are in test_interpolate_linear_cpu.py."""

import numpy as np
import pytest

from cuarray.scipy.interpolate import _linear

pytest.importorskip("scipy.interpolate")

F4, F8, I8, I4, I2 = (np.dtype(c) for c in ("f4", "f8", "i8", "i4", "i2"))
C8, C16, F2 = np.dtype("c8"), np.dtype("c16"), np.dtype("f2")

# ---- planner -------------------------------------------------------------------------------

def test_plan_bench_row_is_numpy_rule_paired():
    # interp1d(x f8, y f8 1-D, bounds_error=False): SciPy's numpy.interp delegation, one column
    assert _linear.numpy_rule(F8, F8, 1, False)
    r = _linear.plan(F8, F8, F8, F8, 10**4, 1, True, True)
    assert r == _linear.Route(_linear.MODE_NUMPY, F8, F8, F8, F8, True)
    assert r.spec() == "interp1d_linear<double, double, double, double, 2, true, 0, {}>".format(str(_linear.PIPE).lower())
    # the interpolator's preparation picks the cell table (its knots are fixed)
    assert r._replace(search=2, pipe=True).spec() == "interp1d_linear<double, double, double, double, 2, true, 2, true>"
    assert r.cells_spec() == "interp1d_cells<double, true>"


def test_numpy_rule_is_scipys_condition():
    assert _linear.numpy_rule(I8, F8, 1, False)
    assert not _linear.numpy_rule(F8, F8, 1, True)  # extrapolation: SciPy's own formula
    assert not _linear.numpy_rule(F8, F8, 2, False)  # extra dims
    assert not _linear.numpy_rule(F4, F8, 1, False)
    assert not _linear.numpy_rule(F8, F4, 1, False)
    assert not _linear.numpy_rule(I4, F8, 1, False)


def test_plan_modes_and_dtypes():
    assert _linear.plan(F8, C16, F8, C16, 5, 2, False, False).mode == _linear.MODE_RECIP
    assert _linear.plan(F4, F4, F4, F4, 5, 1, False, True) == _linear.Route(0, F4, F4, F4, F4, True)
    # mixed precision: float64 result, values read as float32, not interleaved
    assert _linear.plan(F4, F4, F8, F8, 5, 1, False, True) == _linear.Route(0, F8, F4, F4, F8, True)
    assert _linear.plan(F8, F4, F4, F8, 5, 1, False, True) == _linear.Route(0, F4, F8, F4, F8, False)
    # integer knots of >= 4 bytes read as float64 (NumPy promotes them with any float to float64)
    assert _linear.plan(I4, F4, F4, F8, 5, 1, False, False).t == F8
    assert _linear.plan(I8, F8, F8, F8, 5, 1, True, True) == _linear.Route(2, F8, F8, F8, F8, True)
    # several columns: never interleaved; numpy.interp's formula only for one real column
    assert not _linear.plan(F8, F8, F8, F8, 5, 3, False, True).paired
    assert _linear.plan(F8, F8, F8, F8, 5, 3, True, False) is None


@pytest.mark.parametrize("args", [
    (F8, F8, F8, F8, 1, 1, False, False),  # one knot: the elementwise path's special case
    (F8, F2, F8, F8, 5, 1, False, False),  # float16 values
    (F8, F8, F2, F8, 5, 1, False, False),  # float16 points
    (I2, F4, F4, F4, 5, 1, False, False),  # int16 knots with float32: NumPy stays float32
    (np.dtype(bool), F8, F8, F8, 5, 1, False, False),
    (F8, F8, F8, F4, 5, 1, False, False),  # a result dtype that is not the promotion
    (F8, C16, F8, F8, 5, 1, False, False),  # complex values, real result
])
def test_plan_declines(args):
    assert _linear.plan(*args) is None


def test_pair_dtype():
    assert _linear.pair_dtype(F8, F8, 1) == F8
    assert _linear.pair_dtype(I8, F8, 1) == F8
    assert _linear.pair_dtype(F4, F4, 1) == F4
    assert _linear.pair_dtype(F4, F8, 1) is None
    assert _linear.pair_dtype(F8, F8, 2) is None
    assert _linear.pair_dtype(F8, C16, 1) is None


# ---- both SciPy formulas (1.17's slope, 1.18's weights), whichever SciPy is installed ------

@pytest.mark.parametrize("version,weights", [("1.17.1", False), ("1.17.0rc2", False), ("1.9.3", False),
                                             ("0.19.1", False), ("1.18.0", True), ("1.18.1", True),
                                             ("1.18.0rc1", True), ("1.19.0.dev0+1234.abcdef", True),
                                             ("2.0.0", True), (None, True)])
def test_weights_formula_from_the_scipy_version(version, weights):
    # a pure decision: SciPy >= 1.18 (or none installed) rounds as 1.18's _call_linear
    assert _linear.weights_formula(version) is weights


def test_installed_formula_is_the_installed_scipys():
    import scipy

    assert _linear.installed_weights_formula() is _linear.weights_formula(scipy.__version__)


@pytest.mark.parametrize("weights", [False, True])
def test_plan_formula_modes(weights):
    w = 3 if weights else 0
    assert _linear.plan(F8, F8, F8, F8, 5, 1, False, True, weights) == _linear.Route(w, F8, F8, F8, F8, True)
    assert _linear.plan(F4, C8, F4, C8, 5, 4, False, False, weights).mode == (4 if weights else 1)
    assert _linear.plan(F8, F8, F8, F8, 5, 1, True, True, weights).mode == 2  # numpy.interp either way
