"""What every basis shares: the argument checks and the algorithms written once over a basis's
own multiplication, evaluation or Vandermonde matrix (NumPy keeps these as private helpers of
polyutils).

Speed on short series: coefficient arrays are tiny, so each step costs a launch, not bandwidth.
Loops that chain several steps (`div`, `pow`, `fromroots`, the bases' products) therefore run on
untrimmed series (`add_raw`, `sub_raw`, the bases' `_mul`) and trim once at the end: trimming
reads a mask back, and NumPy's trims inside those loops remove only exact zero terms, which do not
change the values.
"""

from __future__ import annotations

import functools
import operator
import warnings

import numpy

from . import _tables
from .._core.host_input import as_array, as_parameter
from .._core.ndarray import ndarray
from .._core.transfer import to_host
from .._creation.basic import empty, ones, zeros
from .._creation.from_data import array
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._manipulation.joining import concatenate
from .._manipulation.rearranging import flip as flip_
from .._manipulation.transpose import moveaxis
from .._math.misc import sqrt
from .._math.sums_scan import cumsum
from .._polynomial.routines import check_fit_points
from .._sorting.sorting import sort
from ..linalg._decomp import eigvals
from ..linalg._solve import lstsq
from ..linalg._products import dot

__all__ = ["series", "trimseq", "as_series", "as_series_flags", "as_int", "coef_array", "real_ints", "add", "sub",
           "add_raw", "sub_raw", "power_mulx", "div", "pow_", "fromroots", "recurrence_mul", "table_mul", "from_power",
           "to_power", "line_rows", "line", "valnd", "gridnd", "val_args", "vander_x", "vander_nd_flat", "fit", "der",
           "integ", "roots", "revcumsum2"]


# -- coefficient series ----------------------------------------------------------------------------
def series(c):
    """`c` as a device array: host sequences and NumPy arrays of coefficients are copied (they are
    parameters of the series, written out by the caller)."""
    if isinstance(c, ndarray):
        return c
    return as_parameter(c, "polynomial")


def _nonzero_masks(arrays):
    """Host copies of ``a != 0`` for the device arrays, read back together (one synchronisation)."""
    if not arrays:
        return []
    if len(arrays) == 1:
        return [to_host(arrays[0] != 0)]
    flat = to_host(concatenate([a != 0 for a in arrays]))
    return numpy.split(flat, numpy.cumsum([a.shape[0] for a in arrays])[:-1])


def _trim_by(a, mask):
    nz = numpy.flatnonzero(mask)
    return a[:int(nz[-1]) + 1] if nz.size else a[:1], nz.size == 0


def trimseq(seq):
    """See `numpy.polynomial.polyutils.trimseq`: trailing zeros dropped, one coefficient kept
    (reads the zero mask back). NumPy's errors where it compares whole rows (`seq[-1] != 0`): an
    N-D `seq` needs rows of one element."""
    if seq.ndim == 0:
        raise TypeError("len() of unsized object")
    if seq.shape[0] == 0:
        return seq
    row = 1
    for d in seq.shape[1:]:
        row *= d
    if row == 0:
        raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an "
                         "array is not empty.")
    if row > 1:
        raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or "
                         "a.all()")
    return _trim_by(seq, _nonzero_masks([seq.reshape((seq.shape[0],))])[0])[0]


def as_series_flags(alist, trim=True):
    """`as_series` and, when trimming, whether each series is zero (the masks tell, so `*div`'s
    zero-divisor check and `*mulx`'s zero case cost nothing more). Host coefficients (lists, NumPy
    arrays, scalars) are checked and trimmed on the host and copied once; the device ones' masks
    come back in one read."""
    arrays = []
    for a in alist:
        if not isinstance(a, ndarray):
            if isinstance(a, (list, tuple, numpy.ndarray, numpy.generic, bool, int, float, complex)):
                a = numpy.asarray(a)
            else:
                a = as_parameter(a, "polynomial")  # a lazy array; TypeError for anything else
        a = a.reshape((1,)) if a.ndim == 0 else a
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
        arrays.append(a)
    zero = [None] * len(arrays)
    if trim:
        dev = [i for i, a in enumerate(arrays) if isinstance(a, ndarray)]
        masks = dict(zip(dev, _nonzero_masks([arrays[i] for i in dev])))
        for i, a in enumerate(arrays):
            arrays[i], zero[i] = _trim_by(a, masks[i] if i in masks else a != 0)
    try:
        dtype = numpy.common_type(*[numpy.empty(0, a.dtype) for a in arrays])
    except TypeError:  # bool coefficients: NumPy goes to object arrays, which the device has not
        raise ValueError("Coefficient arrays have no common type") from None
    out = [a.astype(dtype, copy=True) if isinstance(a, ndarray) else array(a.astype(dtype)) for a in arrays]
    return out, zero


def as_series(alist, trim=True) -> list:
    """See `numpy.polynomial.polyutils.as_series`: 1-D device copies of a common inexact type."""
    return as_series_flags(alist, trim)[0]


def as_int(x, desc):
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError("{} must be an integer, received {}".format(desc, x)) from None


def coef_array(c, copy=True):
    """NumPy's ``np.array(c, ndmin=1)`` of the *val/*der/*int functions, on the device; integer
    and bool coefficients become float64, as there."""
    c = series(c)
    if c.ndim == 0:
        c = c.reshape((1,))
    if c.dtype.kind in "biu":
        return c.astype(numpy.float64)
    return c.astype(c.dtype, copy=True) if copy else c


def real_ints(start, stop, c, step=1):
    """``arange(start, stop, step)`` in the real type of `c`, shaped to broadcast along its first
    axis: the integer factors NumPy applies as Python ints (weak scalars, so `c`'s type wins)."""
    v = arange(start, stop, step, dtype=numpy.empty(0, c.dtype).real.dtype)
    return v.reshape(v.shape + (1,) * (c.ndim - 1))


# -- addition, subtraction (every basis) ----------------------------------------------------------
def add_raw(c1, c2):
    """c1 + c2 for 1-D series of one dtype, untrimmed, inputs untouched."""
    if c1.shape[0] > c2.shape[0]:
        out = c1.copy()
        out[:c2.shape[0]] += c2
        return out
    out = c2.copy()
    out[:c1.shape[0]] += c1
    return out


def sub_raw(c1, c2):
    """c1 - c2 for 1-D series of one dtype, untrimmed, inputs untouched."""
    if c1.shape[0] > c2.shape[0]:
        out = c1.copy()
        out[:c2.shape[0]] -= c2
        return out
    out = -c2
    out[:c1.shape[0]] += c1
    return out


def add(c1, c2):
    c1, c2 = as_series([c1, c2])
    return trimseq(add_raw(c1, c2))


def power_mulx(c):
    """x * c for a power series (1-D, untrimmed): the step of the conversions to power series."""
    prd = empty((c.shape[0] + 1,), dtype=c.dtype)
    prd[0] = c[0] * 0
    prd[1:] = c
    return prd


def sub(c1, c2):
    c1, c2 = as_series([c1, c2])
    return trimseq(sub_raw(c1, c2))


# -- products, quotients, powers, series from roots ------------------------------------------------
def recurrence_mul(c1, c2, step, final):
    """The product of two series of a basis with a three-term recurrence (Legendre, Laguerre,
    Hermite, HermiteE): Clenshaw's recursion with series for values, as NumPy's. `step(cx, c0, c1,
    nd)` gives the next (c0, c1), `final(c0, c1)` the product; untrimmed."""
    c, xs = (c2, c1) if c1.shape[0] > c2.shape[0] else (c1, c2)
    if c.shape[0] == 1:
        # NumPy adds the series of the zero constant, which as_series makes float64: the product
        # of a constant takes at least double precision there.
        return (c[0] * xs).astype(numpy.result_type(xs.dtype, numpy.float64))
    c0, c1 = c[-2] * xs, c[-1] * xs
    nd = c.shape[0]
    for i in range(3, c.shape[0] + 1):
        nd -= 1
        c0, c1 = step(c[-i] * xs, c0, c1, nd)
    return final(c0, c1)


def _tabled(dtype, elements):
    """Whether a table of `elements` numbers serves series of `dtype` (half precision keeps to the
    recursions: the tables' matrix products are cuBLAS's, in single precision or more)."""
    return numpy.dtype(dtype).itemsize >= 4 and _tables.fits(elements)


def table_mul(rec, c1, c2, recursion):
    """The product of two short series of the basis with recurrence `rec`: one outer product of
    the coefficients and one matrix-vector product with the basis's product table (see
    _tables.py); longer series go through `recursion(c1, c2)`. Untrimmed."""
    n1, n2 = c1.shape[0], c2.shape[0]
    if not _tabled(c1.dtype, n1 * n2 * (n1 + n2 - 1)):
        return recursion(c1, c2)
    # As recurrence_mul: NumPy's recursion adds the float64 zero series when a factor is constant
    dtype = c1.dtype if min(n1, n2) > 1 else numpy.result_type(c1.dtype, numpy.float64)
    table = _tables.products(rec, n1, n2).reshape(n1 + n2 - 1, n1 * n2)
    outer = (c1.reshape((n1, 1)) * c2).reshape(-1).astype(dtype, copy=False)
    return dot(array(table.astype(dtype)), outer)


def from_power(rec, mulx, pol):
    """poly2* of a basis: one matrix-vector product with the powers of x in the basis, or for a
    long series NumPy's Horner scheme over `mulx` (untrimmed steps). Trimmed, as NumPy's."""
    pol, = as_series([pol])
    n = pol.shape[0]
    pol = pol.astype(numpy.result_type(pol.dtype, numpy.float64), copy=False)  # NumPy starts from int 0
    if _tabled(pol.dtype, n * n):
        return trimseq(dot(array(_tables.from_power(rec, n).astype(pol.dtype)), pol))
    res = zeros((1,), dtype=pol.dtype)
    for i in range(n - 1, -1, -1):
        res = add_raw(mulx(res), pol[i:i + 1])
    return trimseq(res)


def to_power(rec, c):
    """*2poly of a basis for a trimmed series `c`: one matrix-vector product with the basis
    polynomials as power series (trimmed); None when `c` is too long for a table."""
    n = c.shape[0]
    if not _tabled(c.dtype, n * n):
        return None
    return trimseq(dot(array(_tables.to_power(rec, n).astype(c.dtype)), c))


def div(mul, c1, c2, rec=None):
    """(quotient, remainder) of a basis's series by long division over its product `mul`
    (untrimmed); with the basis's recurrence `rec`, the products of the basis polynomials with the
    divisor come from one matrix product with its table. Reads nothing back beyond the trims."""
    (c1, c2), (_, c2_is_zero) = as_series_flags([c1, c2])
    if c2_is_zero:
        raise ZeroDivisionError
    lc1, lc2 = c1.shape[0], c2.shape[0]
    if lc1 < lc2:
        return c1[:1] * 0, c1
    if lc2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    nq = lc1 - lc2 + 1
    if rec is not None and _tabled(c2.dtype, lc1 * nq * lc2):
        table = _tables.products(rec, nq, lc2).reshape(lc1 * nq, lc2)
        prods = dot(array(table.astype(c2.dtype)), c2).reshape(lc1, nq)  # column i: B_i * c2
        wide = numpy.result_type(c2.dtype, numpy.float64)

        def basis_times_c2(i):  # B_0 * c2 in the dtype NumPy's product with a constant has
            return prods[:i + lc2, i] if i else prods[:lc2, 0].astype(wide, copy=False)
    else:
        def basis_times_c2(i):  # exact degree i + lc2 - 1
            e = zeros((i + 1,), dtype=c2.dtype)
            e[i] = 1
            return mul(e, c2)[:i + lc2]
    quo = empty((nq,), dtype=c1.dtype)
    rem = c1
    for i in range(nq - 1, -1, -1):
        p = basis_times_c2(i)
        q = rem[-1] / p[-1]
        rem = rem[:-1] - q * p[:-1]
        quo[i] = q
    return quo, trimseq(rem)


def pow_(mul, c, pow, maxpower, trim=True):
    """c ** pow by repeated products (`mul`, untrimmed); NumPy trims the result except for the
    power series, whose product is a plain convolution."""
    c, = as_series([c])
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return ones((1,), dtype=c.dtype)
    if power == 1:
        return c
    prd = c
    for _ in range(2, power + 1):
        prd = mul(prd, c)
    return trimseq(prd) if trim else prd


def fromroots(lines, mul, roots):
    """The series with the given roots: the product of the factors ``x - r`` (`lines` gives them
    as the rows of one array), multiplied pairwise as NumPy does."""
    r = series(roots)
    r = r.reshape((1,)) if r.ndim == 0 else r
    if r.shape[0] == 0:
        return ones((1,), dtype=numpy.float64)
    r, = as_series([r], trim=False)
    # NumPy's lines are ``np.array([-r, 1])``: float64 (complex128) whatever the roots' precision
    r = r.astype(numpy.result_type(r.dtype, numpy.float64), copy=False)
    rows = lines(-sort(r))
    p = [rows[i] for i in range(rows.shape[0])]
    n = len(p)
    while n > 1:
        m, rem = divmod(n, 2)
        tmp = [mul(p[i], p[i + m]) for i in range(m)]
        if rem:
            tmp[0] = mul(tmp[0], p[-1])
        p = tmp
        n = m
    return trimseq(p[0])


def line_rows(first, second):
    """The factors ``[first[i], second]`` of `fromroots` as the rows of one (n, 2) device array."""
    out = empty((first.shape[0], 2), dtype=first.dtype)
    out[:, 0] = first
    out[:, 1] = second
    return out


def line(off, scl):
    """NumPy's *line: [off, scl], or [off] for a zero slope, on the device."""
    return array([off, scl]) if scl != 0 else array([off])


# -- evaluation -------------------------------------------------------------------------------------
def val_args(x, c, tensor):
    """NumPy's *val prologue: `c` at least 1-D (ints as float64), a list `x` as an array, and with
    `tensor` the coefficient axes extended by x's dimensions."""
    c = coef_array(c, copy=False)
    if isinstance(x, (tuple, list, numpy.ndarray)):
        x = as_parameter(x, "polynomial evaluation")
    if isinstance(x, ndarray) and tensor:
        c = c.reshape(c.shape + (1,) * x.ndim)
    return x, c


def valnd(val, c, *args):
    args = [a if isinstance(a, ndarray) else as_parameter(a, "polynomial evaluation") for a in args]
    shape0 = args[0].shape
    if not all(a.shape == shape0 for a in args[1:]):
        if len(args) == 3:
            raise ValueError("x, y, z are incompatible")
        if len(args) == 2:
            raise ValueError("x, y are incompatible")
        raise ValueError("ordinates are incompatible")
    c = val(args[0], c)
    for xi in args[1:]:
        c = val(xi, c, tensor=False)
    return c


def gridnd(val, c, *args):
    for xi in args:
        c = val(xi, c)
    return c


# -- Vandermonde matrices and fits ------------------------------------------------------------------
def vander_x(x, deg, name):
    """NumPy's *vander prologue: (degree, x as a float device array of at least one dimension)."""
    ideg = as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = as_array(x, name) + 0.0
    return ideg, (x.reshape((1,)) if x.ndim == 0 else x)


def vander_nd_flat(vanders, points, degrees):
    n_dims = len(vanders)
    if n_dims != len(points):
        raise ValueError("Expected {} dimensions of sample points, got {}".format(n_dims, len(points)))
    if n_dims != len(degrees):
        raise ValueError("Expected {} dimensions of degrees, got {}".format(n_dims, len(degrees)))
    pts = [as_array(p, "vander") for p in points]
    if any(p.shape != pts[0].shape for p in pts[1:]):
        raise ValueError("the sample points of each dimension must have the same shape")
    dtype = numpy.result_type(*[p.dtype for p in pts], 0.0)  # NumPy stacks them, then adds 0.0
    pts = [p.astype(dtype) for p in pts]
    arrays = []
    for i in range(n_dims):
        sl = [None] * n_dims
        sl[i] = slice(None)
        arrays.append(vanders[i](pts[i], degrees[i])[(Ellipsis,) + tuple(sl)])
    v = functools.reduce(operator.mul, arrays)
    return v.reshape(v.shape[:-n_dims] + (-1,))


def fit(vander, x, y, deg, rcond=None, full=False, w=None):
    """NumPy's least-squares fit in a basis: `linalg.lstsq` on the column-scaled pseudo-Vandermonde
    matrix; `deg` an int or a list of the degrees to fit. The rank comes back to the host."""
    x = as_array(x, "fit") + 0.0
    y = as_array(y, "fit") + 0.0
    deg = numpy.asarray(deg)
    if deg.ndim > 1 or deg.dtype.kind not in "iu" or deg.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if deg.min() < 0:
        raise ValueError("expected deg >= 0")
    check_fit_points(x, y)
    if deg.ndim == 0:
        lmax = int(deg)
        order = lmax + 1
        van = vander(x, lmax)
    else:
        deg = numpy.sort(deg)
        lmax = int(deg[-1])
        order = len(deg)
        van = take(vander(x, lmax), array(deg), axis=1)
    lhs = van.T
    rhs = y.T
    if w is not None:
        w = as_array(w, "fit") + 0.0
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if x.shape[0] != w.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs = lhs * w
        rhs = rhs * w
    if rcond is None:
        rcond = x.shape[0] * numpy.finfo(x.dtype).eps
    sq = lhs.real * lhs.real + lhs.imag * lhs.imag if lhs.dtype.kind == "c" else lhs * lhs
    scl = sqrt(sq.sum(1))
    scl = scl + (scl == 0)  # NumPy's scl[scl == 0] = 1
    c, resids, rank, s = lstsq(lhs.T / scl, rhs.T, rcond)
    c = (c.T / scl).T
    if deg.ndim > 0:
        cc = zeros((lmax + 1,) + c.shape[1:], dtype=c.dtype)
        cc[array(deg)] = c
        c = cc
    if rank != order and not full:
        warnings.warn("The fit may be poorly conditioned", numpy.exceptions.RankWarning, stacklevel=3)
    if full:
        return c, [resids, rank, s, rcond]
    return c


# -- calculus --------------------------------------------------------------------------------------
def revcumsum2(a):
    """``out[i] = a[i] + a[i + 2] + a[i + 4] + ...`` along the first axis (the carries of the
    Chebyshev and Legendre derivatives, which NumPy runs as a loop)."""
    out = empty(a.shape, dtype=a.dtype)
    for start in (0, 1):
        part = a[start::2]
        if part.shape[0]:
            out[start::2] = flip_(cumsum(flip_(part, 0), axis=0), 0)
    return out


def der(c, m, scl, axis, step, matrix=None):
    """NumPy's derivative skeleton. With the basis's first-derivative `matrix(n)` (host, exact),
    the m-th derivative of a short series is one matrix product with its m-th power; otherwise
    `step` takes an already scaled series (n, ...) to its derivative (n - 1, ...), m times."""
    c = coef_array(c)
    cnt = as_int(m, "the order of derivation")
    iaxis = as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    iaxis = numpy.lib.array_utils.normalize_axis_index(iaxis, c.ndim)
    if cnt == 0:
        return c
    c = moveaxis(c, iaxis, 0)
    n = c.shape[0]
    if cnt >= n:
        c = c[:1] * 0
    elif matrix is not None and _tabled(c.dtype, (n - cnt) * n):
        rest = c.shape[1:]
        d = array(_tables.derivative(matrix, n, cnt).astype(c.dtype))
        c = dot(d, c.reshape((n, int(numpy.prod(rest))))).reshape((n - cnt,) + rest)
        if scl != 1:  # NumPy scales before each step: scl**m in all
            c = (c * scl ** cnt).astype(d.dtype, copy=False)
    else:
        for _ in range(cnt):
            c = step((c * scl).astype(c.dtype, copy=False))
    return moveaxis(c, 0, iaxis)


def integ(c, m, k, lbnd, scl, axis, step, val):
    """NumPy's integration skeleton; `step` takes a scaled series (n, ...) to an antiderivative
    (n + 1, ...) whose constant term is then fixed by `lbnd` and the constant `k`. The zero-constant
    special case reads one bool back."""
    c = coef_array(c)
    if not numpy.iterable(k):
        k = [k]
    cnt = as_int(m, "the order of integration")
    iaxis = as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of integration must be non-negative")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if numpy.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if numpy.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    iaxis = numpy.lib.array_utils.normalize_axis_index(iaxis, c.ndim)
    if cnt == 0:
        return c
    c = moveaxis(c, iaxis, 0)
    k = list(k) + [0] * (cnt - len(k))
    for i in range(cnt):
        c = (c * scl).astype(c.dtype, copy=False)
        if c.shape[0] == 1 and bool((c[0] == 0).all()):
            c = c.copy()
            c[0] += k[i]
        else:
            tmp = step(c)
            tmp[0] += k[i] - val(lbnd, tmp)
            c = tmp
    return moveaxis(c, 0, iaxis)


# -- roots -----------------------------------------------------------------------------------------
def roots(companion, c, flip=True, real_if_real=True):
    """Eigenvalues of the (rotated, as NumPy's) companion matrix, sorted. A degree-one series has
    its root from the 1x1 companion matrix, which is NumPy's formula for it.

    The result type is NumPy's, which depends on its version: `eigvals` (ours follows the NumPy
    installed) returns real eigenvalues of a real matrix when all are real before NumPy 2.5 and
    complex ones from 2.5 on (gh-30411). NumPy 2.5 turns the roots of polyroots, lagroots and
    hermroots back to real when every imaginary part is zero (numpy commit 7be2b88, "ensure strict
    backwards compat of polynomial roots": `real_if_real`) but not those of chebroots, legroots and
    hermeroots, which stay as eigvals gives them (complex under 2.5)."""
    c, = as_series([c])
    if c.shape[0] < 2:
        return empty((0,), dtype=c.dtype)
    if c.shape[0] == 2:
        return companion(c).reshape((1,))
    m = companion(c)
    r = eigvals(m[::-1, ::-1] if flip else m)
    if real_if_real and r.dtype.kind == "c" and c.dtype.kind != "c" and not bool((r.imag != 0).any()):
        r = r.real.copy()
    return sort(r)
