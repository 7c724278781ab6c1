"""vectorize's tracer without a GPU: result dtypes are NumPy's for the same body run on NumPy
scalars, unsupported constructs raise TypeError naming them, and the generated kernels compile
with NVRTC for sm_90."""

import math

import numpy
import pytest

import cuarray
from cuarray._core import tracing
from cuarray._functional import vectorize as V
from cuarray.cuda import compiler


def _trace(fn, *dtypes):
    tr = V._Tracer()
    els = [V._Element(tr, numpy.dtype(d), "v%d" % i) for i, d in enumerate(dtypes)]
    prev = tracing.install(tr)  # (what `vectorize.__call__` does around the function)
    try:
        res = fn(*els)
    finally:
        tracing.uninstall(prev)
    results = res if isinstance(res, tuple) else (res,)
    outs = [V.vectorize._result(tr, r) for r in results]
    return tr, outs


BODIES = [
    ("poly", lambda x, y: 3 * x * x + 2 * y - 1.5),
    ("compare", lambda x, y: (x > y) | (x == 2)),
    ("ufuncs", lambda x, y: cuarray.exp(x) + numpy.sin(y) / cuarray.sqrt(abs(x) + 1)),
    ("division", lambda x, y: x / 3 + x // 2 - y % 5),
    ("power", lambda x, y: x ** 2 + 2 ** y),
    ("unary", lambda x, y: -x + (+y)),
    ("clip", lambda x, y: cuarray.clip(x, -1, 1) * y),
    ("divmod", lambda x, y: divmod(x, 3)),
    ("const", lambda x, y: 7),
    ("identity", lambda x, y: x),
]
DTYPES = [("f4", "f4"), ("f8", "i4"), ("i8", "i8"), ("i2", "u1"), ("f2", "f4"), ("c8", "f8")]


@pytest.mark.nvrtc_fast
@pytest.mark.parametrize("dts", DTYPES, ids=lambda d: "-".join(d))
@pytest.mark.parametrize("name,fn", BODIES, ids=[b[0] for b in BODIES])
def test_result_dtypes_are_numpys_and_kernel_compiles(name, fn, dts):
    ref_args = [numpy.ones((), dtype=d)[()] + numpy.ones((), dtype=d)[()] for d in dts]  # NumPy scalars (2)
    try:
        with numpy.errstate(all="ignore"):
            ref = fn(*ref_args) if name not in ("ufuncs", "clip") else _numpy_version(name)(*ref_args)
    except TypeError:
        with pytest.raises(TypeError):
            _trace(fn, *dts)
        return
    ref = ref if isinstance(ref, tuple) else (ref,)
    tr, outs = _trace(fn, *dts)
    assert [o.dtype for o in outs] == [numpy.asarray(r).dtype for r in ref]
    d = V.build_definition("cuarray_vectorize_" + name, tr, [numpy.dtype(x) for x in dts], outs,
                           [o.dtype for o in outs])
    _, src = d.source("nd", 2, numpy.int64)
    cubin, _ = compiler.compile_cubin(src, arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


def _numpy_version(name):
    if name == "ufuncs":
        return lambda x, y: numpy.exp(x) + numpy.sin(y) / numpy.sqrt(abs(x) + 1)
    return lambda x, y: numpy.clip(x, -1, 1) * y


def test_python_constants_are_kernel_arguments():
    tr, outs = _trace(lambda x: x * 2.5 + 1, "f4")
    assert [(n, dt.char) for n, dt, _ in tr.consts] == [("c0", "f"), ("c1", "f")]
    assert [float(v) for _, _, v in tr.consts] == [2.5, 1.0]
    assert outs[0].dtype == numpy.float32


@pytest.mark.parametrize("fn,what", [
    (lambda x: x if x > 0 else -x, "control flow"),
    (lambda x: x > 0 and x < 3, "control flow"),
    (lambda x: max(x, 1), "control flow"),
    (lambda x: math.exp(x), "Python number"),
    (lambda x: int(x), "Python number"),
])
def test_unsupported_constructs_raise_typeerror_naming_them(fn, what):
    with pytest.raises(TypeError, match=what):
        _trace(fn, "f8")


def test_integer_negative_power_is_numpys_error():
    with pytest.raises(ValueError, match="negative integer powers"):
        _trace(lambda x: x ** -1, "i4")


def test_signature_is_not_supported():
    with pytest.raises(NotImplementedError, match="signature"):
        cuarray.vectorize(lambda x: x, signature="(n)->()")


def test_decorator_form_and_doc():
    @cuarray.vectorize(otypes=[numpy.float32])
    def f(x):
        """doc of f"""
        return x + 1

    assert isinstance(f, cuarray.vectorize) and f.__doc__ == "doc of f"
    assert f.otypes == (numpy.dtype(numpy.float32),)


@pytest.mark.parametrize("fn,ufuncs", [
    (lambda x: cuarray.clip(x, -1, 1), ["clip"]),
    (lambda x: cuarray.clip(x, min=-1, max=1), ["clip"]),
    (lambda x: cuarray.clip(x, -1, None), ["maximum"]),
    (lambda x: cuarray.clip(x, max=1), ["minimum"]),
    (lambda x: cuarray.clip(x, -1000, 1), ["minimum"]),  # an int8 bound past the type is dropped
])
def test_clip_of_an_element_is_clipped(fn, ufuncs):
    # `cuarray.clip` hands the tracer min=/max= as numpy._NoValue when not given: they must not
    # replace the positional bounds (the body was traced as the identity, a GPU run caught it).
    tr, outs = _trace(fn, "i1")
    ops = {"clip": "cuarray::clip(", "maximum": "max", "minimum": "min"}
    src = "\n".join(tr.lines)
    assert outs[0].expr != "v0" and all(ops[u] in src for u in ufuncs), src


def test_clip_with_both_bound_spellings_raises_as_numpy():
    with pytest.raises(ValueError):
        numpy.clip(numpy.float32(2), -1, 1, min=0)
    with pytest.raises(ValueError):
        _trace(lambda x: cuarray.clip(x, -1, 1, min=0), "f4")
