"""scipy.signal's `whittaker_henderson` (SciPy 1.18): the smoothing whose normal equations are the
banded system (W + lamb D'D) x = W y, D the differences of order p, solved on the device by block
cyclic reduction (_banded_cr.py), with the log-determinant the REML criterion needs from the same
elimination. SciPy's steps otherwise (scipy/signal/_whittaker.py at v1.18.1): the penalty's band
from the (2p + 1)-point stencil, the polynomial least-squares fit that WH approaches for a huge
lamb (or when the solve breaks down, with SciPy's warning), and lamb='reml' as Brent's search over
log(lamb) (scipy.optimize.minimize_scalar on the host: a scalar sequence of device solves, each
read back for its criterion value). The host holds only scalars and (p + 1) x (2p + 1) stencils."""

from __future__ import annotations

import operator
import warnings

import numpy

from ..._core.transfer import from_host as _from_host
from ..._creation.basic import empty as _empty
from ..._creation.basic import zeros as _zeros
from ..._creation.ranges import arange as _arange
from ..._logic.content import isfinite as _isfinite
from ..._logic.truth import all as _all
from ..._logic.truth import any as _any
from ..._manipulation.joining import stack as _stack
from ..._math.misc import nan_to_num as _nan_to_num
from ..._math.misc import sqrt as _sqrt
from ..._math.sums import sum as _sum
from ..._math.sums_scan import diff as _diff
from ..._sorting.searching import where as _where
from ...linalg._solve import lstsq as _lstsq
from ..ndimage import _support as _s
from . import _args
from . import _banded_cr
from .._rich_result import RichResult

__all__ = ["whittaker_henderson"]

_F8 = numpy.float64


def _validate_order(order):
    """SciPy's `_validate_int(order, 'order', minimum=1)`."""
    try:
        order = operator.index(order)
    except TypeError:
        raise TypeError('order must be an integer.') from None
    if order < 1:
        raise ValueError('order must be an integer not less than 1')
    return order


def _host_flags(*flags):
    """Device booleans read back together (one synchronisation)."""
    return [bool(v) for v in _s.host_param(_stack([f.astype(numpy.bool_) for f in flags]))]


def _checked_signal(signal, weights):
    """SciPy's checks of `signal` and `weights` (shapes, finiteness: one read of four flags), and
    the signal with its non-finite values (all of zero weight) zeroed."""
    if weights is None:
        finite, = _host_flags(_all(_isfinite(signal)))
        if not finite:
            raise ValueError("Input array signal must be finite.")
        return signal
    bad = ~_isfinite(signal)
    finite_w, any_bad, zero_where_bad = _host_flags(_all(_isfinite(weights)), _any(bad),
                                                    _all(_where(bad, weights == 0, True)))
    if not finite_w:
        raise ValueError("Input array weights must be finite.")
    if any_bad:
        if not zero_where_bad:
            raise ValueError("Input array weights must be zero for all non-finite elements of signal.")
        signal = _nan_to_num(signal)
    return signal


def _penalty_band(n, p, lamb):
    """lamb D'D in lower band form ((p + 1, n), device), SciPy's values: the (2p + 1)-point
    stencil's rows on the host, its middle column repeated on the device."""
    D = numpy.diff(numpy.eye(n if n < 2 * p + 1 else 2 * p + 1), n=p, axis=0)
    P_raw = D.T @ D
    small = numpy.zeros((p + 1, min(2 * p + 1, n)))
    for i in range(p + 1):
        small[i, :small.shape[1] - i] = numpy.diagonal(P_raw, i)
    small *= lamb
    if n <= 2 * p + 1:
        return _from_host(small)
    band = _empty((p + 1, n), dtype=_F8)
    band[:, :p + 1] = _from_host(small[:, :p + 1].copy())
    band[:, p + 1:n - p] = _from_host(small[:, p:p + 1].copy())
    band[:, n - p:] = _from_host(small[:, -p:].copy())
    return band


def _solve_band(band, rhs):
    """x of the positive definite banded system (lower band form `band`, right-hand side `rhs`:
    real or complex, one column), its log-determinant and its count of non-positive pivot blocks
    (0-d device arrays)."""
    p = band.shape[0] - 1
    n = band.shape[1]
    n_blocks = 1
    while n_blocks < -(-n // p):
        n_blocks = 2 * n_blocks + 1  # 2^k - 1 blocks: every odd block has two even neighbours
    D, L = _banded_cr.band_blocks(band, n_blocks)
    parts = (rhs.real, rhs.imag) if rhs.dtype.kind == "c" else (rhs,)
    B = _zeros((n_blocks * p, len(parts)), dtype=_F8)
    for j, part in enumerate(parts):
        B[:n, j] = part
    X, logdet, bad = _banded_cr.solve_blocks(D, L, B.reshape(n_blocks, p, len(parts)))
    X = X.reshape(n_blocks * p, len(parts))[:n]
    x = X[:, 0] + 1j * X[:, 1] if len(parts) == 2 else X[:, 0].copy()
    return x, logdet, bad


def _polynomial_fit(y, order, weights):
    """numpy.polynomial.Polynomial.fit(arange(n), y, order - 1, w=weights)(arange(n)) on the
    device (NumPy's steps: the domain mapped to [-1, 1], the Vandermonde columns by repeated
    products, columns scaled to unit norm, least squares by the SVD with NumPy's rcond)."""
    n = y.shape[0]
    off, scl = -1.0, 2.0 / (n - 1)  # polyutils.mapparms([0, n - 1], [-1, 1])
    xs = off + scl * _arange(n, dtype=_F8)
    cols = [xs * 0 + 1]
    for _ in range(1, order):
        cols.append(cols[-1] * xs)
    lhs = _stack(cols)  # (order, n), NumPy's van.T
    rhs = y + 0.0
    if weights is not None:
        w = weights + 0.0
        lhs, rhs = lhs * w, rhs * w
    norms = _sqrt(_sum(lhs * lhs, axis=1))
    norms = _where(norms == 0, 1.0, norms)
    c, _, rank, _ = _lstsq((lhs.T / norms), rhs, n * numpy.finfo(_F8).eps)
    if int(rank) != order:
        warnings.warn("The fit may be poorly conditioned", numpy.exceptions.RankWarning, stacklevel=4)
    c = c / norms
    value = c[-1] + xs * 0  # polyval: Horner's rule
    for i in range(2, order + 1):
        value = c[-i] + value * xs
    return value


def _logdet_difference_matrix(order, n):
    """SciPy's log det(D D^T) of the order-p difference matrix of n points (host)."""
    from scipy.special import binom  # host special function (optional dependency, imported on first use)

    if order == 1:
        return numpy.log(n)
    logdet = 0.0
    for i in range(1, order + 1):
        logdet += numpy.log(binom(n + i - 1, 2 * i - 1) / binom(2 * i, i))
    return logdet + numpy.log(binom(2 * order, order))


def _solve_wh(y, lamb, order, weights, calc_logdet=False, warn_user=True):
    """SciPy's `_solve_WH_banded`: (x, log det(W + lamb D'D) or 0)."""
    n = y.shape[0]
    band = _penalty_band(n, order, lamb)
    if weights is None:
        huge = lamb * numpy.finfo(_F8).eps > 8  # lamb D'D swamps the identity: a polynomial fit
    else:
        huge, = _host_flags(_all(band[0] == band[0] + weights * 8))
    if not huge:
        band[0] += 1.0 if weights is None else weights
        x, logdet, bad = _solve_band(band, y if weights is None else weights * y)
        logdet, bad = (float(v) for v in _s.host_param(_stack([logdet, bad.astype(_F8)])))
        if bad == 0:
            return x, (logdet if calc_logdet else 0.0)
        if warn_user:
            msg_weights = "" if weights is None else " or due to the weights"
            warnings.warn("The linear solver in Whittaker-Henderson smoothing detected a numerical instability. "
                          f"This is likely due to a very large value of {lamb=}" + msg_weights + ". As "
                          "Whittaker-Henderson approaches a polynomial of degree 'order - 1' for large lamb, this "
                          "polynomial (via least squares) is returned.", UserWarning, stacklevel=3)
    x = _polynomial_fit(y, order, weights)
    logdet = (n - order) * numpy.log(lamb) + _logdet_difference_matrix(order, n) if calc_logdet else 0.0
    return x, logdet


def _reml(lamb, y, order, weights):
    """SciPy's profiled REML criterion of `lamb` (Biessy, arXiv:2306.06932, eq. 12): one device
    solve and one read of the weighted residual."""
    n = y.shape[0]
    x, logdet = _solve_wh(y, lamb, order, weights, calc_logdet=True, warn_user=False)
    residual = y - x
    weighted = residual if weights is None else weights * residual
    r2 = float(_s.host_param(_sum(residual * weighted) + lamb * _sum(_diff(x, n=order) ** 2)))
    reml = (n - order) * (1 + numpy.log(r2 / (n - order)))
    reml -= (n - order) * numpy.log(lamb) + _logdet_difference_matrix(order, n)
    reml += logdet
    return -0.5 * reml


def whittaker_henderson(signal, *, lamb="reml", order=2, weights=None):
    """See `scipy.signal.whittaker_henderson` (SciPy 1.18). `signal` and `weights` are cuarray
    arrays; the smoothed `x` is a cuarray array (float64, complex128 for a complex signal; `lamb=0`
    a copy of the signal; as SciPy's). The banded system is solved on the device by block cyclic
    reduction (its rounding differs from LAPACK's banded Cholesky); `lamb='reml'` searches on the
    host with `scipy.optimize.minimize_scalar` (the `cuarray[scipy]` extra), one device solve and
    two or three reads per step. The result is a dict with attribute access (`x`, `lamb`), as SciPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> y = cuarray.array([1., 3., 2., 5., 4., 6., 8., 7.])
    >>> res = signal.whittaker_henderson(y, lamb=2.)
    >>> cuarray.round(res.x, 6)
    array([1.243958, 2.204019, 3.042102, 4.034217, 4.935326, 5.983279,
           6.948265, 7.608834])
    """
    order = _validate_order(order)
    signal = _args.data(signal, "whittaker_henderson")
    if signal.ndim != 1:
        raise ValueError(f"Input array signal must be of shape (n,); got {signal.shape}")
    n = signal.shape[0]
    if n < order + 1:
        raise ValueError(f"Input array signal must be at least of shape ({order + 1},); got {n}.")
    if weights is not None:
        weights = _args.data(weights, "whittaker_henderson")
        if weights.shape != signal.shape:
            raise ValueError("Input array weights must have the same shape as the signal array.")
    signal = _checked_signal(signal, weights)
    msg = f"Parameter lamb must be string 'reml' or a non-negative float; got {lamb=}."
    if isinstance(lamb, str):
        if lamb != "reml":
            raise ValueError(msg)
        if signal.dtype.kind == "c":  # (SciPy's criterion casts a complex residual into a real sum)
            raise TypeError("lamb='reml' needs a real signal: the REML criterion of a complex signal is "
                            "not defined (SciPy fails casting complex128 to float64)")
        from scipy.optimize import minimize_scalar  # host scalar search (optional dependency, on first use)

        opt = minimize_scalar(lambda loglamb: -_reml(numpy.exp(loglamb), signal, order, weights), bracket=[-10, 10])
        lamb = numpy.exp(opt.x)
    if lamb < 0:
        raise ValueError(msg)
    elif lamb == 0.0:
        x = signal.copy()
    else:
        x, _ = _solve_wh(signal, float(lamb), order, weights)
    return RichResult(x=x, lamb=lamb)
