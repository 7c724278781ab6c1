"""The C expressions of cuarray.scipy.spatial's ElementwiseKernel/ReductionKernel rows
(_distance_kernels, transform/_rotation_kernels) compiled for the host with g++ and compared with
the NumPy formulas of the host shim (which the host tests compare with SciPy): the same C the GPU
runs, checked on values without a GPU."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import zlib

import numpy as np
import pytest

from cuarray.scipy.spatial import _distance_kernels as K
from cuarray.scipy.spatial.transform import _rotation_kernels as RK

from . import _host_shim

_CT = {"float64": "double", "int32": "int", "T": "double", "V": "double"}
PREAMBLE = ("#include <cmath>\nusing std::fabs; using std::sqrt; using std::pow; using std::log; "
            "using std::copysign; using std::fmax;\ntypedef double T; typedef double V;\n")


def _params(text):
    out = []
    for part in text.split(","):
        typ, name = part.split()
        out.append((_CT[typ], name))
    return out


def _elementwise_source(fn, ins, outs, op):
    """extern "C" fn(in arrays..., out arrays..., n): every input an array (scalars repeated)."""
    pi, po = _params(ins), _params(outs)
    sig = ", ".join(["const {}* {}_".format(t, n) for t, n in pi] + ["{}* {}_".format(t, n) for t, n in po])
    body = " ".join("const {} {} = {}_[i];".format(t, n, n) for t, n in pi)
    body += " " + " ".join("{} {};".format(t, n) for t, n in po)
    body += " {{ {}; }} ".format(op) + " ".join("{}_[i] = {};".format(n, n) for _, n in po)
    return 'extern "C" void {}({}, long n) {{ for (long i = 0; i < n; ++i) {{ {} }} }}\n'.format(fn, sig, body)


def _reduction_source(fn, ins, mapped, red, post, ident):
    """extern "C" fn(x (m, k), y (m, k), [w (k)], [p], d (m), m, k)."""
    pi = _params(ins)
    arrays = [n for _, n in pi if n in ("x", "y", "w")]
    scalars = [n for _, n in pi if n not in ("x", "y", "w")]
    sig = ", ".join(["const double* {}_".format(n) for n in arrays] + ["double {}".format(n) for n in scalars])
    loads = " ".join("const double {0} = {0}_[{1}];".format(n, "j" if n == "w" else "i * k + j") for n in arrays)
    return ('extern "C" void {fn}({sig}, double* d_, long m, long k) {{ for (long i = 0; i < m; ++i) {{ '
            'double a = {ident}; for (long j = 0; j < k; ++j) {{ {loads} const double b = {mapped}; a = {red}; }} '
            'double d; {post}; d_[i] = d; }} }}\n').format(fn=fn, sig=sig, ident=ident, loads=loads, mapped=mapped,
                                                          red=red, post=post)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("no g++ on this machine")
    src = PREAMBLE
    for name, (ins, outs, op, _) in K._EPILOGUES.items():
        src += _elementwise_source("ep_" + name, ins, outs, op)
    for name, (ins, mapped, red, post, ident) in K._REDUCTIONS.items():
        src += _reduction_source("red_" + name, ins, mapped, red, post, ident)
    for name, (ins, outs, op) in RK._ROWS.items():
        src += _elementwise_source("rot_" + name, ins, outs, op)
    d = tmp_path_factory.mktemp("exprs")
    (d / "exprs.cpp").write_text(src)
    subprocess.run([gxx, "-O1", "-std=c++17", "-shared", "-fPIC", str(d / "exprs.cpp"), "-o", str(d / "exprs.so")],
                   check=True)
    return ctypes.CDLL(str(d / "exprs.so"))


def _ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def test_cosine_epilogue(lib):
    r = _rng("ep")
    n = 200
    g, na, nb = r.normal(size=n), r.random(n) + 0.1, r.random(n) + 0.1
    g[:3] = [5.0, -5.0, np.nan]
    out, want = np.empty(n), np.empty(n)
    lib.ep_cosine(_ptr(g), _ptr(na), _ptr(nb), _ptr(out), ctypes.c_long(n))
    _host_shim._epilogue("cosine")(g, na, nb, want)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("code", sorted(K.BOOL_CODES.values()))
def test_bool_epilogue(lib, code):
    r = _rng("bool", code)
    n = 500
    a, b = r.random((n, 7)) > 0.5, r.random((n, 7)) > 0.5
    a[:20] = b[:20] = False  # all-false pairs: 0/0 where SciPy's C gives NaN
    g = (a & b).sum(1).astype(float)
    sa, sb = a.sum(1).astype(float), b.sum(1).astype(float)
    nn = np.full(n, 7.0)
    out, want = np.empty(n), np.empty(n)
    lib.ep_bool(_ptr(g), _ptr(sa), _ptr(sb), _ptr(nn), _ptr(np.full(n, code, np.int32)), _ptr(out), ctypes.c_long(n))
    _host_shim._epilogue("bool")(g, sa, sb, nn, code, want)
    np.testing.assert_allclose(out, want, rtol=1e-15, equal_nan=True)


@pytest.mark.parametrize("name", sorted(K._REDUCTIONS))
def test_pair_reductions(lib, name):
    r = _rng("red", name)
    m, k = 60, 9
    x, y = r.random((m, k)), r.random((m, k))
    x[0] = y[0] = 0.0  # zero terms (canberra's 0/0, jensenshannon's zeros)
    x[1, :3] = y[1, :3]
    if name == "jensenshannon":
        x, y = x / np.maximum(x.sum(1, keepdims=True), 1e-300), y / np.maximum(y.sum(1, keepdims=True), 1e-300)
    w = r.random(k)
    w[2] = 0.0
    if name == "sumsq":  # one input: a row's squared norm
        out = np.empty(m)
        getattr(lib, "red_" + name)(_ptr(np.ascontiguousarray(x)), _ptr(out), ctypes.c_long(m), ctypes.c_long(k))
        want = np.asarray(_host_shim._pair_reduction(name)(x, axis=1))
        np.testing.assert_allclose(out, want, rtol=1e-15, atol=0)
        np.testing.assert_allclose(out, (x * x).sum(axis=1), rtol=1e-15, atol=0)
        return
    args = [_ptr(np.ascontiguousarray(x)), _ptr(np.ascontiguousarray(y))]
    extra = []
    if name.endswith("_w"):
        args.append(_ptr(w))
        extra.append(w[None, None, :])
    if name.startswith("minkowski"):
        args.append(ctypes.c_double(3.5))
        extra.append(3.5)
    out = np.empty(m)
    getattr(lib, "red_" + name)(*args, _ptr(out), ctypes.c_long(m), ctypes.c_long(k))
    # the shim reduces (rows, cols, features) grids: the diagonal pairs are these rows
    want = np.asarray(_host_shim._pair_reduction(name)(x[:, None, :], y[None, :, :], *extra, axis=2))
    np.testing.assert_allclose(out, np.diagonal(want), rtol=1e-13, atol=1e-15, equal_nan=True)


def test_rotation_kernels(lib):
    r = _rng("rot")
    n = 100
    p, q = r.normal(size=(4, n)), r.normal(size=(4, n))
    p /= np.linalg.norm(p, axis=0)
    q /= np.linalg.norm(q, axis=0)
    outs = [np.empty(n) for _ in range(4)]
    lib.rot_compose(*(_ptr(np.ascontiguousarray(v)) for v in (*p, *q)), *(_ptr(o) for o in outs), ctypes.c_long(n))
    want = [np.empty(n) for _ in range(4)]
    _host_shim._rotation_kernel("compose")(*p, *q, *want)
    np.testing.assert_allclose(np.array(outs), np.array(want), rtol=1e-15, atol=1e-15)
    mats = [np.empty(n) for _ in range(9)]
    lib.rot_matrix(*(_ptr(np.ascontiguousarray(v)) for v in p), *(_ptr(o) for o in mats), ctypes.c_long(n))
    from scipy.spatial.transform import Rotation

    want_m = Rotation.from_quat(p.T).as_matrix().reshape(n, 9).T
    np.testing.assert_allclose(np.array(mats), want_m, atol=1e-14)
    v = r.normal(size=(3, n))
    for inverse in (0, 1):
        o = [np.empty(n) for _ in range(3)]
        lib.rot_apply(*(_ptr(np.ascontiguousarray(c)) for c in (*p, *v)), _ptr(np.full(n, inverse, np.int32)),
                      *(_ptr(c) for c in o), ctypes.c_long(n))
        np.testing.assert_allclose(np.array(o).T, Rotation.from_quat(p.T).apply(v.T, inverse=bool(inverse)),
                                   atol=1e-14)
