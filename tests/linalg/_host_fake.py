"""Run matmul's lowering on the CPU: cuarray arrays that view host memory (cuarray.testing.fake_device),
and NumPy stand-ins for cuBLAS GEMM/GEMV and the integer kernel that check every argument the way cuBLAS does
(leading dimensions, transpose flags, batch strides) and compute in column-major terms.

So the whole host path of `matmul` (dtype loop, shapes, broadcasting, layouts, transpose flags,
batch collapsing, out= and aliasing) is tested without a GPU, on private copies of `_matmul` and
`_long_k` (`host_matmul`): nothing of cuarray is patched.
"""

from __future__ import annotations

import numpy as np

from cuarray.testing.fake_device import from_np, host_view, new_c, to_np  # noqa: F401  (tests/ is on sys.path)

CALLS: list = []  # (kind, args) of every emulated library call


class FakeCopying:
    """The engine's copying module (copy/astype/fill/copyto_unchecked), on host views."""

    @staticmethod
    def copy(a, order="C"):
        CALLS.append(("copy", a._shape))
        return from_np(np.ascontiguousarray(to_np(a)) if order != "F" else np.asfortranarray(to_np(a)))

    @staticmethod
    def astype(a, dtype, order="K", casting="unsafe", copy=True):
        return from_np(to_np(a).astype(dtype))

    @staticmethod
    def fill(a, value):
        to_np(a)[...] = value

    @staticmethod
    def copyto_unchecked(dst, src):
        np.copyto(to_np(dst), to_np(src), casting="unsafe")


_CHAR_DT = {c: np.dtype(c) for c in "efdFD"}


def _colmajor(ptr, rows, cols, ld, dt):
    return host_view((rows, cols), (dt.itemsize, ld * dt.itemsize), dt, ptr)


def _op(mat, op):
    return mat if op == "N" else (mat.T if op == "T" else mat.T.conj())


def fake_gemm(char, opa, opb, m, n, k, a, lda, b, ldb, c, ldc, batch=1, stride_a=0, stride_b=0,
              stride_c=0, alpha=None, beta=None):
    CALLS.append(("gemm", (char, opa, opb, m, n, k, lda, ldb, ldc, batch, stride_a, stride_b, stride_c)))
    assert m > 0 and n > 0 and k > 0 and batch > 0
    ra, ca = (m, k) if opa == "N" else (k, m)
    rb, cb = (k, n) if opb == "N" else (n, k)
    assert lda >= max(1, ra) and ldb >= max(1, rb) and ldc >= max(1, m), (lda, ldb, ldc, ra, rb, m)
    dt = _CHAR_DT[char]
    acc = np.float32 if char == "e" else dt
    isz = dt.itemsize
    for z in range(batch):
        A = _op(_colmajor(a + z * stride_a * isz, ra, ca, lda, dt), opa)
        B = _op(_colmajor(b + z * stride_b * isz, rb, cb, ldb, dt), opb)
        C = _colmajor(c + z * stride_c * isz, m, n, ldc, dt)
        C[...] = (A.astype(acc) @ B.astype(acc)).astype(dt)


def fake_gemv(char, op, m, n, a, lda, x, incx, y, incy, alpha=None, beta=None):
    CALLS.append(("gemv", (char, op, m, n, lda, incx, incy)))
    assert m > 0 and n > 0 and lda >= max(1, m) and incx > 0 and incy > 0
    dt = _CHAR_DT[char]
    A = _op(_colmajor(a, m, n, lda, dt), op)
    nx, ny = (n, m) if op == "N" else (m, n)
    X = host_view((nx,), (incx * dt.itemsize,), dt, x)
    Y = host_view((ny,), (incy * dt.itemsize,), dt, y)
    Y[...] = A @ X
    return True


def fake_int_gemm(dtype, m, n, k, a, a_strides, b, b_strides, c, c_strides, batch=1):
    CALLS.append(("int", (dtype.char, m, n, k, a_strides, b_strides, c_strides, batch)))
    assert m > 0 and n > 0 and k > 0 and batch > 0
    isz = dtype.itemsize
    A = host_view((batch, m, k), tuple(s * isz for s in a_strides), dtype, a)
    B = host_view((batch, k, n), tuple(s * isz for s in b_strides), dtype, b)
    C = host_view((batch, m, n), tuple(s * isz for s in c_strides), dtype, c)
    C[...] = np.matmul(A, B)


class FakeLongKLaunch:
    """`_long_k`'s launch: its kernel (here the key `(char, m, n)`) computed in NumPy from the
    pointers and item strides it is given."""

    @staticmethod
    def launch(kernel, grid, block, args):
        char, m, n = kernel
        ap, a_i, a_k, bp, b_k, b_j, c, k, part, counter = args
        k = int(k)
        CALLS.append(("long_k", (char, m, n, k, int(a_i), int(a_k), int(b_k), int(b_j))))
        assert k > 0 and grid >= 1 and block % 32 == 0
        dt = _CHAR_DT[char]
        isz = dt.itemsize
        A = host_view((m, k), (int(a_i) * isz, int(a_k) * isz), dt, ap)
        B = host_view((k, n), (int(b_k) * isz, int(b_j) * isz), dt, bp)
        host_view((m, n), (n * isz, isz), dt, c)[...] = A @ B


class FakeLongKKernel:
    """`_long_k`'s kernel: its arguments packed by the real declaration (LONG_K's), then run by
    `FakeLongKLaunch` under the key `(char, m, n)`."""

    def __init__(self, char, m, n):
        from cuarray.linalg import _long_k

        self.key = (char, m, n)
        self.packer = _long_k.LONG_K.packer(_long_k.kernel_name(char, m, n))

    def launch(self, grid, block, *args, shared_mem=0):
        FakeLongKLaunch.launch(self.key, grid, block, self.packer.pack(args))


class FakeReduction:
    """The one-launch workspace `_long_k` asks for (its kernel is emulated: no counter needed)."""

    @staticmethod
    def one_launch_workspace(nbytes):
        return 0, 0


def _host_sum(t, axis):
    return from_np(to_np(t).sum(axis=axis))


_COPIES: list = []  # the one private copy of `_matmul` (made on first use)


def host_matmul():
    """matmul's host path on private copies of `_matmul` and `_long_k` (`cuarray.testing.fake_device.
    host_modules`: nothing of cuarray is patched) whose allocations, copies, sums and library calls
    are the host fakes: ``namespace(matmul, matmul_operator, module)``, `module` the copy of
    `_matmul` (a test may set its thresholds); `CALLS` emptied."""
    import types

    from cuarray._core import registry
    from cuarray.cuda.libs import cublas
    from cuarray.linalg import _long_k, _matmul
    from cuarray.testing.fake_device import host_modules

    if not _COPIES:
        copy = host_modules({
            registry: {},  # the copy's matmul ufunc registers there: numpy.matmul(gpu, gpu) stays cuarray's
            _matmul: {"_new_c": new_c, "_copying": FakeCopying, "_sum": _host_sum,
                      "_cublas": types.SimpleNamespace(gemm=fake_gemm, gemv=fake_gemv, supports=cublas.supports),
                      "_int_matmul": types.SimpleNamespace(gemm=fake_int_gemm)},
            _long_k: {"_new_c": new_c, "_reduction": FakeReduction,
                      "_prepare": lambda char, m, n, k, dev: (FakeLongKKernel(char, m, n), 4, 0)},
        })[_matmul]
        _COPIES.append(types.SimpleNamespace(matmul=copy.matmul, matmul_operator=copy.matmul_operator, module=copy))
    CALLS.clear()
    return _COPIES[0]
