"""The implicit solvers' sparse Jacobian, after SciPy's `_sparse_num_jac` and `group_columns`
(`scipy.integrate._ivp.common`, `scipy.optimize._numdiff`): the pattern of `jac_sparsity` held
on the host by columns, Curtis, Powell and Reid's column groups (one shifted state per group), the
forward differences taken on the pattern's entries only (a device CSC matrix, never an n x n
dense one), and the LU of a sparse iteration matrix by cuDSS (`cuarray.sparse.linalg.splu`).

SciPy factorises a sparse Jacobian's iteration matrix with SuperLU; here cuDSS does, when it is
installed (the optional `cuarray[cudss]`). Without it (`_implicit.validate_jac` decides) a
tridiagonal one stays sparse and each solve is cuSPARSE's gtsv2 (`TridiagonalLU`: partial
pivoting, O(n), any n); any other is expanded to a dense one that cuSOLVER factorises, up to
`DENSE_MAX_ROWS` rows, and past that refused before anything is allocated."""

import numpy

from ..._core.host_input import as_parameter
from ..._creation.basic import zeros
from ..._indexing.inserting import take
from ..._math.extrema import maximum, minimum
from ..._math.misc import abs as abs_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ...sparse._construct import eye as sparse_eye
from ...sparse._format_csc import csc_matrix
from ...sparse.linalg._direct import splu
from ..linalg._banded_tridiagonal import DENSE_MAX_ROWS
from ..linalg._basic import solve_banded
from ._ivp_base import read

__all__ = ["host_pattern", "group_columns", "sparse_num_jac", "sparse_jacobian", "sparse_lu", "sparse_identity",
           "bandwidth", "pattern_bandwidth", "TridiagonalLU", "refuse_dense", "DENSE_MAX_ROWS"]

_FN = "scipy.integrate.solve_ivp"


def host_pattern(sparsity):
    """`jac_sparsity` (a cuarray or SciPy sparse matrix, or a dense array) as its nonzero pattern
    by columns on the host: (shape, indptr, row indices sorted within each column)."""
    if hasattr(sparsity, "tocsc") and not isinstance(sparsity, numpy.ndarray):
        csc = sparsity.tocsc()
        host = type(csc).__module__.startswith("cuarray")
        data, indices, indptr = (read(x) if host else numpy.asarray(x) for x in (csc.data, csc.indices, csc.indptr))
        shape = tuple(csc.shape)
        cols = numpy.repeat(numpy.arange(shape[1]), numpy.diff(indptr))
        # SciPy's `find`: duplicates summed, then the entries that are not zero
        key, where_ = numpy.unique(cols.astype(numpy.int64) * max(shape[0], 1) + indices, return_inverse=True)
        total = numpy.zeros(key.size, dtype=numpy.result_type(data.dtype, numpy.float64))
        numpy.add.at(total, where_, data)
        key = key[total != 0]
        cols, rows = key // max(shape[0], 1), key % max(shape[0], 1)
    else:
        a = numpy.asarray(read(sparsity) if type(sparsity).__module__.startswith("cuarray") else sparsity)
        if a.ndim != 2:
            raise ValueError("`A` must be 2-dimensional.")
        shape = a.shape
        cols, rows = numpy.nonzero((a != 0).T)
    # by column, then row, each entry once
    key = numpy.unique(cols.astype(numpy.int64) * max(shape[0], 1) + rows)
    cols, rows = key // max(shape[0], 1), key % max(shape[0], 1)
    indptr = numpy.zeros(shape[1] + 1, dtype=numpy.int64)
    numpy.cumsum(numpy.bincount(cols, minlength=shape[1]), out=indptr[1:])
    return shape, indptr, rows


def group_columns(pattern):
    """Curtis, Powell and Reid's greedy grouping (SciPy's `group_columns`, columns taken in the
    order of `RandomState(0).permutation`): columns of one group share no row, so one difference
    evaluates them all. Host work on the host pattern (one pass over the open columns a group)."""
    (m, n), indptr, rows = pattern
    order = numpy.random.RandomState(0).permutation(n)
    groups = numpy.full(n, -1, dtype=numpy.intp)
    used = numpy.zeros(m, dtype=bool)
    current = 0
    for i in range(n):
        if groups[i] >= 0:
            continue
        groups[i] = current
        used[:] = False
        c = order[i]
        used[rows[indptr[c]:indptr[c + 1]]] = True
        for j in numpy.nonzero(groups < 0)[0]:
            r = rows[indptr[order[j]]:indptr[order[j] + 1]]
            if not used[r].any():
                used[r] = True
                groups[j] = current
        current += 1
    out = numpy.empty(n, dtype=numpy.intp)
    out[order] = groups
    return out


class _Columns:
    """Host index arrays of a set of pattern columns, as device parameters: each entry's row, its
    column's group and slot, and the rule SciPy's `argmax(axis=0)` follows for each column."""

    def __init__(self, pattern, groups, cols, slot_of_group, width):
        (m, n), indptr, rows = pattern
        counts = indptr[cols + 1] - indptr[cols]
        starts = numpy.zeros(len(cols) + 1, dtype=numpy.int64)
        numpy.cumsum(counts, out=starts[1:])
        entry_col = numpy.repeat(numpy.arange(len(cols)), counts)
        in_col = numpy.arange(starts[-1]) - starts[entry_col]  # each entry's place in its column
        take_at = indptr[cols][entry_col] + in_col  # the entries' places in the whole pattern
        self.size, self.positions = len(cols), take_at
        nz = numpy.nonzero(counts)[0]
        self.nonempty = as_parameter(nz, _FN)
        self.starts = as_parameter(starts[nz], _FN)
        entry_rows = rows[take_at]
        self.rows = as_parameter(entry_rows, _FN)
        slots = slot_of_group[groups[cols]]
        self.slots = as_parameter(slots, _FN)
        self.flat = as_parameter(entry_rows * width + slots[entry_col], _FN)  # (row, slot) of the (n, width) df
        self.entry_col = as_parameter(entry_col, _FN)
        self.col_of_entry = as_parameter(numpy.repeat(numpy.arange(len(nz)), counts[nz]), _FN)
        self.pos_in_col = as_parameter(in_col, _FN)
        # SciPy's argmax of a column whose largest |entry| is 0 and that has unstored rows: the smaller
        # of that entry's position in the column and the first unstored row (SciPy's
        # `_find_missing_index`: the first place whose sorted row is not its place, else the count)
        gap = numpy.where(entry_rows != in_col, in_col, numpy.iinfo(numpy.int64).max)
        first_gap = numpy.minimum.reduceat(gap, starts[nz]) if nz.size else numpy.zeros(0, dtype=numpy.int64)
        missing = numpy.where(first_gap != numpy.iinfo(numpy.int64).max, first_gap,
                              numpy.where(counts[nz] < m, counts[nz], -1))
        self.not_full = as_parameter(counts[nz] < m, _FN)
        self.missing = as_parameter(missing, _FN)

    def values(self, df):
        """The entries' differences from the shifted states' (n, groups) differences `df`."""
        return take(df.reshape(-1), self.flat)

    def column_max(self, absvals):
        """(SciPy's `abs(diff).argmax(axis=0)`, the largest |entry|) of each column."""
        n = self.size
        max_ind = zeros(n, dtype=numpy.int64)
        max_diff = zeros(n, dtype=absvals.dtype)
        if self.nonempty.size:
            seg_max = maximum.reduceat(absvals, self.starts)
            first = minimum.reduceat(where(absvals == take(seg_max, self.col_of_entry), self.pos_in_col,
                                           numpy.iinfo(numpy.int64).max), self.starts)
            row = take(self.rows, self.starts + first)
            max_ind[self.nonempty] = where(self.not_full & (seg_max == 0), minimum(first, self.missing), row)
            max_diff[self.nonempty] = seg_max
        return max_ind, max_diff


def _shifted(fun, t, y, groups_dev, group_ids, h):
    """fun at y shifted by h on the columns of each group in `group_ids` (one column a group)."""
    shifts = where(groups_dev[:, None] == as_parameter(group_ids, _FN)[None, :], h[:, None], 0.0)
    return fun(t, y[:, None] + shifts)


def sparse_num_jac(fun, t, y, f, h, factor, y_scale, sparsity, consts):
    """SciPy's `_sparse_num_jac`: the differences on the pattern (a device CSC matrix), each
    column's increment adapted as SciPy does; `sparsity` is (pattern, host groups). One read: the
    columns whose difference is too small (then one more evaluation for their groups)."""
    pattern, groups = sparsity
    (_, n), indptr, _ = pattern
    reject, small, big, increase, decrease, min_factor = consts
    groups_dev = as_parameter(groups, _FN)
    all_groups = numpy.arange(int(groups.max()) + 1)
    whole = _Columns(pattern, groups, numpy.arange(n), all_groups, all_groups.size)
    f_new = _shifted(fun, t, y, groups_dev, all_groups, h)
    vals = whole.values(f_new - f[:, None])
    max_ind, max_diff = whole.column_max(abs_(vals))
    scale = maximum(abs_(take(f, max_ind)), abs_(take(f_new.reshape(-1), max_ind * f_new.shape[1] + groups_dev)))
    ind = numpy.nonzero(read(max_diff < reject * scale))[0]
    if ind.size:
        ind_dev = as_parameter(ind, _FN)
        new_factor = increase * take(factor, ind_dev)
        y_ind = take(y, ind_dev)
        h_new = (y_ind + new_factor * take(y_scale, ind_dev)) - y_ind
        h_new_all = zeros(n, dtype=h.dtype)
        h_new_all[ind_dev] = h_new
        unique = numpy.unique(groups[ind])
        slot = numpy.zeros(len(all_groups), dtype=numpy.int64)
        slot[unique] = numpy.arange(unique.size)
        part = _Columns(pattern, groups, ind, slot, unique.size)
        f_new2 = _shifted(fun, t, y, groups_dev, unique, h_new_all)
        vals_new = part.values(f_new2 - f[:, None])
        max_ind_new, max_diff_new = part.column_max(abs_(vals_new))
        scale_new = maximum(abs_(take(f, max_ind_new)),
                            abs_(take(f_new2.reshape(-1), max_ind_new * f_new2.shape[1] + part.slots)))
        update = take(max_diff, ind_dev) * scale_new < max_diff_new * take(scale, ind_dev)
        factor[ind_dev] = where(update, new_factor, take(factor, ind_dev))
        h[ind_dev] = where(update, h_new, take(h, ind_dev))
        scale[ind_dev] = where(update, scale_new, take(scale, ind_dev))
        max_diff[ind_dev] = where(update, max_diff_new, take(max_diff, ind_dev))
        at = as_parameter(part.positions, _FN)
        vals[at] = where(take(update, part.entry_col), vals_new, take(vals, at))
    vals = vals / take(h, as_parameter(numpy.repeat(numpy.arange(n), numpy.diff(indptr)), _FN))
    factor = where(max_diff < small * scale, factor * increase, factor)
    factor = where(max_diff > big * scale, factor * decrease, factor)
    factor = maximum(factor, min_factor)
    J = csc_matrix((vals, as_parameter(pattern[2], _FN), as_parameter(indptr, _FN)), shape=pattern[0])
    return J, factor


def sparse_jacobian(J, dtype):
    """A sparse Jacobian as the solvers keep it (SciPy: `csc_matrix(J, dtype=y0.dtype)`)."""
    return csc_matrix(J, dtype=dtype)


def sparse_lu(A):
    """The LU of a sparse iteration matrix (cuDSS; SciPy: `splu`)."""
    return splu(csc_matrix(A))


def bandwidth(J):
    """max |i - j| over J's nonzero entries (0 for none): one host read."""
    coo = J.tocoo()
    if coo.nnz == 0:
        return 0
    return int(read(max_(where(coo.data != 0, abs_(coo.row.astype(numpy.int64) - coo.col), 0))))


def pattern_bandwidth(pattern):
    """`bandwidth` of a host pattern (`host_pattern`), without a device read."""
    (_, n), indptr, rows = pattern
    cols = numpy.repeat(numpy.arange(n), numpy.diff(indptr))
    return int(numpy.abs(rows - cols).max()) if rows.size else 0


class TridiagonalLU:
    """A tridiagonal iteration matrix's "LU" where no sparse LU is at hand (no cuDSS; LSODA's band):
    its three diagonals `ab` ((3, n), `solve_banded`'s rows), each solve one call of gtsv2
    (Gaussian elimination with partial pivoting, LAPACK gtsv's method: O(n) memory and time; it
    factorises again at every solve, which at O(n) costs less than holding factors would save). A
    singular matrix raises LinAlgError at its first solve (SciPy's `splu` raises RuntimeError when
    it factorises)."""

    def __init__(self, ab):
        self.ab = ab

    @classmethod
    def of(cls, A):
        """From a sparse tridiagonal matrix."""
        A = A.tocsr()  # each `diagonal` would convert a CSC matrix again
        n = A.shape[0]
        d = A.diagonal(0)
        ab = zeros((3, n), dtype=d.dtype)
        ab[1] = d
        if n > 1:
            ab[0, 1:] = A.diagonal(1)
            ab[2, :-1] = A.diagonal(-1)
        return cls(ab)

    def solve(self, b):
        return solve_banded((1, 1), self.ab, b, check_finite=False)


def refuse_dense(n, itemsize, fn=_FN):
    """ImportError naming cuDSS where a sparse n x n Jacobian that is not tridiagonal would be
    expanded past `DENSE_MAX_ROWS` rows (the dense copy's bytes in the message); raised before any
    n x n allocation."""
    if n > DENSE_MAX_ROWS:
        size = n * n * itemsize
        raise ImportError(
            "{}: the sparse Jacobian ({} x {}) is not tridiagonal and cuDSS, which factorises it sparse, is not "
            "installed; expanded to a dense matrix it would take {:,} bytes ({:.3g} GiB), and the dense fallback "
            "takes at most {} rows. Install cuDSS: pip install 'cuarray[cudss]'".format(
                fn, n, n, size, size / 2**30, DENSE_MAX_ROWS))


def sparse_identity(n, dtype):
    return sparse_eye(n, format="csc", dtype=dtype)
