"""One body of checks for every basis module, run by the CPU test (the modules' source over a NumPy
stand-in) and by the GPU test (cuarray itself), each against numpy.polynomial."""

from __future__ import annotations

import numpy

PREFIX = {"polynomial": "poly", "chebyshev": "cheb", "legendre": "leg", "laguerre": "lag", "hermite": "herm",
          "hermite_e": "herme"}
CLASS = {"polynomial": "Polynomial", "chebyshev": "Chebyshev", "legendre": "Legendre", "laguerre": "Laguerre",
         "hermite": "Hermite", "hermite_e": "HermiteE"}


def rand(rng, shape, dtype):
    a = rng.uniform(-2, 2, shape)
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * rng.uniform(-2, 2, shape)
    return a.astype(dtype)


def function_results(mod, put, basis, dtype, seed):
    """Results of the module's functions on fresh random coefficients of `dtype`; `put` makes an
    array of the module's kind from a host array."""
    p = PREFIX[basis]
    f = {name: getattr(mod, p + name) for name in
         ("add", "sub", "mulx", "mul", "div", "pow", "val", "der", "int", "vander", "companion", "roots",
          "fromroots", "trim", "line", "val2d", "val3d", "grid2d", "grid3d", "vander2d", "vander3d")}
    rng = numpy.random.default_rng(seed)
    c1, c2, c3 = rand(rng, 6, dtype), rand(rng, 3, dtype), rand(rng, 1, dtype)
    c1[-1] += 3  # a leading coefficient away from zero
    x = rand(rng, 7, numpy.float64)
    c2d = rand(rng, (4, 3), dtype)
    c3d = rand(rng, (3, 2, 2), dtype)
    d1, d2, d3, dx, d2d, d3d = (put(a) for a in (c1, c2, c3, x, c2d, c3d))
    zeros_tail = put(numpy.concatenate([c2, numpy.zeros(2, c2.dtype)]))
    out = [f["add"](d1, d2), f["sub"](d2, d1), f["add"](zeros_tail, d2), f["sub"](zeros_tail, zeros_tail),
           f["mulx"](d1), f["mulx"](d3), f["mul"](d1, d2), f["mul"](d2, d3), f["mul"](d1, d1), *f["div"](d1, d2),
           *f["div"](d2, d1), *f["div"](d1, d3), f["pow"](d2, 3), f["pow"](d2, 0), f["pow"](d1, 1),
           f["add"](c1.tolist(), d2), f["mul"](d1, 2.0), f["sub"](1.5, d2), *f["div"](d1, 2.0), f["mulx"]([0.0, 0.0]),
           f["mul"](c2.tolist() + [0.0], d3), f["pow"]([1, 2], 2),
           f["val"](dx, d1), f["val"](0.5, d2), f["val"](dx, d3), f["val"](dx, d2d),
           f["val"](dx[:3], d2d, tensor=False),
           f["der"](d1), f["der"](d1, 2, 0.5), f["der"](d1, 7), f["der"](d2d, 1, 2.0, axis=1), f["der"](d2d, 3),
           f["int"](d1), f["int"](d1, 2, k=[1.0, 2.0], lbnd=0.5, scl=2.0), f["int"](d3 * 0, 1, k=3.0),
           f["int"](d2d, 1, k=1.5, axis=1), f["int"](d2, 3, lbnd=-1.0),
           f["companion"](d1), f["companion"](d2[:2]), f["trim"](zeros_tail), f["trim"](d1, 1.0), f["line"](2.0, 3.0),
           f["line"](2.0, 0), f["val2d"](dx, dx, d2d), f["grid2d"](dx[:3], dx[:2], d2d),
           f["val3d"](dx, dx, dx, d3d), f["grid3d"](dx[:2], dx[:3], dx[:2], d3d)]
    if dtype != numpy.float32:
        out += [f["vander"](dx, 4), f["vander"](put(x.reshape(7, 1)), 2), f["vander2d"](dx, dx, [2, 1]),
                f["vander3d"](dx, dx, dx, [1, 2, 1])]
    if dtype == numpy.float64:
        r = put(numpy.sort(rng.uniform(-1, 1, 4)))
        out += [f["fromroots"](r), f["fromroots"](put(numpy.array([]))), f["roots"](f["fromroots"](r)),
                f["roots"](d2), f["roots"](d3)]
    return out


def fit_results(mod, put, basis, seed):
    p = PREFIX[basis]
    fit = getattr(mod, p + "fit")
    rng = numpy.random.default_rng(seed)
    x = numpy.sort(rng.uniform(-1, 1, 20))
    y, y2, w = rng.uniform(-1, 1, 20), rng.uniform(-1, 1, (20, 2)), rng.uniform(0.5, 2, 20)
    dx, dy, dy2, dw = put(x), put(y), put(y2), put(w)
    c, (res, rank, s, rcond) = fit(dx, dy, 4, full=True)
    return [fit(dx, dy, 3), fit(dx, dy2, 2), fit(dx, dy, 3, w=dw), fit(dx, dy, [0, 2, 3]), c, res, rank, s, rcond]


def extra_results(mod, put, basis):
    """Conversions to and from power series, Gauss quadrature and weights where NumPy has them."""
    p = PREFIX[basis]
    rng = numpy.random.default_rng(5)
    c = put(rand(rng, 5, numpy.float64))
    x = put(rng.uniform(-0.9, 0.9, 6))
    out = []
    if basis != "polynomial":
        out += [getattr(mod, p + "2poly")(c), getattr(mod, "poly2" + p)(c), getattr(mod, p + "2poly")(c[:2]),
                getattr(mod, "poly2" + p)(put(rand(rng, 5, numpy.float32)))]
        out += [*getattr(mod, p + "gauss")(1), *getattr(mod, p + "gauss")(6), getattr(mod, p + "weight")(x)]
    if basis == "chebyshev":
        inter = mod.Chebyshev.interpolate(lambda t, a: t * t + a, 4, domain=[0, 2], args=(1.5,))
        out += [mod.chebpts1(5), mod.chebpts2(6), mod.chebinterpolate(lambda t: t * t + 1.0, 4), inter.coef,
                numpy.asarray(inter.domain)]
    if basis == "polynomial":
        r2 = put(rand(rng, (3, 4), numpy.float64))
        out += [mod.polyvalfromroots(x, c), mod.polyvalfromroots(0.5, c[:3]), mod.polyvalfromroots(x, r2),
                mod.polyvalfromroots(x[:4], r2, tensor=False)]
    return out


def _host(v):
    return v.get() if hasattr(v, "get") else numpy.asarray(v)


def describe(v):
    """A series object as comparable parts; anything else as it is."""
    if hasattr(v, "coef") and hasattr(v, "domain"):
        return [type(v).__name__, v.coef, numpy.asarray(v.domain), numpy.asarray(v.window), v.symbol]
    return [v]


def class_results(pkg, put, basis, seed):
    """The class's methods and operators on fresh random coefficients (pkg: numpy.polynomial or
    the package under test)."""
    K = getattr(pkg, CLASS[basis])
    rng = numpy.random.default_rng(seed)
    c1, c2 = rng.uniform(-2, 2, 5), rng.uniform(-2, 2, 3)
    c1[-1] += 3
    dom = [0.0, 4.0]
    p, q = K(put(c1), domain=dom), K(put(c2), domain=dom)
    x = put(numpy.linspace(0.5, 3.5, 7))
    quo, rem = divmod(p, q)
    y = put(rng.uniform(-1, 1, 7))
    fitted, status = K.fit(x, y, 3, full=True)
    vals = [p, q, p + q, p - q, q - p, p * q, p * 2, 2 * p, p + 1.5, 1.5 - p, -p, +p, p / 2.0, p ** 2, p ** 0, quo,
            rem, p // q, p % q, p // 2.0, p.deriv(), p.deriv(2), p.integ(), p.integ(2, k=[1.0, -1.0], lbnd=1.0),
            p.copy(), p.truncate(2), p.truncate(9), p.cutdeg(1), p.trim(0.5), K(put(c2), symbol="z"),
            p.convert(kind=pkg.Polynomial), p.convert(domain=[-1.0, 1.0]), p.convert(kind=pkg.Chebyshev, window=[0, 1]),
            K.cast(pkg.Polynomial(put(c2))), K.identity(), K.identity(domain=[0, 2]), K.basis(3), K.basis(2, dom),
            K.fromroots(put(numpy.array([0.5, 1.0, 3.0]))), K.fromroots(put(numpy.array([0.5, 1.0])), domain=None),
            K.fit(x, y, 3), K.fit(x, y, [0, 2], domain=[]), K.fit(x, y, 2, window=[-2, 2]), fitted, status[1],
            p(x), p(1.5), q(x[2:5].reshape(3, 1)), *p.linspace(5), *q.linspace(3, domain=[0, 1]),
            numpy.sort_complex(_host(p.roots())),
            p.degree(), len(p), p.mapparms(), p == p.copy(), p != q, p == q, p.has_samecoef(p), p.has_samedomain(q),
            p.has_samewindow(q), p.has_sametype(q), str(p), repr(p), format(p, "ascii"), format(q, "unicode"),
            p._repr_latex_(), str(K(put(c2), symbol="t"))]
    out = []
    for v in vals:
        out += describe(v)
    return out


def error_cases(pkg, put, basis):
    """Calls that must raise NumPy's exception (type and message) for the class and its module."""
    K = getattr(pkg, CLASS[basis])
    other = pkg.Legendre if basis != "legendre" else pkg.Chebyshev
    mod = getattr(pkg, basis)
    p = PREFIX[basis]
    a = K(put(numpy.array([1.0, 2.0, 3.0])))
    c = put(numpy.array([1.0, 2.0, 3.0]))
    cases = {
        "kind": lambda: a + other(put(numpy.array([1.0]))),
        "domain": lambda: a + K(put(numpy.array([1.0])), domain=[0, 2]),
        "window": lambda: a * K(put(numpy.array([1.0])), window=[0, 3]),
        "symbol": lambda: a - K(put(numpy.array([1.0])), symbol="y"),
        "pow_neg": lambda: a ** -1,
        "pow_big": lambda: a ** 101,
        "pow_frac": lambda: a ** 1.5,
        "div_zero": lambda: divmod(a, K(put(numpy.array([0.0])))),
        "div_zero_scalar": lambda: a // 0,
        "truediv_series": lambda: a / a,
        "truediv_bool": lambda: a / True,
        "rtruediv": lambda: 2 / a,
        "add_str": lambda: a + "x",
        "coef_2d": lambda: K(put(numpy.ones((2, 2)))),
        "coef_empty": lambda: K(put(numpy.array([]))),
        "domain_len": lambda: K(c, domain=[0, 1, 2]),
        "window_len": lambda: K(c, window=[0]),
        "symbol_bad": lambda: K(c, symbol="1x"),
        "symbol_type": lambda: K(c, symbol=5),
        "truncate": lambda: a.truncate(0),
        "basis": lambda: K.basis(-1),
        "trim": lambda: a.trim(-1),
        "der_neg": lambda: getattr(mod, p + "der")(c, -1),
        "der_float": lambda: getattr(mod, p + "der")(c, 1.5),
        "der_axis": lambda: getattr(mod, p + "der")(c, 1, axis=1),
        "int_neg": lambda: getattr(mod, p + "int")(c, -1),
        "int_k": lambda: getattr(mod, p + "int")(c, 1, k=[1, 2]),
        "int_lbnd": lambda: getattr(mod, p + "int")(c, 1, lbnd=[1, 2]),
        "int_scl": lambda: getattr(mod, p + "int")(c, 1, scl=[1, 2]),
        "vander_neg": lambda: getattr(mod, p + "vander")(c, -1),
        "vander_float": lambda: getattr(mod, p + "vander")(c, 1.5),
        "vander2d_len": lambda: getattr(mod, p + "vander2d")(c, c, [1]),
        "val2d_shape": lambda: getattr(mod, p + "val2d")(c, c[:2], put(numpy.ones((2, 2)))),
        "val3d_shape": lambda: getattr(mod, p + "val3d")(c, c, c[:2], put(numpy.ones((2, 2, 2)))),
        "companion": lambda: getattr(mod, p + "companion")(c[:1]),
        "fit_deg": lambda: getattr(mod, p + "fit")(c, c, -1),
        "fit_deg_float": lambda: getattr(mod, p + "fit")(c, c, 1.5),
        "fit_x2d": lambda: getattr(mod, p + "fit")(put(numpy.ones((3, 1))), c, 1),
        "fit_len": lambda: getattr(mod, p + "fit")(c, c[:2], 1),
        "fit_w": lambda: getattr(mod, p + "fit")(c, c, 1, w=c[:2]),
        "div_by_zero_series": lambda: getattr(mod, p + "div")(c, put(numpy.array([1.0, 0.0]))[1:]),
        "pow_fn": lambda: getattr(mod, p + "pow")(c, 20, maxpower=16),
        "as_series_bool": lambda: getattr(mod, p + "add")(put(numpy.array([True, False])), c),
    }
    if basis == "polynomial":
        cases["valfromroots"] = lambda: mod.polyvalfromroots(put(numpy.ones((2, 2))), c, tensor=False)
    else:
        cases["gauss"] = lambda: getattr(mod, p + "gauss")(0)
    return cases


def long_results(mod, put, basis):
    """Series too long for the host tables (cuarray/polynomial/_tables.py): the recursions run."""
    p = PREFIX[basis]
    rng = numpy.random.default_rng(6)
    a, b, c = (put(rng.uniform(-1, 1, n)) for n in (40, 30, 60))
    out = [getattr(mod, p + "mul")(a, b), *getattr(mod, p + "div")(c, put(rng.uniform(-1, 1, 50) + 1))]
    if basis in ("legendre", "chebyshev"):  # x**k stays bounded in these bases (not in Laguerre's, Hermite's)
        out.append(getattr(mod, "poly2" + p)(put(rng.uniform(-1, 1, 190) / 190)))
    return out
