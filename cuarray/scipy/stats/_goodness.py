"""Goodness of fit of observed frequencies on the device: `power_divergence` (Cressie and Read's
family, "Multinomial goodness-of-fit tests", J. R. Statist. Soc. B 46, 1984) and `chisquare`
(Pearson's, its lambda = 1 member). SciPy's computation: the terms elementwise, summed along the
axis, the p-value from the chi-square survival function with `n - 1 - ddof` degrees of freedom
(`chdtrc`). With `f_exp`, SciPy's check that each slice's sums agree (one device read);
`nan_policy='omit'` drops the positions where either array holds a NaN (`_omit`, paired)."""

from __future__ import annotations

from typing import NamedTuple

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.shapes import normalize_axis_index
from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._math.extrema import minimum
from ..._math.misc import abs as abs_
from ..._math.sums import sum as sum_
from ..._statistics.averages import mean
from ..special._convenience import xlogy
from ..special._stats import chdtrc
from ._descriptive import _policy
from ._omit import omit_nans

__all__ = ["power_divergence", "chisquare", "Power_divergenceResult"]

# SciPy's names for the family's members
LAMBDA_NAMES = {"pearson": 1, "log-likelihood": 0, "freeman-tukey": -0.5, "mod-log-likelihood": -1, "neyman": -2,
                "cressie-read": 2 / 3}


class Power_divergenceResult(NamedTuple):  # noqa: N801  (SciPy's name)
    statistic: object
    pvalue: object


def _lambda(lambda_):
    if isinstance(lambda_, str):
        if lambda_ not in LAMBDA_NAMES:
            names = repr(list(LAMBDA_NAMES.keys()))[1:-1]
            raise ValueError(f"invalid string for lambda_: {lambda_!r}. Valid strings are {names}")
        return LAMBDA_NAMES[lambda_]
    return 1 if lambda_ is None else lambda_


def _floating(*arrays, ddof=None):
    """The arrays in their common floating dtype; an array `ddof` takes part (SciPy promotes it
    with the frequencies; a Python number does not)."""
    dt = numpy.result_type(*(a.dtype for a in arrays), *(() if ddof is None else (ddof.dtype,)))
    dt = dt if dt.kind in "fc" else numpy.dtype(numpy.float64)
    return [a.astype(dt, copy=False) for a in arrays]


def _check_sums(f_obs, f_exp, axis):
    """SciPy's `sum_check`: each slice's observed and expected totals agree to sqrt(eps)."""
    rtol = float(numpy.finfo(f_exp.dtype).eps) ** 0.5
    obs_sum, exp_sum = sum_(f_obs, axis=axis, keepdims=True), sum_(f_exp, axis=axis, keepdims=True)
    relative = abs_(obs_sum - exp_sum) / minimum(obs_sum, exp_sum)
    if bool(to_host(any_(relative > rtol))):  # the check's one read
        raise ValueError("For each axis slice, the sum of the observed frequencies must agree with the sum of the "
                         f"expected frequencies to a relative tolerance of {rtol}, but the percent differences are:\n"
                         f"{to_host(relative)}")


def _divergence(f_obs, f_exp, ddof, axis, lambda_, sum_check, nan_policy, keepdims, fn):
    lam = _lambda(lambda_)
    f_obs = _policy(nan_policy, as_literal_or_array(f_obs, fn))
    ddof_array = None if isinstance(ddof, (int, float)) else as_literal_or_array(ddof, fn)
    if f_exp is not None:
        f_exp = _policy(nan_policy, as_literal_or_array(f_exp, fn))
        f_obs, f_exp = _floating(f_obs, f_exp, ddof=ddof_array)
        shape = numpy.broadcast_shapes(f_obs.shape, f_exp.shape)
        f_obs, f_exp = broadcast_to(f_obs, shape), broadcast_to(f_exp, shape)
    else:
        (f_obs,) = _floating(f_obs, ddof=ddof_array)
    kept = None
    if axis is None:  # a kept axis is (1,) * ndim, as SciPy's
        kept = (1,) * max(f_obs.ndim, 1)
        f_obs, f_exp, axis = f_obs.ravel(), None if f_exp is None else f_exp.ravel(), 0
    axis = normalize_axis_index(axis, f_obs.ndim)
    if f_exp is not None and sum_check and f_obs.size:
        _check_sums(f_obs, f_exp, axis)
    if f_exp is None:
        f_exp = mean(f_obs, axis=axis, keepdims=True) if f_obs.shape[axis] else f_obs
    if lam == 1:
        terms = (f_obs - f_exp) ** 2 / f_exp
    elif lam == 0:
        terms = 2.0 * xlogy(f_obs, f_obs / f_exp)
    elif lam == -1:
        terms = 2.0 * xlogy(f_exp, f_exp / f_obs)
    else:
        terms = f_obs * ((f_obs / f_exp) ** lam - 1) / (0.5 * lam * (lam + 1))
    stat = sum_(terms, axis=axis, keepdims=keepdims)
    n = terms.shape[axis]
    df = (n - 1 - ddof_array).astype(stat.dtype) if ddof_array is not None else full((), n - 1 - ddof, dtype=stat.dtype)
    p = chdtrc(df, stat).astype(stat.dtype, copy=False)
    if keepdims and kept is not None:
        stat, p = stat.reshape(kept), p.reshape(kept)
    return Power_divergenceResult(stat, p)


@omit_nans("f_obs", "f_exp", result=Power_divergenceResult)
def power_divergence(f_obs, f_exp=None, ddof=0, axis=0, lambda_=None, *, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.power_divergence`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> obs = cuarray.array([16., 18., 16., 14., 12., 12.])
    >>> res = stats.power_divergence(obs, lambda_='log-likelihood')
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (2.006573, 0.848235)
    """
    return _divergence(f_obs, f_exp, ddof, axis, lambda_, True, nan_policy, keepdims, "power_divergence")


@omit_nans("f_obs", "f_exp", result=Power_divergenceResult)
def chisquare(f_obs, f_exp=None, ddof=0, axis=0, *, sum_check=True, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.chisquare`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.chisquare(cuarray.array([16., 18., 16., 14., 12., 12.]))
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6)
    (2.0, 0.849145)
    """
    return _divergence(f_obs, f_exp, ddof, axis, "pearson", sum_check, nan_policy, keepdims, "chisquare")
