"""Joining, splitting, tiling, rearranging, adding/removing and padding on the device, against NumPy."""

import types

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402
from cuarray._manipulation import (adding_removing, joining, rearranging, splitting,  # noqa: E402
                                   tiling)
from cuarray._padding import padding  # noqa: E402

cp = types.SimpleNamespace(**{k: getattr(cuarray, k) for k in dir(cuarray) if not k.startswith("__")})
for _mod in (joining, splitting, tiling, rearranging, adding_removing, padding):
    for _name in _mod.__all__:
        setattr(cp, _name, getattr(_mod, _name))

DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16, numpy.float32, numpy.float64,
          numpy.complex64, numpy.complex128]
dtypes = pytest.mark.parametrize("dtype", DTYPES, ids=testing.dtype_id)
rng = numpy.random.default_rng()


def rand(shape, dtype):
    """Fresh random host data (never constant), see cuarray.testing.shaped_random."""
    return testing.shaped_random(shape, numpy, dtype, scale=20)


def both(fn):
    try:
        expected = fn(numpy)
    except Exception as exc:
        with pytest.raises(type(exc)):
            fn(cp)
        return
    got = fn(cp)
    if isinstance(expected, (list, tuple)):
        assert len(got) == len(expected)
        for e, g in zip(expected, got):
            numpy.testing.assert_array_equal(g.get(), e)
            assert g.dtype == e.dtype
        return
    g = got.get()
    assert g.shape == expected.shape and g.dtype == expected.dtype, (g.shape, expected.shape, g.dtype, expected.dtype)
    numpy.testing.assert_array_equal(g, expected)


def H(xp, h):
    return h if xp is numpy else cuarray.asarray(h)


@dtypes
def test_concatenate_family(dtype):
    a, b, c = rand((2, 3), dtype), rand((4, 3), dtype), rand((2, 3), numpy.float32)
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, b)]))
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, c)], axis=0))
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, a)[:, ::-1]], axis=1))
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, b)], axis=None))
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, b)], axis=1))
    both(lambda xp: xp.concatenate([H(xp, a).T, H(xp, a).T], axis=-1, dtype=numpy.complex128))
    both(lambda xp: xp.stack([H(xp, a), H(xp, a)], axis=1))
    both(lambda xp: xp.stack([H(xp, a), H(xp, a)], axis=-1))
    both(lambda xp: xp.vstack([H(xp, a[0]), H(xp, a)]))
    both(lambda xp: xp.hstack([H(xp, a[0]), H(xp, a[1])]))
    both(lambda xp: xp.hstack([H(xp, a), H(xp, a)]))
    both(lambda xp: xp.dstack([H(xp, a), H(xp, a)]))
    both(lambda xp: xp.column_stack([H(xp, a[0]), H(xp, a[1])]))
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, a[:0])]))


def test_concatenate_out_and_errors():
    a = rand((2, 3), numpy.float64)

    def with_out(xp):
        out = xp.zeros((4, 3)) if xp is numpy else cuarray.zeros((4, 3))
        xp.concatenate([H(xp, a), H(xp, a)], out=out)
        return out
    both(with_out)
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, a[0])]))
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, a[:, :2])]))
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, a)], axis=2))
    both(lambda xp: xp.concatenate([H(xp, a), H(xp, a.astype(numpy.complex64))], dtype=numpy.float32))
    both(lambda xp: xp.stack([H(xp, a), H(xp, a[:1])]))


def test_concatenate_out_overlapping_inputs():
    # NumPy copies input after input: the second copy reads what the first wrote.
    h = rand((12,), numpy.float32)
    for parts in ([slice(1, None), slice(0, 1)], [slice(6, None), slice(0, 6)],
                  [slice(0, 2), slice(0, 2), slice(4, 6), slice(2, 4), slice(8, 12)]):
        def run(xp):
            a = h.copy() if xp is numpy else cuarray.asarray(h)
            xp.concatenate([a[s] for s in parts], out=a)
            return a
        both(run)


def test_many_inputs():
    parts = [rand((rng.integers(0, 5), 3), numpy.float32) for _ in range(100)]
    both(lambda xp: xp.concatenate([H(xp, p) for p in parts]))


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.float16, numpy.float32, numpy.int64,
                                   numpy.complex128], ids=testing.dtype_id)
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_batched_concatenate(dtype, axis):
    # MIN_PIECES (5) or more same-dtype C-contiguous inputs take the one-launch path; odd lengths force
    # narrow words, mixed-in views and other dtypes take the per-input path in the same call.
    base = [3, 5, 7]
    parts = []
    for k in range(7):
        shape = list(base)
        shape[axis] = int(rng.integers(1, 6)) if k != 3 else 0  # six non-empty: batched
        parts.append(rand(tuple(shape), dtype))
    both(lambda xp: xp.concatenate([H(xp, p) for p in parts], axis=axis))
    # all non-empty, one dtype, C-contiguous: the one-pass host path (joining._concat_dense)
    both(lambda xp: xp.concatenate([H(xp, p) for k, p in enumerate(parts) if k != 3], axis=axis))
    strided = rand((6, 10, 14), dtype)
    other = rand(tuple(base), numpy.float64 if dtype != numpy.complex128 else numpy.complex64)

    def mixed(xp):
        v = H(xp, strided)[::2, ::-2, ::2]
        return xp.concatenate([H(xp, p) for p in parts[:3]] + [v, H(xp, other)] + [H(xp, p) for p in parts[3:]],
                              axis=axis)
    both(mixed)
    both(lambda xp: xp.stack([H(xp, p) for p in [parts[0]] * 6], axis=axis))


def test_batched_concatenate_large_many_and_wide(monkeypatch):
    from cuarray._core import batched_copy

    big = [rand((int(n),), numpy.float32) for n in rng.integers(200_000, 1_500_000, 5)]
    both(lambda xp: xp.concatenate([H(xp, p) for p in big]))
    many = [rand((int(rng.integers(1, 4)), 3), numpy.int16) for _ in range(1500)]
    both(lambda xp: xp.concatenate([H(xp, p) for p in many]))
    both(lambda xp: xp.concatenate([H(xp, p) for p in many[:40]], axis=None))
    both(lambda xp: xp.hstack([H(xp, numpy.ascontiguousarray(p.T)) for p in many[:40]]))

    def with_out(xp):
        out = xp.zeros((len(many[:50]) * 4, 3), numpy.int16)
        out = out if xp is numpy else cuarray.asarray(out)
        return xp.concatenate([H(xp, p) for p in many[:50]], out=out[:sum(p.shape[0] for p in many[:50])])
    both(with_out)
    monkeypatch.setattr(batched_copy, "_INT32_LIMIT", 0)  # the 64-bit index kernel
    both(lambda xp: xp.concatenate([H(xp, p) for p in many[:30]], axis=0))
    both(lambda xp: xp.concatenate([H(xp, numpy.ascontiguousarray(p.T)) for p in many[:30]], axis=1))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int8, numpy.complex128], ids=testing.dtype_id)
def test_splitting(dtype):
    h = rand((6, 4, 3), dtype)
    both(lambda xp: xp.split(H(xp, h), 3))
    both(lambda xp: xp.split(H(xp, h), [1, 4], axis=1))
    both(lambda xp: xp.split(H(xp, h), 4))
    both(lambda xp: xp.array_split(H(xp, h), 4))
    both(lambda xp: xp.array_split(H(xp, h), [2, 10], axis=2))
    both(lambda xp: xp.hsplit(H(xp, h), 2))
    both(lambda xp: xp.vsplit(H(xp, h), [2]))
    both(lambda xp: xp.dsplit(H(xp, h), 3))
    pieces = splitting.split(cuarray.asarray(h), 2)
    pieces[0][...] = 0 if dtype != numpy.complex128 else 0j  # views
    assert pieces[0].base is not None


@dtypes
def test_tiling_rearranging(dtype):
    h = rand((3, 4), dtype)
    both(lambda xp: xp.tile(H(xp, h), 2))
    both(lambda xp: xp.tile(H(xp, h), (2, 1, 3)))
    both(lambda xp: xp.tile(H(xp, h)[::-1], (1, 0)))
    both(lambda xp: xp.repeat(H(xp, h), 3))
    both(lambda xp: xp.repeat(H(xp, h), [1, 0, 2], axis=0))
    both(lambda xp: xp.repeat(H(xp, h), 2, axis=1))
    both(lambda xp: xp.repeat(H(xp, h), [1, 2], axis=1))
    both(lambda xp: xp.flip(H(xp, h)))
    both(lambda xp: xp.flip(H(xp, h), 1))
    both(lambda xp: xp.fliplr(H(xp, h)))
    both(lambda xp: xp.flipud(H(xp, h)))
    both(lambda xp: xp.roll(H(xp, h), 2))
    both(lambda xp: xp.roll(H(xp, h), -1, axis=1))
    both(lambda xp: xp.roll(H(xp, h), (1, 5), axis=(0, 1)))
    both(lambda xp: xp.rot90(H(xp, h)))
    both(lambda xp: xp.rot90(H(xp, h), 2))
    both(lambda xp: xp.rot90(H(xp, h), -1, axes=(1, 0)))
    both(lambda xp: xp.rot90(H(xp, h), 3))


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int64, numpy.bool_, numpy.complex64], ids=testing.dtype_id)
def test_adding_removing(dtype):
    h = rand((3, 4), dtype)
    both(lambda xp: xp.resize(H(xp, h), (5, 3)))
    both(lambda xp: xp.resize(H(xp, h), 2))
    both(lambda xp: xp.append(H(xp, h), H(xp, h[0])))
    both(lambda xp: xp.append(H(xp, h), H(xp, h[:1]), axis=0))
    both(lambda xp: xp.delete(H(xp, h), 1, axis=1))
    both(lambda xp: xp.delete(H(xp, h), [0, 2], axis=0))
    both(lambda xp: xp.delete(H(xp, h), slice(1, None, 2)))
    v = rand(4, dtype)
    both(lambda xp: xp.insert(H(xp, h), 1, H(xp, v), axis=0))
    both(lambda xp: xp.insert(H(xp, h), [1, 3], H(xp, v[:2]), axis=1))
    both(lambda xp: xp.insert(H(xp, h), 2, H(xp, v[:1])))
    both(lambda xp: xp.insert(H(xp, h), [0, 0, 12], H(xp, v[:3])))
    z = numpy.array([0, 0, 1, 2, 0, 3, 0, 0]).astype(dtype)
    both(lambda xp: xp.trim_zeros(H(xp, z)))
    both(lambda xp: xp.trim_zeros(H(xp, z), "b"))
    both(lambda xp: xp.trim_zeros(H(xp, z[:2])))
    # N-d (NumPy 2.2+): every axis, or the ones named; all-zero input; errors.
    z2 = numpy.zeros((5, 6), dtype)
    z2[1, 2] = 1
    z2[3, 4] = 1
    both(lambda xp: xp.trim_zeros(H(xp, z2)))
    both(lambda xp: xp.trim_zeros(H(xp, z2), "f", axis=1))
    both(lambda xp: xp.trim_zeros(H(xp, z2), "B", axis=-1))
    both(lambda xp: xp.trim_zeros(H(xp, numpy.zeros((2, 3), dtype))))
    both(lambda xp: xp.trim_zeros(H(xp, z), "x"))
    both(lambda xp: xp.trim_zeros(H(xp, z2), axis=5))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int16, numpy.complex128], ids=testing.dtype_id)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp"])
def test_pad(dtype, mode):
    h = rand((3, 4), dtype)
    if mode == "linear_ramp":  # computed with separate device ufuncs: allow last-ulp differences
        for pw in (2, ((1, 5), (0, 3))):
            numpy.testing.assert_allclose(padding.pad(cuarray.asarray(h), pw, mode=mode).get(),
                                          numpy.pad(h, pw, mode=mode), rtol=1e-6, atol=1e-5)
        return
    both(lambda xp: xp.pad(H(xp, h), 2, mode=mode))
    both(lambda xp: xp.pad(H(xp, h), ((1, 5), (0, 3)), mode=mode))
    both(lambda xp: xp.pad(H(xp, h)[::-1], ((7, 0), (2, 9)), mode=mode))
    if mode == "constant":
        both(lambda xp: xp.pad(H(xp, h), ((1, 2), (3, 1)), constant_values=((1, 2), (3, 4))))
    if mode in ("reflect", "symmetric"):
        both(lambda xp: xp.pad(H(xp, h), 3, mode=mode, reflect_type="odd"))
        both(lambda xp: xp.pad(H(xp, h), ((9, 1), (0, 11)), mode=mode, reflect_type="odd"))
        both(lambda xp: xp.pad(H(xp, h[:1]), ((2, 3), (1, 0)), mode=mode, reflect_type="odd"))


def test_pad_empty_and_errors():
    h = rand((3, 4), numpy.float32)
    got = padding.pad(cuarray.asarray(h), 1, mode="empty")
    numpy.testing.assert_array_equal(got.get()[1:-1, 1:-1], h)
    both(lambda xp: xp.pad(H(xp, h), -1))
    both(lambda xp: xp.pad(H(xp, h), 1, mode="nope"))
    both(lambda xp: xp.pad(H(xp, h[:0]), 1, mode="edge"))
