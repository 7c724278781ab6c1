"""`RigidTransform`: batches of proper rigid transformations (rotation and translation) as a
(..., 4, 4) device array of homogeneous matrices, with SciPy 1.18's API (SciPy >= 1.16), built on
this package's `Rotation` and its quaternion math. Every constructor, converter, composition,
power, inverse, mean and `apply` is device work over the batch (`_rigid`); the validity checks
read one boolean each (the matrices' last rows, the rotation blocks' determinants). dtypes follow
`Rotation`'s rule: a cuarray float32 input stays float32, everything else becomes float64."""

from __future__ import annotations

from types import GenericAlias

import numpy

from ...._core.ndarray import ndarray
from ...._core.transfer import from_host, to_host
from ...._creation.basic import zeros
from ...._indexing.inserting import take
from ...._manipulation.joining import concatenate as _concat
from . import _quat as Q
from . import _rigid as S
from ._reduce import mean_quat
from ._arguments import float_array, shape_of
from ._rotation import Rotation

__all__ = ["RigidTransform"]


def _wrap(matrix):
    t = RigidTransform.__new__(RigidTransform)
    t._matrix = matrix
    return t




def _identity(shape, dtype):
    """Identity transforms of batch `shape`, built on the device."""
    return _wrap(S.assemble(zeros(tuple(shape) + (3,), dtype=dtype), Q.as_matrix(Q.identity_like(shape, dtype))))


def _from_host_matrix(matrix):
    """Unpickling: a transform of a host copy of its matrices (see `__reduce__`)."""
    return _wrap(from_host(numpy.asarray(matrix)))


def _check_last_row(m):
    """SciPy's check that every matrix ends in the row [0, 0, 0, 1] (one host read; the first
    offending matrix is named as SciPy names it)."""
    ok = (m[..., 3, 0] == 0) & (m[..., 3, 1] == 0) & (m[..., 3, 2] == 0) & (m[..., 3, 3] == 1)
    if m.ndim == 2:
        if bool(ok):
            return
        idx, vals = 0, to_host(m[3])
    else:
        bad = ~ok
        if not bool(bad.any()):
            return
        where_bad = numpy.argwhere(to_host(bad))[0]
        idx = int(where_bad[0]) if m.ndim == 3 else tuple(int(i) for i in where_bad)
        vals = to_host(m[tuple(where_bad)][3])
    end = "." if m.ndim <= 3 else ""  # (SciPy's NumPy backend ends with a full stop, its N-D path does not)
    raise ValueError(f"Expected last row of transformation matrix {idx} to be exactly [0, 0, 0, 1], got {vals}{end}")


def _broadcast_or_raise(a, b):
    try:
        numpy.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"Cannot broadcast {a.shape[:-2]} transforms in first to {b.shape[:-2]} transforms in second "
                         "object.") from None


class RigidTransform:
    """See `scipy.spatial.transform.RigidTransform`. The matrices live on the device; every method
    returns device arrays. A composition re-orthonormalises the product's rotation blocks (as
    SciPy's) without the validity checks of the constructor (they cannot fail for products of
    valid transforms), so it reads nothing back to the host."""

    __class_getitem__ = classmethod(GenericAlias)

    def __init__(self, matrix, normalize=True, copy=True):
        m = float_array(matrix, "__init__", owner="RigidTransform")
        if m.ndim < 2 or m.shape[-2:] != (4, 4):
            raise ValueError(f"Expected `matrix` to have shape (..., 4, 4), got {m.shape}.")
        if normalize or copy:
            m = m.copy()
        _check_last_row(m)
        if normalize:
            # the rotation blocks through Rotation.from_matrix (its checks; the nearest rotation of a
            # non-orthogonal block), then back to matrices
            m[..., :3, :3] = Rotation.from_matrix(m[..., :3, :3]).as_matrix()
        self._matrix = m

    def __repr__(self):
        m = repr(self.as_matrix()).splitlines()
        m[1:] = [" " * 27 + line for line in m[1:]]
        return "RigidTransform.from_matrix(" + "\n".join(m) + ")"

    # -- constructors -------------------------------------------------------------------------------
    @staticmethod
    def from_matrix(matrix):
        """See `scipy.spatial.transform.RigidTransform.from_matrix`."""
        return RigidTransform(matrix, normalize=True, copy=True)

    @staticmethod
    def from_rotation(rotation):
        """See `scipy.spatial.transform.RigidTransform.from_rotation`."""
        if not isinstance(rotation, Rotation):
            raise TypeError(f"Expected `rotation` to be a `Rotation` instance, got {type(rotation)}.")
        q = rotation._quat
        return _wrap(S.assemble(q[..., :3] * 0, Q.as_matrix(q)))

    @staticmethod
    def from_translation(translation):
        """See `scipy.spatial.transform.RigidTransform.from_translation`."""
        t = float_array(translation, "from_translation", owner="RigidTransform")
        if t.ndim == 0 or t.shape[-1] != 3:
            raise ValueError(f"Expected `translation` to have shape (..., 3), got {t.shape}.")
        eye = Q.as_matrix(Q.identity_like(t.shape[:-1], t.dtype))
        return _wrap(S.assemble(t, eye))

    @staticmethod
    def from_components(translation, rotation):
        """See `scipy.spatial.transform.RigidTransform.from_components`."""
        rotation_tf = RigidTransform.from_rotation(rotation)
        return RigidTransform.from_translation(translation) * rotation_tf

    @staticmethod
    def from_exp_coords(exp_coords):
        """See `scipy.spatial.transform.RigidTransform.from_exp_coords`."""
        e = float_array(exp_coords, "from_exp_coords", owner="RigidTransform")
        if e.ndim == 0 or e.shape[-1] != 6:
            raise ValueError(f"Expected `exp_coords` to have shape (..., 6), got {e.shape}.")
        return _wrap(S.from_exp_coords(e))

    @staticmethod
    def from_dual_quat(dual_quat, *, scalar_first=False):
        """See `scipy.spatial.transform.RigidTransform.from_dual_quat`."""
        dq = float_array(dual_quat, "from_dual_quat", owner="RigidTransform")
        if dq.ndim == 0 or dq.shape[-1] != 8:
            raise ValueError(f"Expected `dual_quat` to have shape (..., 8), got {dq.shape}.")
        return _wrap(S.from_dual_quat(dq, scalar_first))

    @staticmethod
    def identity(num=None, *, shape=None):
        """See `scipy.spatial.transform.RigidTransform.identity`."""
        return _identity(shape_of(num, shape, "and"), numpy.float64)

    @staticmethod
    def concatenate(transforms):
        """See `scipy.spatial.transform.RigidTransform.concatenate`."""
        if isinstance(transforms, RigidTransform):
            return _wrap(transforms._matrix.copy())
        if not all(isinstance(x, RigidTransform) for x in transforms):
            raise TypeError("input must contain RigidTransform objects only")
        return _wrap(_concat([x._matrix.reshape((1, 4, 4)) if x._matrix.ndim == 2 else x._matrix
                              for x in transforms]))

    # -- converters ---------------------------------------------------------------------------------
    def as_matrix(self):
        """See `scipy.spatial.transform.RigidTransform.as_matrix`."""
        return self._matrix.copy()

    def as_components(self):
        """See `scipy.spatial.transform.RigidTransform.as_components`."""
        return self.translation, self.rotation

    def as_exp_coords(self):
        """See `scipy.spatial.transform.RigidTransform.as_exp_coords`."""
        return S.as_exp_coords(self._matrix)

    def as_dual_quat(self, *, scalar_first=False):
        """See `scipy.spatial.transform.RigidTransform.as_dual_quat`."""
        return S.as_dual_quat(self._matrix, scalar_first)

    # -- operations ---------------------------------------------------------------------------------
    def mean(self, weights=None, axis=None):
        """See `scipy.spatial.transform.RigidTransform.mean`: the rotations' chordal L2 mean (one
        batched 4x4 `eigh`, as `Rotation.mean`) and the (weighted) mean of the translations."""
        m = self._matrix
        nd = m.ndim - 2
        if m.shape[0] == 0:
            raise ValueError("Mean of an empty transform set is undefined.")
        if axis is None:
            axis = tuple(range(nd))
        elif isinstance(axis, (int, numpy.integer)):
            axis = (int(axis),)
        if not isinstance(axis, tuple):
            raise ValueError("`axis` must be None, int, or tuple of ints.")
        if axis != () and (min(axis) < -nd or max(axis) > nd - 1):
            raise ValueError(f"axis {axis} is out of bounds for transform with shape {m.shape[:-2]}.")
        axis = tuple(sorted(set(a % nd for a in axis))) if nd else ()
        t = m[..., :3, 3]
        if weights is not None:
            w = float_array(weights, "mean", m.dtype, owner="RigidTransform")
            if w.size and bool((w < 0).any()):
                raise ValueError("`weights` must be non-negative.")
            if w.shape != m.shape[:-2]:
                raise ValueError(f"Expected `weights` to match transform shape, got shape {w.shape} for "
                                 f"{m.shape[:-2]} transformations.")
        if not axis:  # nothing to average
            return _wrap(S.normalize_rotation(m.copy()))
        q = mean_quat(Q.from_matrix_orthogonal(m[..., :3, :3]), weights if weights is None else w, axis)
        if weights is None:
            t_mean = t.mean(axis=axis)
        else:
            t_mean = (t * w[..., None]).sum(axis=axis) / w[..., None].sum(axis=axis)
        return _wrap(S.assemble(t_mean, Q.as_matrix(q)))

    def __len__(self):
        if self.single:
            raise TypeError("Single transform has no len")
        return self._matrix.shape[0]

    def __getitem__(self, indexer):
        if self.single:
            raise TypeError("Single transform is not subscriptable.")
        if isinstance(indexer, ndarray) and indexer.dtype == numpy.bool_:
            return _wrap(self._matrix[indexer])
        if isinstance(indexer, ndarray) and indexer.dtype.kind in "iu":
            if self._matrix.shape[0] == 0:
                raise IndexError("cannot take from an empty array")
            return _wrap(take(self._matrix, indexer, axis=0))
        return _wrap(self._matrix[indexer, ...].copy())

    def __setitem__(self, indexer, value):
        if self.single:
            raise TypeError("Single transform is not subscriptable.")
        if not isinstance(value, RigidTransform):
            raise TypeError("value must be a RigidTransform object")
        m = self._matrix.copy()
        m[indexer, ...] = value._matrix
        self._matrix = m

    def __mul__(self, other):
        if isinstance(other, Rotation):
            other = RigidTransform.from_rotation(other)
        elif not isinstance(other, RigidTransform):
            return NotImplemented
        _broadcast_or_raise(self._matrix, other._matrix)
        return _wrap(S.normalize_rotation(self._matrix @ other._matrix))

    def __rmul__(self, other):
        if isinstance(other, Rotation):
            return RigidTransform.from_rotation(other) * self
        return NotImplemented

    def __pow__(self, n):
        if isinstance(n, ndarray):
            if n.shape == (1,):
                n = n[0]
            elif n.ndim != 0:
                raise ValueError("Array exponent must be a scalar")
            n = float(to_host(n))
        if n == 0:  # the identity whatever the transform (not 0 * its translation: NaN for inf or NaN)
            return _identity(self._matrix.shape[:-2], self._matrix.dtype)
        if n == -1:
            return self.inv()
        if n == 1:
            return _wrap(self._matrix.copy())
        return _wrap(S.from_exp_coords(S.as_exp_coords(self._matrix) * n))

    def inv(self):
        """See `scipy.spatial.transform.RigidTransform.inv`."""
        return _wrap(S.inverse(self._matrix))

    def apply(self, vector, inverse=False):
        """See `scipy.spatial.transform.RigidTransform.apply`: one elementwise kernel over the
        broadcast batch (the matrices read in place)."""
        v = float_array(vector, "apply", self._matrix.dtype, owner="RigidTransform")
        if v.ndim == 0 or v.shape[-1] != 3:
            raise ValueError(f"Expected vector to have shape (..., 3), got {v.shape}.")
        try:
            numpy.broadcast_shapes(self._matrix.shape[:-2], v.shape[:-1])
        except ValueError:
            raise ValueError("operands could not be broadcast together") from None
        return S.apply_rigid(self._matrix, v, inverse)

    # -- properties and containers --------------------------------------------------------------------
    @property
    def rotation(self):
        """The rotation part, a `Rotation` (its checks as `Rotation.from_matrix`)."""
        return Rotation.from_matrix(self._matrix[..., :3, :3])

    @property
    def translation(self):
        """The translation part, a (..., 3) device array."""
        return self._matrix[..., :3, 3].copy()

    @property
    def single(self):
        """Whether this instance represents a single transform."""
        return self._matrix.ndim == 2

    @property
    def shape(self):
        """The shape of the transform's leading dimensions."""
        return tuple(self._matrix.shape[:-2])

    def __reduce__(self):
        return (_from_host_matrix, (to_host(self._matrix),))

    def __iter__(self):
        if self.single:
            raise TypeError("Single transform is not iterable.")
        for i in range(self._matrix.shape[0]):
            yield _wrap(self._matrix[i])

