"""einsum without a GPU: the subscript parser, the path planner against numpy.einsum_path, and the
whole lowering (diagonals, broadcasting, sums, pairwise GEMMs) run with a NumPy backend against
numpy.einsum on random subscripts (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuarray.linalg import _einsum, _einsum_parse, _einsum_path


class NumpyBackend:
    @staticmethod
    def view(x, shape, strides):
        return np.lib.stride_tricks.as_strided(x, tuple(shape), tuple(strides))

    @staticmethod
    def can_reshape(x, shape):
        try:
            np.reshape(x, tuple(shape), copy=False)
            return True
        except ValueError:
            return False

    @staticmethod
    def reshape(x, shape):
        return np.reshape(x, tuple(shape))

    @staticmethod
    def sum(x, axes):
        if not axes:
            return x
        if x.dtype == np.bool_:
            return np.any(x, axis=tuple(axes))
        return np.sum(x, axis=tuple(axes), dtype=x.dtype)

    @staticmethod
    def multiply(x, y):
        return np.logical_and(x, y) if x.dtype == np.bool_ else np.multiply(x, y)

    matmul_calls = []

    @staticmethod
    def matmul(x, y):
        NumpyBackend.matmul_calls.append((x.shape, y.shape))
        return np.matmul(x, y)


def run_einsum(*args, optimize=False):
    subscripts, ops = _einsum_parse.split_operands(args)
    ops = [np.asarray(x) for x in ops]
    shapes = [x.shape for x in ops]
    inputs, output = _einsum_parse.parse(subscripts, shapes)
    sizes = _einsum_parse.label_sizes(inputs, shapes)
    ct = np.result_type(*ops)
    ops = [x.astype(ct) for x in ops]
    path = _einsum.plan(inputs, output, sizes, optimize)
    return _einsum.contract(NumpyBackend, ops, inputs, output, sizes, path)


def _check(got, want):
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


LABELS = "abcdeA"


@st.composite
def einsum_case(draw):
    sizes = {c: draw(st.integers(0 if c == "e" else 1, 3)) for c in LABELS}
    n = draw(st.integers(1, 4))
    terms, shapes = [], []
    ell = draw(st.booleans())
    ell_shape = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    for _ in range(n):
        labels = draw(st.lists(st.sampled_from(LABELS), max_size=4))
        shape = [sizes[c] if not draw(st.integers(0, 5)) == 0 else 1 for c in labels]
        # a repeated label must have one size in its operand
        for i, c in enumerate(labels):
            first = labels.index(c)
            shape[i] = shape[first]
        term = "".join(labels)
        if ell and draw(st.booleans()):
            k = draw(st.integers(0, len(ell_shape)))
            lead = tuple(d if draw(st.booleans()) else 1 for d in ell_shape[len(ell_shape) - k:])
            pos = draw(st.integers(0, len(labels)))
            term = term[:pos] + "..." + term[pos:]
            shape = shape[:pos] + list(lead) + shape[pos:]
        terms.append(term)
        shapes.append(tuple(shape))
    subs = ",".join(terms)
    if draw(st.booleans()):
        used = sorted(set("".join(terms).replace(".", "")))
        out = draw(st.permutations(used))[:draw(st.integers(0, len(used)))]
        subs += "->" + ("..." if ell and "..." in subs and draw(st.booleans()) else "") + "".join(out)
    return subs, shapes


@settings(max_examples=400, deadline=None)
@given(einsum_case(), st.sampled_from(["float64", "int64", "complex128", "bool"]),
       st.sampled_from([False, "greedy", "optimal"]), st.integers(0, 2**32 - 1))
def test_einsum_matches_numpy(case, dtype, optimize, seed):
    subs, shapes = case
    rng = np.random.default_rng(seed)
    ops = [(rng.integers(-5, 5, s) if dtype != "bool" else rng.random(s) < 0.5).astype(dtype)
           for s in shapes]
    try:
        want = np.einsum(subs, *ops)
    except ValueError as e:
        with pytest.raises(ValueError):
            run_einsum(subs, *ops, optimize=optimize)
        return
    _check(run_einsum(subs, *ops, optimize=optimize), want)


@settings(max_examples=300, deadline=None)
@given(einsum_case())
def test_greedy_path_is_numpys(case):
    subs, shapes = case
    ops = [np.ones(s) for s in shapes]
    try:
        want_path, _ = np.einsum_path(subs, *ops, optimize="greedy")
    except ValueError:
        return
    shapes = [x.shape for x in ops]
    try:
        inputs, output = _einsum_parse.parse(subs, shapes)
    except ValueError:  # numpy.einsum_path accepts some subscripts numpy.einsum refuses
        with pytest.raises(ValueError):
            np.einsum(subs, *ops)
        return
    sizes = _einsum_parse.label_sizes(inputs, shapes)
    limit = _einsum.default_memory_limit(inputs, output, sizes)
    # NumPy's rule, stated independently: each term sized by its labels' broadcast sizes
    assert limit == max(int(np.prod([sizes[c] for c in t])) for t in list(inputs) + [output])
    got = ["einsum_path"] + _einsum.plan(inputs, output, sizes, ("greedy", limit))
    assert got == want_path


@settings(max_examples=100, deadline=None)
@given(einsum_case())
def test_optimal_path_costs_no_more_than_numpys(case):
    subs, shapes = case
    if subs.count(",") < 2 or "..." in subs:
        return
    ops = [np.ones(s) for s in shapes]
    try:
        want_path, _ = np.einsum_path(subs, *ops, optimize=("optimal", 10**12))
    except ValueError:
        return
    inputs, output = _einsum_parse.parse(subs, [x.shape for x in ops])
    sizes = _einsum_parse.label_sizes(inputs, [x.shape for x in ops])
    got = _einsum.plan(inputs, output, sizes, "optimal")

    def cost(path):
        sets = [frozenset(t) for t in inputs]
        total = 0
        for pos in path:
            res, sets, removed, idx = _einsum_path.contract_sets(pos, sets, output)
            total += _einsum_path.flop_count(idx, bool(removed), len(pos), sizes)
        return total

    assert cost(got) <= cost(want_path[1:])


def test_sublist_form():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 5))
    _check(run_einsum(a, [0, 1], b, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    c = rng.standard_normal((4, 3))
    _check(run_einsum(a, [Ellipsis, 1], c, [1, Ellipsis]), np.einsum(a, [Ellipsis, 1], c, [1, Ellipsis]))
    _check(run_einsum(a, [0, 1]), np.einsum(a, [0, 1]))


def test_pair_is_one_gemm_without_copies():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((8, 6, 5))
    b = rng.standard_normal((8, 5, 7))
    NumpyBackend.matmul_calls.clear()
    _check(run_einsum("bij,bjk->bik", a, b), np.einsum("bij,bjk->bik", a, b))
    assert NumpyBackend.matmul_calls == [((8, 6, 5), (8, 5, 7))]
    NumpyBackend.matmul_calls.clear()
    a2 = rng.standard_normal((5, 6))
    _check(run_einsum("ji,jk->ik", a2, b[0]), a2.T @ b[0])
    assert NumpyBackend.matmul_calls == [((6, 5), (5, 7))]  # a2.T as a view, not a copy


@pytest.mark.parametrize("subs,shapes", [
    ("ij,jk", [(2, 3), (4, 5)]), ("i1", [(2,)]), ("i.j", [(2, 3)]), ("ii->i", [(2, 3)]),
    ("ij->ii", [(2, 2)]), ("ij->k", [(2, 2)]), ("ijk", [(2, 2)]), ("i", [(2, 2)]),
    ("...i->i", [(2, 3)]), ("i,j", [(2,)]), ("i->i->i", [(2,)]),
])
def test_errors_like_numpy(subs, shapes):
    ops = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError) as np_err:
        np.einsum(subs, *ops)
    with pytest.raises(ValueError):
        run_einsum(subs, *ops)
    del np_err


def test_implicit_output_order():
    assert _einsum_parse.parse("ba,Bc", [(2, 3), (4, 5)])[1] == "Babc"
    inputs, out = _einsum_parse.parse("...a,...a", [(2, 3, 4), (3, 4)])
    assert len(out) == 2 and inputs[1][-1] == "a"


def test_einsum_path_report_format():
    path, text = _einsum.einsum_path.__wrapped__(*[]) if hasattr(_einsum.einsum_path, "__wrapped__") else (None, None)
    del path, text
    inputs, output = _einsum_parse.parse("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)])
    sizes = _einsum_parse.label_sizes(inputs, [(2, 3), (3, 4), (4, 5)])
    p = _einsum.plan(inputs, output, sizes, "greedy")
    text = _einsum_path.report(inputs, output, sizes, p, lambda s: s)
    assert "Complete contraction:  ij,jk,kl->il" in text and "Optimized FLOP count" in text


@pytest.mark.parametrize("subscripts, output", [("ab", "ab"), ("ab", "ba"), ("aa", "a")])
def test_unary_einsum_is_a_new_view(subscripts, output):
    # NumPy returns a view for a unary einsum that sums nothing, never the operand itself.
    a = np.arange(9.0).reshape(3, 3)
    r = _einsum.contract(NumpyBackend, [a], [subscripts], output, {"a": 3, "b": 3}, [(0,)])
    assert r is not a and np.shares_memory(r, a)
    np.testing.assert_array_equal(r, np.einsum(subscripts + "->" + output, a))


@pytest.mark.parametrize("subscripts", ["ijk->kji", "iii->i", "...i->...i", "ij...->ji...", "ijk", "iij->ij",
                                        "ijk->ijk", "i...->...i"])
@pytest.mark.parametrize("kw", [{"dtype": "uint8", "casting": "unsafe"}, {"dtype": "float64"},
                                {"dtype": "int8"}, {"dtype": "float16", "casting": "same_kind", "optimize": True},
                                {"dtype": "uint8", "order": "F", "optimize": "optimal"}])
def test_unary_view_ignores_dtype_and_casting(subscripts, kw):
    """One operand, every label kept: NumPy returns the operand's view before it reads dtype= and
    casting= (int32 stays int32, no cast refused; the lead's diagnostic saw cuarray cast to uint8).
    A view needs no kernel, so the real einsum runs here on a host-backed array."""
    from . import _host_fake as hf
    import cuarray

    for h in (np.arange(27, dtype=np.int32).reshape(3, 3, 3), np.arange(27).astype("M8[s]").reshape(3, 3, 3)):
        want = np.einsum(subscripts, h, **kw)
        d = hf.from_np(h)
        got = cuarray.einsum(subscripts, d, **kw)
        assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
        assert got is not d and d.data.ptr <= got.data.ptr < d.data.ptr + d.nbytes  # a view, as NumPy's
        np.testing.assert_array_equal(hf.to_np(got), want)
