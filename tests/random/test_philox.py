"""CPU tests: the NumPy model of Philox4x32-10 against the Random123 known-answer vectors, the
bit generator's keys, counters and spawning, and an NVRTC compile of every sampling kernel."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.random import _bit_generator, _kernels
from cuarray.random import Philox, SeedSequence

# Random123's kat_vectors, "philox4x32 10": counter (4 words), key (2 words), expected (4 words).
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


@pytest.mark.parametrize("ctr,key,want", KAT, ids=["zeros", "ones", "pi"])
def test_known_answers(ctr, key, want):
    got = _bit_generator.philox4x32_10(np.array([ctr], np.uint32), key)
    assert got.dtype == np.uint32
    assert tuple(int(w) for w in got[0]) == want


def test_model_vectorised_matches_rows():
    ctr = np.random.default_rng(1).integers(0, 2**32, size=(64, 4), dtype=np.uint32)
    key = (0x12345678, 0x9ABCDEF0)
    whole = _bit_generator.philox4x32_10(ctr, key)
    for j in (0, 17, 63):
        assert np.array_equal(whole[j], _bit_generator.philox4x32_10(ctr[j:j + 1], key)[0])


def test_keys_from_seed_sequence():
    a, b = Philox(1234), Philox(SeedSequence(1234))
    assert a.state == b.state
    assert Philox(1234).state != Philox(1235).state
    assert Philox(key=0x1122334455667788).state["state"]["key"] == 0x1122334455667788
    with pytest.raises(ValueError):
        Philox(1, key=2)
    with pytest.raises(ValueError):
        Philox(key=2**64)


def test_draw_counter_and_state_round_trip():
    p = Philox(7)
    d0, d1 = p.next_draw(), p.next_draw()
    assert (d0[0], d0[1]) == (d1[0], d1[1]) and int(d1[2]) == int(d0[2]) + 1
    st = p.state
    q = Philox(8)
    q.state = st
    assert q.next_draw() == p.next_draw()
    far = Philox(7).advance(2**32 + 3).next_draw()
    assert (far[0], far[1]) != Philox(7).next_draw()[:2]  # past 2**32 draws: another key


def test_spawn_independent_keys():
    kids = Philox(5).spawn(3)
    keys = {k.state["state"]["key"] for k in kids}
    assert len(keys) == 3 and Philox(5).state["state"]["key"] not in keys
    with pytest.raises(TypeError):
        Philox(key=5).spawn(1)


@pytest.mark.parametrize("module", ["core", "distributions", "permutation"])
@pytest.mark.nvrtc_fast
def test_kernels_compile_for_sm90(module):
    from cuarray.cuda import compiler

    src, names = _kernels.module_sources()[module]
    cubin, mapping = compiler.compile_cubin(src, arch="sm_90", name_expressions=names, name="t_random_" + module)
    assert len(cubin) > 1000 and set(names) <= set(mapping)


def _parity(perm):
    seen, odd = np.zeros(len(perm), bool), 0
    for i in range(len(perm)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j], j, length = True, perm[j], length + 1
            odd ^= (length - 1) & 1
    return odd


def test_permutation_model_uniform():
    """The permutation kernel's NumPy model: true permutations, uniform orders of 4 items, odd
    and even permutations of 16 items equally often (the transposition step), uniform positions."""
    from scipy import stats

    from cuarray.random._permutation import permutation_model

    draw = Philox(21).next_draw()
    for n in (1, 2, 3, 5, 16, 100):
        p = permutation_model(draw, n, n, rows=3)
        assert all(sorted(row) == list(range(n)) for row in p.tolist())
    p = permutation_model(draw, 4, 4, rows=48000)
    codes = p @ np.array([64, 16, 4, 1])
    counts = np.unique(codes, return_counts=True)[1]
    assert len(counts) == 24 and stats.chisquare(counts).pvalue > 1e-5
    q = permutation_model(draw, 16, 16, rows=8000)
    assert abs(np.mean([_parity(r) for r in q]) - 0.5) < 0.03
    for pos in range(16):
        assert stats.chisquare(np.bincount(q[:, pos], minlength=16)).pvalue > 1e-5


def test_poisson_switch_point_knob(monkeypatch):
    # Unset: NumPy's switch point, no define in the source; set: the define leads the source and
    # the module still compiles (the knob is a measurement hook, docs/perf-notes.md).
    from cuarray.cuda import compiler

    monkeypatch.delenv("CUARRAY_POISSON_INV_MAX", raising=False)
    src, _ = _kernels.module_sources()["distributions"]
    assert not src.startswith("#define CUARRAY_POISSON_INV_MAX")
    assert "lam < CUARRAY_POISSON_INV_MAX" in src and "#define CUARRAY_POISSON_INV_MAX 15.0" in src
    monkeypatch.setenv("CUARRAY_POISSON_INV_MAX", "40")
    src, names = _kernels.module_sources()["distributions"]
    assert src.startswith("#define CUARRAY_POISSON_INV_MAX 40.0\n")
    name = [n for n in names if "op_poisson" in n]
    cubin, mapping = compiler.compile_cubin(src, arch="sm_90", name_expressions=name, name="t_random_knob")
    assert set(name) <= set(mapping)
