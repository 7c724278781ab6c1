"""geometric_transform and watershed_ift without a device, against scipy.ndimage on the host:
signatures (SciPy 1.18's, under 1.17 and 1.18), argument errors (SciPy's exception types), and
the device code paths with NumPy standing for cuarray (`cuarray.testing.fake_device.host_modules`):
geometric_transform's coordinates (one mapping call per point, SciPy's order and arguments; the
ElementwiseKernel form with a NumPy kernel) handed to SciPy's own map_coordinates, whose device
twin the interpolation tests check; watershed_ift's copies to and from SciPy on the host. The
ElementwiseKernel form also runs on the fake device (launches recorded) and its kernel compiles
for sm_90 with NVRTC."""

import ctypes
import inspect
import math

import numpy as np
import pytest
import scipy
import scipy.ndimage as snd

import cuarray
from cuarray.cuda import compiler
from cuarray.scipy import ndimage as cnd
from cuarray.testing.fake_device import host_module, host_modules

RNG = np.random.default_rng(1234)
MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap", "grid-wrap"]


def _params(f):
    return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]


@pytest.mark.parametrize("name", ["geometric_transform", "vectorized_filter", "watershed_ift"])
def test_signatures_are_scipy_118s(name):
    # SciPy 1.17 and 1.18 agree on the three (checked under both venvs); 1.18's is the reference
    ref = {
        "geometric_transform": "(input, mapping, output_shape=None, output=None, order=3, mode='constant', cval=0.0, "
                               "prefilter=True, extra_arguments=(), extra_keywords=None)",
        "vectorized_filter": "(input, function, *, size=None, footprint=None, output=None, mode='reflect', cval=None, "
                             "origin=None, axes=None, batch_memory=1073741824)",
        "watershed_ift": "(input, markers, structure=None, output=None)",
    }[name]
    assert str(inspect.signature(getattr(cnd, name))) == ref
    assert _params(getattr(cnd, name)) == _params(getattr(snd, name))


# cupyx.scipy.ndimage's keywords that SciPy lacks, accepted with cupyx's defaults (keyword-only,
# after SciPy's parameters; docs/scipy-ndimage-signal.md, "cupyx's keywords")
CUPYX_KEYWORDS = {
    "affine_transform": [("texture_memory", False), ("float64_coords", False)],
    "distance_transform_edt": [("block_params", None), ("float64_distances", True)],
    "value_indices": [("adaptive_index_dtype", False)],
}


def test_every_public_name_of_scipy_ndimage_exists_with_its_signature():
    missing = [n for n in snd.__all__ if not hasattr(cnd, n)]
    assert missing == []
    kw = inspect.Parameter.KEYWORD_ONLY
    expected = {n: _params(getattr(snd, n)) + [(k, kw, d) for k, d in CUPYX_KEYWORDS.get(n, [])] for n in snd.__all__}
    assert {n: _params(getattr(cnd, n)) for n in snd.__all__ if _params(getattr(cnd, n)) != expected[n]} == {}


# -- geometric_transform ---------------------------------------------------------------------------
class _Param:
    def __init__(self, dtype):
        self.dtype, self.raw = np.dtype(dtype), False


class NumpyKernel:
    """A NumPy stand-in for a cuarray.ElementwiseKernel: nin inputs broadcast, nout outputs of
    `out_dtype` from `fn` (into output arrays when given, as the engine's), every call recorded."""

    def __init__(self, nin, nout, fn, name="np_mapping", out_dtype=np.float64):
        self.nin, self.nout, self.fn, self.name = nin, nout, fn, name
        self.out_params = [_Param(out_dtype)] * nout
        self.calls = []

    def __call__(self, *args):
        assert len(args) in (self.nin, self.nin + self.nout)
        ins, outs = args[:self.nin], args[self.nin:]
        self.calls.append((ins, outs))
        shape = np.broadcast_shapes(*[np.shape(a) for a in ins])
        vals = [np.broadcast_to(np.asarray(v).astype(self.out_params[0].dtype), shape)
                for v in self.fn(*np.broadcast_arrays(*[np.asarray(a) for a in ins]))]
        if outs:
            for o, v in zip(outs, vals):
                if o.shape != shape:
                    raise ValueError("Out shape is mismatched")
                assert o.dtype == v.dtype
                o[...] = v
            return outs if self.nout > 1 else outs[0]
        return tuple(v.copy() for v in vals) if self.nout > 1 else vals[0].copy()


@pytest.fixture(scope="module")
def hg():
    """A private copy of `_geometric` with NumPy arrays for cuarray's and SciPy's map_coordinates
    for the device's (which the interpolation tests check against it)."""
    from cuarray.scipy.ndimage import _geometric, _support

    def map_coordinates(x, coords, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
        assert type(coords) is np.ndarray and coords.dtype == np.float64 and coords.shape[0] == x.ndim
        return snd.map_coordinates(x, coords, output=output, order=order, mode=mode, cval=cval, prefilter=prefilter)

    def copyto(d, s):
        np.copyto(d, s, casting="unsafe")

    return host_modules({
        _support: dict(as_array=lambda x, fn: np.asarray(x), ndarray=np.ndarray, copyto_unchecked=copyto),
        _geometric: dict(map_coordinates=map_coordinates, from_host=lambda a: np.array(a), copyto_unchecked=copyto,
                         ndarray=lambda shape, dt: np.empty(shape, dt), _arange=np.arange,
                         _ElementwiseKernel=NumpyKernel),
    })[_geometric]


MAPPINGS = [  # (input shape, output_shape, mapping)
    ((13, 17), None, lambda p: (p[0] - 0.3, p[1] + 0.7)),
    ((13, 17), (9, 21), lambda p: (0.9 * p[0] + 0.2 * math.sin(p[1]), p[1] * 0.75 - 1.5)),
    ((19,), (4, 6), lambda p: (p[0] * 3.5 + 0.25 * p[1] - 2,)),
    ((5, 6, 7), (11,), lambda p: (p[0] * 0.4, 2.5 - p[0] * 0.1, np.float32(p[0]) / 2)),
    ((5, 6, 7), None, lambda p: (p[0] + 0.5, p[2] * 0.8, p[1] - 0.25, "ignored")),  # items past the rank unread
    ((8, 9), None, lambda p: (p[1], True)),  # ints and bools are numbers
]


@pytest.mark.parametrize("case", range(len(MAPPINGS)))
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
def test_geometric_transform_python_mapping(hg, case, order):
    shape, oshape, mapping = MAPPINGS[case]
    x = RNG.normal(size=shape) * 10
    for mode in MODES:
        for prefilter in (True, False):
            kw = dict(output_shape=oshape, order=order, mode=mode, cval=1.25, prefilter=prefilter)
            np.testing.assert_array_equal(hg.geometric_transform(x, mapping, **kw),
                                          snd.geometric_transform(x, mapping, **kw))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.uint8, np.complex128])
def test_geometric_transform_dtypes_and_outputs(hg, dtype):
    x = RNG.normal(size=(10, 12)) * 40
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape)
    x = (np.abs(x) if np.dtype(dtype).kind == "u" else x).astype(dtype)

    def m(p):
        return (p[0] * 0.8 + 0.3, p[1] * 1.1 - 0.4)

    outs = ("complex128", "complex64") if x.dtype.kind == "c" else ("float64", "float32")
    for kw in (dict(), dict(output=np.dtype(outs[0])), dict(output=outs[1]), dict(output_shape=(7, 15), mode="wrap")):
        got, ref = hg.geometric_transform(x, m, **kw), snd.geometric_transform(x, m, **kw)
        assert got.dtype == ref.dtype
        np.testing.assert_array_equal(got, ref)
    out, ref_out = (np.zeros((12, 10), np.complex128 if x.dtype.kind == "c" else np.float64).T for _ in range(2))
    assert hg.geometric_transform(x, m, output=out, order=2) is out  # a given (non-contiguous) array, filled
    snd.geometric_transform(x, m, output=ref_out, order=2)
    np.testing.assert_array_equal(out, ref_out)


def ref_values(x, kw):
    return snd.geometric_transform(x, lambda p, a, b=0.0, *, c: (p[0] + a, p[1] - b * c), **kw)


def test_geometric_transform_calls_mapping_as_scipy(hg):
    x = RNG.normal(size=(3, 4))
    seen, ref = [], []

    def record(into):
        def mapping(p, a, b=0.0, *, c):
            into.append((p, a, b, c))
            assert type(p) is tuple and all(type(v) is int for v in p)
            return (p[0] + a, p[1] - b * c)
        return mapping

    kw = dict(output_shape=(2, 5), extra_arguments=(0.5,), extra_keywords={"b": 0.25, "c": 2})
    np.testing.assert_array_equal(hg.geometric_transform(x, record(seen), **kw),
                                  snd.geometric_transform(x, record(ref), **kw))
    assert seen == ref and len(seen) == 10  # one call per output point, in C order
    with pytest.MonkeyPatch.context() as mp:  # (the private copy's chunk of points: 3 a chunk)
        mp.setattr(hg, "_HOST_CHUNK", 3)
        np.testing.assert_array_equal(hg.geometric_transform(x, record(seen), **kw), ref_values(x, kw))
        odd = [(p[0] - 0.5, np.float16(p[1]) / 3) if p[0] % 2 else (p[0] + 0.25, p[1]) for p in np.ndindex(2, 5)]
        np.testing.assert_array_equal(hg.geometric_transform(x, lambda p: odd[p[0] * 5 + p[1]], output_shape=(2, 5)),
                                      snd.geometric_transform(x, lambda p: odd[p[0] * 5 + p[1]], output_shape=(2, 5)))
    seen.clear()
    assert hg.geometric_transform(x, record(seen), output_shape=(0, 5), **{k: kw[k] for k in kw if k != "output_shape"}
                                  ).shape == (0, 5)
    assert seen == []  # no output point: no call


def test_geometric_transform_complex_computes_coordinates_once(hg):
    x = RNG.normal(size=(4, 5)) + 1j * RNG.normal(size=(4, 5))
    calls = []

    def m(p):
        calls.append(p)
        return (p[0] - 0.5, p[1] * 0.9)

    ref = snd.geometric_transform(x, lambda p: (p[0] - 0.5, p[1] * 0.9), cval=1 + 2j, mode="grid-constant")
    np.testing.assert_array_equal(hg.geometric_transform(x, m, cval=1 + 2j, mode="grid-constant"), ref)
    assert len(calls) == x.size  # (SciPy calls it twice per point: once a part)
    with pytest.warns(UserWarning, match="promoting specified output dtype to complex"):
        got = hg.geometric_transform(x, m, output=np.float64)
    with pytest.warns(UserWarning, match="promoting specified output dtype to complex"):
        np.testing.assert_array_equal(got, snd.geometric_transform(x, m, output=np.float64))


def _short(p):
    return (p[0],)


def _raises(p):
    raise ZeroDivisionError("from the mapping")


BAD_GT = [
    (lambda m, x: m.geometric_transform(x, lambda p: [p[0], p[1]]), "returns a list"),
    (lambda m, x: m.geometric_transform(x, _short), "short tuple"),
    (lambda m, x: m.geometric_transform(x, lambda p: np.array(p, float)), "returns an array"),
    (lambda m, x: m.geometric_transform(x, lambda p: 3.0), "returns a float"),
    (lambda m, x: m.geometric_transform(x, lambda p: (p[0], "1.5")), "a string coordinate"),
    (lambda m, x: m.geometric_transform(x, lambda p: (p[0], None)), "None coordinate"),
    (lambda m, x: m.geometric_transform(x, lambda p: (p[0], 1j)), "complex coordinate"),
    (lambda m, x: m.geometric_transform(x, _raises), "the mapping raises"),
    (lambda m, x: m.geometric_transform(x, 5), "not callable"),
    (lambda m, x: m.geometric_transform(x, lambda p: p, extra_arguments=[1]), "extra_arguments list"),
    (lambda m, x: m.geometric_transform(x, lambda p: p, extra_keywords=[1]), "extra_keywords list"),
    (lambda m, x: m.geometric_transform(x, lambda p, k: p), "missing argument"),
    (lambda m, x: m.geometric_transform(x, lambda p: p, order=6), "order 6"),
    (lambda m, x: m.geometric_transform(x, lambda p: p, order=-1), "order -1"),
    (lambda m, x: m.geometric_transform(x, lambda p: p, mode="bogus"), "mode"),
    (lambda m, x: m.geometric_transform(x, lambda p: p, mode="bogus", order=1), "mode order 1"),
    (lambda m, x: m.geometric_transform(x, lambda p: p, output_shape=()), "output rank 0"),
    (lambda m, x: m.geometric_transform(x[0, 0], lambda p: p), "input rank 0"),
    (lambda m, x: m.geometric_transform(x, lambda p: p, output=np.zeros((2, 2))), "output shape"),
    (lambda m, x: m.geometric_transform(x + 1j, lambda p: p, output=np.zeros(x.shape)), "complex into real"),
    (lambda m, x: m.geometric_transform(x.astype(np.float16), lambda p: p), "float16"),
    (lambda m, x: m.geometric_transform(x, lambda p: p, output="bool_"), "output not numeric"),
]


@pytest.mark.parametrize("call,what", BAD_GT, ids=[b[1] for b in BAD_GT])
def test_geometric_transform_errors_are_scipys(hg, call, what):
    x = RNG.normal(size=(4, 5))
    with pytest.raises(Exception) as ref:
        call(snd, x)
    with pytest.raises(ref.type):
        call(hg, x)


def test_geometric_transform_refuses_host_data_and_low_level_callables(hg):
    with pytest.raises(TypeError, match="geometric_transform"):
        cnd.geometric_transform(np.ones((3, 3)), lambda p: p)  # the host-input policy (no device needed)
    proto = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_long), ctypes.POINTER(ctypes.c_double),
                             ctypes.c_int, ctypes.c_int, ctypes.c_void_p)

    @proto
    def identity(ocoor, icoor, orank, irank, data):
        for i in range(irank):
            icoor[i] = ocoor[i]
        return 1

    llc = scipy.LowLevelCallable(identity)
    x = RNG.normal(size=(3, 4))
    np.testing.assert_array_equal(snd.geometric_transform(x, llc, order=1), x)  # (SciPy takes it)
    with pytest.raises(TypeError, match="LowLevelCallable"):
        hg.geometric_transform(x, llc)


def test_geometric_transform_elementwise_kernel_form(hg):
    """The kernel gets the output grid as broadcast int64 ranges, then the extra arguments; its
    outputs are the coordinates: the same result as SciPy's per-point mapping."""
    x = RNG.normal(size=(9, 11)) * 3
    field = RNG.uniform(-1, 1, size=(7, 12))
    k = NumpyKernel(4, 2, lambda i, j, f, s: (i * 1.2 - f, j * s + 0.3))
    for order in (0, 1, 3, 5):
        for mode in MODES:
            kw = dict(output_shape=(7, 12), order=order, mode=mode, cval=-1.0)
            got = hg.geometric_transform(x, k, extra_arguments=(field, 0.85), **kw)
            ref = snd.geometric_transform(x, lambda p, f, s: (p[0] * 1.2 - f[p], p[1] * s + 0.3),
                                          extra_arguments=(field, 0.85), **kw)
            np.testing.assert_array_equal(got, ref)
    (i, j, f, s), outs = k.calls[0]
    assert i.dtype == j.dtype == np.int64 and i.shape == (7, 1) and j.shape == (1, 12)
    assert f is field and s == 0.85
    assert len(outs) == 2 and all(o.dtype == np.float64 and o.shape == (7, 12) for o in outs)  # written in place
    f4 = NumpyKernel(2, 2, lambda i, j: (i * 0.5 + 0.25, j * 0.75 - 1), out_dtype=np.float32)  # values exact in f4
    np.testing.assert_array_equal(hg.geometric_transform(x, f4, order=3, mode="mirror"),
                                  snd.geometric_transform(x, lambda p: (p[0] * 0.5 + 0.25, p[1] * 0.75 - 1), order=3,
                                                          mode="mirror"))
    assert f4.calls[0][1] == ()  # float32 outputs: allocated by the kernel, then cast
    one = NumpyKernel(1, 3, lambda i: (i * 0.5, 1.5 + 0 * i, 7 - i * 0.75))  # orank 1 -> irank 3
    y = RNG.normal(size=(4, 5, 9))
    np.testing.assert_array_equal(hg.geometric_transform(y, one, output_shape=(10,), order=2),
                                  snd.geometric_transform(y, lambda p: (p[0] * 0.5, 1.5, 7 - p[0] * 0.75),
                                                          output_shape=(10,), order=2))


def test_geometric_transform_elementwise_kernel_errors(hg):
    x = np.ones((4, 5))
    k = NumpyKernel(2, 2, lambda i, j: (i, j))
    with pytest.raises(TypeError, match="extra_keywords"):
        hg.geometric_transform(x, k, extra_keywords={"a": 1})
    with pytest.raises(TypeError, match="takes 3 inputs"):
        hg.geometric_transform(x, k, extra_arguments=(1.0,))
    with pytest.raises(TypeError, match="has 1 outputs"):
        hg.geometric_transform(np.ones(4), k)
    for dt, msg in ((np.float64, "Out shape is mismatched"), (np.float32, "not the output shape")):
        wide = NumpyKernel(3, 2, lambda i, j, f: (i + f, j), out_dtype=dt)
        with pytest.raises(ValueError, match=msg):
            hg.geometric_transform(x, wide, extra_arguments=(np.zeros((3, 4, 5)),))


SHIFT = cuarray.ElementwiseKernel("int64 r, int64 c, float64 s", "float64 y, float64 x", "y = r - s; x = c * 0.5",
                                  "gt_shift_probe")


@pytest.fixture
def fake_device_geometric(recorded_launches):
    """`_geometric` on the fake device (launches recorded, the real ElementwiseKernel engine), its
    map_coordinates recording the coordinates it is given (the interpolation needs a real upload)."""
    from cuarray.scipy.ndimage import _geometric

    seen = []
    g = host_module(_geometric, {"map_coordinates": lambda x, c, *a: seen.append((x, c, a)) or x})
    return g, seen, recorded_launches


def test_geometric_transform_elementwise_kernel_on_the_fake_device(fake_device_geometric):
    g, seen, launches = fake_device_geometric
    x = cuarray.empty((6, 8), np.float32)
    g.geometric_transform(x, SHIFT, output_shape=(5, 7), extra_arguments=(0.25,), order=1, mode="wrap")
    (xx, coords, rest), = seen
    assert xx is x and isinstance(coords, cuarray.ndarray) and coords.shape == (2, 5, 7)
    assert coords.dtype == np.float64 and coords.flags.c_contiguous
    assert rest == (np.dtype(np.float32), 1, "wrap", 0.0, True)
    mine = [c[2] for c in launches if "gt_shift_probe" in str(c[2][0])]
    assert len(mine) == 1, launches  # one launch writes both coordinates
    with pytest.raises(TypeError, match="takes 2 inputs"):  # before anything is launched
        g.geometric_transform(x, SHIFT)
    (d,) = SHIFT._defs.values()  # the launched kernel as NVRTC builds it for an H100/H200
    _, layout, nd, it = mine[0]
    name, src = d.source(layout, nd, it)
    cubin, _ = compiler.compile_cubin(src, arch="sm_90", name_expressions=[name])
    assert cubin


# -- watershed_ift -----------------------------------------------------------------------------------
class Dev(np.ndarray):
    """A NumPy array standing for a cuarray one: `get()` copies (and is counted)."""

    gets = 0

    def get(self):
        Dev.gets += 1
        return np.array(self, copy=True).view(np.ndarray)


@pytest.fixture(scope="module")
def hw():
    from cuarray.scipy.ndimage import _support, _watershed

    def as_array(x, fn):
        if not isinstance(x, np.ndarray):
            raise TypeError("{}: host data".format(fn))
        return x if isinstance(x, Dev) else x.view(Dev)

    def copyto(d, s):
        np.copyto(d, s, casting="unsafe")

    return host_modules({
        _support: dict(as_array=as_array, ndarray=np.ndarray),
        _watershed: dict(as_array=as_array, from_host=lambda a: np.array(a), copyto_unchecked=copyto),
    })[_watershed]


def _ws_case(shape, in_dt, mk_dt, n_markers):
    x = RNG.integers(0, np.iinfo(in_dt).max if in_dt == np.uint8 else 3000, size=shape).astype(in_dt)
    m = np.zeros(shape, mk_dt)
    flat = m.reshape(-1)
    idx = RNG.choice(flat.size, size=n_markers, replace=False)
    flat[idx] = RNG.integers(1, 5, size=n_markers) * RNG.choice([-1, 1], size=n_markers)
    return x, m


@pytest.mark.parametrize("shape", [(1,), (37,), (12, 15), (6, 7, 8)], ids=str)
@pytest.mark.parametrize("in_dt", [np.uint8, np.uint16])
@pytest.mark.parametrize("mk_dt", [np.int8, np.int16, np.int32, np.int64])
def test_watershed_ift_is_scipys(hw, shape, in_dt, mk_dt):
    x, m = _ws_case(shape, in_dt, mk_dt, max(1, min(6, x_size(shape) // 4)))
    for st in (None, np.ones((3,) * len(shape), bool)):
        ref = snd.watershed_ift(x, m, structure=st)
        got = hw.watershed_ift(x.view(Dev), m.view(Dev), structure=st)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        np.testing.assert_array_equal(got, ref)
    out = np.full(shape[::-1], -7, np.int32).T.view(Dev)  # a non-contiguous output array, filled
    assert hw.watershed_ift(x.view(Dev), m.view(Dev), output=out) is out
    np.testing.assert_array_equal(out.view(np.ndarray), snd.watershed_ift(x, m, output=np.empty(shape, np.int32)))
    got = hw.watershed_ift(x.view(Dev), m.view(Dev), output=np.int16)  # (SciPy ignores a dtype: markers')
    assert got.dtype == snd.watershed_ift(x, m, output=np.int16).dtype == mk_dt


def x_size(shape):
    return int(np.prod(shape))


BAD_WS = [
    (lambda m, x, k: m.watershed_ift(x.astype(np.float32), k), "float input"),
    (lambda m, x, k: m.watershed_ift(x.astype(np.int16), k), "int16 input"),
    (lambda m, x, k: m.watershed_ift(x, k.astype(np.uint8)), "unsigned markers"),
    (lambda m, x, k: m.watershed_ift(x, k.astype(np.float64)), "float markers"),
    (lambda m, x, k: m.watershed_ift(x, k[:2]), "markers shape"),
    (lambda m, x, k: m.watershed_ift(x, k, structure=np.ones((3,), bool)), "structure rank"),
    (lambda m, x, k: m.watershed_ift(x, k, structure=np.ones((3, 5), bool)), "structure size"),
    (lambda m, x, k: m.watershed_ift(x, k, output=np.zeros(x.shape, np.float64)), "float output"),
    (lambda m, x, k: m.watershed_ift(x, k, output=np.zeros((2, 2), np.int32)), "output shape"),
]


@pytest.mark.parametrize("call,what", BAD_WS, ids=[b[1] for b in BAD_WS])
def test_watershed_ift_errors_are_scipys(hw, call, what):
    x, m = _ws_case((5, 6), np.uint8, np.int32, 3)
    with pytest.raises(Exception) as ref:
        call(snd, x, m)
    with pytest.raises(ref.type, match=str(ref.value)):
        call(hw, x.view(Dev), m.view(Dev))


def test_watershed_ift_checks_the_input_type_before_copying(hw):
    x, m = _ws_case((5, 6), np.uint8, np.int32, 3)
    Dev.gets = 0
    with pytest.raises(TypeError, match="only 8 and 16 unsigned"):
        hw.watershed_ift(x.astype(np.float64).view(Dev), m.view(Dev))
    assert Dev.gets == 0
    with pytest.raises(TypeError, match="watershed_ift"):
        cnd.watershed_ift(x, m)  # the real module: host data refused (no device needed)
