"""The GPU 2-D Delaunay core (`_delaunay_gpu.delaunay_2d`) on a device: the same point sets and
checks as its CPU test (test_delaunay_gpu_core_cpu.py, the template built for the host), now with
the kernels' real concurrency: Qhull's triangles (or provably the exact ones), SciPy's neighbours,
the fallback for degenerate sets, and the same result on every call (the picks are deterministic)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy.spatial import _delaunay_gpu as dg  # noqa: E402

from .test_delaunay_gpu_core_cpu import KINDS, _degenerate_sets, _points, check_against_scipy  # noqa: E402


@pytest.mark.parametrize("n", [3, 10, 1000, 50000])
@pytest.mark.parametrize("kind", KINDS)
def test_triangles_are_scipys(kind, n):
    pts = _points(kind, n, 0)
    out = dg.delaunay_2d(cuarray.asarray(pts))
    assert out is not None, "points in general position fell back to Qhull"
    s, nb = (x.get() for x in out)
    check_against_scipy(pts, s, nb)


def test_same_arrays_on_every_call():
    pts = cuarray.asarray(_points("uniform", 100000, 1))
    ref = [x.get() for x in dg.delaunay_2d(pts)]
    for _ in range(3):
        got = [x.get() for x in dg.delaunay_2d(pts)]
        np.testing.assert_array_equal(got[0], ref[0])
        np.testing.assert_array_equal(got[1], ref[1])


@pytest.mark.parametrize("name", list(_degenerate_sets()))
def test_degenerate_inputs_fall_back(name):
    assert dg.delaunay_2d(cuarray.asarray(_degenerate_sets()[name])) is None
