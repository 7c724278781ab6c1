"""`Rotation`: batches of 3-D rotations as a (..., 4) device array of unit quaternions (scalar
last), with SciPy 1.18's API. Every conversion and product is elementwise device work over the
batch (`_quat`); the 3x3 problems of `align_vectors`, the group tables of `create_group` and the
draws of `random` (from a NumPy Generator, as SciPy's) are host work, their results uploaded.

dtypes follow SciPy's rule for non-NumPy arrays: a cuarray float32 input stays float32, other
cuarray inputs become float64; lists and NumPy arrays become float64 (SciPy's NumPy rule)."""

from __future__ import annotations

import warnings

import numpy

from ...._core.ndarray import ndarray
from ...._core.transfer import from_host, to_host
from ...._indexing.inserting import take
from ...._manipulation.joining import concatenate as _concat
from ...._math.misc import abs as abs_
from ...._sorting.searching import where
from ...._sorting.searching_reduce import argmax
from ....linalg._solve import det
from ....linalg._svd import svd
from ..._rng import check_random_state, rng_transition
from . import _quat as Q
from ._arguments import float_array, shape_of
from ._reduce import mean_quat, reduce_quat

__all__ = ["Rotation"]


def _raw(q):
    r = Rotation.__new__(Rotation)
    r._quat = q
    return r


class Rotation:
    """See `scipy.spatial.transform.Rotation`. The quaternions live on the device; every method
    returns device arrays (a 0-d array where SciPy returns a scalar)."""

    def __init__(self, quat, normalize=True, copy=True, scalar_first=False):
        quat = float_array(quat, "__init__")
        if quat.ndim == 0 or quat.shape[-1] != 4:
            raise ValueError("Expected `quat` to have shape (..., 4), got {}.".format(quat.shape))
        if scalar_first:
            quat = _concat([quat[..., 1:], quat[..., :1]], axis=-1)
        elif copy and not normalize:
            quat = quat.copy()
        self._quat = Q.normalize(quat) if normalize else quat

    # -- constructors -------------------------------------------------------------------------------
    @staticmethod
    def from_quat(quat, *, scalar_first=False):
        """See `scipy.spatial.transform.Rotation.from_quat`."""
        return Rotation(quat, normalize=True, scalar_first=scalar_first)

    @staticmethod
    def from_matrix(matrix, *, assume_valid=False):
        """See `scipy.spatial.transform.Rotation.from_matrix`. The validity checks (determinant,
        orthogonality) read one boolean each; non-orthogonal matrices are projected by an SVD."""
        m = float_array(matrix, "from_matrix")
        if m.ndim < 2 or m.shape[-2:] != (3, 3):
            raise ValueError("Expected `matrix` to have shape (..., 3, 3), got {}".format(m.shape))
        if not assume_valid and m.size:
            bad = (det(m) <= 0).reshape(-1)
            if bool(bad.any()):
                ind = int(to_host(argmax(bad)))
                raise ValueError("Non-positive determinant (left-handed or null coordinate frame) in rotation "
                                 "matrix {}: {}.".format(ind, to_host(m.reshape(-1, 3, 3)[ind])))
            eye = from_host(numpy.eye(3, dtype=m.dtype))
            # SciPy's isclose(m m^T, I, atol=1e-12) with its default rtol 1e-5
            orth = (abs_(m @ m.swapaxes(-1, -2) - eye) <= 1e-12 + 1e-5 * eye).all(axis=(-2, -1))
            if not bool(orth.all()):
                u, _, vt = svd(m, full_matrices=False)  # the nearest rotation, where needed
                m = where(orth[..., None, None], m, u @ vt)
        return _raw(Q.from_matrix_orthogonal(m))

    @staticmethod
    def from_rotvec(rotvec, degrees=False):
        """See `scipy.spatial.transform.Rotation.from_rotvec`."""
        rv = float_array(rotvec, "from_rotvec")
        if rv.ndim == 0 or rv.shape[-1] != 3:
            raise ValueError("Expected `rot_vec` to have shape (..., 3), got {}".format(rv.shape))
        return _raw(Q.from_rotvec(rv, degrees))

    @staticmethod
    def from_euler(seq, angles, degrees=False):
        """See `scipy.spatial.transform.Rotation.from_euler`."""
        Q.check_seq(seq, 3, False)  # before the angles' upload, so a bad sequence is refused first
        return _raw(Q.from_euler(seq, float_array(angles, "from_euler"), degrees))

    @staticmethod
    def from_davenport(axes, order, angles, degrees=False):
        """See `scipy.spatial.transform.Rotation.from_davenport`."""
        ax, ang = float_array(axes, "from_davenport"), float_array(angles, "from_davenport")
        dt = numpy.result_type(ax.dtype, ang.dtype)
        return _raw(Q.from_davenport(ax.astype(dt, copy=False), order, ang.astype(dt, copy=False), degrees))

    @staticmethod
    def from_mrp(mrp):
        """See `scipy.spatial.transform.Rotation.from_mrp`."""
        p = float_array(mrp, "from_mrp")
        if p.ndim == 0 or p.shape[-1] != 3:
            raise ValueError("Expected `mrp` to have shape (..., 3), got {}".format(p.shape))
        return _raw(Q.from_mrp(p))

    @staticmethod
    def identity(num=None, *, shape=None):
        """See `scipy.spatial.transform.Rotation.identity`."""
        return _raw(Q.identity_like(shape_of(num, shape), numpy.float64))

    @staticmethod
    @rng_transition("random_state", position_num=2)
    def random(num=None, rng=None, *, shape=None):
        """See `scipy.spatial.transform.Rotation.random`. The normal draws come from the NumPy
        generator `rng` on the host (the same rotations as SciPy's for the same generator; an
        integer or None given by position or as `random_state` is read as SciPy reads it)."""
        s = shape_of(num, shape)
        gen = check_random_state(rng)
        return Rotation(from_host(gen.normal(size=s + (4,))), normalize=True, copy=False)

    @staticmethod
    def concatenate(rotations):
        """See `scipy.spatial.transform.Rotation.concatenate`."""
        if isinstance(rotations, Rotation):
            return Rotation(rotations._quat, normalize=False, copy=True)
        if not all(isinstance(x, Rotation) for x in rotations):
            raise TypeError("input must contain Rotation objects only")
        return _raw(_concat([x._quat.reshape((1, 4)) if x._quat.ndim == 1 else x._quat for x in rotations]))

    @classmethod
    def create_group(cls, group, axis="Z"):
        """See `scipy.spatial.transform.Rotation.create_group` (the group's table is host work)."""
        # host work: SciPy's fixed tables of the point groups (at most 60 quaternions)
        from scipy.spatial.transform import Rotation as _HostRotation
        return _raw(from_host(numpy.asarray(_HostRotation.create_group(group, axis).as_quat())))

    @staticmethod
    def align_vectors(a, b, weights=None, return_sensitivity=False):
        """See `scipy.spatial.transform.Rotation.align_vectors`. A 3x3 problem: the vectors are
        read to the host and solved there (SciPy), the rotation, rssd and sensitivity returned as
        device arrays."""
        # host work: an SVD of one 3x3 matrix (or the primary-vector construction)
        from scipy.spatial.transform import Rotation as _HostRotation
        ha, hb = (to_host(x) if isinstance(x, ndarray) else numpy.asarray(x, dtype=float) for x in (a, b))
        hw = None if weights is None else (to_host(weights) if isinstance(weights, ndarray) else weights)
        res = _HostRotation.align_vectors(ha, hb, hw, return_sensitivity)
        dt = numpy.result_type(ha.dtype, hb.dtype, numpy.float32) if isinstance(a, ndarray) else numpy.float64
        out = [_raw(from_host(numpy.asarray(res[0].as_quat(), dtype=dt)))]
        out += [from_host(numpy.asarray(x, dtype=dt)) for x in res[1:]]
        return tuple(out)

    # -- converters ---------------------------------------------------------------------------------
    def as_quat(self, canonical=False, *, scalar_first=False):
        """See `scipy.spatial.transform.Rotation.as_quat`."""
        q = Q.canonical(self._quat) if canonical else self._quat
        if scalar_first:
            q = _concat([q[..., 3:], q[..., :3]], axis=-1)
        return q.copy() if q is self._quat else q

    def as_matrix(self):
        """See `scipy.spatial.transform.Rotation.as_matrix`."""
        return Q.as_matrix(self._quat)

    def as_rotvec(self, degrees=False):
        """See `scipy.spatial.transform.Rotation.as_rotvec`."""
        return Q.as_rotvec(self._quat, degrees)

    def as_euler(self, seq, degrees=False, *, suppress_warnings=False):
        """See `scipy.spatial.transform.Rotation.as_euler`. The gimbal-lock warning reads one
        boolean on the host (none with ``suppress_warnings=True``)."""
        return Q.as_euler(self._quat, seq, degrees, suppress_warnings)

    def as_davenport(self, axes, order, degrees=False, *, suppress_warnings=False):
        """See `scipy.spatial.transform.Rotation.as_davenport`."""
        ax = float_array(axes, "as_davenport", self._quat.dtype)
        return Q.as_davenport(self._quat, ax, order, degrees, suppress_warnings)

    def as_mrp(self):
        """See `scipy.spatial.transform.Rotation.as_mrp`."""
        return Q.as_mrp(self._quat)

    # -- operations ---------------------------------------------------------------------------------
    def apply(self, vectors, inverse=False):
        """See `scipy.spatial.transform.Rotation.apply`. One fused kernel over the batch (the
        matrix of each quaternion is built in registers)."""
        v = float_array(vectors, "apply", self._quat.dtype)
        if v.ndim == 0 or v.shape[-1] != 3:
            raise ValueError("Expected input of shape (..., 3), got {}.".format(v.shape))
        try:
            numpy.broadcast_shapes(self._quat.shape[:-1], v.shape[:-1])
        except ValueError:
            raise ValueError("Cannot broadcast {} rotations to {} vectors.".format(
                self._quat.shape[:-1], v.shape[:-1])) from None
        return Q.apply(self._quat, v, inverse)

    def __mul__(self, other):
        if not isinstance(other, Rotation):
            return NotImplemented
        try:
            numpy.broadcast_shapes(self._quat.shape, other._quat.shape)
        except ValueError:
            raise ValueError("Cannot broadcast {} rotations in first to {} rotations in second object.".format(
                self._quat.shape[:-1], other._quat.shape[:-1])) from None
        q = Q.compose(self._quat, other._quat)
        return _raw(q / Q.norm_last(q, keepdims=True))

    def __pow__(self, n, modulus=None):
        if modulus is not None:
            raise NotImplementedError("modulus not supported")
        if isinstance(n, ndarray):
            if n.shape == (1,):
                n = n[0]
            elif n.ndim != 0:
                raise ValueError("Array exponent must be a scalar")
            n = float(to_host(n))
        if n == 0:
            return _raw(Q.identity_like(self._quat.shape[:-1], self._quat.dtype))
        if n == -1:
            return self.inv()
        if n == 1:
            return _raw(self._quat.copy())
        return _raw(Q.from_rotvec(n * Q.as_rotvec(self._quat)))

    def inv(self):
        """See `scipy.spatial.transform.Rotation.inv`."""
        return _raw(Q.inv(self._quat))

    def magnitude(self):
        """See `scipy.spatial.transform.Rotation.magnitude`."""
        return Q.magnitude(self._quat)

    def approx_equal(self, other, atol=None, degrees=False):
        """See `scipy.spatial.transform.Rotation.approx_equal`. A device boolean array."""
        if atol is None:
            if degrees:
                warnings.warn("atol must be set to use the degrees flag, defaulting to 1e-8 radians.",
                              stacklevel=2)
            atol = 1e-8
        elif degrees:
            atol = numpy.deg2rad(atol)
        try:
            numpy.broadcast_shapes(self._quat.shape, other._quat.shape)
        except ValueError:
            raise ValueError("Expected broadcastable shapes in both rotations, got {} rotations in first and {} "
                             "rotations in second object.".format(self._quat.shape[:-1], other._quat.shape[:-1])) from None
        return Q.magnitude(Q.compose(other._quat, Q.inv(self._quat))) < atol

    def mean(self, weights=None, axis=None):
        """See `scipy.spatial.transform.Rotation.mean`: the leading eigenvector of the (weighted)
        mean of q q^T, one batched 4x4 `eigh` on the device."""
        return _raw(mean_quat(self._quat, weights, axis))

    def reduce(self, left=None, right=None, return_indices=False):
        """See `scipy.spatial.transform.Rotation.reduce`: every (left, right) pair of the groups
        tried for every rotation on the device, the best picked by argmax."""
        if left is None and right is None:
            return (_raw(self._quat.copy()), None, None) if return_indices else _raw(self._quat.copy())
        q, li, ri = reduce_quat(self._quat, None if left is None else left._quat,
                                None if right is None else right._quat)
        if return_indices:
            return _raw(q), (li if left is not None else None), (ri if right is not None else None)
        return _raw(q)

    # -- containers ---------------------------------------------------------------------------------
    @property
    def single(self):
        """Whether this instance represents a single rotation."""
        return self._quat.ndim == 1

    @property
    def shape(self):
        """The shape of the rotation's leading dimensions."""
        return tuple(self._quat.shape[:-1])

    def __bool__(self):
        return True

    def __len__(self):
        if self.single:
            raise TypeError("Single rotation has no len().")
        return self._quat.shape[0]

    def __iter__(self):
        if self.single:
            raise TypeError("Single rotation is not iterable.")
        for i in range(self._quat.shape[0]):
            yield _raw(self._quat[i])

    def __getitem__(self, indexer):
        if self.single:
            raise TypeError("Single rotation is not subscriptable.")
        if isinstance(indexer, ndarray) and indexer.dtype.kind in "iu":
            if self._quat.shape[0] == 0:
                raise IndexError("cannot do a non-empty take from an empty axes.")
            return _raw(take(self._quat, indexer, axis=0))
        if isinstance(indexer, ndarray) and indexer.dtype == numpy.bool_:
            return _raw(self._quat[indexer])
        return _raw(self._quat[indexer, ...].copy())

    def __setitem__(self, indexer, value):
        if self.single:
            raise TypeError("Single rotation is not subscriptable.")
        if not isinstance(value, Rotation):
            raise TypeError("value must be a Rotation object")
        q = self._quat.copy()
        q[indexer, ...] = value._quat
        self._quat = q

    def __getstate__(self):
        return (to_host(self._quat), self.single)

    def __setstate__(self, state):
        self._quat = from_host(numpy.asarray(state[0]))

    def __repr__(self):
        m = repr(self.as_matrix()).splitlines()
        m[1:] = [" " * 21 + line for line in m[1:]]
        return "Rotation.from_matrix(" + "\n".join(m) + ")"


