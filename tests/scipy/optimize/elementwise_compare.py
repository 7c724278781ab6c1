"""The comparison of a result object of ours (on the host stand-ins or the device) with SciPy's:
the same fields, the integer fields (status, nit, nfev) and success equal, the floating ones
equal to a few ulps with the same dtype and shape."""

import numpy as np
import scipy

BEFORE_118 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18)


def _fields(res):
    return {k for k in res if not k.startswith("_")}


def assert_same(got, ref, to_host=np.asarray, rtol=None, atol=0.0, exact=True):
    assert _fields(got) == _fields(ref), (sorted(_fields(got)), sorted(_fields(ref)))
    for key in sorted(_fields(ref)):
        gs, rs = (got[key], ref[key]) if isinstance(ref[key], tuple) else ((got[key],), (ref[key],))
        assert len(gs) == len(rs), key
        for g, r in zip(gs, rs):
            g, r = to_host(g), np.asarray(r)
            assert g.shape == r.shape, (key, g.shape, r.shape)
            assert g.dtype == r.dtype, (key, g.dtype, r.dtype)
            if r.dtype.kind in "biu" or exact:
                np.testing.assert_array_equal(g, r, err_msg=key)
            else:
                tol = rtol if rtol is not None else 64 * np.finfo(r.dtype).eps
                np.testing.assert_allclose(g, r, rtol=tol, atol=atol, equal_nan=True, err_msg=key)
