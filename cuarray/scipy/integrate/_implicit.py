"""The implicit solvers' common part, after SciPy's `scipy.integrate._ivp.common.num_jac` and the
solvers' `_validate_jac`: the Jacobian as a dense device matrix (from `jac` as a callable or an
array, or by forward differences on the device with SciPy's adaptive increments, Salane's scheme
as SciPy cites it), its LU through `cuarray.scipy.linalg` (cuSOLVER getrf/getrs). A sparse `jac`
or `jac_sparsity` is not built yet: it raises NotImplementedError."""

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._creation.from_data import asarray
from ..._creation.matrices import diag, eye
from ..._indexing.inserting import take, take_along_axis
from ..._logic.truth import any as any_
from ..._math.complex import real
from ..._math.extrema import maximum
from ..._math.misc import abs as abs_
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from ..linalg._decomp_lu import lu_factor, lu_solve
from ._ivp_base import EPS, read

NUM_JAC_DIFF_REJECT = EPS ** 0.875
NUM_JAC_DIFF_SMALL = EPS ** 0.75
NUM_JAC_DIFF_BIG = EPS ** 0.25
NUM_JAC_MIN_FACTOR = 1e3 * EPS
NUM_JAC_FACTOR_INCREASE = 10
NUM_JAC_FACTOR_DECREASE = 0.1


def _is_sparse(a):
    return hasattr(a, "tocsc") or type(a).__module__.startswith("scipy.sparse")


def _not_built(what):
    return NotImplementedError(f"cuarray.scipy.integrate: {what} is not yet built on the device; give `jac` as a "
                               "dense device array or a callable returning one, or leave it None.")


def validate_jac(solver, jac, sparsity, dtype, f0):
    """SciPy's `_validate_jac`: (the Jacobian's callable (t, y, f) or None, the Jacobian at
    (t0, y0), where f0 = fun(t0, y0)) with the Jacobian a dense device matrix of `dtype`; counts
    njev as SciPy does."""
    n = solver.n
    if sparsity is not None:
        raise _not_built("`jac_sparsity`")
    if jac is None:
        def jac_wrapped(t, y, f):
            solver.njev += 1
            J, solver.jac_factor = num_jac(solver.fun_vectorized, t, y, f, solver.atol, solver.jac_factor)
            return J
        return jac_wrapped, jac_wrapped(solver.t, solver.y, f0)
    if callable(jac):
        J = jac(solver.t, solver.y)
        solver.njev += 1
        if _is_sparse(J):
            raise _not_built("a sparse `jac`")
        J = asarray(J, dtype=dtype)

        def jac_wrapped(t, y, _=None):
            solver.njev += 1
            return asarray(jac(t, y), dtype=dtype)
    else:
        if _is_sparse(jac):
            raise _not_built("a sparse `jac`")
        J = as_literal_or_array(jac, "scipy.integrate.solve_ivp").astype(dtype, copy=False)
        jac_wrapped = None
    if J.shape != (n, n):
        raise ValueError(f"`jac` is expected to have shape {(n, n)}, but actually has {J.shape}.")
    return jac_wrapped, J


def lu(solver, A):
    solver.nlu += 1
    return lu_factor(A, overwrite_a=True, check_finite=False)


def solve_lu(LU, b):
    return lu_solve(LU, b, overwrite_b=True, check_finite=False)


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


def _max_column_entries(diff, f, f_new):
    """Per column: the largest |diff| and SciPy's scale max(|f|, |f_new|) at its row."""
    max_ind = argmax(abs_(diff), axis=0)
    max_diff = take_along_axis(abs_(diff), max_ind[None, :], axis=0)[0]
    scale = maximum(abs_(take(f, max_ind)), abs_(take_along_axis(f_new, max_ind[None, :], axis=0)[0]))
    return max_diff, scale


def num_jac(fun, t, y, f, threshold, factor):
    """SciPy's `num_jac` (dense): forward differences with one vectorized call of `fun` for all
    columns, each column's increment adapted as SciPy does. The rare corrections (an increment
    that rounds to zero; columns whose difference is too small and are tried again with a larger
    increment) each cost one small host read of a flag vector."""
    n = y.shape[0]
    if n == 0:
        return as_parameter(numpy.empty((0, 0)), "scipy.integrate.solve_ivp"), factor
    if factor is None:
        factor = as_parameter(numpy.full(n, EPS ** 0.5), "scipy.integrate.solve_ivp")
    f_sign = where(real(f) >= 0, 1.0, -1.0)
    y_scale = f_sign * maximum(threshold, abs_(y))
    h = (y + factor * y_scale) - y
    while bool(read(any_(h == 0))):
        factor = where(h == 0, factor * 10, factor)
        h = (y + factor * y_scale) - y
    f_new = fun(t, y[:, None] + diag(h))
    diff = f_new - f[:, None]
    max_diff, scale = _max_column_entries(diff, f, f_new)
    too_small = numpy.nonzero(read(max_diff < NUM_JAC_DIFF_REJECT * scale))[0]
    if too_small.size:
        new_factor = NUM_JAC_FACTOR_INCREASE * factor
        h_new = (y + new_factor * y_scale) - y
        mask = numpy.zeros(n, dtype=bool)
        mask[too_small] = True
        cols = numpy.zeros(n, dtype=numpy.int64)  # each column's place among the retried ones
        cols[too_small] = numpy.arange(too_small.size)
        ind, mask, cols = (as_parameter(a, "scipy.integrate.solve_ivp") for a in (too_small, mask, cols))
        f_new = fun(t, y[:, None] + take(diag(h_new), ind, axis=1))
        diff_new = f_new - f[:, None]
        max_diff_new, scale_new = _max_column_entries(diff_new, f, f_new)
        md_new, sc_new = take(max_diff_new, cols), take(scale_new, cols)
        update = mask & (max_diff * sc_new < md_new * scale)
        factor = where(update, new_factor, factor)
        h = where(update, h_new, h)
        diff = where(update[None, :], take(diff_new, cols, axis=1), diff)
        scale = where(update, sc_new, scale)
        max_diff = where(update, md_new, max_diff)
    diff = diff / h
    factor = where(max_diff < NUM_JAC_DIFF_SMALL * scale, factor * NUM_JAC_FACTOR_INCREASE, factor)
    factor = where(max_diff > NUM_JAC_DIFF_BIG * scale, factor * NUM_JAC_FACTOR_DECREASE, factor)
    factor = maximum(factor, NUM_JAC_MIN_FACTOR)
    return diff, factor

