"""`chi2_contingency` of scipy.stats on the device: the expected frequencies from the table's
margins (SciPy's `contingency.expected_freq`: their outer product over the total to the power
ndim - 1, in float64), Yates' correction where there is one degree of freedom, and the statistic
by `power_divergence` over the whole table. SciPy's checks (negative counts, an empty table, a zero
expected frequency) read two flags in one read. A resampling `method` (a permutation or Monte
Carlo test) runs SciPy's own test on a host copy of the table (tables are small), its results
returned as SciPy's."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.from_data import asarray
from ..._logic.truth import any as any_
from ..._manipulation.joining import stack
from ..._math.extrema import minimum
from ..._math.misc import abs as abs_
from ..._math.misc import sign
from ..._math.sums import sum as sum_
from ._goodness import power_divergence

__all__ = ["chi2_contingency", "Chi2ContingencyResult"]


class Chi2ContingencyResult(tuple):
    """See SciPy's `Chi2ContingencyResult`: unpacks as (statistic, pvalue, dof, expected_freq)."""

    def __new__(cls, statistic, pvalue, dof, expected_freq):
        return tuple.__new__(cls, (statistic, pvalue, dof, expected_freq))

    statistic = property(lambda self: self[0])
    pvalue = property(lambda self: self[1])
    dof = property(lambda self: self[2])
    expected_freq = property(lambda self: self[3])

    def __repr__(self):
        return "Chi2ContingencyResult(statistic={!r}, pvalue={!r}, dof={!r}, expected_freq={!r})".format(*self)


def _expected(observed):
    """SciPy's `expected_freq`: the product of the margins over the total ** (ndim - 1)."""
    d = observed.ndim
    expected = None
    for k in range(d):
        margin = sum_(observed, axis=tuple(j for j in range(d) if j != k), keepdims=True)
        expected = margin if expected is None else expected * margin
    return expected / sum_(observed) ** (d - 1)


def chi2_contingency(observed, correction=True, lambda_=None, *, method=None):
    """See `scipy.stats.chi2_contingency`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.chi2_contingency(cuarray.array([[10, 20], [30, 25]]))
    >>> round(float(res.statistic), 6), round(float(res.pvalue), 6), res.dof
    (2.706155, 0.099962, 1)
    """
    observed = as_literal_or_array(observed, "chi2_contingency")
    if observed.dtype.kind not in "biuf":  # SciPy's chdtrc refuses them (its TypeError)
        raise TypeError("chi2_contingency: `observed` must hold real counts, not {}".format(observed.dtype))
    if observed.size == 0:
        if bool(to_host(any_(observed < 0))):
            raise ValueError("All values in `observed` must be nonnegative.")
        raise ValueError("No data; `observed` has size 0.")
    table = observed.astype(numpy.float64)
    expected = _expected(table)
    flags = numpy.asarray(to_host(stack([any_(observed < 0), any_(expected == 0)])))  # the checks' one read
    if flags[0]:
        raise ValueError("All values in `observed` must be nonnegative.")
    if flags[1]:
        zeropos = list(zip(*numpy.nonzero(numpy.asarray(to_host(expected)) == 0)))[0]  # as SciPy prints it
        raise ValueError(f"The internally computed table of expected frequencies has a zero element at {zeropos}.")
    if method is not None:
        from scipy import stats as host_stats  # optional dependency: SciPy's resampling tests  # noqa: PLC0415

        res = host_stats.chi2_contingency(numpy.asarray(to_host(observed)), correction, lambda_, method=method)
        return Chi2ContingencyResult(res.statistic, res.pvalue, res.dof, asarray(res.expected_freq))
    dof = expected.size - sum(expected.shape) + expected.ndim - 1
    if dof == 0:  # one nontrivial dimension: observed is expected
        return Chi2ContingencyResult(0.0, 1.0, dof, expected)
    if dof == 1 and correction:  # Yates' correction, no larger than the difference
        diff = expected - table
        table = table + minimum(0.5, abs_(diff)) * sign(diff)
    stat, p = power_divergence(table, expected, ddof=table.size - 1 - dof, axis=None, lambda_=lambda_)
    return Chi2ContingencyResult(stat, p, dof, expected)
