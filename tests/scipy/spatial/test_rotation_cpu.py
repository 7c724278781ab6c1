"""cuarray.scipy.spatial.transform without a GPU: Rotation's and Slerp's signatures against the
installed SciPy (names, kinds, defaults), argument errors raised before device work, and the
rotation kernels compiled by NVRTC for sm_90."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

st = pytest.importorskip("scipy.spatial.transform")

from cuarray.scipy.spatial import transform as ct  # noqa: E402
from cuarray.scipy.spatial.transform import _rotation_kernels as K  # noqa: E402

METHODS = """__init__ from_quat from_matrix from_rotvec from_euler from_davenport from_mrp as_quat as_matrix
as_rotvec as_euler as_davenport as_mrp concatenate apply __mul__ __pow__ inv magnitude approx_equal mean reduce
create_group __getitem__ __setitem__ identity random align_vectors __len__""".split()


def _params(f):
    # (SciPy's rng transition decorator adds a `random_state` keyword to `random`'s signature: ours too)
    return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]


@pytest.mark.parametrize("name", METHODS)
def test_rotation_signature_is_scipys(name):
    assert _params(getattr(ct.Rotation, name)) == _params(getattr(st.Rotation, name))


@pytest.mark.parametrize("name", ["__init__", "__call__"])
def test_slerp_signature_is_scipys(name):
    assert _params(getattr(ct.Slerp, name)) == _params(getattr(st.Slerp, name))


def test_properties():
    for name in ("single", "shape"):
        assert isinstance(inspect.getattr_static(ct.Rotation, name), property)


CASES = {
    "euler-seq-long": lambda R: R.from_euler("xyzx", [1.0, 2.0, 3.0, 4.0]),
    "euler-seq-letters": lambda R: R.from_euler("xyw", [1.0, 2.0, 3.0]),
    "euler-seq-mixed": lambda R: R.from_euler("xYz", [1.0, 2.0, 3.0]),
    "euler-seq-repeat": lambda R: R.from_euler("xxz", [1.0, 2.0, 3.0]),
    "identity-both": lambda R: R.identity(2, shape=(2,)),
    "identity-shape": lambda R: R.identity(shape=[2]),
    "random-both": lambda R: R.random(2, shape=(2,)),
    "concatenate-type": lambda R: R.concatenate([1, 2]),
    "slerp-type": lambda R: (ct.Slerp if R is ct.Rotation else st.Slerp)([0, 1], "x"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_errors_are_scipys(case):
    with pytest.raises(Exception) as ours:
        CASES[case](ct.Rotation)
    with pytest.raises(Exception) as theirs:
        CASES[case](st.Rotation)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)


@pytest.mark.parametrize("name", sorted(K._ROWS))
@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=["f4", "f8"])
def test_kernels_compile(name, dt):
    compiler = pytest.importorskip("cuarray.cuda.compiler")
    try:
        compiler.compile_cubin('extern "C" __global__ void k() {}', arch="sm_90")
    except Exception as exc:  # no NVRTC on this machine
        pytest.skip("NVRTC unavailable: {}".format(exc))
    d = np.dtype(dt)
    pin, pout, _ = K._ROWS[name]
    ins = tuple(None if p.split()[0] == "int32" else d for p in pin.split(","))
    bound = {"T": d, "V": d} if name in ("apply", "rigid_apply") else {"T": d}
    definition = K.definition(name, ins, (d,) * len(pout.split(",")), bound)
    for layout, nd, it in (("flat", 1, np.int32), ("nd", 2, np.int64)):
        compiler.compile_cubin(definition.source(layout, nd, it)[1], arch="sm_90")
