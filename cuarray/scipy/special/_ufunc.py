"""The row of a special-function ufunc: SciPy's loop table, its type resolution, its C headers.

A special function is a cuarray `ufunc` (so `out=`, `where=`, `dtype=`, broadcasting, weak Python
scalars and fusion in `fuse`/lazy mode work as for `cuarray.exp`) whose type oracle is not a NumPy
ufunc but `LoopTable`: SciPy's own loop list for the function (`scipy.special.erf.types`: its real
loops, and its complex loops where this package has them) and NumPy's rule for choosing among
them, so that no SciPy is needed at run time.
The rule (checked against `scipy.special.X.resolve_dtypes` for every dtype pair and weak scalar in
tests/scipy/test_special_dtypes_cpu.py):

1. Python scalars among arrays stay weak (NEP 50) unless a scalar's kind is above every array's,
   kinds ordered bool < integer < inexact (NumPy's `should_use_min_scalar_weak_literals`: a
   Python float with an int array, but not a Python complex with a float array); then every
   scalar counts as its default dtype (int64, float64, complex128), as in all-scalar calls.
2. With only arrays, a loop whose input types equal theirs exactly wins.
3. Otherwise the first loop, in SciPy's order, that every input casts to safely (a weak scalar
   casts to any loop type of its kind or above); `dtype=` keeps only loops of that output type,
   and if none takes the inputs safely, the first that takes them under `casting=`.

SciPy's order is version dependent: SciPy 1.18 lists the real loops of the functions in
`FLOAT_FIRST_SINCE_1_18` float32 first ('f->f' before 'd->d', where 1.17 has 'd->d' first), so
there a bool, (u)int8, (u)int16 or float16 argument gets a float32 result, in 1.17 a float64 one.
The rows keep 1.17's order; the installed SciPy's version (read once from its package metadata,
without importing SciPy) picks which order is used; with no SciPy installed, the newest (1.18's).

The C device functions live in templates/*.cuh; a row names the headers it needs and their text
becomes the kernel's preamble (each header has an include guard, so the preambles of several
special functions fused into one kernel can be concatenated).
"""

from __future__ import annotations

import importlib.metadata
import pathlib
import re

import numpy

from ..._core import registry as _registry
from ..._core.ufunc import ufunc
from ._ufunc_examples import EXAMPLES as _EXAMPLES

__all__ = ["LoopTable", "special_ufunc", "header", "FLOAT_FIRST_SINCE_1_18"]

# The functions whose loops SciPy 1.18 lists float32 (complex64) first where 1.17 had float64
# (complex128) first: every row of v1.18.0's scipy/special/_special_ufuncs.cpp and _gufuncs.cpp
# whose order changed (scipy#24563, "ensure that ufuncs follow NEP50 promotion rules"), by the
# names of this package's rows (private ones included; digamma is psi's row). The other rows'
# order is the same in both.
FLOAT_FIRST_SINCE_1_18 = frozenset("""
_riemann_zeta _sph_harm_y _spherical_in _spherical_in_d _spherical_jn _spherical_jn_d _spherical_kn
_spherical_kn_d _spherical_yn _spherical_yn_d beta betaln cbrt cosdg cosm1 cotdg dawsn digamma ellipe
ellipeinc ellipj ellipk ellipkinc ellipkm1 erf erfc erfcx erfi exp10 exp2 expit expm1 exprel gamma
gammainc gammaincc gammainccinv gammaincinv gammaln gammasgn hyp2f1 i0 i0e i1 i1e j0 j1 k0 k0e k1
k1e log1p log_expit log_ndtr loggamma modstruve ndtr psi radian rgamma sindg struve tandg wofz
wright_bessel xlog1py xlogy y0 y1 zetac""".split())
_float_first = None  # bool once known: does the installed SciPy list them float32 first?


def _scipy_lists_float_first() -> bool:
    global _float_first
    if _float_first is None:
        try:
            version = importlib.metadata.version("scipy")
        except importlib.metadata.PackageNotFoundError:
            version = None
        m = re.match(r"(\d+)\.(\d+)", version or "")
        _float_first = m is None or (int(m.group(1)), int(m.group(2))) >= (1, 18)
    return _float_first

# Private rows whose SciPy counterpart is a public function of another name (host parity checks).
_HOST_NAMES = {"_polygamma": "polygamma", "_sph_harm_y": "sph_harm_y"}
_TEMPLATES = pathlib.Path(__file__).parent / "templates"
_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_WEAK_RANK = {int: 1, float: 2, complex: 3}
# NumPy's simplified kind order for "does a Python scalar stay weak" (complex counts as float).
_SIMPLE_KIND = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 2}
_WEAK_SIMPLE_KIND = {int: 1, float: 2, complex: 2}
_WEAK_DEFAULT = {bool: numpy.dtype(bool), int: numpy.dtype(numpy.int64), float: numpy.dtype(numpy.float64),
                 complex: numpy.dtype(numpy.complex128)}
# The headers every row's preamble starts with (macros and constants).
_BASE = ("common.cuh",)
# AMOS's port (templates/amos_core.cuh says what each file holds), in its order: each routine after
# those it calls.
_AMOS = ("amos_core.cuh", "amos_series.cuh", "amos_i_methods.cuh", "amos_bknu.cuh", "amos_uniform.cuh",
         "amos_uniform_i.cuh", "amos_uniform_k1.cuh", "amos_uniform_k2.cuh", "amos_drivers.cuh",
         "amos_drivers_ij.cuh", "amos_drivers_ky.cuh", "amos_airy.cuh")
_DEPS = {
    "gamma.cuh": ("common.cuh",),
    "erf.cuh": ("common.cuh",),
    "cmath.cuh": ("common.cuh", "ddouble.cuh"),
    "faddeeva.cuh": ("common.cuh", "erf.cuh", "ddouble.cuh", "cmath.cuh"),
    "cgamma.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh"),
    "cdigamma.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh"),
    "cexpint.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh"),
    "complex_elementary.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh", "convenience.cuh"),
    "ndtr.cuh": ("common.cuh", "erf.cuh"),
    "bessel.cuh": ("common.cuh",),
    "float_math.cuh": ("common.cuh",),
    "bessel_float.cuh": ("common.cuh", "float_math.cuh"),
    "gamma_float.cuh": ("common.cuh", "float_math.cuh", "gamma.cuh"),
    "convenience.cuh": ("common.cuh",),
    "expint.cuh": ("common.cuh",),
    "beta.cuh": ("common.cuh", "gamma.cuh"),
    "zeta.cuh": ("common.cuh", "gamma.cuh"),
    "ellip.cuh": ("common.cuh",),
    "bessel_ik.cuh": ("common.cuh",),
    "bessel_jy.cuh": ("common.cuh", "bessel_ik.cuh"),
    "struve.cuh": ("common.cuh", "gamma.cuh", "bessel_ik.cuh", "bessel_jy.cuh", "ddouble.cuh"),
    "hyp1f1.cuh": ("common.cuh", "gamma.cuh", "ddouble.cuh"),
    "chyp1f1.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh"),
    "chyp2f1.cuh": ("common.cuh", "gamma.cuh", "beta.cuh", "ddouble.cuh", "cmath.cuh"),
    "cbessel.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh") + _AMOS,
    "airy.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh") + _AMOS + ("cbessel.cuh",),
    "csph_bessel.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh") + _AMOS + ("cbessel.cuh", "bessel_ik.cuh"),
    "lambertw.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh"),
    "sph_harm.cuh": ("common.cuh", "ddouble.cuh", "cmath.cuh"),
    "hyp2f1.cuh": ("common.cuh", "gamma.cuh"),
    "kolmogorov.cuh": ("common.cuh",),
    "owens.cuh": ("common.cuh",),
    "legendre.cuh": ("common.cuh", "gamma.cuh"),
    "wright.cuh": ("common.cuh", "gamma.cuh"),
    "igam.cuh": ("common.cuh", "erf.cuh", "gamma.cuh", "beta.cuh"),
    "incbet.cuh": ("common.cuh", "erf.cuh", "gamma.cuh", "beta.cuh", "igam.cuh"),
}
_texts: dict = {}


def header(name: str) -> str:
    """The preamble of header `name`: its dependencies' text, then its own (read once)."""
    out = []
    for dep in _DEPS.get(name, ()) + (name,):
        t = _texts.get(dep)
        if t is None:
            t = _texts[dep] = (_TEMPLATES / dep).read_text()
        out.append(t)
    return "\n".join(out)


class LoopTable:
    """What `cuarray._core.ufunc` asks of a NumPy ufunc, for a SciPy special function: `types`,
    `nin`/`nout`, `identity`, `resolve_dtypes` (the rule in this module's docstring) and a call
    (SciPy's function on host arrays: used by lazy mode's `LazyArray.numpy()` parity check and
    to raise SciPy's exception for a bad `out=` cast)."""

    def __init__(self, name: str, nin: int, nout: int, loops: tuple):
        self.__name__ = name
        self.nin, self.nout = nin, nout
        self.identity = None
        self._rows = tuple(loops)  # SciPy 1.17's order
        self._types = self._loops = None

    @property
    def types(self) -> list:
        """SciPy's loops ('dd->d') that exist here, in the installed SciPy's order (module docstring)."""
        self._ordered()
        return list(self._types)

    def _ordered(self) -> list:
        # The loops as dtype tuples in the installed SciPy's order, fixed on first use (not at
        # import: reading SciPy's version costs a metadata lookup).
        if self._loops is None:
            rows = list(self._rows)
            if self.__name__ in FLOAT_FIRST_SINCE_1_18 and _scipy_lists_float_first():
                # stable: the float32 loop moves first, and complex64 before complex128 after them
                rows.sort(key=lambda t: (any(c in "FD" for c in t), "d" in t.lower()))
            self._types = rows
            self._loops = [tuple(numpy.dtype(c) for c in t.replace("->", "")) for t in rows]
        return self._loops

    def __repr__(self) -> str:
        return "<LoopTable of scipy.special.{}: {}>".format(self.__name__, self.types)

    def _error(self, ops):
        names = ", ".join(getattr(t, "__name__", str(t)) for t in ops[: self.nin])
        return TypeError(
            "ufunc '{}' not supported for the input types ({}), and the inputs could not be safely "
            "coerced to any supported types according to the casting rule ''safe''".format(self.__name__, names))

    def resolve_dtypes(self, ops, *, signature=None, casting="same_kind", reduction=False):
        """See `numpy.ufunc.resolve_dtypes`: the loop's dtypes, inputs then outputs."""
        if reduction:
            raise TypeError("reduction is not supported for scipy.special.{}".format(self.__name__))
        nin = self.nin
        loops = self._ordered()
        ins = [_WEAK_DEFAULT[t] if t is bool else t for t in ops[:nin]]  # a Python bool is not weak
        strong = [t for t in ins if isinstance(t, numpy.dtype)]
        weak = [_WEAK_SIMPLE_KIND[t] for t in ins if not isinstance(t, numpy.dtype)]
        if weak and (not strong or max(_SIMPLE_KIND.get(t.kind, 3) for t in strong) < max(weak)):
            ins = [t if isinstance(t, numpy.dtype) else _WEAK_DEFAULT[t] for t in ins]
        outs = None
        if signature is not None:
            outs = [None if s is None else numpy.dtype(s) for s in signature[nin:]]
        if outs is None and all(isinstance(t, numpy.dtype) for t in ins):
            for loop in loops:
                # (by type code: longlong 'q' equals int64 'l' as a dtype, but is not SciPy's 'l' loop)
                if [t.char for t in loop[:nin]] == [t.char for t in ins]:
                    return loop
        passes = ("safe",) if outs is None or casting == "safe" else ("safe", casting)
        for in_casting in passes:
            for loop in loops:
                if outs is not None and any(o is not None and o != lo for o, lo in zip(outs, loop[nin:])):
                    continue
                if all(_can_cast(t, lt, in_casting) for t, lt in zip(ins, loop[:nin])):
                    return loop
        raise self._error(ops)

    def __call__(self, *args, **kwargs):
        """SciPy's function (imported here: SciPy is the reference, not a run-time need)."""
        import scipy.special  # only for host parity checks and error texts
        import scipy.special._ufuncs

        name = _HOST_NAMES.get(self.__name__, self.__name__)
        f = getattr(scipy.special, name, None) or getattr(scipy.special._ufuncs, name)
        return f(*args, **kwargs)


def _can_cast(t, to: numpy.dtype, casting: str) -> bool:
    if isinstance(t, numpy.dtype):
        return bool(numpy.can_cast(t, to, casting))
    if casting == "unsafe":
        return True
    return _RANK.get(to.kind, -1) >= _WEAK_RANK[t]  # a weak scalar: any type of its kind or above


def special_ufunc(name: str, nin: int, nout: int, loops: tuple, ops, headers: tuple, doc: str = "") -> ufunc:
    """One table row -> one ufunc: `loops` in SciPy's order ('dd->d'), `ops` one C expression or a
    dict by loop ('ff->f') or kind ('float', 'int', 'default'), `headers` the templates it calls."""
    preamble = "\n".join(header(h) for h in headers) if headers else header("common.cuh")
    # The Examples section is a static string of _ufunc_examples (no work at import).
    doc = (doc or "See `scipy.special.{}`.".format(name)) + _EXAMPLES.get(name, "")
    uf = ufunc(name, nin, nout, ops, doc=doc, preamble=preamble, np_ufunc=LoopTable(name, nin, nout, loops))
    if not hasattr(numpy, name):
        # `scipy.special.erf(gpu_array)` reaches cuarray through `__array_ufunc__`, which finds
        # the implementation by the ufunc's name; names NumPy also uses (exp2, cbrt, ...) stay
        # NumPy's, whose loops differ.
        _registry.register_ufunc(uf)
    return uf


def real_and_complex_ufunc(name: str, nin: int, real_loops: tuple, real_op: str, headers: tuple) -> ufunc:
    """A function with SciPy's real loops (`real_op` their expression) and its complex ones,
    'D..->D' and 'F..->F' after them: `out0 = cuarray_special::<name>_c(in0, ...)`, the complex
    templates' naming (computed in complex128, as SciPy's)."""
    cplx = tuple(c * nin + "->" + c for c in "DF")
    args = ", ".join("in{}".format(i) for i in range(nin))
    ops = {"float": real_op, "complex": "out0 = cuarray_special::{}_c({})".format(name, args)}
    return special_ufunc(name, nin, 1, tuple(real_loops) + cplx, ops, headers)
