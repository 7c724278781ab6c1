"""SciPy's own functions called on cuarray arrays (docs/scipy.md, "SciPy itself on cuarray arrays").

cuarray/__init__.py registers these two with the engine (`_core/registry.py`), so that
`import cuarray` loads neither SciPy nor `cuarray.scipy`:

- `special_ufunc(np_ufunc)`: with SCIPY_ARRAY_API unset SciPy's special functions are NumPy ufuncs,
  so `scipy.special.erf(gpu)` reaches `ndarray.__array_ufunc__` with SciPy's ufunc. The engine finds
  its implementation by name among the registered ufuncs, and asks this for another library's
  ufunc (a name it lacks, or NumPy's name on SciPy's ufunc): it imports `cuarray.scipy.special`
  on the first one and returns ours of that name.
  (With SCIPY_ARRAY_API=1 SciPy itself finds `cuarray.special`: see cuarray/__init__.py.)
- `conversion_hint()`: where SciPy offers no route to a third library (scipy.ndimage, scipy.signal,
  most of scipy.linalg: they hand only CuPy and JAX arrays on) SciPy copies its input to the host
  with `numpy.asarray`, which `ndarray.__array__` refuses, or calls an internal ufunc cuarray lacks
  (`__array_ufunc__`). The hint for their TypeError names the cuarray function that runs the same
  call on the GPU, found from the SciPy function on the call stack.
"""

from __future__ import annotations

import sys

from ._core import registry as _registry

__all__ = ["special_ufunc", "conversion_hint"]

# The modules that hold SciPy's special-function ufuncs: the public namespace (where, with
# SCIPY_ARRAY_API=1, a name may be a wrapper whose __wrapped__ is the ufunc) and its extension modules.
_SPECIAL_MODULES = ("scipy.special", "scipy.special._ufuncs", "scipy.special._special_ufuncs")


def _is_scipy_special(np_ufunc) -> bool:
    name = np_ufunc.__name__
    for modname in _SPECIAL_MODULES:
        f = getattr(sys.modules.get(modname), name, None)
        if f is np_ufunc or getattr(f, "__wrapped__", None) is np_ufunc:
            return True
    return False


def special_ufunc(np_ufunc):
    """The cuarray ufunc for SciPy's special-function ufunc `np_ufunc`, or None."""
    if "scipy.special" not in sys.modules or not _is_scipy_special(np_ufunc):
        return None
    from .scipy import special  # import time: on the first SciPy ufunc seen (its import registers every ufunc)

    # By SciPy's name for the ufunc (`scipy.special.jn` is the `jv` ufunc), ours of that name even
    # where NumPy has the name too (cbrt, exp2, i0, ...: SciPy's loops, not NumPy's).
    uf = getattr(special, np_ufunc.__name__, None)
    return uf if hasattr(uf, "nin") else _registry.ufuncs.get(np_ufunc.__name__)


def _public_name(public, frame):
    """The name under which SciPy's public module `public` exports the function running in `frame`:
    its own name, or for a decorator's wrapper (scipy.special.spherical_jn's `wrapper`, code that
    several functions share) the attribute whose code and closure are the frame's."""
    code = frame.f_code
    if callable(getattr(public, code.co_name, None)):
        return code.co_name
    if not code.co_freevars:
        return None
    cells = frame.f_locals
    for name, f in list(vars(public).items()):
        if getattr(f, "__code__", None) is code and f.__closure__:
            try:
                if all(c.cell_contents is cells.get(v) for v, c in zip(code.co_freevars, f.__closure__)):
                    return name
            except ValueError:  # an empty cell
                continue
    return None


def _scipy_caller(frame):
    """(subpackage, name) of the outermost public SciPy function on the stack above `frame`, or None."""
    found = None
    while frame is not None:
        parts = frame.f_globals.get("__name__", "").split(".")
        if parts[0] == "scipy" and len(parts) > 1 and not parts[1].startswith("_"):
            name = _public_name(sys.modules.get("scipy." + parts[1]), frame)
            if name is not None:
                found = (parts[1], name)  # keep going: the outermost one is what the user called
        frame = frame.f_back
    return found


def conversion_hint() -> str:
    """A sentence for `__array__`'s TypeError when SciPy is the caller, else ""."""
    caller = _scipy_caller(sys._getframe(1))
    if caller is None:
        return ""
    sub, name = caller
    import importlib  # error path only: which cuarray.scipy module exists is found on demand

    try:
        ours = importlib.import_module("cuarray.scipy." + sub)
    except Exception:  # never let the hint hide the error it explains
        ours = None
    if getattr(ours, name, None) is None:
        return (" SciPy's `scipy.{0}.{1}` has no route to cuarray arrays, and cuarray has no"
                " `cuarray.scipy.{0}.{1}`: pass `x.get()` to run SciPy on the host.".format(sub, name))
    return (" SciPy's `scipy.{0}.{1}` has no route to cuarray arrays (it hands arrays only to NumPy,"
            " CuPy, JAX and PyTorch code): call `cuarray.scipy.{0}.{1}`, which runs on the GPU"
            " (docs/scipy.md).".format(sub, name))
