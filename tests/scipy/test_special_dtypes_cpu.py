"""cuarray.scipy.special's ufuncs: loop tables and type resolution are SciPy's (no GPU).

For every function, every pair of input dtypes (and every weak Python scalar mixed in), the loop
our resolver picks is the one `scipy.special.X.resolve_dtypes` picks, or both refuse; `dtype=`
too. Loops SciPy has and we do not (the complex loops of most functions) must make ours raise
TypeError.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

special = pytest.importorskip("scipy.special")

from cuarray._core.ufunc import ufunc  # noqa: E402
from cuarray.scipy import special as cs  # noqa: E402

UFUNCS = sorted(n for n in dir(cs) if isinstance(getattr(cs, n), ufunc))
# the private ufuncs behind zeta(x) and zeta(x, q), whose SciPy counterparts are private too
PRIVATE = {"_zeta": "cuarray.scipy.special._zeta", "_riemann_zeta": "cuarray.scipy.special._zeta"}
# and those behind the spherical Bessel functions (real and complex loops)
PRIVATE.update(("_spherical_{}{}".format(k, d), "cuarray.scipy.special._bessel") for k in ("jn", "yn", "in", "kn")
               for d in ("", "_d"))
PRIVATE["_lambertw"] = "cuarray.scipy.special._lambertw"  # behind lambertw (complex loops only)
PRIVATE["_sph_harm_y"] = "cuarray.scipy.special._sph_harm"  # behind sph_harm_y
DTYPES = [np.dtype(c) for c in "?bhilqBHILQefdFD"]
WEAK = [int, float, complex]


def _theirs(sp, ins, **kw):
    try:
        return tuple(sp.resolve_dtypes(tuple(ins) + (None,) * sp.nout, **kw))
    except TypeError:
        return TypeError


def _ours(uf, ins, **kw):
    try:
        return tuple(uf._np.resolve_dtypes(tuple(ins) + (None,) * uf.nout, **kw))
    except TypeError:
        return TypeError


# The functions with SciPy's complex loops as well as its real ones.
COMPLEX = {"wofz", "erf", "erfc", "erfcx", "erfi", "dawsn", "_lambertw", "_sph_harm_y", "ndtr", "log_ndtr", "expm1",
           "log1p", "xlogy", "xlog1py", "gamma", "loggamma", "rgamma", "psi", "digamma", "exp1", "expi", "sici",
           "shichi", "hyp1f1", "hyp2f1", "iv", "ive", "kv", "kve", "jv", "jve", "yv", "yve", "jn", "hankel1",
           "hankel1e", "hankel2", "hankel2e", "airy", "airye"}
COMPLEX.update("_spherical_{}{}".format(k, d) for k in ("jn", "yn", "in", "kn") for d in ("", "_d"))


def _expect(theirs, uf):
    # A loop SciPy picks that we do not have (complex, long double): our answer is TypeError.
    if theirs is not TypeError:
        sig = "".join(d.char for d in theirs[: uf.nin]) + "->" + "".join(d.char for d in theirs[uf.nin:])
        if sig not in uf.types:
            return TypeError
    return theirs


def test_there_are_many():
    assert len(UFUNCS) >= 45


@pytest.mark.parametrize("name", UFUNCS + sorted(PRIVATE))
def test_loops_are_scipys_real_loops(name):
    # Every real loop (and the complex ones of COMPLEX), none more; the order (which SciPy changed
    # in 1.18) is what test_resolution_matches_scipy checks, through the loop it makes each input pick.
    uf, sp = _pair(name)
    kept = "Gg" if name in COMPLEX else "FDGg"
    assert sorted(uf.types) == sorted(t for t in sp.types if not set(t) & set(kept))
    assert (uf.nin, uf.nout) == (sp.nin, sp.nout)


@pytest.mark.parametrize("float_first", [False, True])
def test_loop_order_follows_the_scipy_version(monkeypatch, float_first):
    """SciPy 1.18 lists erf's (and 69 more rows') float32 loop first, so an int8 argument
    gets a float32 result there and a float64 one in 1.17: both orders, whichever SciPy is here."""
    from cuarray.scipy.special import _ufunc

    monkeypatch.setattr(_ufunc, "_float_first", float_first)
    for name, rows, ins in (("erf", ("d->d", "f->f"), (np.dtype("b"),)),
                            ("xlogy", ("dd->d", "ff->f"), (np.dtype("h"), np.dtype("f")))):
        table = _ufunc.LoopTable(name, len(ins), 1, rows)
        want = "f" if float_first else "d"
        assert table.types[0][0] == want
        assert table.resolve_dtypes(ins + (None,))[-1] == np.dtype(want)
        assert table.resolve_dtypes((np.dtype("i"),) * len(ins) + (None,))[-1] == np.dtype("d")
    # complex loops stay after the real ones, complex64 first like float32 (an assumption: the
    # installed SciPy is 1.17, and no input reaches a complex loop but a complex one, exactly)
    rows = _ufunc.LoopTable("erf", 1, 1, ("d->d", "f->f", "D->D", "F->F")).types
    assert rows == (["f->f", "d->d", "F->F", "D->D"] if float_first else ["d->d", "f->f", "D->D", "F->F"])
    unchanged = _ufunc.LoopTable("logit", 1, 1, ("d->d", "f->f"))  # 1.18 kept its order
    assert unchanged.types == ["d->d", "f->f"]


def test_float_first_names_are_ufuncs():
    from cuarray.scipy.special import _ufunc

    assert _ufunc.FLOAT_FIRST_SINCE_1_18 <= set(UFUNCS) | set(PRIVATE)


# The rows whose loops SciPy 1.18.0 lists float32 (complex64) first and 1.17 float64 first, read
# from v1.18.0's scipy/special/_special_ufuncs.cpp and _gufuncs.cpp (`sph_harm_y` there is our
# `_sph_harm_y`; `digamma` is SciPy's `psi`). SciPy 1.17 is installed here, so this list is the
# 1.18 oracle: the GPU run (SciPy 1.18) got complex128 from our sph_harm_y(int64, int64, float32,
# float32) where SciPy 1.18 gives complex64, with the 36 names listed before.
SCIPY_1_18_FLOAT_FIRST = """
_riemann_zeta _sph_harm_y _spherical_in _spherical_in_d _spherical_jn _spherical_jn_d _spherical_kn
_spherical_kn_d _spherical_yn _spherical_yn_d beta betaln cbrt cosdg cosm1 cotdg dawsn digamma ellipe
ellipeinc ellipj ellipk ellipkinc ellipkm1 erf erfc erfcx erfi exp10 exp2 expit expm1 exprel gamma
gammainc gammaincc gammainccinv gammaincinv gammaln gammasgn hyp2f1 i0 i0e i1 i1e j0 j1 k0 k0e k1
k1e log1p log_expit log_ndtr loggamma modstruve ndtr psi radian rgamma sindg struve tandg wofz
wright_bessel xlog1py xlogy y0 y1 zetac""".split()


@pytest.mark.parametrize("name", SCIPY_1_18_FLOAT_FIRST)
def test_scipy_1_18_order(monkeypatch, name):
    """With SciPy 1.18's order, the first loop is the float32 (complex64) one, so an input that is
    no loop's exact match (float16, int8; int64 orders with float32 angles for sph_harm_y) takes
    it: sph_harm_y(int64, int64, float32, float32) is complex64, hyp2f1 of int16 float32."""
    import importlib

    from cuarray.scipy.special import _ufunc

    monkeypatch.setattr(_ufunc, "_float_first", True)
    uf = getattr(importlib.import_module(PRIVATE[name]), name) if name in PRIVATE else getattr(cs, name)
    table = _ufunc.LoopTable(name, uf.nin, uf.nout, uf._np._rows)  # a fresh table: the order is memoised
    first = table.types[0]
    assert not set(first) & set("dD"), (name, table.types)
    if name == "_sph_harm_y":
        ins = (np.dtype("q"), np.dtype("q"), np.dtype("f"), np.dtype("f"))
        assert table.resolve_dtypes(ins + (None,))[-1] == np.dtype(np.complex64)
    assert name in _ufunc.FLOAT_FIRST_SINCE_1_18


def test_hyp1f1_scipy_1_18_order_picks_the_same_loops():
    """SciPy 1.18 lists hyp1f1's loops fff, ddd, ffF, ddD (1.17: fff, ffF, ddd, ddD, our rows'
    order): every input picks the same loop under both."""
    from cuarray.scipy.special import _ufunc

    old = _ufunc.LoopTable("hyp1f1", 3, 1, ("fff->f", "ffF->F", "ddd->d", "ddD->D"))
    new = _ufunc.LoopTable("hyp1f1", 3, 1, ("fff->f", "ddd->d", "ffF->F", "ddD->D"))
    choices = DTYPES + WEAK
    for ins in itertools.product(choices, repeat=3):
        assert _ours_table(old, ins) == _ours_table(new, ins), ins


def _ours_table(table, ins):
    try:
        return tuple(table.resolve_dtypes(tuple(ins) + (None,)))
    except TypeError:
        return TypeError


def _scipy_ufunc(name):
    """SciPy's ufunc behind its public `name`: the attribute itself with SCIPY_ARRAY_API unset; with
    it set, SciPy wraps about 90 of them in a function that dispatches on the array's namespace
    (scipy/special/_support_alternative_backends.py), keeping the ufunc as its `__wrapped__`."""
    f = getattr(special, name, None)
    return f if isinstance(f, np.ufunc) else getattr(f, "__wrapped__", None)


def _pair(name):
    if name in PRIVATE:
        import importlib

        import scipy.special._ufuncs as su

        if name == "_sph_harm_y":  # SciPy's diff_n=0 ufunc behind its MultiUFunc sph_harm_y
            import scipy.special._special_ufuncs as ssu

            return getattr(importlib.import_module(PRIVATE[name]), name), ssu.sph_harm_y[0]
        return getattr(importlib.import_module(PRIVATE[name]), name), getattr(su, name)
    return getattr(cs, name), _scipy_ufunc(name)


@pytest.mark.parametrize("name", UFUNCS + sorted(PRIVATE))
def test_resolution_matches_scipy(name):
    uf, sp = _pair(name)
    choices = DTYPES + WEAK
    combos = itertools.product(choices, repeat=uf.nin) if uf.nin <= 2 else (
        [(d,) * uf.nin for d in DTYPES] + [(d, float) + (int,) * (uf.nin - 2) for d in DTYPES])
    bad = []
    for ins in combos:
        want = _expect(_theirs(sp, ins), uf)
        got = _ours(uf, ins)
        if got != want:
            bad.append((ins, got, want))
    assert not bad, bad[:5]


def _scipy_ufuncs():
    return sorted(n for n in dir(special) if isinstance(_scipy_ufunc(n), np.ufunc)
                  and not any(set(t) & set("gGO") for t in _scipy_ufunc(n).types))


def test_scipys_ufuncs_are_found_in_either_mode():
    # The same ufuncs whether SCIPY_ARRAY_API wraps them or not (SciPy 1.17.1: 229 without long double or object loops;
    # with the variable set 91 of them are wrappers), so the tests above cover both modes alike.
    assert len(_scipy_ufuncs()) >= 220
    assert all(isinstance(_scipy_ufunc(n), np.ufunc) for n in UFUNCS if hasattr(special, n))


@pytest.mark.parametrize("name", _scipy_ufuncs())
def test_rule_matches_scipy_on_its_own_loops(name):
    """The resolution rule itself, on each SciPy ufunc's full loop list in the installed SciPy's
    order (complex loops we lack included): a Python complex with float arrays stays weak, as
    NumPy's should_use_min_scalar_weak_literals has it (hyp1f1(float32, int, complex) is complex64
    in SciPy; the rule that made the complex scalar complex128 there failed 33 functions)."""
    from cuarray.scipy.special import _ufunc

    sp = _scipy_ufunc(name)
    table = _ufunc.LoopTable("probe_" + name, sp.nin, sp.nout, tuple(sp.types))  # kept in SciPy's order
    choices = DTYPES + WEAK
    combos = itertools.product(choices, repeat=sp.nin) if sp.nin <= 2 else itertools.chain(
        ((d,) * sp.nin for d in DTYPES), ((d, w) + (int,) * (sp.nin - 2) for d in DTYPES for w in WEAK),
        ((d,) * (sp.nin - 1) + (w,) for d in DTYPES for w in WEAK))
    bad = []
    for ins in combos:
        want = _theirs(sp, ins)
        try:
            got = tuple(table.resolve_dtypes(tuple(ins) + (None,) * sp.nout))
        except TypeError:
            got = TypeError
        if got != want:
            bad.append((ins, got, want))
    assert not bad, bad[:5]


@pytest.mark.parametrize("name", ["erf", "gammaln", "xlogy", "yn", "ndtri", "boxcox"])
@pytest.mark.parametrize("out", ["f", "d"])
def test_dtype_argument_matches_scipy(name, out):
    uf, sp = getattr(cs, name), _scipy_ufunc(name)
    sig = (None,) * uf.nin + (np.dtype(out),)
    for ins in itertools.product(DTYPES[:14], repeat=uf.nin):
        for casting in ("same_kind", "unsafe"):
            want = _expect(_theirs(sp, ins, signature=sig, casting=casting), uf)
            assert _ours(uf, ins, signature=sig, casting=casting) == want, (ins, casting)


def test_scipy_name_dispatch_registration():
    """`scipy.special.erf(gpu_array)` reaches our erf (registered by its name); NumPy's own
    names (exp2, cbrt, ...) are never taken over."""
    from cuarray._core import registry

    assert registry.ufuncs["erf"] is cs.erf
    assert registry.ufuncs["exp2"] is not cs.exp2
    assert registry.ufuncs["cbrt"] is not cs.cbrt


def test_error_is_a_type_error_with_scipys_wording():
    with pytest.raises(TypeError, match="not supported for the input types"):
        cs.gammaln._np.resolve_dtypes((np.dtype("D"), None))
