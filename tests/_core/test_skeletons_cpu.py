"""The engine's kernel skeletons (`kernel_family.Skeleton`: `scan.SCAN`, `elementwise.ELEMENTWISE`)
against their templates, the sources generated from them and the launches made through them.

- Each declared parameter list is the template's: scan.cu's five kernels (one per `${layout}` branch),
  and the elementwise templates' `${params}`, which the declaration fills in (`Definition.source`).
- Each launch of a generated kernel (the ufuncs' prepared paths, `Definition.run`'s flat, strided
  and serial cases, the scans and reduceat) passes what the kernel's generated signature declares:
  as many arguments, an address (an int) for a pointer, the NumPy scalar of its C type for a value.
No device: the fake device records the launches (cuarray/testing/fake_device.py).
"""

from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest

import cuarray as cp
from cuarray._core import elementwise, reduceat, scan
from cuarray._core.elementwise import Definition, KernelParam
from cuarray.cuda import kernel_family
from cuarray.testing import fake_device

TEMPLATES = elementwise._TEMPLATES
F4, F8, I4, C16 = (np.dtype(c) for c in "fdiD")


def _functions(text: str) -> list:
    """The parameter text of each ``${name}(...)`` kernel of a template, in order."""
    text = kernel_family._strip_comments(text)
    out = []
    for m in re.finditer(r"__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s*)?\$\{name\}\(", text):
        i = m.end() - 1
        out.append(text[i + 1:kernel_family._balanced(text, i) - 1])
    return out


def _params(text: str) -> tuple:
    return tuple(kernel_family.parse_param(p) for p in kernel_family.split_top(text.replace("${ns}::", "")))


def test_every_engine_skeleton_is_checked_here():
    """The skeletons declared in cuarray/ are the two this file checks."""
    root = pathlib.Path(cp.__file__).parent
    made = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py")
                  if re.search(r"\bSkeleton\(", p.read_text()) and p.name != "kernel_family.py")
    assert made == ["_core/elementwise.py", "_core/scan.py"], made
    assert isinstance(scan.SCAN, kernel_family.Skeleton) and isinstance(elementwise.ELEMENTWISE, kernel_family.Skeleton)


def test_scan_declarations_are_the_templates():
    text = (TEMPLATES / "scan.cu").read_text()
    # the branches `#if ${layout} == 0`, `#elif ... == 1` ... `#else`, in `_LAYOUT_IDS`' order
    branches = [int(b) for b in re.findall(r"#(?:el)?if \$\{layout\} == (\d+)", text)]
    kinds = sorted(scan._LAYOUT_IDS, key=scan._LAYOUT_IDS.get)
    assert branches == list(range(len(kinds) - 1))
    found = _functions(text)
    assert len(found) == len(kinds) == len(scan.SCAN.params)
    for kind, params in zip(kinds, found):
        want = tuple((p.ctype, p.name) for p in scan.SCAN.params[kind])
        assert _params(params) == want, "scan.cu's {} kernel: {} declared as {}".format(kind, _params(params), want)


def test_elementwise_templates_take_the_declared_list():
    for name in elementwise.ELEMENTWISE.templates:
        assert _functions((TEMPLATES / name).read_text()) == ["${params}"], name
    for kind, sig in elementwise.ELEMENTWISE.signatures.items():
        assert sig.startswith("(${params}, ") and sig.endswith(" _n)"), kind


def _declared(source: str, kname: str) -> tuple:
    (sig,) = kernel_family.template_signatures(source)[kname]
    return tuple(kernel_family.Param(t, n) for t, n in sig[1])


def _check_args(params: tuple, args: tuple, what) -> None:
    assert len(args) == len(params), "{}: {} arguments for {}".format(what, len(args), params)
    for p, a in zip(params, args):
        if p.pointer:
            assert type(a) is int, "{}: {} takes an address, got {!r}".format(what, p, a)
        else:
            want = kernel_family.CTYPES[p.base]
            assert isinstance(a, np.generic) and a.dtype == want, "{}: {} takes {}, got {!r}".format(what, p, want, a)


@pytest.fixture
def elementwise_launches(recorded_launches, monkeypatch):
    """Recorded launches whose placeholder kernel names its Definition: (definition, layout, ndim, index type)."""
    monkeypatch.setattr(Definition, "_kernel", lambda self, layout, nd, it: (self, layout, nd, it))
    return recorded_launches


def _check_elementwise(launches) -> int:
    n = 0
    for call in launches:
        k, args = call[2], call[3:]
        if type(k) is tuple and isinstance(k[0], Definition):
            d, layout, nd, it = k
            kname, src = d.source(layout, nd, it)
            _check_args(_declared(src, kname), args, kname)
            n += 1
    return n


def test_definition_run_launches_as_declared(elementwise_launches):
    d = Definition("skel_all", [KernelParam("s", "scalar", F8), KernelParam("x", "in", F4),
                                KernelParam("r", "raw", I4), KernelParam("m", "in", I4, compute=F8, runtime=True),
                                KernelParam("y", "out", F8)], "y = x * s + r[0] + m")
    x, m, y, r = cp.ndarray((6, 4), F4), cp.ndarray((6, 4), I4), cp.ndarray((6, 4), F8), cp.ndarray((1,), I4)
    s = (np.float64(2.0),)
    d.run((x, m, y), s, (6, 4), raw=(r,))                   # flat
    d.run((x[:, ::2], m[:, ::2], y[:, ::2]), s, (6, 2), raw=(r,))  # strided
    d.run((x, m, y), s, (6, 4), raw=(r,), serial=True)      # serial
    layouts = [c[2][1] for c in elementwise_launches]
    assert layouts == ["flat", "nd", "serial"]
    assert _check_elementwise(elementwise_launches) == 3


def test_ufunc_prepared_launches_as_declared(elementwise_launches):
    a, b = cp.ndarray((64,), F4), cp.ndarray((64,), F4)
    i, f = cp.ndarray((64,), I4), cp.ndarray((64,), F8)
    for _ in range(2):  # (the second call of each: the prepared launcher)
        a + b
        a * 2.0
        3.0 - a
        cp.exp(a)
        i + f
        f * i
        cp.add(a, b, out=b)
    assert _check_elementwise(elementwise_launches) == 14


@pytest.mark.parametrize("shape, axis, kind", [((1000,), 0, "flat"), ((4, 300), 1, "flat"), ((20, 3), 0, "serial"),
                                              ((100, 70), 0, "columns")])
def test_scan_launches_as_declared(monkeypatch, shape, axis, kind):
    """cumsum's flat, segmented, serial and column kernels, and reduceat's: the arguments each
    Kernel of `scan.SCAN` packs are those its layout declares (and scan.cu's branch has)."""
    monkeypatch.setattr(kernel_family, "generated", lambda key, build, **kw: key)  # (its layout: key[2][0])
    monkeypatch.setattr(scan, "_ops", {})
    # (the indices' upload needs pinned memory: a device array of their size in the fake memory)
    monkeypatch.setattr(reduceat, "from_host", lambda a: cp.ndarray(a.shape, a.dtype))
    with fake_device.recording_fake_compiles() as launches:  # (a simulated device: grids need its SMs)
        x = cp.ndarray(shape, F4)
        cp.cumsum(x, axis=axis)
        cp.add.reduceat(x, [0, 1], axis=axis)
    kinds = []
    for call in launches:
        key, args = call[2], call[3:]
        if type(key) is tuple and key[0] == "scan":
            kinds.append(key[2][0])
            _check_args(scan.SCAN.params[key[2][0]], args, key[2][0])
    assert len(kinds) == 2 and kinds[0] == kind and kinds[1] in ("segments", "segment_blocks"), kinds
