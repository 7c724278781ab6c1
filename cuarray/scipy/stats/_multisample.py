"""The common part of scipy.stats' k-sample tests (`f_oneway`, `bartlett`, `levene`, `fligner`,
`kruskal`), as SciPy's `_axis_nan_policy` does it for unpaired samples: the samples broadcast
against each other except along `axis`, that axis moved last; keepdims; and `nan_policy='omit'`
with NaNs present run as one test per slice on each sample's non-NaN values (one read of the NaN
masks, then a test of 1-D samples a slice: a path for the rare call, not the fast one)."""

from __future__ import annotations

import warnings

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.shapes import normalize_axis_index
from ..._creation.from_data import asarray
from ..._logic.content import isnan
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import stack
from ..._manipulation.transpose import moveaxis
from ..._math.extrema import minimum
from ..._math.misc import abs as abs_
from ..._math.misc import clip
from ..._sorting.counting import count_nonzero
from ._descriptive import _policy
from ._omit import has_nan

__all__ = ["samples_last", "keep_dims", "per_slice", "TOO_SMALL", "OMIT_TOO_SMALL", "check_batch", "resampling_pvalue"]

# SciPy's `_axis_nan_policy` warning text for a one-dimensional sample too small for its test
TOO_SMALL = ("One or more sample arguments is too small; all returned values will be NaN. "
             "See documentation for sample size requirements.")
# ... and for the slices of an N-D sample that nan_policy='omit' leaves too small
OMIT_TOO_SMALL = ("After omitting NaNs, one or more axis-slices of one or more sample arguments is too small; "
                  "corresponding elements of returned arrays will be NaN. See documentation for sample size "
                  "requirements.")


def samples_last(samples, axis, nan_policy, fn, floating=True):
    """(samples broadcast against each other but along `axis`, that axis last; the batch shape;
    whether they are one sample each: 1-D or raveled; the input's ndim)."""
    arrays = [_policy(nan_policy, as_literal_or_array(s, fn), omit=True) for s in samples]
    ndim_in = max(a.ndim for a in arrays)
    dt = numpy.result_type(*(a.dtype for a in arrays))
    if dt.kind not in "biuf":  # SciPy's p-value functions take real numbers only (its TypeError)
        raise TypeError("{}: the samples must be real numbers, not {}".format(fn, dt))
    if floating and dt.kind != "f":
        dt = numpy.dtype(numpy.float64)
    one = axis is None or all(a.ndim <= 1 for a in arrays)
    if axis is None:
        arrays, axis = [a.ravel() for a in arrays], 0
    ndim = max(a.ndim for a in arrays)
    arrays = [a.reshape((1,) * (ndim - a.ndim) + a.shape).astype(dt, copy=False) for a in arrays]
    axis = normalize_axis_index(axis, ndim)
    arrays = [moveaxis(a, axis, -1) for a in arrays]
    batch = numpy.broadcast_shapes(*(a.shape[:-1] for a in arrays))
    return [broadcast_to(a, batch + a.shape[-1:]) for a in arrays], batch, one, ndim_in


def keep_dims(results, axis, keepdims, ndim_in):
    """The results (of the batch's shape) with the reduced axis kept where `keepdims` asks."""
    if not keepdims:
        return results
    if axis is None:
        return [r.reshape((1,) * max(ndim_in, 1)) for r in results]
    ax = int(axis) % max(ndim_in, 1)
    return [moveaxis(r[..., None], -1, ax) for r in results]


def per_slice(test, samples, batch, paired=False, too_small=0):
    """`test(*one_d_samples)` -> tuple of 0-d arrays, on each slice's non-NaN values of each
    sample (with `paired`, the positions where no sample holds a NaN), stacked back to the batch's
    shape; None when no sample holds a NaN. A slice left with at most `too_small` values in a
    sample (or whose counts a callable `too_small(*counts)` finds too small) gets SciPy's warning
    (the test gives its NaN)."""
    if not has_nan(samples):
        return None
    rows = [s.reshape(-1, s.shape[-1]) for s in samples]
    keep = [numpy.asarray((~isnan(r)).get()) for r in rows]  # the one read of the NaN masks
    if paired:
        keep = [numpy.logical_and.reduce(keep)] * len(keep)
    counts = [k.sum(axis=-1) for k in keep]
    small = too_small(*counts) if callable(too_small) else numpy.logical_or.reduce([c <= too_small for c in counts])
    if numpy.any(small):
        warnings.warn(OMIT_TOO_SMALL, RuntimeWarning, stacklevel=4)
    outs = []
    for i in range(rows[0].shape[0]):
        subs = [r[i][asarray(numpy.flatnonzero(k[i]))] for r, k in zip(rows, keep)]
        outs.append(test(*subs))
    return [stack([o[j] for o in outs]).reshape(batch) for j in range(len(outs[0]))]


def check_batch(batch):
    """SciPy's check of a resampling function's `batch`: None or a positive integer."""
    if batch is not None and (batch != int(batch) or int(batch) <= 0):
        raise ValueError("`batch` must be a positive integer or None.")
    return None if batch is None else int(batch)


def resampling_pvalue(null, observed, alternative, n_resamples, adjustment, dtype):
    """SciPy's p-value of `monte_carlo_test` and `permutation_test`: the null values (first axis)
    at or beyond the observed statistic, null values within 100 ulps of it counting as ties, plus
    `adjustment` (1 for random resamples, 0 for an exact test), over n_resamples + adjustment;
    two-sided twice the smaller side; clipped to [0, 1]."""
    eps = numpy.finfo(observed.dtype).eps * 100 if observed.dtype.kind == "f" else 0
    gamma = abs_(eps * observed)

    def less():
        return (count_nonzero(null <= observed + gamma, axis=0) + adjustment).astype(dtype) / (n_resamples + adjustment)

    def greater():
        return (count_nonzero(null >= observed - gamma, axis=0) + adjustment).astype(dtype) / (n_resamples + adjustment)

    p = {"less": less, "greater": greater, "two-sided": lambda: minimum(less(), greater()) * 2}[alternative]()
    return clip(p, 0.0, 1.0)
