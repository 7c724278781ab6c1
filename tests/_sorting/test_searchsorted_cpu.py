"""searchsorted kernels compile for sm_90 with NVRTC (every dtype, side, sorter), and a NumPy model
of the shared search tree: node j of the first levels is the probe the halving steps reach."""

import numpy as np
import pytest

from cuarray._sorting import searchsorted as ss
from cuarray.cuda import compiler


def test_every_instantiation_compiles():
    names = sorted({ss.kernel_name(np.dtype(c), r, s) for c in "?bhiqBHIQfdFD" for r in (0, 1) for s in (0, 1)})
    cubin, mapping = compiler.compile_cubin(ss._TEMPLATE.read_text(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


def tree_node(j, n):
    base, length = 0, n
    depth = (j + 1).bit_length() - 1
    for d in range(depth - 1, -1, -1):
        half = length >> 1
        if ((j + 1) >> d) & 1:
            base, length = base + half + 1, length - half - 1
        else:
            length = half
    return base, length


@pytest.mark.parametrize("n", [1, 2, 5, 1023, 1024, 5000])
@pytest.mark.parametrize("right", [False, True])
def test_tree_walk_model(n, right):
    a = np.sort(np.random.default_rng(n).integers(0, n // 2 + 1, n))
    for v in list(range(-1, n // 2 + 2)):
        base, length, node = 0, n, 0
        for _ in range(11):
            if length <= 0:
                break
            b2, l2 = tree_node(node, n)
            assert (b2, l2) == (base, length)
            half = length >> 1
            p = a[base + half]
            go = (p <= v) if right else (p < v)
            if go:
                base, length, node = base + half + 1, length - half - 1, 2 * node + 2
            else:
                length, node = half, 2 * node + 1
        while length > 0:
            half = length >> 1
            p = a[base + half]
            if (p <= v) if right else (p < v):
                base, length = base + half + 1, length - half - 1
            else:
                length = half
        assert base == np.searchsorted(a, v, side="right" if right else "left")
