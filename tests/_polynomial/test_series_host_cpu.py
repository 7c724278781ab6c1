"""cuarray.polynomial's host-only parts, no GPU: the names of NumPy's modules, the classes' host
attributes (default domain and window, basis names), argument checks that come before any device
work, and the print style. The algorithms are checked without a GPU by
test_series_algorithms_cpu.py, on the device by test_series_functions_gpu.py."""

import numpy
import numpy.polynomial as NPP
import pytest

import cuarray
import cuarray.polynomial as CPP

MODULES = ["polynomial", "chebyshev", "legendre", "laguerre", "hermite", "hermite_e"]
CLASSES = ["Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE"]


def test_package_names_as_numpy():
    for name in NPP.__all__:
        assert hasattr(CPP, name), name
    assert cuarray.polynomial is CPP


@pytest.mark.parametrize("module", MODULES)
def test_module_names_as_numpy(module):
    ours, theirs = getattr(CPP, module), getattr(NPP, module)
    missing = [n for n in theirs.__all__ if not hasattr(ours, n)]
    assert not missing
    assert set(theirs.__all__) <= set(ours.__all__)


@pytest.mark.parametrize("module", MODULES)
def test_module_constants_as_numpy(module):
    p = {"polynomial": "poly", "chebyshev": "cheb", "legendre": "leg", "laguerre": "lag", "hermite": "herm",
         "hermite_e": "herme"}[module]
    for suffix in ("zero", "one", "x", "domain"):
        got, want = getattr(getattr(CPP, module), p + suffix), getattr(getattr(NPP, module), p + suffix)
        assert type(got) is numpy.ndarray and got.dtype == want.dtype
        numpy.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", CLASSES)
def test_class_host_attributes(name):
    ours, theirs = getattr(CPP, name), getattr(NPP, name)
    assert ours.basis_name == theirs.basis_name and ours.maxpower == theirs.maxpower
    numpy.testing.assert_array_equal(ours.domain, theirs.domain)
    numpy.testing.assert_array_equal(ours.window, theirs.window)
    assert ours.domain.dtype == theirs.domain.dtype
    assert ours.__hash__ is None and ours.__array_ufunc__ is None
    assert ours._host_kind is theirs  # the text is NumPy's class's
    for other in CLASSES:
        assert issubclass(ours, getattr(CPP, other)) == (other == name)


@pytest.mark.parametrize("name", CLASSES)
def test_class_checks_before_device_work(name):
    K = getattr(CPP, name)
    with pytest.raises(ValueError, match="deg must be non-negative integer"):
        K.basis(-1)
    with pytest.raises(ValueError, match="deg must be non-negative integer"):
        K.basis(1.5)
    off, scl = CPP.polyutils.mapparms(K.domain, K.window)
    assert (off, scl) == NPP.polyutils.mapparms(K.domain, K.window)


@pytest.mark.parametrize("module", MODULES)
def test_function_checks_before_device_work(module):
    m = getattr(CPP, module)
    p = {"polynomial": "poly", "chebyshev": "cheb", "legendre": "leg", "laguerre": "lag", "hermite": "herm",
         "hermite_e": "herme"}[module]
    with pytest.raises(ValueError, match="deg must be non-negative"):
        getattr(m, p + "vander")(1.0, -1)
    with pytest.raises(TypeError, match="deg must be an integer"):
        getattr(m, p + "vander")(1.0, 1.5)
    if module != "polynomial":
        with pytest.raises(ValueError, match="deg must be a positive integer"):
            getattr(m, p + "gauss")(0)
        with pytest.raises(TypeError, match="deg must be an integer"):
            getattr(m, p + "gauss")(2.5)
    with pytest.raises(ValueError, match="Expected 2 dimensions of degrees, got 1"):
        getattr(m, p + "vander2d")(1.0, 1.0, [1])


def test_chebyshev_point_checks():
    for fn, bad, msg in ((CPP.chebyshev.chebpts1, 0, "npts must be >= 1"),
                         (CPP.chebyshev.chebpts2, 1, "npts must be >= 2"),
                         (CPP.chebyshev.chebpts1, 1.5, "npts must be integer")):
        with pytest.raises(ValueError, match=msg):
            fn(bad)
    with pytest.raises(TypeError, match="deg must be an int"):
        CPP.chebyshev.chebinterpolate(numpy.sin, 1.5)
    with pytest.raises(ValueError, match="expected deg >= 0"):
        CPP.chebyshev.chebinterpolate(numpy.sin, -1)


def test_set_default_printstyle_checks_and_restores():
    with pytest.raises(ValueError, match="Unsupported format string 'latex'"):
        CPP.set_default_printstyle("latex")
    from cuarray.polynomial import _base

    before = _base._STYLE["unicode"]
    try:
        CPP.set_default_printstyle("ascii")
        assert _base._STYLE["unicode"] is False
        CPP.set_default_printstyle("unicode")
        assert _base._STYLE["unicode"] is True
    finally:
        _base._STYLE["unicode"] = before


@pytest.mark.parametrize("old, new", [((0, 1), (-1, 1)), ((-2.0, 6.0), (0.0, 3.0)), (numpy.array([1.0, 3.0]), [3, 1])])
def test_domain_maps_on_host_numbers(old, new):
    assert CPP.polyutils.mapparms(old, new) == NPP.polyutils.mapparms(old, new)
    x = numpy.linspace(-3, 3, 7)
    numpy.testing.assert_array_equal(CPP.polyutils.mapdomain(x, old, new), NPP.polyutils.mapdomain(x, old, new))
    assert CPP.polyutils.mapdomain(2.5, old, new) == NPP.polyutils.mapdomain(2.5, old, new)


@pytest.mark.parametrize("module", ["chebyshev", "legendre", "laguerre", "hermite", "hermite_e"])
def test_host_tables_as_numpy(module):
    # The product and conversion tables (cuarray/polynomial/_tables.py) from each basis's recurrence,
    # against NumPy's own products and conversions of basis polynomials.
    from cuarray.polynomial import _tables

    p = {"chebyshev": "cheb", "legendre": "leg", "laguerre": "lag", "hermite": "herm", "hermite_e": "herme"}[module]
    rec, theirs = getattr(CPP, module)._rec, getattr(NPP, module)
    e = numpy.eye(7)
    prods = _tables.products(rec, 4, 3)
    assert prods.shape == (6, 4, 3) and not prods.flags.writeable
    for i in range(4):
        for j in range(3):
            want = getattr(theirs, p + "mul")(e[i, :i + 1], e[j, :j + 1])
            numpy.testing.assert_allclose(prods[:len(want), i, j], want, rtol=1e-13, atol=1e-13)
            assert not prods[len(want):, i, j].any()
    to_basis, to_power = _tables.from_power(rec, 7), _tables.to_power(rec, 7)
    for k in range(7):
        want = getattr(theirs, "poly2" + p)(e[k])
        numpy.testing.assert_allclose(to_basis[:len(want), k], want, rtol=1e-13, atol=1e-13)
        want = getattr(theirs, p + "2poly")(e[k])
        numpy.testing.assert_allclose(to_power[:len(want), k], want, rtol=1e-13, atol=1e-13)
    numpy.testing.assert_allclose(to_basis @ to_power, numpy.eye(7), atol=1e-9)


@pytest.mark.parametrize("basis", ["poly", "cheb", "leg", "lag", "herm", "herme"])
@pytest.mark.parametrize("x_kind, x_r, layout, ndim", [("in", "dd", "flat", 1), ("in", "fF", "nd", 2),
                                                      ("scalar", "DD", "flat", 1)])
@pytest.mark.nvrtc_fast
def test_evaluation_kernels_compile_for_sm90(basis, x_kind, x_r, layout, ndim):
    # *val's one-kernel path (cuarray/polynomial/_kernels.py): a real and a complex result type, a
    # real x converted to the complex one, both layouts the engine launches, a number x (all of x's
    # and R's pairings compile: checked once, 48 compiles, 2.5 min on this machine's CPU)
    from cuarray.cuda import compiler
    from cuarray.polynomial import _kernels

    d = _kernels.definition(basis, x_kind, numpy.dtype(x_r[0]), numpy.dtype(x_r[1]))
    name, src = d.source(layout, ndim, numpy.int32)
    cubin, mapping = compiler.compile_cubin(src, arch="sm_90", name_expressions=[name])
    assert cubin and set(mapping) == {name}


def test_evaluation_kernel_rows_compute_numpy_values_on_host(tmp_path):
    # The rows' C++ (cuarray/polynomial/_kernels.py) built by g++ for R = X = double, run over
    # random x and coefficients, against numpy.polynomial's *val: the kernel math without a GPU.
    import shutil
    import subprocess

    from cuarray.polynomial import _kernels

    if shutil.which("g++") is None:
        pytest.skip("no g++ on this machine")
    rng = numpy.random.default_rng(16)
    x = rng.uniform(-2, 2, 9)
    funcs, calls = [], []
    for basis, (op, _) in sorted(_kernels.ROWS.items()):
        funcs.append("static double %s(double x, const double* c, int n) { typedef double R; double y; %s; return y; }"
                     % (basis, op))
        calls.append('for (int n = 1; n <= 6; ++n) for (int j = 0; j < 9; ++j) printf("%%.17g\\n", %s(xs[j], c, n));'
                     % basis)
    coef = rng.uniform(-2, 2, 6)
    numbers = ", ".join(repr(float(v)) for v in x), ", ".join(repr(float(v)) for v in coef)
    src = ("#include <cstdio>\n{}\nint main() {{ const double xs[9] = {{{}}}; const double c[6] = {{{}}};\n{}\n}}\n"
           .format("\n".join(funcs), *numbers, "\n".join(calls)))
    (tmp_path / "rows.cpp").write_text(src)
    subprocess.run(["g++", "-O1", "-o", str(tmp_path / "rows"), str(tmp_path / "rows.cpp")], check=True)
    got = numpy.array(subprocess.run([str(tmp_path / "rows")], capture_output=True, text=True, check=True)
                      .stdout.split(), dtype=float).reshape(len(_kernels.ROWS), 6, 9)
    modules = {"poly": "polynomial", "cheb": "chebyshev", "leg": "legendre", "lag": "laguerre", "herm": "hermite",
               "herme": "hermite_e"}
    for k, basis in enumerate(sorted(_kernels.ROWS)):
        val = getattr(getattr(NPP, modules[basis]), basis + "val")
        for n in range(1, 7):
            numpy.testing.assert_allclose(got[k, n - 1], val(x, coef[:n]), rtol=1e-13, atol=1e-13, err_msg=basis)


@pytest.mark.parametrize("module", MODULES)
def test_derivative_tables_as_numpy(module):
    from cuarray.polynomial import _tables

    p = {"polynomial": "poly", "chebyshev": "cheb", "legendre": "leg", "laguerre": "lag", "hermite": "herm",
         "hermite_e": "herme"}[module]
    der = getattr(getattr(NPP, module), p + "der")
    for m in (1, 2, 5):
        got = _tables.derivative(getattr(CPP, module)._der_matrix, 7, m)
        numpy.testing.assert_allclose(got, der(numpy.eye(7), m), rtol=1e-14, atol=0)
