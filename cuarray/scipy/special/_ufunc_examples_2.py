"""The Examples section of each special ufunc's docstring, by the ufunc's name (the second half of the names,
in order): special_ufunc appends it. Written by `python -m scripts.docstring_examples special-ufuncs`
(the input lines are there, the output is SciPy's): edit the lines there and run it, not this file."""

EXAMPLES = {
    "i1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.i1(cuarray.array([0.5, 1., 2.]))
    array([0.25789431, 0.5651591 , 1.59063685])
    """,
    "i1e": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.i1e(cuarray.array([0.5, 1., 2.]))
    array([0.1564208 , 0.20791042, 0.21526929])
    """,
    "inv_boxcox": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.inv_boxcox(cuarray.array([0., 2.]), 0.5)
    array([1., 4.])
    """,
    "inv_boxcox1p": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.inv_boxcox1p(cuarray.array([0., 2.]), 0.5)
    array([0., 3.])
    """,
    "iv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.iv(cuarray.array([0., 1., 2.5]), 2.)
    array([2.2795853 , 1.59063685, 0.39702708])
    """,
    "ive": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.ive(1., cuarray.array([1., 2.]))
    array([0.20791042, 0.21526929])
    """,
    "j0": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.j0(cuarray.array([0., 1., 2.]))
    array([1.        , 0.76519769, 0.22389078])
    """,
    "j1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.j1(cuarray.array([0.5, 1., 2.]))
    array([0.24226846, 0.44005059, 0.57672481])
    """,
    "jn": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.jn(2, cuarray.array([0.5, 1., 2.]))
    array([0.03060402, 0.11490348, 0.35283403])
    """,
    "jv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.jv(cuarray.array([0., 1., 2.5]), 2.)
    array([0.22389078, 0.57672481, 0.22392453])
    """,
    "jve": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.jve(1., cuarray.array([1., 2.]))
    array([0.44005059, 0.57672481])
    """,
    "k0": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.k0(cuarray.array([0.5, 1., 2.]))
    array([0.92441907, 0.42102444, 0.11389387])
    """,
    "k0e": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.k0e(cuarray.array([0.5, 1., 2.]))
    array([1.52410939, 1.14446308, 0.84156822])
    """,
    "k1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.k1(cuarray.array([0.5, 1., 2.]))
    array([1.65644112, 0.60190723, 0.13986588])
    """,
    "k1e": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.k1e(cuarray.array([0.5, 1., 2.]))
    array([2.73100971, 1.63615349, 1.03347685])
    """,
    "kl_div": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.kl_div(cuarray.array([0.5, 0.25]), cuarray.array([0.25, 0.5]))
    array([0.09657359, 0.0767132 ])
    """,
    "kn": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.kn(2, cuarray.array([1., 2.]))
    array([1.6248389 , 0.25375975])
    """,
    "kolmogi": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.kolmogi(cuarray.array([0.25, 0.5]))
    array([1.01918472, 0.82757356])
    """,
    "kolmogorov": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.kolmogorov(cuarray.array([0.5, 1., 2.]))
    array([9.63945244e-01, 2.69999672e-01, 6.70925256e-04])
    """,
    "kv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.kv(cuarray.array([0., 1., 2.5]), 2.)
    array([0.11389387, 0.13986588, 0.38979776])
    """,
    "kve": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.kve(1., cuarray.array([1., 2.]))
    array([1.63615349, 1.03347685])
    """,
    "log1p": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.log1p(cuarray.array([1e-10, 1.]))
    array([1.00000000e-10, 6.93147181e-01])
    """,
    "log_expit": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.log_expit(cuarray.array([-2., 0., 2.]))
    array([-2.12692801, -0.69314718, -0.12692801])
    """,
    "log_ndtr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.log_ndtr(cuarray.array([-10., 0., 1.]))
    array([-53.23128515,  -0.69314718,  -0.17275378])
    """,
    "loggamma": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.loggamma(cuarray.array([0.5, 10.]))
    array([ 0.57236494, 12.80182748])
    """,
    "logit": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.logit(cuarray.array([0.25, 0.6, 0.75]))
    array([-1.09861229,  0.40546511,  1.09861229])
    """,
    "lpmv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.lpmv(1, 2, cuarray.array([0.25, 0.5]))
    array([-0.72618438, -1.29903811])
    """,
    "modstruve": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.modstruve(0., cuarray.array([1., 2.]))
    array([0.71024319, 1.93743376])
    """,
    "nbdtr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.nbdtr(cuarray.array([2, 5]), 3, 0.5)
    array([0.5       , 0.85546875])
    """,
    "nbdtrc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.nbdtrc(cuarray.array([2, 5]), 3, 0.5)
    array([0.5       , 0.14453125])
    """,
    "nbdtri": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.nbdtri(cuarray.array([2, 5]), 3, 0.5)
    array([0.5       , 0.32051897])
    """,
    "ndtr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.ndtr(cuarray.array([-1., 0., 1.]))
    array([0.15865525, 0.5       , 0.84134475])
    """,
    "ndtri": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.ndtri(cuarray.array([0.025, 0.9, 0.975]))
    array([-1.95996398,  1.28155157,  1.95996398])
    """,
    "owens_t": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.owens_t(cuarray.array([0.5, 1.]), 1.)
    array([0.10667106, 0.06674188])
    """,
    "pdtr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.pdtr(cuarray.array([1, 3]), 2.)
    array([0.40600585, 0.85712346])
    """,
    "pdtrc": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.pdtrc(cuarray.array([1, 3]), 2.)
    array([0.59399415, 0.14287654])
    """,
    "pdtri": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.pdtri(cuarray.array([1, 3]), 0.5)
    array([1.67834699, 3.67206075])
    """,
    "poch": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.poch(cuarray.array([2., 3.]), 3.)
    array([24., 60.])
    """,
    "pseudo_huber": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.pseudo_huber(1., cuarray.array([0.5, 2.]))
    array([0.11803399, 1.23606798])
    """,
    "psi": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.digamma(cuarray.array([0.5, 1., 10.]))
    array([-1.96351003, -0.57721566,  2.25175259])
    >>> special.psi is special.digamma
    True
    """,
    "radian": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.radian(cuarray.array([90., 180.]), 0., 0.)
    array([1.57079633, 3.14159265])
    """,
    "rel_entr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.rel_entr(cuarray.array([0.5, 0.25]), cuarray.array([0.25, 0.5]))
    array([ 0.34657359, -0.1732868 ])
    """,
    "rgamma": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.rgamma(cuarray.array([0.5, 1., 5.]))
    array([0.56418958, 1.        , 0.04166667])
    """,
    "round": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.round(cuarray.array([0.4, 1.5, 2.5, -1.6]))
    array([ 0.,  2.,  2., -2.])
    """,
    "shichi": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> shi, chi = special.shichi(cuarray.array([1., 2.]))
    >>> shi
    array([1.05725088, 2.50156743])
    >>> chi
    array([0.83786694, 2.45266692])
    """,
    "sici": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> si, ci = special.sici(cuarray.array([1., 2.]))
    >>> si
    array([0.94608307, 1.60541298])
    >>> ci
    array([0.33740392, 0.42298083])
    """,
    "sindg": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.sindg(cuarray.array([30., 90.]))
    array([0.5, 1. ])
    """,
    "smirnov": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.smirnov(5, cuarray.array([0.1, 0.5]))
    array([0.85359, 0.056  ])
    """,
    "smirnovi": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.smirnovi(5, cuarray.array([0.25, 0.5]))
    array([0.34319485, 0.23455954])
    """,
    "stdtr": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.stdtr(3., cuarray.array([-1., 0., 2.]))
    array([0.19550111, 0.5       , 0.93033702])
    """,
    "stdtrit": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.stdtrit(3., cuarray.array([0.75, 0.975]))
    array([0.76489233, 3.18244631])
    """,
    "struve": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.struve(0., cuarray.array([1., 2.]))
    array([0.56865663, 0.79085885])
    """,
    "tandg": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.tandg(cuarray.array([30., 45.]))
    array([0.57735027, 1.        ])
    """,
    "wofz": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.wofz(cuarray.array([1 + 1j, 0.5 + 2j]))
    array([0.30474421+0.20821894j, 0.24527599+0.05152148j])
    """,
    "wright_bessel": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.wright_bessel(1., 1., cuarray.array([0.5, 1.]))
    array([1.56608293, 2.2795853 ])
    """,
    "xlog1py": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.xlog1py(cuarray.array([0., 2.]), cuarray.array([-1., 3.]))
    array([0.        , 2.77258872])
    """,
    "xlogy": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.xlogy(cuarray.array([0., 2.]), cuarray.array([0., 3.]))   # 0 * log(0) is 0
    array([0.        , 2.19722458])
    """,
    "y0": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.y0(cuarray.array([0.5, 1., 2.]))
    array([-0.44451873,  0.08825696,  0.51037567])
    """,
    "y1": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.y1(cuarray.array([0.5, 1., 2.]))
    array([-1.47147239, -0.78121282, -0.10703243])
    """,
    "yn": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.yn(1, cuarray.array([1., 2.]))
    array([-0.78121282, -0.10703243])
    """,
    "yv": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.yv(cuarray.array([0., 1.5]), 2.)
    array([ 0.51037567, -0.39562328])
    """,
    "yve": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.yve(1., cuarray.array([1., 2.]))
    array([-0.78121282, -0.10703243])
    """,
    "zetac": """

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.zetac(cuarray.array([2., 4.]))
    array([0.64493407, 0.08232323])
    """,
}
