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
           f["val"](dx, d1), f["val"](0.5, d2), f["val"](dx, d3), f["val"](dx, d2d), f["val"](dx[:3], d2d, tensor=False),
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
        out += [mod.chebpts1(5), mod.chebpts2(6), mod.chebinterpolate(lambda t: t * t + 1.0, 4)]
    if basis == "polynomial":
        out += [mod.polyvalfromroots(x, c), mod.polyvalfromroots(0.5, c[:3])]
    return out
