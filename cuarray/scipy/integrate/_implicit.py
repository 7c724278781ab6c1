"""The implicit solvers' common part, after SciPy's `scipy.integrate._ivp.common.num_jac` and the
solvers' `_validate_jac`: the Jacobian as a dense device matrix (from `jac` as a callable or an
array, or by forward differences on the device with SciPy's adaptive increments, Salane's scheme
as SciPy cites it) with its LU through `cuarray.scipy.linalg` (cuSOLVER getrf/getrs), or, as in
SciPy, a sparse one where `jac` is sparse or `jac_sparsity` is given (differences grouped by
columns as Curtis, Powell and Reid, on the pattern only; `_sparse_jac`) with its LU by cuDSS. Without
cuDSS (the optional `cuarray[cudss]`) a sparse Jacobian stays sparse and its iteration matrices are
solved by gtsv2 where it is tridiagonal (any n), else expanded to dense ones for cuSOLVER's LU up to
`DENSE_MAX_ROWS` rows, and refused past that (ImportError naming the extra, before any n x n
allocation)."""

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._creation.from_data import asarray
from ..._creation.matrices import eye
from ..._indexing.inserting import take, take_along_axis
from ..._logic.truth import any as any_
from ..._math.complex import real
from ..._math.extrema import maximum
from ..._math.misc import abs as abs_
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from ...cuda.libs.cudss import available as sparse_lu_available
from ..linalg._decomp_lu import lu_factor, lu_solve
from ._ivp_base import EPS, read, select_initial_step, validate_first_step
from ._sparse_jac import (TridiagonalLU, bandwidth, group_columns, host_pattern, pattern_bandwidth, refuse_dense,
                          sparse_identity, sparse_jacobian, sparse_lu, sparse_num_jac)

NUM_JAC_DIFF_REJECT = EPS ** 0.875
NUM_JAC_DIFF_SMALL = EPS ** 0.75
NUM_JAC_DIFF_BIG = EPS ** 0.25
NUM_JAC_MIN_FACTOR = 1e3 * EPS
NUM_JAC_FACTOR_INCREASE = 10
NUM_JAC_FACTOR_DECREASE = 0.1


def is_sparse(a):
    return hasattr(a, "tocsc") and hasattr(a, "toarray")


def dense(J, dtype):
    """A Jacobian as a dense device matrix: a cuarray sparse matrix is expanded on the device."""
    return asarray(J.toarray() if is_sparse(J) else J, dtype=dtype)


def _sparse_kind(solver, n, dtype, width):
    """How `lu` factorises a sparse iteration matrix (`solver.sparse_lu_kind`): "cudss" where cuDSS
    loads (asked once a solver, and only for a sparse Jacobian: the first ask loads the library and
    makes a handle); else "tridiagonal" where `width()` (the band) is at most 1, else "dense",
    refused (`refuse_dense`) past DENSE_MAX_ROWS rows before any n x n allocation."""
    if solver.sparse_lu_kind is None:
        solver.sparse_lu_kind = "cudss" if sparse_lu_available() else "dense"
    if solver.sparse_lu_kind != "cudss":
        solver.sparse_lu_kind = "tridiagonal" if width() <= 1 else "dense"
        if solver.sparse_lu_kind == "dense":
            refuse_dense(n, numpy.dtype(dtype).itemsize)


def _keeper(solver, dtype, pattern=None):
    """SciPy's rule as a function of the Jacobian: a sparse one stays sparse (CSC of `dtype`), else
    it is dense; `_sparse_kind` with the band of each sparse Jacobian (one read where cuDSS is
    absent), or decided once by `validate_jac` from the host `pattern` of `jac_sparsity`."""
    def keep(J):
        if not is_sparse(J):
            return dense(J, dtype)
        if pattern is None:
            _sparse_kind(solver, J.shape[0], dtype, lambda: bandwidth(J))
        return sparse_jacobian(J, dtype)
    return keep


def validate_jac(solver, jac, sparsity, dtype, f0):
    """SciPy's `_validate_jac`: (the Jacobian's callable (t, y, f) or None, the Jacobian at
    (t0, y0), where f0 = fun(t0, y0)) with the Jacobian a device matrix of `dtype`, sparse where
    SciPy's is; counts njev as SciPy does."""
    n = solver.n
    solver.sparse_lu_kind = None
    pattern = None
    if jac is None and sparsity is not None:
        pattern = host_pattern(sparsity)
        _sparse_kind(solver, n, dtype, lambda: pattern_bandwidth(pattern))  # before the differences
        sparsity = (pattern, group_columns(pattern))
    keep = _keeper(solver, dtype, pattern)
    if jac is None:

        def jac_wrapped(t, y, f):
            solver.njev += 1
            J, solver.jac_factor = num_jac(solver.fun_vectorized, t, y, f, solver.atol, solver.jac_factor, sparsity)
            return keep(J)
        return jac_wrapped, jac_wrapped(solver.t, solver.y, f0)
    if callable(jac):
        J = jac(solver.t, solver.y)
        solver.njev += 1
        J = keep(J)

        def jac_wrapped(t, y, _=None):
            solver.njev += 1
            return keep(jac(t, y))
    else:
        J = keep(jac) if is_sparse(jac) else \
            as_literal_or_array(jac, "scipy.integrate.solve_ivp").astype(dtype, copy=False)
        jac_wrapped = None
    if J.shape != (n, n):
        raise ValueError(f"`jac` is expected to have shape {(n, n)}, but actually has {J.shape}.")
    return jac_wrapped, J


def lu(solver, A):
    """The LU of an iteration matrix: cuSOLVER's of a dense one; of a sparse one cuDSS's, or without
    cuDSS (`_keeper`) gtsv2's solves of a tridiagonal one or cuSOLVER's of its dense copy."""
    solver.nlu += 1
    if not is_sparse(A):
        return lu_factor(A, overwrite_a=True, check_finite=False)
    if solver.sparse_lu_kind == "cudss":
        return sparse_lu(A)
    if solver.sparse_lu_kind == "tridiagonal":
        return TridiagonalLU.of(A)
    return lu_factor(dense(A, A.dtype), overwrite_a=True, check_finite=False)


def solve_lu(LU, b):
    if isinstance(LU, tuple):  # (lu, piv) of `lu_factor`; else a sparse LU object
        return lu_solve(LU, b, overwrite_b=True, check_finite=False)
    return LU.solve(b)


def identity(n, dtype=float, sparse=False):
    return sparse_identity(n, dtype) if sparse else eye(n, dtype=dtype)


def _max_column_entries(diff, f, f_new):
    """Per column: the largest |diff| and SciPy's scale max(|f|, |f_new|) at its row."""
    max_ind = argmax(abs_(diff), axis=0)
    max_diff = take_along_axis(abs_(diff), max_ind[None, :], axis=0)[0]
    scale = maximum(abs_(take(f, max_ind)), abs_(take_along_axis(f_new, max_ind[None, :], axis=0)[0]))
    return max_diff, scale


def num_jac(fun, t, y, f, threshold, factor, sparsity=None):
    """SciPy's `num_jac`: forward differences, each column's increment adapted as SciPy does.
    Without `sparsity` one call of `fun` shifts every column (a dense device Jacobian); with it
    ((host pattern, host column groups)) one shift a group, the differences on the pattern only (a
    sparse one, `_sparse_jac.sparse_num_jac`). The rare corrections (an increment that rounds to
    zero; columns whose difference is too small, tried again with a larger increment) each cost
    one small host read of a flag vector."""
    n = y.shape[0]
    if n == 0:
        return as_parameter(numpy.empty((0, 0)), "scipy.integrate.solve_ivp"), factor
    groups = numpy.arange(n)
    groups_dev = as_parameter(groups, "scipy.integrate.solve_ivp")

    def differences(h, group_ids):
        """(f(y + h e_j) - f) for the columns `group_ids`, spread to their places, and the
        shifted f spread the same way."""
        place = numpy.zeros(n, dtype=numpy.intp)
        place[group_ids] = numpy.arange(group_ids.size)
        cols = as_parameter(place, "scipy.integrate.solve_ivp")
        ids = as_parameter(group_ids, "scipy.integrate.solve_ivp")
        shifts = where(groups_dev[:, None] == ids[None, :], h[:, None], 0.0)
        f_shifted = fun(t, y[:, None] + shifts)
        return take(f_shifted - f[:, None], cols, axis=1), take(f_shifted, cols, axis=1)

    if factor is None:
        factor = as_parameter(numpy.full(n, EPS ** 0.5), "scipy.integrate.solve_ivp")
    f_sign = where(real(f) >= 0, 1.0, -1.0)
    y_scale = f_sign * maximum(threshold, abs_(y))
    h = (y + factor * y_scale) - y
    while bool(read(any_(h == 0))):
        factor = where(h == 0, factor * 10, factor)
        h = (y + factor * y_scale) - y
    if sparsity is not None:
        return sparse_num_jac(fun, t, y, f, h, factor, y_scale, sparsity,
                              (NUM_JAC_DIFF_REJECT, NUM_JAC_DIFF_SMALL, NUM_JAC_DIFF_BIG, NUM_JAC_FACTOR_INCREASE,
                               NUM_JAC_FACTOR_DECREASE, NUM_JAC_MIN_FACTOR))
    diff, f_new = differences(h, groups)
    max_diff, scale = _max_column_entries(diff, f, f_new)
    too_small = numpy.nonzero(read(max_diff < NUM_JAC_DIFF_REJECT * scale))[0]
    if too_small.size:
        mask = numpy.zeros(n, dtype=bool)
        mask[too_small] = True
        mask = as_parameter(mask, "scipy.integrate.solve_ivp")
        new_factor = NUM_JAC_FACTOR_INCREASE * factor
        h_new = where(mask, (y + new_factor * y_scale) - y, 0.0)
        diff_new, f_new = differences(h_new, numpy.unique(groups[too_small]))
        max_diff_new, scale_new = _max_column_entries(diff_new, f, f_new)
        # only the retried columns may change, each where its new difference is relatively larger
        update = mask & (max_diff * scale_new < max_diff_new * scale)
        factor = where(update, new_factor, factor)
        h = where(update, h_new, h)
        diff = where(update[None, :], diff_new, diff)
        scale = where(update, scale_new, scale)
        max_diff = where(update, max_diff_new, max_diff)
    diff = diff / h
    factor = where(max_diff < NUM_JAC_DIFF_SMALL * scale, factor * NUM_JAC_FACTOR_INCREASE, factor)
    factor = where(max_diff > NUM_JAC_DIFF_BIG * scale, factor * NUM_JAC_FACTOR_DECREASE, factor)
    factor = maximum(factor, NUM_JAC_MIN_FACTOR)
    return diff, factor


def start_steps(solver, first_step, t0, t_bound, max_step, f, order) -> None:
    """The implicit solvers' first step size (SciPy's `select_initial_step` for the method's
    `order`, or `first_step` checked) and Newton tolerance, and no previous step or error."""
    if first_step is None:
        solver.h_abs = select_initial_step(solver.fun, solver.t, solver.y, t_bound, max_step, f, solver.direction,
                                           order, solver.rtol, solver.atol)
    else:
        solver.h_abs = validate_first_step(first_step, t0, t_bound)
    solver.h_abs_old = None
    solver.error_norm_old = None
    r = solver.rtol if isinstance(solver.rtol, float) else read(solver.rtol)  # a parameter: SciPy's rule on the host
    solver.newton_tol = max(10 * EPS / r, min(0.03, r ** 0.5))
