"""cuarray.scipy's layout (no GPU): sparse and fft are re-exports of cuarray's own objects, and
`import cuarray` does not import cuarray.scipy."""

from __future__ import annotations

import subprocess
import sys


def test_sparse_is_cuarray_sparse():
    import cuarray.sparse
    import cuarray.sparse.csgraph
    import cuarray.sparse.linalg
    from cuarray.scipy import sparse

    public = [n for n in vars(cuarray.sparse) if not n.startswith("_") and not isinstance(
        getattr(cuarray.sparse, n), type(sys))]
    assert public
    for n in public:
        assert getattr(sparse, n) is getattr(cuarray.sparse, n), n
    for n in vars(cuarray.sparse.linalg):
        if not n.startswith("_") and not isinstance(getattr(cuarray.sparse.linalg, n), type(sys)):
            assert getattr(sparse.linalg, n) is getattr(cuarray.sparse.linalg, n), n
    for n in vars(cuarray.sparse.csgraph):
        if not n.startswith("_") and not isinstance(getattr(cuarray.sparse.csgraph, n), type(sys)):
            assert getattr(sparse.csgraph, n) is getattr(cuarray.sparse.csgraph, n), n


def test_fft_is_the_scipy_backend():
    from cuarray.fft import _scipy_backend
    from cuarray.scipy import fft

    for n in _scipy_backend.__all__:
        assert getattr(fft, n) is getattr(_scipy_backend, n)


def test_import_cuarray_does_not_import_cuarray_scipy():
    code = "import sys, cuarray; print(any(m.startswith('cuarray.scipy') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
