"""The per-rotation kernels of `Rotation` (and `RigidTransform.apply`), as engine elementwise
definitions (one row each: parameters in, parameters out, operation) over the components of
quaternions (x, y, z, w: views `q[..., k]` of a (..., 4) array, broadcast as NumPy does) or of
transform matrices, so a composition, a matrix or the rotation of a batch of vectors is one
launch however the batch is laid out."""

from __future__ import annotations

import numpy

from ...._core import dtypes as _dtypes
from ...._core import shapes as _shapes
from ...._core.elementwise import Definition, KernelParam
from ....cuda import caches as _caches

__all__ = ["kernel", "definition"]

_Q = "T x, T y, T z, T w"

_ROWS = {
    # the Hamilton product p * q (p applied after q)
    "compose": ("T px, T py, T pz, T pw, T qx, T qy, T qz, T qw", "T rx, T ry, T rz, T rw",
                "rx = pw * qx + qw * px + (py * qz - pz * qy); "
                "ry = pw * qy + qw * py + (pz * qx - px * qz); "
                "rz = pw * qz + qw * pz + (px * qy - py * qx); "
                "rw = pw * qw - px * qx - py * qy - pz * qz"),
    # the rotation matrix of a unit quaternion, row by row
    "matrix": (_Q, "T m00, T m01, T m02, T m10, T m11, T m12, T m20, T m21, T m22",
               "const T x2 = x * x, y2 = y * y, z2 = z * z, w2 = w * w; "
               "m00 = x2 - y2 - z2 + w2; m01 = 2 * (x * y - z * w); m02 = 2 * (x * z + y * w); "
               "m10 = 2 * (x * y + z * w); m11 = -x2 + y2 - z2 + w2; m12 = 2 * (y * z - x * w); "
               "m20 = 2 * (x * z - y * w); m21 = 2 * (y * z + x * w); m22 = -x2 - y2 + z2 + w2"),
    # v' = R v (R^T v with inverse): the matrix applied to the vector, built in registers
    "apply": (_Q + ", V vx, V vy, V vz, int32 inverse", "V ox, V oy, V oz",
              "const V qx = (V)x, qy = (V)y, qz = (V)z, qw = (V)w; "
              "const V x2 = qx * qx, y2 = qy * qy, z2 = qz * qz, w2 = qw * qw; "
              "const V a00 = x2 - y2 - z2 + w2, a11 = -x2 + y2 - z2 + w2, a22 = -x2 - y2 + z2 + w2; "
              "V a01 = 2 * (qx * qy - qz * qw), a10 = 2 * (qx * qy + qz * qw); "
              "V a02 = 2 * (qx * qz + qy * qw), a20 = 2 * (qx * qz - qy * qw); "
              "V a12 = 2 * (qy * qz - qx * qw), a21 = 2 * (qy * qz + qx * qw); "
              "if (inverse) { V t = a01; a01 = a10; a10 = t; t = a02; a02 = a20; a20 = t; "
              "t = a12; a12 = a21; a21 = t; } "
              "const V ux = vx, uy = vy, uz = vz; "
              "ox = a00 * ux + a01 * uy + a02 * uz; "
              "oy = a10 * ux + a11 * uy + a12 * uz; "
              "oz = a20 * ux + a21 * uy + a22 * uz"),
    # RigidTransform.apply: R v + t (with inverse: R^T v - R^T t, SciPy's inverse matrix applied),
    # the 3x4 upper block of each (..., 4, 4) matrix read in place
    "rigid_apply": ("T m00, T m01, T m02, T m03, T m10, T m11, T m12, T m13, T m20, T m21, T m22, T m23, "
                    "V vx, V vy, V vz, int32 inverse", "V ox, V oy, V oz",
                    "const V ux = vx, uy = vy, uz = vz; "
                    "if (inverse) { "
                    "const V tx = -((V)m00 * (V)m03 + (V)m10 * (V)m13 + (V)m20 * (V)m23); "
                    "const V ty = -((V)m01 * (V)m03 + (V)m11 * (V)m13 + (V)m21 * (V)m23); "
                    "const V tz = -((V)m02 * (V)m03 + (V)m12 * (V)m13 + (V)m22 * (V)m23); "
                    "ox = (V)m00 * ux + (V)m10 * uy + (V)m20 * uz + tx; "
                    "oy = (V)m01 * ux + (V)m11 * uy + (V)m21 * uz + ty; "
                    "oz = (V)m02 * ux + (V)m12 * uy + (V)m22 * uz + tz; "
                    "} else { "
                    "ox = (V)m00 * ux + (V)m01 * uy + (V)m02 * uz + (V)m03; "
                    "oy = (V)m10 * ux + (V)m11 * uy + (V)m12 * uz + (V)m13; "
                    "oz = (V)m20 * ux + (V)m21 * uy + (V)m22 * uz + (V)m23; }"),
}


_PLACEHOLDERS = ("T", "V")
_defs: dict = {}
_caches.register("rotation kernel definitions", _defs)


def _params(text):
    """[(type, name)] of a row's parameter list ("T x, int32 inverse")."""
    return [tuple(word.split()) for word in text.split(",")]


def definition(name, ins, outs, bound) -> Definition:
    """The row `name` over inputs and outputs of stored dtypes `ins`, `outs` (None for a scalar
    parameter), placeholders bound to dtypes by `bound` ({"T": ..., "V": ...})."""
    key = (name, ins, outs, tuple(sorted(bound.items())))
    d = _defs.get(key)
    if d is None:
        pin, pout, op = _ROWS[name]
        params = []
        for (tv, n), dt in zip(_params(pin), ins):
            if tv in _PLACEHOLDERS:
                params.append(KernelParam(n, "in", dt, bound[tv]))
            else:
                params.append(KernelParam(n, "scalar", numpy.dtype(tv), numpy.dtype(tv)))
        params += [KernelParam(n, "out", dt, bound[tv], by_ref=True) for (tv, n), dt in zip(_params(pout), outs)]
        preamble = "".join("typedef {} {};\n".format(_dtypes.ctype(dt), tv) for tv, dt in sorted(bound.items()))
        types = "_".join(p.compute.name for p in params)
        d = _defs[key] = Definition("cuarray_rotation_{}_{}".format(name, types), params, op, preamble=preamble)
    return d


def kernel(name):
    """The row `name` as a call: its inputs (arrays; numpy.int32 for an int32 parameter), then its
    outputs, broadcast together; each placeholder takes the dtype of its first array."""
    pin, pout, _ = _ROWS[name]
    types = [tv for tv, _ in _params(pin) + _params(pout)]
    nin = len(_params(pin))

    def run(*args):
        bound = {}
        for tv, a in zip(types, args):
            if tv in _PLACEHOLDERS and tv not in bound:
                bound[tv] = a.dtype
        arrays = [a for tv, a in zip(types, args) if tv in _PLACEHOLDERS]
        scalars = tuple(a for tv, a in zip(types, args) if tv not in _PLACEHOLDERS)
        ins = tuple(a.dtype if tv in _PLACEHOLDERS else None for tv, a in zip(types[:nin], args))
        outs = tuple(a.dtype for a in args[nin:])
        shapes = [a.shape for a in arrays]
        shape = shapes[0] if len(set(shapes)) == 1 else _shapes.broadcast_shapes(*shapes)
        definition(name, ins, outs, bound).run(arrays, scalars, shape)

    return run
