"""`matmul` and the `@` operator: NumPy's gufunc ``(n?,k),(k,m?)->(n?,m?)`` on the GPU.

float16/32/64 and complex64/128 go to cuBLAS: GEMM, strided-batched GEMM over the broadcast batch
dims (a broadcast operand gets batch stride 0), GEMV for an unbatched matrix-vector product.
cuBLAS is column-major; a row-major C = A B is computed as C^T = B^T A^T, and an operand stored
row- or column-major (a transposed or Fortran-ordered view included) is passed with a transpose
flag, never copied. Only an operand with no unit stride in its matrix dims is copied, once.
float16 accumulates in float32 (cublasGemmEx, compute type 32F). Integer and bool products use an
exact kernel of ours (`_int_matmul`).

Host cost is part of the design (a small product's host work can exceed its GPU time): the common case is a few tuple reads, one
memoised loop look-up, one allocation from the pool and one cuBLAS call.
"""

from __future__ import annotations

import itertools

import numpy

from .._core import device_check as _device_check
from .._core import dtypes as _dtypes
from .._core import copying as _copying
from .._core import registry as _registry
from .._core import shapes as _shapes
from .._core import tracing as _tracing
from .._core.host_input import as_array
from .._core.ndarray import _new_c, ndarray
from .._math.sums import sum as _sum
from ..cuda.libs import cublas as _cublas
from . import _int_matmul, _long_k

__all__ = ["matmul", "matmul_into", "matmul_operator"]

SIGNATURE = "(n?,k),(k,m?)->(n?,m?)"


def _not_enough(i: int) -> ValueError:
    return ValueError("matmul: Input operand {} does not have enough dimensions (has 0, gufunc core "
                      "with signature {} requires 1)".format(i, SIGNATURE))


def _core_mismatch(what: str, dim: int, got: int, want: int) -> ValueError:
    return ValueError("matmul: {} has a mismatch in its core dimension {}, with gufunc signature {} "
                      "(size {} is different from {})".format(what, dim, SIGNATURE, got, want))


def _remapped(s: tuple, ncore: int) -> str:
    batch = ",".join(str(d) for d in s[:len(s) - ncore])
    return "({})->({})".format(",".join(map(str, s)), ",".join(
        [str(d) for d in s[:len(s) - ncore]] + ["newaxis"] * ncore)) if batch else \
        "({})->()".format(",".join(map(str, s)))


def _numpy_error(dt1, dt2, out_dtype, dtype, casting) -> Exception:
    """NumPy's own exception for a dtype combination it refuses (UFuncTypeError and kin)."""
    fake = numpy.lib.stride_tricks.as_strided
    x1 = fake(numpy.zeros(1, dt1), (1, 1), (0, 0))
    x2 = fake(numpy.zeros(1, dt2), (1, 1), (0, 0))
    out = None if out_dtype is None else numpy.empty((1, 1), out_dtype)
    try:
        numpy.matmul(x1, x2, out=out, dtype=dtype, casting=casting)
    except Exception as e:  # noqa: BLE001 - returned, raised by the caller
        return e
    return TypeError("matmul: unsupported dtypes {} and {}".format(dt1, dt2))


def _loop_dtype(dt1, dt2, dtype, casting):
    if dtype is None and dt1 is dt2 and casting == "same_kind":
        return dt1  # every supported dtype has its own homogeneous loop (`ff->f`, `??->?`, ...)
    try:
        return _dtypes.ufunc_loop_dtypes(numpy.matmul, (dt1, dt2), dtype, casting)[2]
    except TypeError:
        raise _numpy_error(dt1, dt2, None, dtype, casting) from None


def _layout(rows, cols, rs, cs):
    """('R', ld): element (i, j) at i*ld + j; ('C', ld): at i + j*ld; None: neither (copy).
    Strides in elements; a length-1 dim's stride is free, so ld is then the smallest legal one."""
    if cs == 1 or cols == 1:
        if rows == 1:
            return "R", cols
        if rs >= cols:
            return "R", rs
    if rs == 1 or rows == 1:
        if cols == 1:
            return "C", rows
        if cs >= rows:
            return "C", cs
    return None


def _elem(strides, isz):
    out = []
    for s in strides:
        q, r = divmod(s, isz)
        if r:
            return None
        out.append(q)
    return out


def _in_operand(x, nd, isz, bshape, left):
    """((rs, cs), batch strides) of an input in elements, a vector as a row (left) or a column;
    None for strides that are not whole elements."""
    st = _elem(x._strides, isz)
    if st is None:
        return None
    if nd == 1:
        return ((0, st[0]) if left else (st[0], 0)), (0,) * len(bshape)
    bst = tuple(st[:-2])
    if x._shape[:-2] != bshape:
        bst = _shapes.broadcast_to_strides(x._shape[:-2], bst, bshape)
    return (st[-2], st[-1]), bst


def _out_operand(c, isz, ncore, nd2):
    """((rs, cs), batch strides) of the result in elements (shape batch + its core dims)."""
    st = _elem(c._strides, isz)
    if st is None:
        return None
    if ncore == 0:
        return (0, 0), tuple(st)
    if ncore == 1:
        v = st[-1]
        return ((v, 0) if nd2 == 1 else (0, v)), tuple(st[:-1])
    return (st[-2], st[-1]), tuple(st[:-2])


def _batch_shape(s1, s2, oshape_core):
    b1, b2 = s1[:-2], s2[:-2]
    try:
        return _shapes.broadcast_shapes(b1, b2)
    except ValueError:
        raise ValueError(
            "operands could not be broadcast together with remapped shapes [original->remapped]: "
            "{} {}  and requested shape ({})".format(
                _remapped(s1, min(len(s1), 2)), _remapped(s2, min(len(s2), 2)),
                ",".join(map(str, oshape_core)))) from None


def _check_out(out, oshape, ct, casting, dt1, dt2, dtype, ncore):
    if type(out) is tuple:
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType")
    if out._shape != oshape:
        os = out._shape
        core = oshape[len(oshape) - ncore:]
        if len(os) < ncore or os[len(os) - ncore:] != core:
            for d in range(ncore):
                got = os[len(os) - ncore + d] if len(os) >= ncore else 0
                if got != core[d]:
                    raise _core_mismatch("Output operand 0", d, got, core[d])
        batch = oshape[:len(oshape) - ncore]
        obatch = os[:len(os) - ncore]
        try:
            ok = _shapes.broadcast_shapes(obatch, batch) == obatch
        except ValueError:
            ok = False
        if not ok:
            raise ValueError("non-broadcastable output operand with shape {} doesn't match the "
                             "broadcast shape {}".format(os, oshape))
    if not out._writeable:
        raise ValueError("output array is read-only")
    if out._dtype is not ct and not _dtypes.can_cast(ct, out._dtype, casting):
        raise _numpy_error(dt1, dt2, out._dtype, dtype, casting)
    return out


def matmul_into(a, b, out=None, dtype=None, casting="same_kind", order="K"):
    """The gufunc body on cuarray arrays (no host-input conversion): see `matmul`."""
    if _device_check.active[0]:
        _device_check.check((a, b, out))
    s1, s2 = a._shape, b._shape
    nd1, nd2 = len(s1), len(s2)
    if nd1 == 0:
        raise _not_enough(0)
    if nd2 == 0:
        raise _not_enough(1)
    ct = a._dtype
    if dtype is not None or ct is not b._dtype or casting != "same_kind":  # else `_loop_dtype`'s first line
        ct = _loop_dtype(ct, b._dtype, dtype, casting)
    if nd1 == 2 and nd2 == 2 and out is None and a._dtype is ct and b._dtype is ct:
        res = _fast_2d(a, b, s1, s2, ct)
        if res is not None:
            return res
    elif nd1 == 2 and nd2 == 1 and out is None and a._dtype is ct and b._dtype is ct:
        res = _fast_mv(a, b, s1, s2, ct)
        if res is not None:
            return res
    if nd1 == 1:
        m, k = 1, s1[0]
    else:
        m, k = s1[-2], s1[-1]
    if nd2 == 1:
        k2, n = s2[0], 1
    else:
        k2, n = s2[-2], s2[-1]
    if k != k2:
        raise _core_mismatch("Input operand 1", 0, k2, k)
    core = ((m,) if nd1 > 1 else ()) + ((n,) if nd2 > 1 else ())
    b1 = s1[:-2]
    bshape = b1 if b1 == s2[:-2] else _batch_shape(s1, s2, core)
    oshape = bshape + core
    res = None
    if out is not None:
        out = _check_out(out, oshape, ct, casting, a._dtype, b._dtype, dtype, len(core))
        oshape = out._shape
        bshape = oshape[:len(oshape) - len(core)]
        if out._dtype is ct and not out._overlaps(a) and not out._overlaps(b):
            res = out
    if res is None:
        res = _new_c(oshape, ct) if order != "F" or len(oshape) < 2 else ndarray(oshape, ct, order="F")
    if res._size:
        if k == 0:
            _copying.fill(res, 0)
        else:
            if a._dtype is not ct:
                a = _copying.astype(a, ct)
            if b._dtype is not ct:
                b = _copying.astype(b, ct)
            if not _compute(a, b, res, m, n, k, nd1, nd2, len(core), bshape, ct):
                tmp = _new_c(oshape, ct)
                _compute(a, b, tmp, m, n, k, nd1, nd2, len(core), bshape, ct)
                _copying.copyto_unchecked(res, tmp)
    if out is not None and res is not out:
        _copying.copyto_unchecked(out, res)
        return out
    return res


def _fast_2d(a, b, s1, s2, ct):
    """HOT PATH: one GEMM for two C- or F-contiguous matrices of a cuBLAS dtype (None: not that
    case). Contiguity flags give the layouts, so no stride arithmetic is needed."""
    char = ct.char
    m, k = s1
    k2, n = s2
    if k != k2 or not (m and n and k) or char not in "efdFD":
        return None
    # What `_gemm` passes for a row-major C, without its frame and layout tuples: C^T = B^T A^T,
    # an operand stored row-major is 'N' with ld = its row length, column-major 'T'.
    opa, lda = ("N", k) if a._c else ("T", m) if a._f else (None, 0)
    opb, ldb = ("N", n) if b._c else ("T", k) if b._f else (None, 0)
    if opa is None or opb is None:
        return None
    if k >= _long_k.MIN_K and _long_k.fits(char, m, n, k, a.data.ptr, b.data.ptr):
        # a small C over a long k: one reduction kernel (_long_k), A and B read once
        return _long_k.products(char, ct, m, n, k, a.data.ptr, k if a._c else 1, 1 if a._c else m,
                                b.data.ptr, n if b._c else 1, 1 if b._c else k)
    if k >= _SPLIT_K_MIN and m * n <= _SPLIT_K_MAX_OUT and m > 1 and n > 1 and char != "e":  # _split_k
        return _split_k(char, ct, m, n, k, opa, a.data.ptr, lda, opb, b.data.ptr, ldb)
    res = _new_c((m, n), ct)
    _cublas.gemm(char, opb, opa, n, m, k, b.data.ptr, ldb, a.data.ptr, lda, res.data.ptr, n, 1, 0, 0, 0)
    return res


# A small product over a long inner dimension whose C has a side over 8 (m, n <= 8 take `_long_k`'s
# one reduction kernel, which reads A and B once) is cut along k: cuBLAS parallelises over tiles of
# C, so a C of one tile walks all of k on one SM. One strided-batched GEMM writes the parts'
# products, (parts, m, n), and a sum over the parts gives C (every element summed in a fixed order).
# From k >= _SPLIT_K_MIN with m n <= _SPLIT_K_MAX_OUT and both sides over 1, in parts of at least
# _SPLIT_K_MIN_PART of k, at most _SPLIT_K_PARTS of them; not float16 (its parts would round to
# float16 before the sum). A batched GEMM's part walks its piece on one SM too, so the pieces stay
# short (pieces of 8000-60000 were up to 6.5x slower than one GEMM). H100, GPU time, one GEMM ->
# split (scripts/perf/tall_gemm.py): (4, 1e6, 16) float32 168.8 -> 84.8 µs, (16, 1e6, 4) float64
# 84.4 -> 78.1; a side of 1 gains nothing ((1, 4e6, 64) float32 361.0 -> 358.4) or loses ((1, 1e6,
# 32) complex64 93.7 -> 102.9): one GEMM there. Below 2^18: one GEMM ((4, 65536, 4) float64 18.5
# µs, in 32 parts 24.6; cuBLAS splits such a k itself).
_SPLIT_K_MIN = 1 << 18
_SPLIT_K_MAX_OUT = 64
_SPLIT_K_MIN_PART = 2048
_SPLIT_K_PARTS = 512


def _split_k(char, ct, m, n, k, opa, ap, lda, opb, bp, ldb):
    """C = A @ B (m x n, C-contiguous) from `parts` GEMMs over consecutive pieces of k, as
    `_fast_2d`'s one GEMM takes its operands (opa/opb 'N': stored row-major)."""
    parts = max(1, min(_SPLIT_K_PARTS, k // _SPLIT_K_MIN_PART))
    ks = k // parts
    rem = k - parts * ks
    isz = ct.itemsize
    tmp = _new_c((parts + (1 if rem else 0), m, n), ct)
    # where piece p starts, in elements: A (m x k) row-major at p ks, column-major at p ks m;
    # B (k x n) row-major at p ks n, column-major at p ks
    sa = ks if opa == "N" else ks * m
    sb = ks * n if opb == "N" else ks
    _cublas.gemm(char, opb, opa, n, m, ks, bp, ldb, ap, lda, tmp.data.ptr, n, parts, sb, sa, m * n)
    if rem:
        _cublas.gemm(char, opb, opa, n, m, rem, bp + parts * sb * isz, ldb, ap + parts * sa * isz, lda,
                     tmp.data.ptr + parts * m * n * isz, n, 1, 0, 0, 0)
    return _sum(tmp, axis=0)


def _fast_mv(a, b, s1, s2, ct):
    """HOT PATH: contiguous matrix @ contiguous vector as one GEMV (None: not that case)."""
    char = ct.char
    m, k = s1
    if k != s2[0] or not (m and k) or char not in "fdFD" or b._strides[0] != ct.itemsize:
        return None
    if a._c:
        op, rows, cols, ld = "T", k, m, k
    elif a._f:
        op, rows, cols, ld = "N", m, k, m
    else:
        return None
    res = _new_c((m,), ct)
    if _cublas.gemv(char, op, rows, cols, a.data.ptr, ld, b.data.ptr, 1, res.data.ptr, 1):
        return res
    return None


def _compute(a, b, c, m, n, k, nd1, nd2, ncore, bshape, ct) -> bool:
    """C = A @ B into `c` (shape bshape + core); False when `c`'s layout does not suit."""
    isz = ct.itemsize
    cm = _out_operand(c, isz, ncore, nd2)
    if cm is None:
        return False
    lc = _layout(m, n, *cm[0])
    if lc is None:
        return False
    am = _in_operand(a, nd1, isz, bshape, True)
    bm = _in_operand(b, nd2, isz, bshape, False)
    integer = not _cublas.supports(ct)
    if not integer:
        la = _layout(m, k, *am[0]) if am is not None else None
        if la is None or any(s < 0 for s in am[1]):
            a = _copying.copy(a)
            return _compute(a, b, c, m, n, k, nd1, nd2, ncore, bshape, ct)
        lb = _layout(k, n, *bm[0]) if bm is not None else None
        if lb is None or any(s < 0 for s in bm[1]):
            b = _copying.copy(b)
            return _compute(a, b, c, m, n, k, nd1, nd2, ncore, bshape, ct)
    elif am is None or bm is None:
        return _compute(_copying.copy(a) if am is None else a, _copying.copy(b) if bm is None else b,
                        c, m, n, k, nd1, nd2, ncore, bshape, ct)
    ap, bp, cp = a.data.ptr, b.data.ptr, c.data.ptr
    if bshape:
        dims, (cb, ab, bb) = _shapes.collapse_dims(bshape, (cm[1], am[1], bm[1]))
    else:
        dims, cb, ab, bb = (), (), (), ()
    if not dims:
        if integer:
            _int_matmul.gemm(ct, m, n, k, ap, (0,) + am[0], bp, (0,) + bm[0], cp, (0,) + cm[0])
        elif not (ncore == 1 and _gemv(ct.char, nd1, m, n, k, ap, la, am[0], bp, lb, bm[0], cp, cm[0])):
            _gemm(ct.char, m, n, k, ap, la, bp, lb, cp, lc, 1, 0, 0, 0)
        return True
    inner = dims[-1]
    for idx in itertools.product(*[range(d) for d in dims[:-1]]):
        oa = ob = oc = 0
        for i, j in enumerate(idx):
            oa += j * ab[i]
            ob += j * bb[i]
            oc += j * cb[i]
        if integer:
            _int_matmul.gemm(ct, m, n, k, ap + oa * isz, (ab[-1],) + am[0], bp + ob * isz,
                             (bb[-1],) + bm[0], cp + oc * isz, (cb[-1],) + cm[0], inner)
        else:
            _gemm(ct.char, m, n, k, ap + oa * isz, la, bp + ob * isz, lb, cp + oc * isz, lc,
                  inner, ab[-1], bb[-1], cb[-1])
    return True


def _gemm(char, m, n, k, ap, la, bp, lb, cp, lc, batch, sa, sb, sc):
    if lc[0] == "R":  # row-major C: compute C^T = B^T A^T in cuBLAS's column-major terms
        _cublas.gemm(char, "N" if lb[0] == "R" else "T", "N" if la[0] == "R" else "T", n, m, k,
                     bp, lb[1], ap, la[1], cp, lc[1], batch, sb, sa, sc)
    else:
        _cublas.gemm(char, "N" if la[0] == "C" else "T", "N" if lb[0] == "C" else "T", m, n, k,
                     ap, la[1], bp, lb[1], cp, lc[1], batch, sa, sb, sc)


def _gemv(char, nd1, m, n, k, ap, la, ams, bp, lb, bms, cp, cms) -> bool:
    """An unbatched matrix @ vector or vector @ matrix as one GEMV; False when it does not apply."""
    if nd1 == 1:  # x @ B = B^T x
        incx, incy = (ams[1] if k > 1 else 1), (cms[1] if n > 1 else 1)
        if incx <= 0 or incy <= 0:
            return False
        if lb[0] == "R":
            return _cublas.gemv(char, "N", n, k, bp, lb[1], ap, incx, cp, incy)
        return _cublas.gemv(char, "T", k, n, bp, lb[1], ap, incx, cp, incy)
    incx, incy = (bms[0] if k > 1 else 1), (cms[0] if m > 1 else 1)
    if incx <= 0 or incy <= 0:
        return False
    if la[0] == "R":
        return _cublas.gemv(char, "T", k, m, ap, la[1], bp, incx, cp, incy)
    return _cublas.gemv(char, "N", m, k, ap, la[1], bp, incx, cp, incy)


_OPERAND = (ndarray, bool, int, float, complex, numpy.generic)  # what `@` takes (the others: NotImplemented)


def matmul_operator(self, other):
    """`ndarray.__matmul__`: `matmul(self, other)`. HOT PATH: two cuarray arrays (not subclasses) go to
    `matmul_into` without the ufunc's __call__ (its keyword defaults and checks), unless a
    thread traces (the ufunc's dispatch point asks the tracer)."""
    if type(other) is ndarray and type(self) is ndarray and not _tracing.active:
        return matmul_into(self, other)
    if isinstance(other, _OPERAND):
        return matmul(self, other)
    return NotImplemented


def _move_core(x, ax, ncore, to_end=True):
    """`x` with the core axes `ax` (ints) moved to the end (or from the end back to `ax`)."""
    if isinstance(ax, int) or (hasattr(ax, "__index__") and not isinstance(ax, tuple)):
        ax = (ax,)
    ax = tuple(ax)
    if len(ax) != ncore:
        raise ValueError("axes item has {} entries, but the core of this operand has {} dimension(s)"
                         .format(len(ax), ncore))
    nd = x.ndim
    src = _shapes.normalize_axis_tuple(ax, nd)
    dst = tuple(range(nd - ncore, nd))
    if not to_end:
        src, dst = dst, src
    perm = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return x.transpose(perm)


class _MatmulUfunc:
    """`cuarray.matmul`: see `numpy.matmul`, a generalised ufunc with signature
    ``(n?,k),(k,m?)->(n?,m?)``.

    GPU notes: float32 products are full float32 by default; `cuarray.linalg.matmul_precision`
    opts in to TF32. float16 accumulates in float32. Integer and bool products are exact (a kernel
    of ours). ``axes=`` is supported; ``axis=`` is not (as in NumPy, it needs a single core dim).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[1, 2], [3, 4]])
    >>> cuarray.matmul(a, a)
    array([[ 7, 10],
           [15, 22]])
    >>> a @ cuarray.array([1, 1])
    array([3, 7])
    >>> cuarray.matmul(cuarray.ones((5, 2, 3)), cuarray.ones((3, 4))).shape
    (5, 2, 4)
    """

    __name__ = "matmul"
    __qualname__ = "matmul"
    nin = 2
    nout = 1
    nargs = 3
    signature = SIGNATURE
    identity = None
    types = [t for t in numpy.matmul.types if "g" not in t and "G" not in t and "O" not in t]
    ntypes = len(types)

    def __call__(self, x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None,
                 subok=True, signature=None, axes=None, axis=None):
        if _tracing.active:  # the dispatch point for a tracer (`_core/tracing.py`)
            t = _tracing.state.tracer
            if t is not None:
                return t.call("matmul", self, (x1, x2), {"out": out, "casting": casting, "order": order, "dtype": dtype,
                                                          "subok": subok, "signature": signature, "axes": axes,
                                                          "axis": axis})
        if type(x1) is not ndarray:
            x1 = as_array(x1, "matmul")
        if type(x2) is not ndarray:
            x2 = as_array(x2, "matmul")
        if signature is not None and dtype is None:
            sig = signature.split("->")[-1] if isinstance(signature, str) else signature[-1]
            dtype = sig
        if axis is not None:
            raise TypeError("axis can only be used with a single shared core dimension, not with "
                            "the 2 distinct ones implied by signature {}.".format(SIGNATURE))
        if axes is None:
            return matmul_into(x1, x2, out, dtype, casting, order)
        return self._with_axes(x1, x2, out, dtype, casting, order, axes)

    def _with_axes(self, x1, x2, out, dtype, casting, order, axes):
        axes = list(axes)
        n1, n2 = min(x1.ndim, 2), min(x2.ndim, 2)
        if n1 == 0 or n2 == 0:
            raise _not_enough(0 if n1 == 0 else 1)
        nco = (n1 == 2) + (n2 == 2)
        if len(axes) != (3 if nco else 2) and not (nco == 0 and len(axes) == 3):
            raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; "
                             "entries for outputs can only be omitted if none of them has core axes.")
        a = _move_core(x1, axes[0], n1)
        b = _move_core(x2, axes[1], n2)
        o = None
        if out is not None:
            if type(out) is tuple:
                out = out[0]
            o = _move_core(out, axes[2], nco) if nco else out
        res = matmul_into(a, b, o, dtype, casting, order)
        if out is not None:
            return out
        return _move_core(res, axes[2], nco, to_end=False) if nco else res

    def __repr__(self) -> str:
        return "<ufunc 'matmul'>"

    def _no_method(self, *args, **kwargs):
        raise ValueError("matmul is a generalized ufunc with a core signature: reduce, accumulate, "
                         "reduceat, outer and at are not defined for it (as in NumPy)")

    reduce = accumulate = reduceat = outer = at = _no_method


matmul = _registry.register_ufunc(_MatmulUfunc())  # numpy.matmul(gpu, gpu) runs it
