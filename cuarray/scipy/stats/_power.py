"""scipy.stats' power transforms: `boxcox`, `yeojohnson`, `yeojohnson_llf`, `boxcox_normmax`,
`yeojohnson_normmax`. A given lambda transforms elementwise on the device; lambda None is SciPy's
maximum-likelihood (or probability-plot correlation) estimate: SciPy's own host loop (Brent, the
bounded Brent of `fminbound`, or the caller's `optimizer`) through `cuarray.scipy.optimize`'s scalar
wrappers, each evaluation a reduction on the device read back once; the data checks one read."""

from __future__ import annotations

import math
import warnings

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.shapes import normalize_axis_index
from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._creation.ranges import arange
from ..._logic.content import isfinite, isinf, isnan
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._manipulation.dims import expand_dims
from ..._manipulation.joining import concatenate, stack
from ..._math.explog import expm1, log, log1p
from ..._math.misc import abs as abs_
from ..._math.misc import sign
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.sorting import sort
from ..._statistics.averages import var
from ..._statistics.order import max as max_
from ..._statistics.order import min as min_
from ..optimize._scalar import minimize_scalar, root_scalar
from ..special._convenience import boxcox as boxcox_
from ..special._stats import ndtri
from ._correlation import pearsonr
from ._descriptive import _float, _log_var, _nan_slices, _policy, boxcox_llf
from ._omit import omit_nans

__all__ = ["boxcox", "yeojohnson", "yeojohnson_llf", "boxcox_normmax", "yeojohnson_normmax"]

_BRENT_XTOL = 1.48e-08  # scipy.optimize.brent's tolerance, which SciPy's fminbound call matches


class _BigFloat:
    """SciPy's default `ymax` of `boxcox_normmax`: the dtype's largest float over 10000."""

    def __repr__(self):
        return "BIG_FLOAT"


BIG_FLOAT = _BigFloat()


def _flags(*values) -> list:
    """The device scalars `values` as host floats: one read for all."""
    return [float(v) for v in to_host(stack([v.reshape(()).astype(numpy.float64) for v in values]))]


def _floating(x):
    return x.astype(numpy.float64) if x.dtype.kind in "biu" else x


def _lambda_dtype(x, lmbda):
    # SciPy's promotion: a Python float lambda is weak, a NumPy float64 (an estimate) is not
    return numpy.result_type(_floating(x).dtype, lmbda if isinstance(lmbda, numpy.generic) else 0.0)


def boxcox(x, lmbda=None, alpha=None, optimizer=None, *, nan_policy="propagate"):
    """See `scipy.stats.boxcox`. A given `lmbda` transforms on the device; lmbda None estimates
    it as `boxcox_normmax(method='mle')` does (one read of the data's checks, one a likelihood
    evaluation) and `alpha`'s interval by SciPy's root searches on the same likelihood. The
    estimate and the interval are host floats, as SciPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([1., 2., 4., 8., 16., 40.])
    >>> stats.boxcox(x, 0.5)
    array([ 0.        ,  0.82842712,  2.        ,  3.65685425,  6.        ,
           10.64911064])
    >>> y, lmbda = stats.boxcox(x)
    >>> round(float(lmbda), 4)
    -0.055
    """
    x = as_literal_or_array(x, "boxcox")
    if lmbda is not None:
        _policy(nan_policy, x, omit=True)
        return boxcox_(x, lmbda)
    if x.ndim != 1:
        raise ValueError("Data must be 1-dimensional.")
    if x.size == 0:
        return x
    constant, nonpositive = _flags(all_(x == x[0]), any_(x <= 0))
    if constant:
        raise ValueError("Data must not be constant.")
    if nonpositive:
        raise ValueError("Data must be positive.")
    lmax = boxcox_normmax(x, method="mle", optimizer=optimizer, nan_policy=nan_policy)
    y = boxcox_(x.astype(_lambda_dtype(x, lmax), copy=False), lmax)
    if alpha is None:
        return y, lmax
    interval = (lmax, lmax) if numpy.isnan(lmax) else _boxcox_conf_interval(_finite_part(x), lmax, alpha)
    return y, lmax, interval


def _finite_part(x):
    return x[~isnan(x)]


def _boxcox_conf_interval(x, lmax, alpha):
    # SciPy's profile-likelihood interval: the lambdas where the log-likelihood falls 0.5 chi2_1(alpha)
    # below its maximum, each end stepped out by 0.1 until bracketed, then Brent's root search
    import scipy.special  # optional dependency, as the root search's: one host quantile

    fac = 0.5 * float(scipy.special.chdtri(1, 1 - (1 - alpha)))  # SciPy's chi2.ppf(1 - alpha, 1), as chi2 calls it
    target = float(to_host(boxcox_llf(lmax, x))) - fac

    def rootfunc(lmbda):
        return boxcox_llf(lmbda, x) - target

    ends = []
    for step in (0.1, -0.1):
        newlm, n = lmax + 5 * step, 0
        while float(to_host(rootfunc(newlm))) > 0.0 and n < 500:
            newlm += step
            n += 1
        if n == 500:
            raise RuntimeError("Could not find endpoint.")
        ends.append(root_scalar(rootfunc, bracket=(lmax, newlm) if step > 0 else (newlm, lmax), method="brentq").root)
    return ends[1], ends[0]


def _checked_sample(x, nan_policy, fn):
    """SciPy's NaN handling of the normmax functions: (sample, None) or (None, NaN answer)."""
    x = _float(as_literal_or_array(x, fn), fn, "propagate" if nan_policy == "omit" else nan_policy)
    if x.dtype.kind == "f" and x.size and bool(to_host(any_(isnan(x)))):
        if nan_policy == "propagate":
            return None, x.dtype.type(numpy.nan)
        x = _finite_part(x)
    return x, None


def boxcox_normmax(x, brack=None, method="pearsonr", optimizer=None, *, ymax=BIG_FLOAT, nan_policy="propagate"):
    """See `scipy.stats.boxcox_normmax`. SciPy's optimizer loop on the host, each evaluation a
    reduction on the device read once ('pearsonr': the sorted transform's correlation with the
    normal order statistic medians, made once; 'mle': `boxcox_llf`). The result is a host float
    (a NumPy array of two for 'all'), as SciPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([1., 2., 4., 8., 16., 40.])
    >>> round(float(stats.boxcox_normmax(x)), 4)
    -0.0697
    >>> round(float(stats.boxcox_normmax(x, method='mle')), 4)
    -0.055
    """
    x, nan = _checked_sample(x, nan_policy, "boxcox_normmax")
    if x is None:
        return numpy.asarray([nan, nan]) if method == "all" else nan
    if x.size and not _flags(all_(isfinite(x) & (x >= 0)))[0]:
        raise ValueError("The `x` argument of `boxcox_normmax` must contain only positive, finite, real numbers.")
    end_msg = "exceed specified `ymax`."
    if ymax is BIG_FLOAT:
        dtype = x.dtype if x.dtype.kind == "f" else numpy.dtype(numpy.float64)
        ymax = numpy.finfo(dtype).max / 10000  # SciPy's margin: special.boxcox overflows early
        end_msg = f"overflow in {dtype}."
    elif ymax <= 0:
        raise ValueError("`ymax` must be strictly positive")
    if optimizer is None:
        brack = (-2.0, 2.0) if brack is None else brack

        def _optimizer(func):
            return minimize_scalar(func, bracket=brack, method="brent").x
    elif not callable(optimizer):
        raise ValueError("`optimizer` must be a callable")
    elif brack is not None:
        raise ValueError("`brack` must be None if `optimizer` is given")
    else:
        def _optimizer(func):
            return getattr(optimizer(lambda lmb: float(to_host(func(lmb)))), "x", None)

    def _pearsonr():
        xvals = ndtri(_uniform_order_statistic_medians(x.shape[0]))
        return _optimizer(lambda lmb: 1 - pearsonr(xvals, sort(boxcox_(x.astype(_lambda_dtype(x, lmb)), lmb))).statistic)

    def _mle():
        return _optimizer(lambda lmb: -boxcox_llf(lmb, x))

    methods = {"pearsonr": _pearsonr, "mle": _mle, "all": lambda: numpy.array([_pearsonr(), _mle()], dtype=float)}
    if method not in methods:
        raise ValueError(f"Method {method} not recognized.")
    res = methods[method]()
    res = numpy.float64(res) if isinstance(res, float) else res
    if res is None:
        raise ValueError("The `optimizer` argument of `boxcox_normmax` must return an object containing the "
                         "optimal `lmbda` in attribute `x`.")
    return _ymax_bound(x, res, ymax, end_msg) if not numpy.isinf(ymax) else res


def _uniform_order_statistic_medians(n):
    # Filliben's estimate, as SciPy's `_calc_uniform_order_statistic_medians`
    last = 0.5 ** (1.0 / n)
    mid = (arange(2, n, dtype=numpy.float64) - 0.3175) / (n + 0.365)
    return concatenate([full((1,), 1 - last), mid, full((1,), last)])


def _ymax_bound(x, res, ymax, end_msg):
    """SciPy's adjustment: the lambda bounded so the transform of the extreme datum stays within
    `ymax` (the data's extremes read once; lambert W on the host where it binds)."""
    import scipy.special  # optional dependency, as the optimizer loop's: lambert W on the host

    xmax, xmin = _flags(max_(x), min_(x))
    host_boxcox = scipy.special.boxcox
    if xmin >= 1:
        x_treme = xmax
    elif xmax <= 1:
        x_treme = xmin
    else:
        indicator = host_boxcox(xmax, res) > abs(host_boxcox(xmin, res))
        if isinstance(res, numpy.ndarray):
            indicator = indicator[1]  # the 'mle' one
        x_treme = xmax if indicator else xmin
    mask = abs(host_boxcox(x_treme, res)) > ymax
    if numpy.any(mask):
        warnings.warn(f"The optimal lambda is {res}, but the returned lambda is the constrained optimum to ensure "
                      f"that the maximum or the minimum of the transformed data does not " + end_msg, stacklevel=3)
        y = ymax * numpy.sign(x_treme - 1)
        num = scipy.special.lambertw(-(x_treme ** (-1 / y)) * numpy.log(x_treme) / y, k=-1)
        constrained = numpy.real(-num / numpy.log(x_treme) - 1 / y)
        if isinstance(res, numpy.ndarray):
            res[mask] = constrained
        else:
            res = constrained
    return res


def _yeojohnson_transform(x, lmbda):
    """SciPy's `_yeojohnson_transform` on the device: both branches of the piecewise power, picked
    by the sign of each value (lambda a host scalar, as SciPy's branch tests need)."""
    dt = _lambda_dtype(x, lmbda)
    x = x.astype(dt, copy=False)
    eps = numpy.finfo(dt).eps
    pos = x >= 0
    up = log1p(where(pos, x, 0)) if abs(lmbda) < eps else expm1(lmbda * log1p(where(pos, x, 0))) / lmbda
    if abs(lmbda - 2) > eps:
        down = -expm1((2 - lmbda) * log1p(-where(pos, 0, x))) / (2 - lmbda)
    else:
        down = -log1p(-where(pos, 0, x))
    return where(pos, up, down).astype(dt, copy=False)


def yeojohnson(x, lmbda=None, *, nan_policy="propagate"):
    """See `scipy.stats.yeojohnson`. A given `lmbda` transforms on the device; lmbda None
    estimates it as `yeojohnson_normmax` does (a host float, as SciPy's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([-2., -0.5, 0., 1., 3., 12.])
    >>> stats.yeojohnson(x, 0.5)
    array([-2.79743495, -0.5580782 ,  0.        ,  0.82842712,  2.        ,
            5.21110255])
    >>> y, lmbda = stats.yeojohnson(x)
    >>> round(float(lmbda), 4)
    0.3403
    """
    x = as_literal_or_array(x, "yeojohnson")
    if x.size == 0:
        return x
    if x.dtype.kind == "c":
        raise ValueError("Yeo-Johnson transformation is not defined for complex numbers.")
    x = _floating(x)
    if lmbda is not None:
        _policy(nan_policy, x, omit=True)
        return _yeojohnson_transform(x, lmbda)
    lmax = yeojohnson_normmax(x, nan_policy=nan_policy)
    return _yeojohnson_transform(x, lmax), lmax


def _yj_llf(lmb, data, axis, all_pos, all_neg):
    """SciPy's `_yeojohnson_llf` along `axis` (kept), the data's signs given (read once by the
    caller: SciPy branches on the whole array's)."""
    n = data.shape[axis]
    eps = numpy.finfo(data.dtype).eps
    if all_pos:
        if abs(lmb) < eps:
            logvar = log(var(log1p(data), axis=axis, keepdims=True))
        else:
            logvar = _log_var(lmb * log1p(data), axis) - 2 * math.log(abs(lmb))
    elif all_neg:
        if abs(lmb - 2) < eps:
            logvar = log(var(log1p(-data), axis=axis, keepdims=True))
        else:
            logvar = _log_var((2 - lmb) * log1p(-data), axis) - 2 * math.log(abs(2 - lmb))
    else:
        sigma = var(_yeojohnson_transform(data, lmb), axis=axis, keepdims=True)
        tiny = numpy.finfo(sigma.dtype).smallest_normal
        logvar = where(sigma >= tiny, log(where(sigma >= tiny, sigma, 1)), -numpy.inf)
    return -n / 2 * logvar + (lmb - 1) * sum_(sign(data) * log1p(abs_(data)), axis=axis, keepdims=True)


@omit_nans("data")
def yeojohnson_llf(lmb, data, *, axis=0, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.yeojohnson_llf`. One read: whether the data are all non-negative or all
    negative (SciPy's branch on the whole array).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([-2., -0.5, 0., 1., 3., 12.])
    >>> round(float(stats.yeojohnson_llf(0.5, x)), 6)
    -6.972175
    """
    data = _float(data, "yeojohnson_llf", nan_policy)
    data = data.astype(_lambda_dtype(data, lmb), copy=False)
    ndim = data.ndim
    if axis is None or ndim == 0:  # SciPy: a 0-d sample is one value
        data, ax = data.reshape(-1), 0
    else:
        ax = normalize_axis_index(axis, ndim)
    if data.shape[ax] == 0:
        out = _nan_slices(data, ax)
    else:
        all_pos, all_neg = _flags(all_(data >= 0), all_(data < 0))
        out = _yj_llf(lmb, data, ax, all_pos, all_neg).squeeze(ax)
    if not keepdims:
        return out
    return out.reshape((1,) * ndim) if axis is None or ndim == 0 else expand_dims(out, ax)


def yeojohnson_normmax(x, brack=None, *, nan_policy="propagate"):
    """See `scipy.stats.yeojohnson_normmax`. SciPy's bounded Brent (or Brent from `brack`) on the
    host, each log-likelihood a reduction on the device read once; the data's checks and bounds
    one read. The result is a host float, as SciPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([-2., -0.5, 0., 1., 3., 12.])
    >>> round(float(stats.yeojohnson_normmax(x)), 4)
    0.3403
    """
    x, nan = _checked_sample(x, nan_policy, "yeojohnson_normmax")
    if x is None:
        return nan
    finite, zero, big, all_neg, any_neg = _flags(all_(isfinite(x)), all_(x == 0), max_(abs_(x)), all_(x < 0), any_(x < 0)) \
        if x.size else (True, True, 0.0, True, False)
    if not finite:
        raise ValueError("Yeo-Johnson input must be finite.")
    if zero:
        return 1.0
    all_pos = not any_neg

    def neg_llf(lmb):
        llf = _yj_llf(lmb, x.astype(_lambda_dtype(x, lmb), copy=False), 0, all_pos, bool(all_neg)).squeeze(0)
        return -where(isinf(llf), -numpy.inf, llf)

    if brack is not None:
        return numpy.float64(minimize_scalar(neg_llf, bracket=brack, method="brent").x)
    dtype = x.dtype if x.dtype.kind == "f" else numpy.dtype(numpy.float64)
    # SciPy's bounds: lambdas whose transform of 20 times the largest datum stays within half the
    # dtype's exponent range
    log1p_max_x = numpy.log1p(20 * big)
    log_eps = numpy.log(numpy.finfo(dtype).eps)
    lb = (numpy.log(numpy.finfo(dtype).tiny) - log_eps) / 2 / log1p_max_x
    ub = (numpy.log(numpy.finfo(dtype).max) + log_eps) / 2 / log1p_max_x
    if all_neg:
        lb, ub = 2 - ub, 2 - lb
    elif any_neg:
        lb, ub = max(2 - ub, lb), min(2 - lb, ub)
    return numpy.float64(minimize_scalar(neg_llf, bounds=(lb, ub), method="bounded",
                                         options={"xatol": _BRENT_XTOL, "maxiter": 500, "disp": 1}).x)
