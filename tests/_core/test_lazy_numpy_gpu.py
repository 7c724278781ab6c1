"""The same function on NumPy inputs (`lazy(evaluate="numpy")`: evaluated by NumPy) and on device
inputs (fused kernels) agrees, over every operation lazy mode records (the op table of
test_lazy_numpy_cpu.py), for `@cuarray.lazy` and `@cuarray.fuse`; docs/lazy-numpy.md's device block
runs as written. Fresh random data each run."""

import os
import re

import numpy
import pytest
import test_lazy_numpy_cpu as _cpu  # (the op table; tests/_core is on sys.path, as for every test here)

import cuarray as cp

pytestmark = pytest.mark.gpu


def _tol(dtype):
    return {"float16": 2e-3, "float32": 1e-4}.get(numpy.dtype(dtype).name, 1e-12)


@pytest.mark.parametrize("name,fn", _cpu.OPS, ids=[o[0] for o in _cpu.OPS])
def test_numpy_inputs_and_device_inputs_agree(name, fn):
    arrays = _cpu._inputs()
    f = cp.lazy(lambda *a: fn(cp, *a))
    with numpy.errstate(all="ignore"):
        host = f(*arrays)
        dev = f(*[cp.asarray(a) for a in arrays])
    assert type(host) is numpy.ndarray and type(dev) is cp.ndarray
    assert host.shape == dev.shape and host.dtype == dev.dtype
    got = dev.get()
    if host.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, host)
    else:
        tol = _tol(host.dtype)
        numpy.testing.assert_allclose(got, host, rtol=tol, atol=tol)


def test_fused_function_on_numpy_and_device_inputs():
    rng = numpy.random.default_rng()
    a = rng.standard_normal((300, 70)).astype(numpy.float32)
    b = rng.standard_normal((300, 70)).astype(numpy.float32)

    @cp.fuse(kernel_name="mix")
    def f(x, y, s):
        return cp.sum(cp.tanh(x * y) + s, axis=0), 1 / (1 + cp.exp(-x)) * y

    host = f(a, b, 0.5)
    dev = f(cp.asarray(a), cp.asarray(b), 0.5)
    for h, d in zip(host, dev):
        assert type(h) is numpy.ndarray and type(d) is cp.ndarray and h.dtype == d.dtype
        numpy.testing.assert_allclose(d.get(), h, rtol=1e-5, atol=1e-5)


def test_plain_lazy_mode_refuses_numpy_inputs_on_a_gpu():
    a = numpy.random.default_rng().standard_normal((4, 3)).astype(numpy.float32)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        with cp.lazy():
            cp.dot(a, cp.asarray(a.T))


def test_docs_page_runs_on_the_gpu(capsys):
    doc = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs",
                       "lazy-numpy.md")
    with open(doc) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    env = {}
    exec(compile("".join(blocks), doc, "exec"), env)
    assert "grad_W (64, 128) float32" in capsys.readouterr().out
