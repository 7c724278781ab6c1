"""The Examples section of each special ufunc's docstring, by the ufunc's name (the first half of the names,
in order): special_ufunc appends it. Written by `python -m scripts.docstring_examples special-ufuncs`
(the input lines are there, the output is SciPy's): edit the lines there and run it, not this file."""

EXAMPLES = {
    "airy": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> ai, aip, bi, bip = special.airy(cuarray.array([-1., 0.5]))
    >>> ai
    array([0.53556088, 0.23169361])
    >>> bip
    array([0.59237563, 0.54457256])
    >>> special.airy(cuarray.array([1. + 1.j]))[0]
    array([0.06045831-0.15188957j])
    """,
    "airye": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> eai, eaip, ebi, ebip = special.airye(cuarray.array([0.5, 2.]))
    >>> eai
    array([0.29327716, 0.23016492])
    >>> ebi
    array([0.67489241, 0.50043725])
    """,
    "bdtr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.bdtr(cuarray.array([2, 5]), 10, 0.3)
    array([0.38278279, 0.95265101])
    """,
    "bdtrc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.bdtrc(cuarray.array([2, 5]), 10, 0.3)
    array([0.61721721, 0.04734899])
    """,
    "bdtri": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.bdtri(cuarray.array([2, 5]), 10, 0.3)
    array([0.33296688, 0.62741843])
    """,
    "beta": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.beta(cuarray.array([1., 2.]), 3.)
    array([0.33333333, 0.08333333])
    """,
    "betainc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.betainc(2., 3., cuarray.array([0.25, 0.5]))
    array([0.26171875, 0.6875    ])
    """,
    "betaincinv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.betaincinv(2., 3., cuarray.array([0.25, 0.5]))
    array([0.24302208, 0.38572757])
    """,
    "betaln": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.betaln(cuarray.array([10., 100.]), 3.)
    array([ -6.49223984, -13.15211634])
    """,
    "binom": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.binom(cuarray.array([5., 10.]), 2.)
    array([10., 45.])
    """,
    "boxcox": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.boxcox(cuarray.array([1., 2., 4.]), 0.5)
    array([0.        , 0.82842712, 2.        ])
    """,
    "boxcox1p": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.boxcox1p(cuarray.array([0., 1., 3.]), 0.5)
    array([0.        , 0.82842712, 2.        ])
    """,
    "cbrt": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.cbrt(cuarray.array([8., 27.]))
    array([2., 3.])
    """,
    "chdtr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.chdtr(2., cuarray.array([1., 3.]))
    array([0.39346934, 0.77686984])
    """,
    "chdtrc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.chdtrc(2., cuarray.array([1., 3.]))
    array([0.60653066, 0.22313016])
    """,
    "chdtri": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.chdtri(2., cuarray.array([0.25, 0.5]))
    array([2.77258872, 1.38629436])
    """,
    "cosdg": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.cosdg(cuarray.array([0., 60., 180.]))
    array([ 1. ,  0.5, -1. ])
    """,
    "cosm1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.cosm1(cuarray.array([1e-5, 1.]))
    array([-5.00000000e-11, -4.59697694e-01])
    """,
    "cotdg": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.cotdg(cuarray.array([30., 45.]))
    array([1.73205081, 1.        ])
    """,
    "dawsn": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.dawsn(cuarray.array([0.5, 1., 2.]))
    array([0.42443638, 0.53807951, 0.30134039])
    """,
    "ellipe": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.ellipe(cuarray.array([0., 0.5, 0.9]))
    array([1.57079633, 1.35064388, 1.10477473])
    """,
    "ellipeinc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.ellipeinc(cuarray.pi / 4, cuarray.array([0., 0.5]))
    array([0.78539816, 0.7481865 ])
    """,
    "ellipj": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> sn, cn, dn, ph = special.ellipj(cuarray.array([0.5, 1.]), 0.5)
    >>> sn
    array([0.47075047, 0.80300182])
    """,
    "ellipk": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.ellipk(cuarray.array([0., 0.5, 0.9]))
    array([1.57079633, 1.85407468, 2.57809211])
    """,
    "ellipkinc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.ellipkinc(cuarray.pi / 4, cuarray.array([0., 0.5]))
    array([0.78539816, 0.82601788])
    """,
    "ellipkm1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.ellipkm1(cuarray.array([0.1, 0.5]))
    array([2.57809211, 1.85407468])
    """,
    "entr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.entr(cuarray.array([0., 0.25, 0.5]))
    array([0.        , 0.34657359, 0.34657359])
    """,
    "erf": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.erf(cuarray.array([0., 0.5, 1.]))
    array([0.        , 0.52049988, 0.84270079])
    """,
    "erfc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.erfc(cuarray.array([0., 0.5, 1.]))
    array([1.        , 0.47950012, 0.15729921])
    """,
    "erfcinv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.erfcinv(cuarray.array([0.1, 0.5, 1.5]))
    array([ 1.16308715,  0.47693628, -0.47693628])
    """,
    "erfcx": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.erfcx(cuarray.array([0., 1., 10.]))
    array([1.        , 0.42758358, 0.05614099])
    """,
    "erfi": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.erfi(cuarray.array([0.5, 1.]))
    array([0.61495209, 1.65042576])
    """,
    "erfinv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.erfinv(cuarray.array([0.25, 0.5, 0.9]))
    array([0.22531206, 0.47693628, 1.16308715])
    """,
    "exp1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.exp1(cuarray.array([0.5, 1., 2.]))
    array([0.55977359, 0.21938393, 0.04890051])
    """,
    "exp10": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.exp10(cuarray.array([0., 1., 2.]))
    array([  1.,  10., 100.])
    """,
    "exp2": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.exp2(cuarray.array([0., 1., 3.]))
    array([1., 2., 8.])
    """,
    "expi": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.expi(cuarray.array([0.5, 1., 2.]))
    array([0.4542199 , 1.89511782, 4.95423436])
    """,
    "expit": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.expit(cuarray.array([-2., 0., 2.]))
    array([0.11920292, 0.5       , 0.88079708])
    """,
    "expm1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.expm1(cuarray.array([1e-10, 1.]))
    array([1.00000000e-10, 1.71828183e+00])
    """,
    "expn": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.expn(2, cuarray.array([0.5, 1.]))
    array([0.32664386, 0.14849551])
    """,
    "exprel": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.exprel(cuarray.array([0., 1.]))
    array([1.        , 1.71828183])
    """,
    "fdtr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.fdtr(2., 3., cuarray.array([1., 2.]))
    array([0.535242  , 0.71943414])
    """,
    "fdtrc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.fdtrc(2., 3., cuarray.array([1., 2.]))
    array([0.464758  , 0.28056586])
    """,
    "fdtri": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.fdtri(2., 3., cuarray.array([0.25, 0.5]))
    array([0.31712059, 0.88110158])
    """,
    "gamma": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.gamma(cuarray.array([0.5, 1., 5.]))
    array([ 1.77245385,  1.        , 24.        ])
    """,
    "gammainc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.gammainc(2., cuarray.array([0.5, 1., 3.]))
    array([0.09020401, 0.26424112, 0.80085173])
    """,
    "gammaincc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.gammaincc(2., cuarray.array([0.5, 1., 3.]))
    array([0.90979599, 0.73575888, 0.19914827])
    """,
    "gammainccinv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.gammainccinv(2., cuarray.array([0.25, 0.5]))
    array([2.69263453, 1.67834699])
    """,
    "gammaincinv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.gammaincinv(2., cuarray.array([0.25, 0.5]))
    array([0.96127876, 1.67834699])
    """,
    "gammaln": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.gammaln(cuarray.array([0.5, 10., 100.]))
    array([  0.57236494,  12.80182748, 359.13420537])
    """,
    "gammasgn": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.gammasgn(cuarray.array([-0.5, -1.5, 2.]))
    array([-1.,  1.,  1.])
    """,
    "gdtr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.gdtr(1., 2., cuarray.array([1., 3.]))
    array([0.26424112, 0.80085173])
    """,
    "gdtrc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.gdtrc(1., 2., cuarray.array([1., 3.]))
    array([0.73575888, 0.19914827])
    """,
    "hankel1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.hankel1(0., cuarray.array([1. + 0j, 2. + 1j]))
    array([0.76519769+0.08825696j, 0.11221518+0.15428169j])
    """,
    "hankel1e": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.hankel1e(0., cuarray.array([1. + 0j, 2. + 1j]))
    array([0.48770375-0.59620621j, 0.25440386-0.45188937j])
    """,
    "hankel2": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.hankel2(0., cuarray.array([1. + 0j, 2. + 1j]))
    array([0.76519769-0.08825696j, 0.26349228-1.44662056j])
    """,
    "hankel2e": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.hankel2e(0., cuarray.array([1. + 0j, 2. + 1j]))
    array([0.48770375+0.59620621j, 0.44357316+0.30960712j])
    """,
    "huber": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.huber(1., cuarray.array([0.5, 2.]))
    array([0.125, 1.5  ])
    """,
    "hyp1f1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.hyp1f1(1., 2., cuarray.array([0.5, 1.]))
    array([1.29744254, 1.71828183])
    """,
    "hyp2f1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.hyp2f1(1., 1., 2., cuarray.array([0.25, 0.5]))
    array([1.15072829, 1.38629436])
    """,
    "i0": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.i0(cuarray.array([0., 1., 2.]))
    array([1.        , 1.26606588, 2.2795853 ])
    """,
    "i0e": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.i0e(cuarray.array([0., 1., 2.]))
    array([1.        , 0.46575961, 0.30850832])
    """,
}
