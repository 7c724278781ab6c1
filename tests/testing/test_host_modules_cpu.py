"""`cuarray.testing.fake_device.host_modules`: private copies of several modules with NumPy
stand-ins, the copies calling one another, the real modules untouched."""

import importlib
import sys
import textwrap

import numpy as np
import pytest

from cuarray.testing.fake_device import host_module, host_modules, host_packages

_PKG = {
    "__init__.py": "from .top import total\n",
    "low.py": """\
        def kernel(x):
            raise RuntimeError("the device routine")

        def scale(x):
            return 10 * kernel(x)

        class Base:
            def run(self, x):
                return kernel(x)
        """,
    "mid.py": """\
        from . import low
        from .low import Base, scale

        class Child(Base):
            pass

        def twice(x):
            return 2 * scale(x)

        def direct(x):
            return low.kernel(x)

        def late(x):
            from .low import kernel  # a function-level import
            from . import low as low_module

            return kernel(x) + low_module.kernel(x)
        """,
    "top.py": """\
        from .mid import twice
        from .low import scale
        from . import mid

        TABLE = {"scale": (scale, "a module-level table")}

        def total(x):
            return twice(x) + mid.direct(x)
        """,
}


@pytest.fixture
def pkg(tmp_path, monkeypatch):
    root = tmp_path / "hm_pkg"
    root.mkdir()
    for name, text in _PKG.items():
        (root / name).write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield importlib.import_module("hm_pkg")
    for name in [n for n in sys.modules if n == "hm_pkg" or n.startswith("hm_pkg.")]:
        del sys.modules[name]


def _names(module):
    return dict(vars(module))


def test_copies_call_each_other_and_the_real_modules_are_untouched(pkg):
    low, mid, top = (sys.modules["hm_pkg." + n] for n in ("low", "mid", "top"))
    before = [_names(m) for m in (pkg, low, mid, top)]
    copies = host_modules({low: {"kernel": lambda x: x + 1}, mid: {}, top: {}, pkg: {}})
    assert [_names(m) for m in (pkg, low, mid, top)] == before  # nothing of the real modules assigned
    assert all(copies[m] is not m for m in copies)
    # top's copy -> mid's copy (`from .mid import twice`, `from . import mid`) -> low's copy -> the stand-in
    assert copies[top].total(1) == 2 * 10 * 2 + 2
    assert copies[mid].low is copies[low] and copies[mid].scale is copies[low].scale
    assert copies[mid].late(1) == 4  # function-level imports reach the copies too
    assert copies[mid].Child().run(1) == 2  # a copy's class derives from the copy's base class
    assert copies[mid].Child.__bases__ == (copies[low].Base,) and mid.Child.__bases__ == (low.Base,)
    assert copies[top].TABLE["scale"][0](1) == 20 and top.TABLE["scale"][0] is low.scale  # tables too
    assert copies[pkg].total is copies[top].total and copies[pkg].total(3) == 2 * 10 * 4 + 4
    for real_call in (lambda: top.total(1), lambda: mid.late(1)):
        with pytest.raises(RuntimeError, match="the device routine"):
            real_call()  # the real chain still reaches the real routine
    assert low.kernel is before[1]["kernel"] and mid.low is low and top.mid is mid


def test_a_module_outside_the_group_stays_real(pkg):
    low, mid = sys.modules["hm_pkg.low"], sys.modules["hm_pkg.mid"]
    copy = host_modules({mid: {}})[mid]
    assert copy.low is low and copy.scale is low.scale
    with pytest.raises(RuntimeError, match="the device routine"):
        copy.twice(1)


def test_a_standin_for_nothing_is_an_error(pkg):
    with pytest.raises(AttributeError, match="nothing to stand in for"):
        host_modules({sys.modules["hm_pkg.low"]: {"no_such_name": None}})


def test_cuarray_modules_copied_together():
    from cuarray.scipy.signal import _convolve, _filtering

    fft_before, conv_before = _convolve._fft, _filtering._convolve
    copies = host_modules({_convolve: {"_fft": np.fft}, _filtering: {"_fft": np.fft}})
    assert copies[_filtering]._convolve is copies[_convolve] and copies[_convolve]._fft is np.fft
    assert _convolve._fft is fft_before and _filtering._convolve is conv_before
    assert _convolve._fft is not np.fft
    assert "_host" in copies[_filtering].hilbert.__module__
    assert host_module(_convolve, {"_fft": np.fft}).convolve is not _convolve.convolve


def test_host_packages_copies_every_loaded_module(pkg):
    low, mid, top = (sys.modules["hm_pkg." + n] for n in ("low", "mid", "top"))
    copies = host_packages([pkg], {low: {"kernel": lambda x: x}}, {low: {"kernel": lambda x: x + 1}})
    assert set(copies) == {pkg, low, mid, top}
    assert copies[pkg].total(1) == 2 * 10 * 2 + 2  # the later stand-in wins
    assert low.kernel is not copies[low].kernel


def test_a_copy_registering_a_device_error_kind_keeps_the_real_one():
    # a module that registers a device-error kind at import (solve_triangular's zero diagonal) can
    # be copied: the copy's function is the same definition, so the real registration stays;
    # another function on that flag is still refused
    from cuarray._core import device_errors
    from cuarray.scipy.linalg import _triangular

    real = device_errors._kinds[_triangular._ZERO_DIAGONAL]
    copy = host_module(_triangular, {})
    assert copy._singular is not _triangular._singular
    assert device_errors._kinds[_triangular._ZERO_DIAGONAL] is real is _triangular._singular
    device_errors.register_kind(_triangular._ZERO_DIAGONAL, copy._singular)
    assert device_errors._kinds[_triangular._ZERO_DIAGONAL] is real
    with pytest.raises(ValueError, match="flag 2 is taken"):
        device_errors.register_kind(_triangular._ZERO_DIAGONAL, lambda value, axis, size: None)


def test_a_copys_kernel_families_are_its_own():
    # a copy declares its kernel families again: they are not listed with the real modules' (the
    # drift test reads `families()`, one family per name)
    from cuarray.cuda import kernel_family
    from cuarray.linalg import _long_k

    before = kernel_family.families()
    copy = host_module(_long_k, {})
    assert copy.LONG_K is not _long_k.LONG_K and copy.LONG_K.name == _long_k.LONG_K.name
    assert kernel_family.families() == before
