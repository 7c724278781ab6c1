"""cuSOLVER-backed linalg against NumPy on the device: a case catalogue (NumPy's LinalgCase style:
1x1, small, 40x40, stacks that take the batched routines and stacks that loop, empty 0x0 / 0xn /
stacks of none, rectangular tall and wide) in four layouts (C, transposed view, strided view,
negative strides), run through every function once per dtype. Decompositions that are unique only
up to signs are checked by their defining properties; the rest by value. Then singular / not
positive definite input, NaN input, int promotion."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
import cuarray.linalg as la  # noqa: E402

DTYPES = [np.dtype(c) for c in "fdFD"]
SQUARE = [(1, 1), (3, 3), (40, 40), (5, 4, 4), (2, 3, 40, 40), (100, 8, 8), (0, 0), (3, 0, 0), (0, 4, 4), (3, 64, 64),
          (2, 65, 65)]  # (batched cuBLAS LU up to n = 64 for stacks; a call a matrix past it)
RECT = [(5, 3), (3, 5), (40, 20), (20, 40), (4, 6, 3), (4, 3, 6), (10, 8, 5), (0, 3), (3, 0), (2, 0, 3)]
LAYOUTS = ["C", "T", "strided", "neg"]


def tol(dt):
    return 2e-3 if dt.char in "fF" else 1e-9


def _rand(shape, dt, rng):
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def _on_device(h, layout):
    """A cuarray array with the values of host `h`, laid out as `layout` says."""
    if layout == "C" or h.ndim < 2:
        return cuarray.asarray(h)
    if layout == "T":
        return cuarray.asarray(np.ascontiguousarray(np.swapaxes(h, -1, -2))).mT
    if layout == "strided":
        big = np.zeros(h.shape[:-2] + (2 * h.shape[-2], 2 * h.shape[-1]), h.dtype)
        big[..., ::2, ::2] = h
        return cuarray.asarray(big)[..., ::2, ::2]
    return cuarray.asarray(np.ascontiguousarray(h[..., ::-1, ::-1]))[..., ::-1, ::-1]


def _host(x):
    return x.get() if isinstance(x, cuarray.ndarray) else np.asarray(x)


def _make(kind, shape, dt, rng):
    a = _rand(shape, dt, rng)
    n = shape[-1]
    if kind == "general":
        return a + n * np.eye(n, dtype=dt) if len(shape) >= 2 and shape[-1] == shape[-2] else a
    if kind in ("hermitian", "pd"):
        a = (a + np.conj(np.swapaxes(a, -1, -2))) / 2
        return a + (2 * n + 1) * np.eye(n, dtype=dt) if kind == "pd" else a
    raise AssertionError(kind)


def _close(ours, want, dt, what):
    ours = _host(ours)
    np.testing.assert_allclose(ours, want, rtol=tol(dt), atol=tol(dt) * max(1.0, float(np.abs(want).max(initial=0))),
                               err_msg=what)
    assert ours.shape == np.shape(want), (what, ours.shape, np.shape(want))


def _seed(request):
    return zlib.crc32(request.node.nodeid.encode())


def _cases(shapes):
    for i, shape in enumerate(shapes):
        yield shape, LAYOUTS[i % len(LAYOUTS)]
        if i % len(LAYOUTS):
            yield shape, "C"


H = lambda x: np.conj(np.swapaxes(x, -1, -2))  # noqa: E731


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_catalogue_square(request, dt):
    rng = np.random.default_rng(_seed(request))
    for shape, layout in _cases(SQUARE):
        what = "{} {} {}".format(shape, layout, dt)
        a = _make("general", shape, dt, rng)
        d = _on_device(a, layout)
        b = _rand(shape[:-1] + (2,), dt, rng)
        _close(la.solve(d, cuarray.asarray(b)), np.linalg.solve(a, b), dt, "solve " + what)
        if len(shape) == 2:
            bv = _rand(shape[-1:], dt, rng)
            _close(la.solve(d, cuarray.asarray(bv)), np.linalg.solve(a, bv), dt, "solve vec " + what)
        _close(la.inv(d), np.linalg.inv(a), dt, "inv " + what)
        if shape[-1] <= 8:  # larger: |det| overflows single precision (NumPy computes in double)
            _close(la.det(d), np.linalg.det(a), dt, "det " + what)
        s, l = la.slogdet(d)
        ws, wl = np.linalg.slogdet(a)
        _close(s, ws, dt, "slogdet sign " + what)
        _close(l, wl, dt, "slogdet log " + what)
        assert _host(s).dtype == ws.dtype and _host(l).dtype == wl.dtype
        p = _make("pd", shape, dt, rng)
        dp = _on_device(p, layout)
        _close(la.cholesky(dp), np.linalg.cholesky(p), dt, "cholesky " + what)
        _close(la.cholesky(dp, upper=True), np.linalg.cholesky(p, upper=True), dt, "cholesky upper " + what)
        h = _make("hermitian", shape, dt, rng)
        dh = _on_device(h, layout)
        for uplo in ("L", "U"):
            w, v = la.eigh(dh, UPLO=uplo)
            ww = np.linalg.eigvalsh(h, UPLO=uplo)
            _close(w, ww, dt, "eigh w " + what)
            _close(la.eigvalsh(dh, UPLO=uplo), ww, dt, "eigvalsh " + what)
            hv, hw = _host(v), _host(w)
            hh = np.tril(h) + H(np.tril(h, -1)) if uplo == "L" else np.triu(h) + H(np.triu(h, 1))
            _close(hh @ hv, hv * hw[..., None, :], dt, "eigh vectors " + what)
        w, v = la.eig(d)
        ww = np.linalg.eigvals(a)
        hw, hv = _host(w), _host(v)
        assert hw.dtype == ww.dtype, what
        if hw.size:  # eigenvalues in no set order: compare sorted
            _close(np.sort_complex(hw.reshape(-1, shape[-1])), np.sort_complex(ww.reshape(-1, shape[-1])), dt,
                   "eig " + what)
        else:
            _close(hw, ww, dt, "eig " + what)
        _close(a @ hv, hv * hw[..., None, :], dt, "eig vectors " + what)
        _close(la.eigvals(d).shape, ww.shape, dt, "eigvals " + what)
        if np.prod(shape):
            _close(la.cond(d), np.linalg.cond(a), dt, "cond " + what)
            for p_ in (1, -1, np.inf, "fro", "nuc"):
                got, want = _host(la.cond(d, p_)), np.linalg.cond(a, p_)
                _close(got, want, dt, "cond {} ".format(p_) + what)
                assert got.dtype == want.dtype, ("cond {} ".format(p_) + what, got.dtype)  # real for complex input
        if np.prod(shape):
            _close(la.matrix_rank(d), np.linalg.matrix_rank(a), dt, "rank " + what)
        _close(la.pinv(d), np.linalg.pinv(a), dt, "pinv " + what)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_catalogue_rectangular(request, dt):
    rng = np.random.default_rng(_seed(request))
    for shape, layout in _cases(RECT + SQUARE):
        what = "{} {} {}".format(shape, layout, dt)
        a = _rand(shape, dt, rng)
        d = _on_device(a, layout)
        m, n = shape[-2:]
        k = min(m, n)
        _close(la.svdvals(d), np.linalg.svdvals(a), dt, "svdvals " + what)
        for full in (True, False):
            u, s, vh = la.svd(d, full_matrices=full)
            wu, ws, wvh = np.linalg.svd(a, full_matrices=full)
            assert _host(u).shape == wu.shape and _host(vh).shape == wvh.shape, what
            _close(s, ws, dt, "svd s " + what)
            hu, hs, hvh = _host(u), _host(s), _host(vh)
            _close((hu[..., :, :k] * hs[..., None, :]) @ hvh[..., :k, :], a, dt, "svd uv " + what)
            _close(H(hu) @ hu, np.broadcast_to(np.eye(hu.shape[-1]), H(hu).shape[:-1] + hu.shape[-1:]), dt,
                   "svd u orthonormal " + what)
        for mode in ("reduced", "complete"):
            q, r = la.qr(d, mode=mode)
            wq, wr = np.linalg.qr(a, mode=mode)
            hq, hr = _host(q), _host(r)
            assert hq.shape == wq.shape and hr.shape == wr.shape, (what, mode)
            _close(hq @ hr, a, dt, "qr {} ".format(mode) + what)
            _close(np.abs(hr), np.abs(wr), dt, "qr r {} ".format(mode) + what)
        _close(np.abs(_host(la.qr(d, mode="r"))), np.abs(np.linalg.qr(a, mode="r")), dt, "qr r " + what)
        h, tau = la.qr(d, mode="raw")
        wh, wtau = np.linalg.qr(a, mode="raw")
        assert _host(h).shape == wh.shape and _host(tau).shape == wtau.shape, what
        _close(la.pinv(d), np.linalg.pinv(a), dt, "pinv " + what)
        if a.size:
            _close(la.matrix_rank(d), np.linalg.matrix_rank(a), dt, "rank " + what)
        for ord_ in (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
            if ord_ in ("nuc", 2, -2) and k == 0:
                continue
            if ord_ in (1, -1, np.inf, -np.inf) and k == 0 and ord_ not in (None,):
                continue
            _close(la.norm(d, ord_, axis=(-2, -1)), np.linalg.norm(a, ord_, axis=(-2, -1)), dt,
                   "norm {} ".format(ord_) + what)
            _close(la.matrix_norm(d, ord=ord_ or "fro", keepdims=True),
                   np.linalg.matrix_norm(a, ord=ord_ or "fro", keepdims=True), dt, "matrix_norm " + what)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_hermitian_svd_and_rank(request, dt):
    rng = np.random.default_rng(_seed(request))
    for shape in [(4, 4), (3, 6, 6), (40, 40)]:
        h = _make("hermitian", shape, dt, rng)
        d = cuarray.asarray(h)
        _close(la.svd(d, hermitian=True, compute_uv=False), np.linalg.svd(h, hermitian=True, compute_uv=False), dt, "hs")
        u, s, vh = la.svd(d, hermitian=True)
        hu, hs, hvh = _host(u), _host(s), _host(vh)
        _close((hu * hs[..., None, :]) @ hvh, h, dt, "hermitian svd " + str(shape))
        _close(la.matrix_rank(d, hermitian=True), np.linalg.matrix_rank(h, hermitian=True), dt, "hrank")
        _close(la.pinv(d, hermitian=True), np.linalg.pinv(h, hermitian=True), dt, "hpinv")


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_pinv_of_four_dimensional_stacks(request, dt):
    """pinv of 4-D stacks (the batched Jacobi SVD over two batch axes, and the loop past 32): random,
    with zero columns, of small integers (mostly exactly singular: NumPy cuts their zero singular
    values at the default rcond, cuarray must too: single precision decomposes in double), each
    matrix's own cutoff, rtol=None, an rcond per matrix, hermitian=True, empty stacks."""
    rng = np.random.default_rng(_seed(request))
    for shape in [(2, 3, 5, 4), (2, 3, 4, 5), (2, 3, 4, 4), (1, 2, 3, 3), (2, 2, 40, 33)]:
        cases = {"random": _rand(shape, dt, rng), "small integers": rng.integers(-1, 2, shape).astype(dt)}
        z = _rand(shape, dt, rng)
        z[0, 1] = z[0, 1] @ np.diag([1, 1] + [0] * (shape[-1] - 2)).astype(dt)  # two rank-deficient
        cases["zero columns"] = z
        for name, a in cases.items():
            what = "{} {} {}".format(name, shape, dt)
            for kw in ({}, {"rtol": None}, {"rtol": 0.1}, {"rcond": rng.random(shape[:-2]) * 0.3}):
                got = la.pinv(cuarray.asarray(a), **({**kw, "rcond": cuarray.asarray(kw["rcond"])} if "rcond" in kw
                                                     else kw))
                assert got.dtype == dt, what
                _close(got, np.linalg.pinv(a, **kw), dt, "pinv {} {}".format(kw, what))
            if shape[-1] == shape[-2]:
                h = a + np.conj(np.swapaxes(a, -1, -2))
                _close(la.pinv(cuarray.asarray(h), hermitian=True), np.linalg.pinv(h, hermitian=True), dt,
                       "pinv hermitian " + what)
    for shape in [(2, 3, 0, 4), (2, 0, 3, 3), (0, 2, 4, 0)]:
        e = np.zeros(shape, dt)
        got = la.pinv(cuarray.asarray(e))
        assert got.shape == np.linalg.pinv(e).shape and got.dtype == dt


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_pinv_and_rank_keep_tiny_singular_values(request, dt):
    """A scaled permutation matrix (singular values 1 down to 1e-40, 1e-30 in single precision) has
    an exact SVD that LAPACK returns: pinv(rtol=0) inverts every scale (within rounding of the
    largest entry: a lost singular value is a missing entry that size) and matrix_rank(tol=0)
    counts them all. The Jacobi SVD returned 0 for
    those below eps of the norm (GPU fuzz seed 13: pinv of a 7x7 complex128 one)."""
    rng = np.random.default_rng(_seed(request))
    low = -30 if dt.char in "fF" else -40
    # (up to 25 columns: past that LAPACK's gesdd, NumPy's SVD, divides and conquers, and its small
    # singular values of this matrix are no longer exact: 1e-16 where gesvd returns 1e-40)
    for n in (5, 7, 16, 25):
        a = (np.eye(n)[rng.permutation(n)] * np.logspace(0, low, n)[rng.permutation(n)][:, None]).astype(dt)
        want = np.linalg.pinv(a, rtol=0.0)
        got = _host(la.pinv(cuarray.asarray(a), rtol=0.0))
        # normwise: the inverted scales reach 1e40, and rounding in the vectors (1e-16 of an entry
        # 1e40 apart) may leave entries of 1e24 where NumPy's are 0; a lost singular value leaves
        # its entry 0 where NumPy's is 1e40
        assert got.dtype == dt
        err = float(np.max(np.abs(got.astype(complex) - want)))
        assert err <= tol(dt) * float(np.max(np.abs(want))), ("pinv(rtol=0)", n, dt, err)
        assert int(la.matrix_rank(cuarray.asarray(a), tol=0)) == np.linalg.matrix_rank(a, tol=0) == n


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(3, 5, 3, 3), (6, 2, 5), (4, 6, 3)])
def test_pinv_of_scaled_permutation_stacks_cuts_exactly(request, dt, shape):
    """Stacks of small matrices (the batched Jacobi SVD) with one nonzero a row and column: the
    singular values are the entries' magnitudes, exactly, so pinv(rcond=r) keeps an entry exactly
    when |a| > r max|a| (1/a there, 0 elsewhere: ties at the cutoff are cut), and pinv(rtol=0) and
    matrix_rank(tol=0) keep every nonzero down to 1e-40 (GPU fuzz seed 21 index 198: rcond=1e-7 kept
    a singular value 1e-7 beside 1, an entry -1e7 where NumPy's is 0)."""
    rng = np.random.default_rng(_seed(request))
    *batch, m, n = shape
    k = min(m, n)
    low = -30 if dt.char in "fF" else -40
    a = np.zeros((int(np.prod(batch)), m, n), dt)
    for x in a:
        s = 10.0 ** rng.choice([0, -1, -7, -12, -16, -20, low], k) * rng.choice([-1, 1], k)
        s[rng.integers(0, k)] = 1.0
        x[rng.permutation(m)[:k], rng.permutation(n)[:k]] = s
    a = a.reshape(shape)
    inv = np.where(a != 0, 1 / np.where(a != 0, a, 1), 0)
    mag = np.abs(a).astype(np.float64)  # (NumPy's cutoff is a float64 product: float32(1e-7) > 1e-7)
    big = mag.max(axis=(-2, -1), keepdims=True)
    for kw, keep in (({"rcond": 1e-7}, mag > 1e-7 * big), ({"rtol": 0.0}, a != 0), ({"rcond": 1e-12}, mag > 1e-12 * big)):
        want = np.swapaxes(np.where(keep, inv, 0), -1, -2)
        got = _host(la.pinv(cuarray.asarray(a), **kw))
        assert got.dtype == dt and np.array_equal(got != 0, want != 0), (kw, np.argwhere((got != 0) != (want != 0))[:3])
        np.testing.assert_allclose(got, want, rtol=tol(dt), atol=0, err_msg=str(kw))
    rank = _host(la.matrix_rank(cuarray.asarray(a), tol=0))
    assert np.array_equal(rank, np.count_nonzero(a, axis=(-2, -1))), rank


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("bshape", [(6,), (6, 3), (6, 0)])
@pytest.mark.parametrize("ashape", [(6, 4), (6, 6), (4, 6), (6, 1)])
def test_lstsq(request, dt, ashape, bshape):
    rng = np.random.default_rng(_seed(request))
    a, b = _rand(ashape, dt, rng), _rand((ashape[0],) + bshape[1:], dt, rng)
    x, r, rank, s = la.lstsq(cuarray.asarray(a), cuarray.asarray(b))
    wx, wr, wrank, ws = np.linalg.lstsq(a, b)
    _close(x, wx, dt, "x")
    _close(r, wr, dt, "resid")
    assert int(rank) == int(wrank)
    _close(s, ws, dt, "s")



@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_lstsq_nonfinite_matrix_raises_as_numpy(bad):
    """NumPy's gelsd fails on a matrix holding NaN or inf; cuSOLVER's SVD returned NaN and lstsq
    answered (the fuzzer's polyfit(x=[0.], deg=2), whose scaled Vandermonde matrix is 0 / 0).
    A non-finite right-hand side is not an error in either."""
    a = np.array([[1.0, 2.0], [3.0, bad], [5.0, 6.0]])
    b = np.array([1.0, 2.0, 3.0])
    for args in ((a, b), (np.array([[bad, 0.0, 1.0]]), np.array([1.27]))):
        with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge in Linear Least Squares"):
            np.linalg.lstsq(*args)
        with pytest.raises(la.LinAlgError, match="SVD did not converge in Linear Least Squares"):
            la.lstsq(*map(cuarray.asarray, args))
    with pytest.raises(la.LinAlgError):
        cuarray.polyfit(cuarray.asarray([0.0]), cuarray.asarray([1.27]), 2)
    x = la.lstsq(cuarray.asarray(np.eye(2)), cuarray.asarray([bad, 1.0]))[0]
    assert not np.isfinite(_host(x)).all()
    # the library stays usable
    _close(la.lstsq(cuarray.asarray(np.eye(2)), cuarray.asarray([1.0, 2.0]))[0], np.array([1.0, 2.0]),
           np.dtype("float64"), "after")


def test_vector_norms(request):
    rng = np.random.default_rng(_seed(request))
    for dt in DTYPES + [np.dtype("int64")]:
        a = (_rand((3, 4, 5), dt, rng) if dt.kind != "i" else rng.integers(-5, 5, (3, 4, 5)))
        d = cuarray.asarray(a)
        rdt = np.dtype(dt.char.lower()) if dt.kind in "fc" else np.dtype("float64")
        for ord_ in (None, 0, 1, 2, 3, 0.5, np.inf, -np.inf, -1):
            for axis in (None, 0, -1, (0, 2), (2, 0)):
                for keepdims in (False, True):
                    if axis is None and ord_ not in (None,):
                        continue
                    want = np.linalg.vector_norm(a, ord=2 if ord_ is None else ord_, axis=axis, keepdims=keepdims)
                    got = la.vector_norm(d, ord=2 if ord_ is None else ord_, axis=axis, keepdims=keepdims)
                    _close(got, want, rdt, "vector_norm {} {} {}".format(ord_, axis, dt))
                    if not isinstance(axis, tuple):
                        _close(la.norm(d, ord_, axis, keepdims), np.linalg.norm(a, ord_, axis, keepdims), rdt,
                               "norm {} {}".format(ord_, axis))
        _close(la.norm(d), np.linalg.norm(a), rdt, "norm default")
        assert _host(la.norm(d)).dtype == np.linalg.norm(a).dtype


def test_singular_and_not_positive_definite_raise():
    s = cuarray.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]))
    stack = cuarray.asarray(np.stack([np.eye(2), [[1.0, 2.0], [2.0, 4.0]]] * 3))
    for n in (53, 64):  # the batched LU of wider stacks: one singular matrix among them
        a = np.stack([np.eye(n)] * 5)
        a[3, :, 7] = a[3, :, 2]
        with pytest.raises(la.LinAlgError, match="Singular matrix"):
            la.solve(cuarray.asarray(a), cuarray.ones((5, n, 1)))
        with pytest.raises(la.LinAlgError, match="Singular matrix"):
            la.inv(cuarray.asarray(a))
    for x in (s, stack):
        with pytest.raises(la.LinAlgError, match="Singular matrix"):
            la.inv(x)
        with pytest.raises(la.LinAlgError, match="Singular matrix"):
            la.solve(x, cuarray.ones(x.shape[:-1] + (1,)))
        with pytest.raises(la.LinAlgError, match="Matrix is not positive definite"):
            la.cholesky(x - 3 * cuarray.eye(2))
    _close(la.det(s), 0.0, np.dtype("d"), "det singular")
    sign, logdet = la.slogdet(s)
    assert float(sign.get()) == 0.0 and float(logdet.get()) == -np.inf
    assert float(la.cond(s).get()) > 1e15
    assert int(la.matrix_rank(s).get()) == 1


def test_nan_input_never_hangs():
    x = np.full((6, 6), np.nan)
    d = cuarray.asarray(x)
    for fn in ("det", "slogdet", "inv", "eigvalsh", "svdvals", "eigvals", "cholesky", "qr", "pinv", "norm"):
        try:
            res = getattr(la, fn)(d)
        except la.LinAlgError:
            continue
        res = res if isinstance(res, tuple) else (res,)
        assert any(np.isnan(_host(r)).any() for r in res), fn


@pytest.mark.parametrize("shape", [(40, 40), (3, 20, 20)], ids=["cusolver", "cublas-batched"])
@pytest.mark.parametrize("where", ["one", "all"])
def test_nan_matrix_gives_nan_as_numpy(request, shape, where):
    """A matrix holding a NaN: solve, inv, det and slogdet give NaN, as NumPy's (LAPACK carries the
    NaN), and raise nothing. cuSOLVER's getrf drops the NaN (scripts/linalg_nan_getrf.py on the
    H100): before carry_nan, solve and inv of a 40 x 40 with one NaN were finite, and an all-NaN
    matrix raised 'Singular matrix'. The other matrices of a stack are unaffected."""
    rng = np.random.default_rng(_seed(request))
    a = _rand(shape, np.dtype("d"), rng) + shape[-1] * np.eye(shape[-1])
    bad = a if a.ndim == 2 else a[1]  # a view: the matrix that holds the NaN
    if where == "all":
        bad[...] = np.nan
    else:
        bad[rng.integers(bad.shape[0]), rng.integers(bad.shape[1])] = np.nan
    b = _rand(shape[:-1] + (2,), np.dtype("d"), rng)
    with np.errstate(all="ignore"):
        want = {"solve": np.linalg.solve(a, b), "inv": np.linalg.inv(a), "det": np.linalg.det(a),
                "logdet": np.linalg.slogdet(a)[1]}
    got = {"solve": la.solve(cuarray.asarray(a), cuarray.asarray(b)), "inv": la.inv(cuarray.asarray(a)),
           "det": la.det(cuarray.asarray(a)), "logdet": la.slogdet(cuarray.asarray(a))[1]}
    for name, g in got.items():
        g, w = _host(g), want[name]
        if a.ndim == 2:
            g, w = g[None], w[None]
        assert np.isnan(w[0 if a.ndim == 2 else 1]).any(), "NumPy's {} carries the NaN".format(name)
        assert np.isnan(g[0 if a.ndim == 2 else 1]).all(), name
        if a.ndim == 3:
            np.testing.assert_allclose(g[[0, 2]], w[[0, 2]], rtol=1e-9, atol=1e-12, err_msg=name)


def test_integer_input_is_float64():
    a = cuarray.asarray(np.array([[2, 1], [1, 3]]))
    assert la.inv(a).dtype == np.float64
    assert la.det(a).dtype == np.float64
    assert la.eigvalsh(a).dtype == np.float64
    _close(la.solve(a, cuarray.asarray(np.array([1, 2]))), np.linalg.solve([[2, 1], [1, 3]], [1, 2]),
           np.dtype("d"), "int solve")


def test_tensor_functions(request):
    rng = np.random.default_rng(_seed(request))
    a = _rand((6, 2, 3), np.dtype("d"), rng)
    d = cuarray.asarray(a)
    _close(la.tensorinv(d, ind=1), np.linalg.tensorinv(a, ind=1), np.dtype("d"), "tensorinv")
    a4 = _rand((2, 3, 6), np.dtype("d"), rng)
    b = _rand((2, 3), np.dtype("d"), rng)
    _close(la.tensorsolve(cuarray.asarray(a4), cuarray.asarray(b)), np.linalg.tensorsolve(a4, b), np.dtype("d"), "ts")
    _close(la.trace(d), np.linalg.trace(a), np.dtype("d"), "trace")
    _close(la.diagonal(d, offset=1), np.linalg.diagonal(a, offset=1), np.dtype("d"), "diagonal")


def test_other_stream():
    a = np.eye(3) * 2 + 0.1
    s = cuarray.cuda.Stream()
    with s:
        x = la.inv(cuarray.asarray(a))
        w = la.eigvalsh(cuarray.asarray(a))
    s.synchronize()
    _close(x, np.linalg.inv(a), np.dtype("d"), "inv on stream")
    _close(w, np.linalg.eigvalsh(a), np.dtype("d"), "eigvalsh on stream")


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_deprecated_qr_modes_and_lower_case_uplo_as_numpy(dt):
    """NumPy 2 still takes qr's 'full'/'f' (as 'reduced') and 'economic'/'e' (the factored matrix)
    with a DeprecationWarning, and either case of UPLO: cuarray raised ValueError for both."""
    rng = np.random.default_rng()
    h = _rand((2, 5, 3), dt, rng)
    a = cuarray.asarray(h)
    for mode in ("full", "f"):
        with pytest.warns(DeprecationWarning):
            q, r = la.qr(a, mode=mode)
        assert q.shape == (2, 5, 3) and r.shape == (2, 3, 3)
        np.testing.assert_allclose(_host(q @ r), h, rtol=tol(dt), atol=tol(dt))
    for mode in ("economic", "e"):
        with pytest.warns(DeprecationWarning):
            got = la.qr(a, mode=mode)
        with pytest.warns(DeprecationWarning):
            want = np.linalg.qr(h, mode=mode)
        assert got.shape == want.shape and got.dtype == want.dtype
        # R (upper triangle) is unique up to the signs of its rows; LAPACK's and cuSOLVER's agree
        np.testing.assert_allclose(np.abs(np.triu(_host(got))[..., :3, :]), np.abs(np.triu(want)[..., :3, :]),
                                   rtol=tol(dt), atol=tol(dt))
    s = _rand((4, 4), dt, rng)
    s = s + s.conj().T
    for uplo in ("l", "u"):
        np.testing.assert_allclose(_host(la.eigvalsh(cuarray.asarray(s), UPLO=uplo)), np.linalg.eigvalsh(s, UPLO=uplo),
                                   rtol=tol(dt), atol=tol(dt))
        np.testing.assert_allclose(_host(la.eigh(cuarray.asarray(s), UPLO=uplo)[0]), np.linalg.eigh(s, UPLO=uplo)[0],
                                   rtol=tol(dt), atol=tol(dt))


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_rank_of_matrices_past_32_columns_with_zero_columns(request, dt):
    """matrix_rank, lstsq's rank and pinv of rank-2 matrices of more than 32 columns (one matrix and
    a stack): NumPy's rank and pinv (gesvdp's perturbation left their zero singular values ~1e-11
    of the largest, counted and inverted)."""
    rng = np.random.default_rng(_seed(request))
    for shape in [(40, 33), (33, 40), (2, 40, 36)]:
        a = _rand(shape, dt, rng)
        a = a @ np.diag([1, 1] + [0] * (shape[-1] - 2)).astype(dt)
        d = cuarray.asarray(a)
        what = "{} {}".format(shape, dt)
        np.testing.assert_array_equal(_host(la.matrix_rank(d)), np.linalg.matrix_rank(a), err_msg=what)
        _close(la.pinv(d), np.linalg.pinv(a), dt, "pinv " + what)
        if len(shape) == 2:
            b = _rand(shape[:1], dt, rng)
            assert int(la.lstsq(d, cuarray.asarray(b))[2]) == np.linalg.lstsq(a, b)[2] == 2, what


@pytest.mark.parametrize("dt", [np.dtype("f"), np.dtype("F")], ids=str)
def test_lstsq_single_precision_rank_and_residuals_as_numpy(request, dt):
    """NumPy solves float32/complex64 in double with the cutoff eps(float64) * max(M, N): graded
    matrices whose smallest singular values (1e-7 to 1e-11 of the largest) lie under float32's eps
    have full rank and residuals there (fuzz seed 12: cuarray gave a lower rank and no residuals);
    an exactly rank-deficient small-integer matrix keeps NumPy's lower rank."""
    rng = np.random.default_rng(_seed(request))
    for sv, m, k in [([1.0, 0.25, 3.6e-5, 2.5e-9], 7, 1), ([1e-2, 3e-6, 1e-10, 1.6e-11], 5, 2),
                     ([1.0, 1e-7, 1e-7], 4, 1), ([32.9, 8.3e-9], 3, 1), ([27.0, 2.8e-7, 1.9e-7, 1.3e-7, 4.9e-8], 7, 2)]:
        n = len(sv)
        a = ((np.linalg.qr(rng.standard_normal((m, n)))[0] * sv) @ np.linalg.qr(rng.standard_normal((n, n)))[0])
        a = a.astype(dt)
        b = _rand((m, k), dt, rng)
        got, want = la.lstsq(cuarray.asarray(a), cuarray.asarray(b)), np.linalg.lstsq(a, b)
        what = "sv={} m={} k={} {}".format(sv, m, k, dt)
        assert int(got[2]) == want[2] == n, (int(got[2]), want[2], what)
        for g, w, name in zip(got[:2] + got[3:], want[:2] + want[3:], ("x", "residuals", "s")):
            assert (g.dtype, g.shape) == (w.dtype, w.shape), (name, g.dtype, g.shape, w.dtype, w.shape, what)
        np.testing.assert_allclose(_host(got[3]), want[3], rtol=1e-5, err_msg=what)
        np.testing.assert_allclose(_host(got[1]), want[1], rtol=1e-3, atol=1e-5 * np.abs(b).max() ** 2, err_msg=what)
    a = rng.integers(-2, 3, (6, 4)).astype(dt)
    a[:, 3] = a[:, 0] - a[:, 1]
    b = _rand((6,), dt, rng)
    got, want = la.lstsq(cuarray.asarray(a), cuarray.asarray(b)), np.linalg.lstsq(a, b)
    assert int(got[2]) == want[2] and got[1].shape == want[1].shape, (int(got[2]), want[2], a)


@pytest.mark.parametrize("rcond", [0.0, -1.0, 1.0, 1.5, 0.3, 0.6, 1e-20, 1e-15])
def test_lstsq_rcond_outside_zero_one_cuts_at_eps(rcond):
    """LAPACK's gelsd (NumPy's lstsq) cuts at float64's eps where rcond <= 0 or >= 1: rcond=0 of a
    matrix whose third singular value is 1e-17 of the first has rank 2 in NumPy, and cuarray took it
    as no cut (rank 3, residuals of shape (1,): fuzz seed 17 index 122). Rows of a diagonal matrix,
    whose singular values every SVD gets exactly."""
    rng = np.random.default_rng(7)
    a = np.zeros((4, 3))
    a[[2, 0, 3], [0, 1, 2]] = [1.0, 0.5, 1e-17]
    b = rng.standard_normal(4)
    got, want = la.lstsq(cuarray.asarray(a), cuarray.asarray(b), rcond=rcond), np.linalg.lstsq(a, b, rcond=rcond)
    assert int(got[2]) == want[2] and got[1].shape == want[1].shape, (rcond, int(got[2]), want[2])
    if want[2] == 2:
        np.testing.assert_allclose(_host(got[0]), want[0], rtol=1e-10)


def test_det_past_the_range_as_numpys_sign_times_exp_logdet(request):
    """NumPy's det is sign * exp(logdet): complex64 matrices of 1e20 entries overflow to +-inf +-infj
    there (fuzz seed 12 index 298: cuarray's product of the pivots gave nan+nanj, inf * 0); an
    overflow the later pivots bring back and an underflow are NumPy's finite values."""
    rng = np.random.default_rng(_seed(request))
    for dt in ("complex64", "complex128"):
        big = 1e20 if dt == "complex64" else 1e150
        a = (_rand((3, 5, 5), np.dtype(dt), rng) * big).astype(dt)
        with np.errstate(all="ignore"):
            want = np.linalg.det(a)
        got = _host(la.det(cuarray.asarray(a)))
        assert got.dtype == want.dtype and np.all(np.isinf(want.real) & np.isinf(want.imag)), want
        np.testing.assert_array_equal(got, want)
    for dt in ("float64", "complex128"):
        for diag in ([1e200, 1e200, 1e-300], [1e-200, 1e-200, 1e300], [-1e200, 1e200, 1e-300]):
            a = np.diag(diag).astype(dt)
            want = np.linalg.det(a)
            got = _host(la.det(cuarray.asarray(a)))
            np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=str((dt, diag)))
