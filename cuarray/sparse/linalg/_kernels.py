"""Fused vector updates of the Krylov solvers, as engine elementwise definitions whose scalars are
device 0-d arrays read inside the kernel (`raw`): no host read, and one launch where the plain form
takes several. Measured on the fake device (cuarray.testing.fake_device): `x += (num/den)*p;
r -= (num/den)*q` costs 7.4 us of host time as one kernel against ~40 us as five operations
(a 0-d operand takes cuarray's broadcasting path, ~14 us per multiply); cg runs two of these
per iteration with one host read, so this is most of its host time.
"""

from __future__ import annotations

from ..._core import dtypes as _dtypes
from ..._core.elementwise import Definition, KernelParam
from ...cuda import caches as _caches

__all__ = ["axpy2", "xpby", "definition"]

# The two updates, one row each: (raw scalar operands, inputs, in-place outputs, operation, kernel
# name). T is the dtype of `num`; the arrays are read and written in their own dtypes.
_ROWS = {
    "axpy2": (("num", "den"), ("p", "q"), ("x", "r"),
              "const T a = num[0] / den[0]; x = x + a * p; r = r - a * q", "cuarray_krylov_axpy2"),
    "xpby": (("num", "den"), ("z",), ("p",), "p = z + (num[0] / den[0]) * p", "cuarray_krylov_xpby"),
}
_defs: dict = {}
_caches.register("Krylov update definitions", _defs)


def definition(name, t, ins, outs) -> Definition:
    """The update `name` for scalars of dtype `t` over inputs and outputs of dtypes `ins`, `outs`."""
    key = (name, t, ins, outs)
    d = _defs.get(key)
    if d is None:
        raws, in_names, out_names, op, kname = _ROWS[name]
        params = [KernelParam(n, "raw", t, t) for n in raws]
        params += [KernelParam(n, "in", dt, t) for n, dt in zip(in_names, ins)]
        params += [KernelParam(n, "out", dt, t, by_ref=True) for n, dt in zip(out_names, outs)]
        types = "_".join(dt.name for dt in (t,) * len(raws) + ins + outs)
        d = _defs[key] = Definition("{}_{}".format(kname, types), params, op,
                                    preamble="typedef {} T;\n".format(_dtypes.ctype(t)))
    return d


def _run(name, num, den, ins, outs) -> None:
    shape = outs[0].shape
    for a in ins + outs:
        if a.shape != shape:
            raise ValueError("Krylov update {}: operands of shapes {} and {}".format(name, a.shape, shape))
    d = definition(name, num.dtype, tuple(a.dtype for a in ins), tuple(a.dtype for a in outs))
    d.run(list(ins + outs), (), shape, raw=(num, den))


def axpy2(num, den, p, q, x, r) -> None:
    """x += (num/den) * p and r -= (num/den) * q in place (num, den: 0-d device arrays of one dtype)."""
    _run("axpy2", num, den, (p, q), (x, r))


def xpby(num, den, z, p) -> None:
    """p = z + (num/den) * p in place."""
    _run("xpby", num, den, (z,), (p,))
