"""The one host-input policy (`cuarray/_core/host_input.py`), across every routine family.

A NumPy array (or a list) passed as array data raises TypeError naming the routine and saying to
call `cuarray.asarray()` first, before anything touches a device: these run in CI with no GPU.
Index arguments (`take`'s indices, `compress`'s condition, `x[[1, 2]]`), shapes and axes stay
host values, as in NumPy. Scalars are accepted where NumPy accepts them (GPU test below).
"""

from __future__ import annotations

import numpy as np
import pytest

import cuarray
from cuarray.cuda import _backend

H = np.arange(6.0).reshape(2, 3)  # host data
HM = np.eye(3)


def _no_memory():
    """A (2, 3) float64 cuarray array with no memory behind it (no device here): a destination."""
    return cuarray.ndarray._view((2, 3), (24, 8), np.dtype(np.float64), None, None)

CASES = [
    ("add", lambda: cuarray.add(H, 1.0)),                     # ufunc
    ("exp", lambda: cuarray.exp(H)),
    ("add.reduce", lambda: cuarray.add.reduce(H)),
    ("sum", lambda: cuarray.sum(H)),                          # reductions
    ("mean", lambda: cuarray.mean(H)),
    ("var", lambda: cuarray.var(H)),
    ("argmax", lambda: cuarray.argmax(H)),
    ("median", lambda: cuarray.median(H)),
    ("isclose", lambda: cuarray.isclose(H, H)),
    ("cumsum", lambda: cuarray.cumsum(H)),                    # scans
    ("diff", lambda: cuarray.diff(H)),
    ("tile", lambda: cuarray.tile(H, 2)),                     # manipulation
    ("repeat", lambda: cuarray.repeat(H, 2)),
    ("concatenate", lambda: cuarray.concatenate([H, H])),
    ("stack", lambda: cuarray.stack([H, H])),
    ("vstack", lambda: cuarray.vstack([H, H])),
    ("pad", lambda: cuarray.pad(H, 1)),
    ("moveaxis", lambda: cuarray.moveaxis(H, 0, 1)),
    ("transpose", lambda: cuarray.transpose(H)),
    ("roll", lambda: cuarray.roll(H, 1)),
    ("flip", lambda: cuarray.flip(H)),
    ("expand_dims", lambda: cuarray.expand_dims(H, 0)),
    ("broadcast_to", lambda: cuarray.broadcast_to(H, (2, 2, 3))),
    ("insert", lambda: cuarray.insert(H, 1, 5.0)),
    ("append", lambda: cuarray.append(H, H)),
    ("delete", lambda: cuarray.delete(H, 1)),
    ("copyto", lambda: cuarray.copyto(_no_memory(), H)),
    ("take", lambda: cuarray.take(H, [0])),                   # indexing routines
    ("choose", lambda: cuarray.choose(np.array([0, 1]), [H[0, :2], H[1, :2]])),
    ("diagonal", lambda: cuarray.diagonal(H)),
    ("tril", lambda: cuarray.tril(HM)),                       # creation from data
    ("diagflat", lambda: cuarray.diagflat(HM)),
    ("vander", lambda: cuarray.vander(H[0])),
    ("where", lambda: cuarray.where(H > 0, 1, 2)),            # sorting, searching, sets
    ("sort", lambda: cuarray.sort(H)),
    ("searchsorted", lambda: cuarray.searchsorted(H[0], 1.0)),
    ("unique", lambda: cuarray.unique(H)),
    ("isin", lambda: cuarray.isin(H, H)),
    ("histogram", lambda: cuarray.histogram(H)),
    ("matmul", lambda: cuarray.matmul(HM, HM)),               # linear algebra
    ("linalg.solve", lambda: cuarray.linalg.solve(HM, HM[0])),
    ("fft.fft", lambda: cuarray.fft.fft(H)),                  # fft
]


@pytest.mark.parametrize("name,call", CASES, ids=[c[0] for c in CASES])
def test_host_array_raises_typeerror_naming_the_routine(name, call):
    with pytest.raises(TypeError) as info:
        call()
    msg = str(info.value)
    assert "cuarray.{}: unsupported input".format(name) in msg and "cuarray.asarray()" in msg, msg


def test_lists_are_host_data_too():
    with pytest.raises(TypeError, match=r"cuarray.concatenate: .*list"):
        cuarray.concatenate([[1, 2], [3]])
    with pytest.raises(TypeError, match=r"cuarray.exp: .*list"):
        cuarray.exp([1.0, 2.0])


def test_message_says_what_to_do():
    from cuarray._core import host_input

    err = host_input.reject(H, "tile")
    assert isinstance(err, TypeError)
    assert str(err).startswith("cuarray.tile: unsupported input of type numpy.ndarray")
    assert "call cuarray.asarray() on it first" in str(err)
    assert host_input.is_scalar(1.5) and host_input.is_scalar(np.float32(1)) and not host_input.is_scalar(H)
    assert not host_input.is_scalar(np.array(1.0))  # a 0-d NumPy array is host data


@pytest.mark.gpu
@pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason()))
def test_scalars_and_index_parameters_are_accepted():
    x = cuarray.asarray(H)
    assert cuarray.tile(2.0, 3).get().tolist() == [2.0, 2.0, 2.0]
    assert cuarray.cumsum(5).get().tolist() == [5]
    assert cuarray.sum(np.float32(2)).get() == 2
    np.testing.assert_array_equal(cuarray.take(x, [0, 2], axis=1).get(), H[:, [0, 2]])
    np.testing.assert_array_equal(cuarray.compress([True, False], x, axis=0).get(), H[:1])
    np.testing.assert_array_equal(x[[1, 0]].get(), H[[1, 0]])
    np.testing.assert_array_equal(cuarray.insert(x, 1, 7.0, axis=1).get(), np.insert(H, 1, 7.0, axis=1))


# -- the parameter-like exception (CuPy's): host sequences copied, data arguments still refused ----

@pytest.mark.parametrize("value", [[1.0, 2.0], (1, 2, 3), np.arange(4), [[1, 2], [3, 4]]])
def test_as_parameter_copies_host_sequences(monkeypatch, value):
    from cuarray._core import host_input

    seen = []
    monkeypatch.setattr(host_input, "from_host", lambda h: seen.append(h) or "device")
    assert host_input.as_parameter(value, "diag") == "device"
    np.testing.assert_array_equal(seen[0], np.asarray(value))


@pytest.mark.parametrize("value", [[[1, 2], [3]], [object()], {"a": 1}, "abc"])
def test_as_parameter_refuses_ragged_objects_and_others(value):
    from cuarray._core import host_input

    with pytest.raises(TypeError):
        host_input.as_parameter(value, "diag")


# -- the SciPy wing's data arguments: Python literals copied, NumPy arrays refused -----------------

@pytest.mark.parametrize("value", [[1.0, 2.0], (1, 2, 3), [[1, 2], [3, 4]]])
def test_as_literal_or_array_copies_python_literals(monkeypatch, value):
    from cuarray._core import host_input

    seen = []
    monkeypatch.setattr(host_input, "from_host", lambda h: seen.append(h) or "device")
    assert host_input.as_literal_or_array(value, "czt") == "device"
    np.testing.assert_array_equal(seen[0], np.asarray(value))


@pytest.mark.parametrize("value", [np.arange(4), np.ones((2, 2)), [[1, 2], [3]], {"a": 1}, "abc"])
def test_as_literal_or_array_refuses_host_arrays_and_others(value):
    from cuarray._core import host_input

    with pytest.raises(TypeError, match="czt"):
        host_input.as_literal_or_array(value, "czt")
