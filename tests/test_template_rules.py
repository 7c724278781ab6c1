"""Rules on the CUDA templates (`cuarray/**/*.cu`, `*.cuh`), checked on their text:

- the correctly rounded operation intrinsics (`__fadd_rn`, `__dmul_rn`, ...: what keeps NVRTC from
  contracting a * b + c into an fma where a result must equal NumPy's or SciPy's bit for bit) appear
  in `cuarray/rounded.cuh` only; templates call its `cuarray::rn::add`/`sub`/`mul`/`div`, which
  have the host builds' fallbacks too (one copy, not one per family).
"""

from __future__ import annotations

import pathlib
import re

PKG = pathlib.Path(__file__).resolve().parent.parent / "cuarray"
ROUNDED = PKG / "_core" / "templates" / "cuarray" / "rounded.cuh"
RN_INTRINSIC = re.compile(r"__(?:f|d)(?:add|sub|mul|div)_rn\b")


def _templates():
    return sorted(p for p in PKG.rglob("*") if p.suffix in (".cu", ".cuh") and p.is_file())


def _uses(text: str) -> list:
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if RN_INTRINSIC.search(line)]


def test_rounded_intrinsics_only_in_rounded_cuh():
    found = {}
    for path in _templates():
        if path != ROUNDED:
            uses = _uses(path.read_text())
            if uses:
                found[str(path.relative_to(PKG))] = uses
    assert not found, "use cuarray/rounded.cuh's cuarray::rn::add/sub/mul/div instead of: {}".format(found)


def test_the_rounded_rule_sees_the_intrinsics():
    """The pattern finds each of the eight (and not the fma or other roundings), and rounded.cuh,
    which the rule exempts, holds all eight: the rule cannot pass because nothing matches."""
    names = ["__{}{}_rn".format(t, op) for t in "fd" for op in ("add", "sub", "mul", "div")]
    probe = "\n".join("  x = {}(a, b);".format(n) for n in names)
    assert len(_uses(probe)) == 8
    assert not _uses("__fmaf_rn(a, b, c); __fma_rn(a, b, c); __fadd_rz(a, b); __dmul_ru(a, b); my__fadd_rnx(a)")
    text = ROUNDED.read_text()
    assert all(n + "(" in text for n in names)
    assert ROUNDED in _templates() and len(_templates()) > 50
