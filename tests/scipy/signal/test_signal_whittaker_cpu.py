"""`whittaker_henderson` without a device: the public function over NumPy arrays (NumPy's batched
solves and products standing in for the device's in the block cyclic reduction), against
scipy.signal (SciPy 1.18 added it: under an older SciPy the value comparisons skip, saying so,
and everything else runs: the block cyclic reduction against a dense solve, SciPy 1.18's errors
written out, the signature). The reduction itself on random banded positive definite systems."""

import inspect
import re
import warnings

import numpy as np
import pytest
import scipy
import scipy.signal as ss

from cuarray.scipy import signal as cs
from cuarray.testing.fake_device import host_packages

RNG = np.random.default_rng(1952)
HAS_WH = hasattr(ss, "whittaker_henderson")
needs_scipy_wh = pytest.mark.skipif(not HAS_WH, reason="SciPy {} has no whittaker_henderson (new in 1.18): "
                                    "the values are compared under SciPy 1.18".format(scipy.__version__))


def standins():
    from cuarray.scipy.signal import _banded_cr, _whittaker

    return {
        _whittaker: dict(_from_host=np.asarray, _empty=np.empty, _zeros=np.zeros, _arange=np.arange,
                         _isfinite=np.isfinite, _all=np.all, _any=np.any, _stack=np.stack, _nan_to_num=np.nan_to_num,
                         _sqrt=np.sqrt, _sum=np.sum, _diff=np.diff, _where=np.where, _lstsq=np.linalg.lstsq),
        _banded_cr: dict(_from_host=np.asarray, _empty=np.empty, _zeros=np.zeros, _arange=np.arange, _take=np.take,
                         _concatenate=np.concatenate, _sum=np.sum, _where=np.where, _matmul=np.matmul,
                         _slogdet=np.linalg.slogdet, _solve=np.linalg.solve, _block_solve=np.linalg.solve),
    }


@pytest.fixture(scope="module")
def copies(signal_standins):
    return host_packages([cs], signal_standins, standins())


@pytest.fixture(scope="module")
def host(copies):
    return copies[cs]


@pytest.fixture(scope="module")
def wh(copies):
    from cuarray.scipy.signal import _whittaker

    return copies[_whittaker]


@pytest.fixture(scope="module")
def cr():
    from cuarray.scipy.signal import _banded_cr

    return host_packages([cs], standins())[_banded_cr]


def dense_of(ab):
    p, n = ab.shape[0] - 1, ab.shape[1]
    a = np.diag(ab[0])
    for k in range(1, min(p, n - 1) + 1):
        a += np.diag(ab[k, :n - k], -k) + np.diag(ab[k, :n - k], k)
    return a


def spd_band(n, p, rng):
    """A random symmetric positive definite band matrix in lower band form (diagonally dominant)."""
    ab = rng.normal(size=(p + 1, n))
    for k in range(1, p + 1):
        ab[k, max(n - k, 0):] = 0
    ab[0] = np.abs(ab[0]) + 2 * np.abs(ab[1:]).sum(0) + 2 * p + 0.5
    return ab


@pytest.mark.parametrize("p", [1, 2, 3, 5])
@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 31, 64, 100])
def test_block_cyclic_reduction(cr, p, n):
    ab = spd_band(n, p, RNG)
    n_blocks = 1
    while n_blocks < -(-n // p):
        n_blocks = 2 * n_blocks + 1
    D, L = cr.band_blocks(ab, n_blocks)
    b = RNG.normal(size=(n, 2))
    B = np.zeros((n_blocks * p, 2))
    B[:n] = b
    x, logdet, bad = cr.solve_blocks(D, L, B.reshape(n_blocks, p, 2))
    a = dense_of(ab)
    np.testing.assert_allclose(x.reshape(-1, 2)[:n], np.linalg.solve(a, b), rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(logdet, np.linalg.slogdet(a)[1], rtol=1e-12)
    assert bad == 0


def test_block_cyclic_reduction_sees_an_indefinite_matrix(cr):
    ab = spd_band(40, 2, RNG)
    ab[0, 17] = -50.0  # one strongly negative diagonal entry: an eigenvalue below zero
    D, L = cr.band_blocks(ab, 31)
    _, _, bad = cr.solve_blocks(D, L, np.ones((31, 2, 1)))
    assert bad > 0


CASES = [dict(lamb=3.0), dict(lamb=3.0, order=1), dict(lamb=250.0, order=3), dict(lamb=0.5, order=4),
         dict(lamb=0.0), dict(lamb=7), dict(lamb=np.float32(2.0)), dict(), dict(order=1), dict(order=3),
         dict(lamb=1e20), dict(lamb=1e6, order=2)]


def close(got, ref, rtol):
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    np.testing.assert_allclose(got, ref, rtol=rtol, atol=rtol * max(1.0, float(np.abs(ref).max(initial=0))))


def reml_rounding(lamb, n, order, weights):
    """A bound on either solver's rounding of the REML criterion: a sum of n-sized terms (n log r2,
    n log lamb, log-determinants), each rounded to the system's condition, which is at most
    (1 + lamb 4^order) / min(w)."""
    cond = (1 + lamb * 4 ** order) / (1.0 if weights is None else max(np.min(weights), 1e-300))
    return 4 * np.finfo(float).eps * n * (cond + abs(np.log(lamb)) + 1)


def compare(got, ref, kw, y, weights=None, wh=None):
    """A numeric lamb: the same lamb object back and x to the solve's rounding (1e-9 of the largest
    value). lamb='reml': Brent's search stops within its tolerance of a minimum, and where the
    criterion is flat the two implementations' rounding moves that point along the valley: so our
    lamb must be as good as SciPy's by SciPy's own criterion, to within the criteria's rounding at
    the two lambs (`reml_rounding`, which bounds how much the two criteria differ there too, as
    `test_reml_criterion` checks on a grid); and x must be SciPy's x at our lamb. `wh`: the _whittaker module that computed `got`."""
    assert set(got) == {"x", "lamb"}
    if "lamb" in kw:
        assert got.lamb is kw["lamb"]
        close(got.x, ref.x, 1e-9)
        return
    from scipy.signal._whittaker import _reml  # (SciPy's criterion: private, the one it minimises)

    assert type(got.lamb) is type(ref.lamb)
    order = kw.get("order", 2)
    y = np.nan_to_num(y) if weights is not None else y
    with np.errstate(divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = {lam: -_reml(lam, y, order, weights) for lam in (got.lamb, ref.lamb)}
        ours = {lam: -wh._reml(lam, y, order, weights) for lam in (got.lamb, ref.lamb)}
    scale = max(1.0, abs(theirs[ref.lamb]))
    disagreement = sum(abs(theirs[lam] - ours[lam]) for lam in theirs if np.isfinite(theirs[lam]))
    allowed = sum(reml_rounding(lam, len(y), order, weights) for lam in theirs)
    assert disagreement <= allowed, (got.lamb, ref.lamb, theirs, ours)
    assert theirs[got.lamb] == theirs[ref.lamb] or \
        theirs[got.lamb] <= theirs[ref.lamb] + allowed + 1e-12 * scale, (got.lamb, ref.lamb, theirs)
    if got.lamb < 1e6:  # (a larger lamb's system rounds x by more than 1e-9 in either solver)
        close(got.x, ss.whittaker_henderson(y, lamb=float(got.lamb), order=order, weights=weights).x, 1e-9)


def noisy(n):
    """A curve of 50 samples a period plus noise: REML's minimum is at a moderate lamb (10 for
    order 2; a curve much smoother than the sampling puts it where the system is ill-conditioned
    and the criterion is rounding noise, in SciPy's solver as in ours)."""
    return 3 * np.sin(2 * np.pi * np.arange(n) / 50) + 0.3 * RNG.normal(size=n)


@needs_scipy_wh
@pytest.mark.parametrize("kw", CASES, ids=[str(k) for k in CASES])
@pytest.mark.parametrize("n", [60, 3, 9])
def test_whittaker_henderson(host, wh, kw, n):
    y = noisy(n)
    order = kw.get("order", 2)
    if n < order + 1:
        return
    if "lamb" not in kw and n <= order + 1:
        pytest.skip("REML of order + 1 samples does not depend on lamb: both searches end where the rounding "
                    "of a constant puts them")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = ss.whittaker_henderson(y, **kw)
        got = host.whittaker_henderson(y, **kw)
    compare(got, ref, kw, y, wh=wh)


@needs_scipy_wh
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.complex128])
def test_whittaker_henderson_dtypes(host, wh, dtype):
    y = noisy(40) * 3
    y = (y + 1j * RNG.normal(size=40)) if dtype == np.complex128 else y
    y = y.astype(dtype) if dtype != np.bool_ else y > 0
    for kw in (dict(lamb=4.0), dict(lamb=0.0)) + ((dict(),) if dtype != np.complex128 else ()):
        compare(host.whittaker_henderson(y, **kw), ss.whittaker_henderson(y, **kw), kw, y, wh=wh)


@needs_scipy_wh
@pytest.mark.parametrize("kw", [dict(lamb=5.0), dict(lamb=1e300), dict(lamb=5.0, order=3), dict()])
def test_whittaker_henderson_weights(host, wh, kw):
    y = noisy(80)
    w = RNG.uniform(0.5, 2.0, size=80)
    if "lamb" in kw:  # (zero weights make REML's criterion unbounded as lamb -> 0, SciPy's search included)
        w[10:20] = 0  # interpolated
        w[-6:] = 0  # extrapolated
        y[12] = np.nan  # non-finite values of zero weight are ignored
        y[-1] = np.inf
    compare(host.whittaker_henderson(y, weights=w, **kw), ss.whittaker_henderson(y, weights=w, **kw), kw, y, w, wh)
    wi = np.round(w * 2).astype(np.int32)
    compare(host.whittaker_henderson(y, weights=wi, **kw), ss.whittaker_henderson(y, weights=wi, **kw), kw, y, wi, wh)


@needs_scipy_wh
@pytest.mark.parametrize("order", [1, 2, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_reml_criterion(wh, order, weighted):
    """Our criterion (block elimination's log-determinant, device sums) against SciPy's at lambs
    where the system is well conditioned: the REML comparisons' bound on their disagreement."""
    from scipy.signal._whittaker import _reml

    y = noisy(200)
    w = RNG.uniform(0.5, 2.0, 200) if weighted else None
    for lamb in (1e-3, 0.1, 3.0, 100.0, 1e4):
        ref = _reml(lamb, y, order, w)
        np.testing.assert_allclose(wh._reml(lamb, y, order, w), ref, rtol=0, atol=reml_rounding(lamb, len(y), order, w))


@needs_scipy_wh
def test_whittaker_henderson_polynomial_limits(host):
    y = noisy(30)
    for kw in (dict(lamb=1e300), dict(lamb=1e300, order=3), dict(lamb=1e300, weights=RNG.uniform(1, 2, 30))):
        compare(host.whittaker_henderson(y, **kw), ss.whittaker_henderson(y, **kw), kw, y, kw.get("weights"))
    kw = dict(lamb=3.0, weights=np.zeros(30))  # no data: the fit of nothing, with NumPy's warning
    with pytest.warns(np.exceptions.RankWarning):
        ref = ss.whittaker_henderson(y, **kw)
    with pytest.warns(np.exceptions.RankWarning):
        compare(host.whittaker_henderson(y, **kw), ref, kw, y)


@needs_scipy_wh
@pytest.mark.parametrize("lamb", [1.0, 1e8])
@pytest.mark.parametrize("order", [1, 2, 3])
def test_whittaker_henderson_breakdown(host, lamb, order):
    """A system that is not positive definite (negative weights): SciPy's warning and its
    polynomial fit. (One that is singular in exact arithmetic is decided by rounding, differently
    by LAPACK's banded Cholesky and the block elimination.)"""
    y = noisy(30)
    w = -RNG.uniform(0.5, 2.0, 30)
    kw = dict(lamb=lamb, order=order, weights=w)
    with pytest.warns(UserWarning, match="numerical instability"):
        ref = ss.whittaker_henderson(y, **kw)
    with pytest.warns(UserWarning, match=re.escape(str(_first_warning(ss, y, kw)))):
        got = host.whittaker_henderson(y, **kw)
    compare(got, ref, kw, y, w)


def _first_warning(module, y, kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module.whittaker_henderson(y, **kw)
    return caught[0].message


# SciPy 1.18's errors, written out so that they are checked under any SciPy (and against SciPy's
# own where it has the function).
ERRORS = [
    ("order float", dict(order=1.5), TypeError, "order must be an integer."),
    ("order zero", dict(order=0), ValueError, "order must be an integer not less than 1"),
    ("2-D", dict(signal=np.ones((3, 4))), ValueError, "Input array signal must be of shape (n,); got (3, 4)"),
    ("short", dict(signal=np.ones(3), order=3), ValueError, "Input array signal must be at least of shape (4,); got 3."),
    ("weights shape", dict(weights=np.ones(5)), ValueError,
     "Input array weights must have the same shape as the signal array."),
    ("nan", dict(signal=np.array([1.0, np.nan, 2.0, 3.0])), ValueError, "Input array signal must be finite."),
    ("nan weights", dict(weights=np.array([1.0, np.nan] + [1.0] * 8)), ValueError,
     "Input array weights must be finite."),
    ("nan weighted", dict(signal=np.array([1.0, np.inf] + [1.0] * 8), weights=np.ones(10)), ValueError,
     "Input array weights must be zero for all non-finite elements of signal."),
    ("lamb text", dict(lamb="gcv"), ValueError,
     "Parameter lamb must be string 'reml' or a non-negative float; got lamb='gcv'."),
    ("lamb negative", dict(lamb=-1.0), ValueError,
     "Parameter lamb must be string 'reml' or a non-negative float; got lamb=-1.0."),
    ("lamb None", dict(lamb=None), TypeError, "'<' not supported between instances of 'NoneType' and 'int'"),
]


@pytest.mark.parametrize("case, kw, exc, msg", ERRORS, ids=[e[0] for e in ERRORS])
def test_whittaker_henderson_errors(host, case, kw, exc, msg):
    kw = dict(kw)
    y = kw.pop("signal", np.arange(10.0))
    if HAS_WH:
        with pytest.raises(exc, match=re.escape(msg)):
            ss.whittaker_henderson(y, **kw)
    with pytest.raises(exc, match=re.escape(msg)):
        host.whittaker_henderson(y, **kw)


def test_whittaker_henderson_reml_of_complex(host):
    with pytest.raises(TypeError):  # (SciPy: a UFuncTypeError, casting its complex criterion)
        host.whittaker_henderson(np.arange(10.0) + 1j)


def test_whittaker_henderson_takes_device_arrays_only():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cs.whittaker_henderson(np.arange(10.0), lamb=1.0)


def test_signature_is_scipy_1_18s():
    params = [("signal", "POSITIONAL_OR_KEYWORD", inspect.Parameter.empty), ("lamb", "KEYWORD_ONLY", "reml"),
              ("order", "KEYWORD_ONLY", 2), ("weights", "KEYWORD_ONLY", None)]
    got = [(p.name, p.kind.name, p.default) for p in inspect.signature(cs.whittaker_henderson).parameters.values()]
    assert got == params
    if HAS_WH:
        assert got == [(p.name, p.kind.name, p.default)
                       for p in inspect.signature(ss.whittaker_henderson).parameters.values()]
