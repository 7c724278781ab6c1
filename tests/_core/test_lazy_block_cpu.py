"""`with cuarray.lazy():` in C (`_nodecore.BlockFields`, cuarray/_core/_native/block.c) against the
Python methods it stands for (`lazy._enter` / `lazy._exit`, which any block made with arguments
runs): the thread's lazy state, its tracer and the live set after nesting, an exception in the
body, and an evaluation that fails at the end, the same on both paths. The whole loops are compared
in test_fusion_steady_cpu.py."""

import numpy
import pytest

import cuarray as cp
from cuarray._core import tracing
from cuarray._core.fusion import graph as g
from cuarray._core.fusion import lazy_mode as L


def _c_block():
    return cp.lazy()


def _python_block():
    return cp.lazy(evaluate="device")  # (arguments: `_general`, the Python methods)


BLOCKS = [pytest.param(_c_block, id="c-block"), pytest.param(_python_block, id="python-block")]


def _state():
    st = L._threads.st
    return (st.depth, st.host, st.live is None, st.trace is None, tracing.state.tracer is None, len(tracing.active))


def _lazy_value():
    # A lazy array whose evaluation fails without a device (its value is no device array).
    a = numpy.arange(4.0)
    return L.LazyArray(g.Node("array", (), a.shape, a.dtype, value=a)) * 2.0


@pytest.mark.skipif(g.native is None, reason="the node core is not built")
def test_a_plain_block_runs_the_c_methods_and_any_other_the_python_ones():
    assert type(cp.lazy()).__enter__ is g.native.BlockFields.__enter__
    assert type(cp.lazy()).__exit__ is g.native.BlockFields.__exit__
    assert cp.lazy()._general is False
    assert cp.lazy(evaluate="device")._general is True and cp.lazy(evaluate="numpy")._general is True
    assert cp.lazy(lambda x: x)._general is True and cp.lazy(_track=False)._general is True


@pytest.mark.parametrize("outer", BLOCKS)
@pytest.mark.parametrize("inner", BLOCKS)
def test_nested_blocks_install_one_tracer_and_leave_the_thread_as_it_was(outer, inner):
    before = _state()
    assert before == (0, False, True, True, True, 0)
    with outer() as o:
        st = L._threads.st
        assert st.depth == 1 and tracing.state.tracer is st and len(tracing.active) == 1
        live, trace = st.live, st.trace
        assert live is not None and trace is not None
        with inner() as i:
            assert st.depth == 2 and st.live is live and st.trace is trace and len(tracing.active) == 1
        assert i is not None and st.depth == 1 and tracing.state.tracer is st and len(tracing.active) == 1
    assert o is not None
    assert _state() == before


@pytest.mark.parametrize("block", BLOCKS)
def test_an_exception_in_the_body_leaves_the_thread_as_it_was(block):
    before = _state()
    with pytest.raises(KeyError, match="body"):
        with block():
            _lazy_value()
            raise KeyError("body")
    assert _state() == before
    with pytest.raises(KeyError, match="inner"):
        with block():
            with block():
                raise KeyError("inner")
    assert _state() == before


@pytest.mark.parametrize("block", BLOCKS)
def test_an_evaluation_that_fails_at_the_end_raises_and_leaves_the_thread_as_it_was(block):
    before = _state()
    errors = []
    for make in (_c_block, _python_block):  # (the same error from either path)
        try:
            with make():
                y = _lazy_value()
        except Exception as e:  # noqa: BLE001 - what the evaluation raises without a device
            errors.append((type(e), str(e)))
        assert _state() == before
    assert len(errors) == 2 and errors[0] == errors[1], errors
    with pytest.raises(errors[0][0]):
        with block():
            y = _lazy_value()
    assert _state() == before and not y.is_computed


@pytest.mark.parametrize("block", BLOCKS)
def test_numpy_mode_inside_and_around_a_block(block):
    x = numpy.linspace(0.0, 1.0, 5)
    with cp.lazy(evaluate="numpy") as lz:
        a = lz.leaf(x)
        with block():
            y = cp.exp(a) * 2
        assert L._threads.st.host is True
    numpy.testing.assert_allclose(y.numpy(), numpy.exp(x) * 2)
    assert _state() == (0, False, True, True, True, 0)
