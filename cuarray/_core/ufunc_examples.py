"""The Examples section of each ufunc's docstring, by the ufunc's name: create_ufunc appends it.
Written by `python -m scripts.docstring_examples ufuncs` (the input lines are there, the output is
NumPy's): edit the lines there and run it, not this file."""

EXAMPLES = {
    "absolute": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.absolute(cuarray.array([-1.5, 0., 2.]))
    array([1.5, 0. , 2. ])
    >>> cuarray.abs(cuarray.array([3 + 4j]))
    array([5.])
    """,
    "add": """

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(3)
    >>> cuarray.add(a, 10)
    array([10, 11, 12])
    >>> a + a                   # the same ufunc
    array([0, 2, 4])
    """,
    "arccos": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.arccos(cuarray.array([1., 0.]))
    array([0.        , 1.57079633])
    """,
    "arccosh": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.arccosh(cuarray.array([1., 2.]))
    array([0.       , 1.3169579])
    """,
    "arcsin": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.arcsin(cuarray.array([0., 1.]))
    array([0.        , 1.57079633])
    """,
    "arcsinh": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.arcsinh(cuarray.array([0., 1.]))
    array([0.        , 0.88137359])
    """,
    "arctan": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.arctan(cuarray.array([0., 1.]))
    array([0.        , 0.78539816])
    """,
    "arctan2": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.arctan2(cuarray.array([1., -1.]), cuarray.array([-1., -1.]))
    array([ 2.35619449, -2.35619449])
    """,
    "arctanh": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.arctanh(cuarray.array([0., 0.5]))
    array([0.        , 0.54930614])
    """,
    "bitwise_and": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.bitwise_and(cuarray.array([12, 10]), 6)
    array([4, 2])
    """,
    "bitwise_count": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.bitwise_count(cuarray.array([0, 7, 255]))
    array([0, 3, 8], dtype=uint8)
    """,
    "bitwise_or": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.bitwise_or(cuarray.array([12, 10]), 6)
    array([14, 14])
    """,
    "bitwise_xor": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.bitwise_xor(cuarray.array([12, 10]), 6)
    array([10, 12])
    """,
    "cbrt": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.cbrt(cuarray.array([1., 8., -27.]))
    array([ 1.,  2., -3.])
    """,
    "ceil": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.ceil(cuarray.array([-1.7, -0.5, 0.5, 1.7]))
    array([-1., -0.,  1.,  2.])
    """,
    "conjugate": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.conjugate(cuarray.array([1 + 2j, 3 - 1j]))
    array([1.-2.j, 3.+1.j])
    """,
    "copysign": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.copysign(1., cuarray.array([-1., -0., 2.]))
    array([-1., -1.,  1.])
    """,
    "cos": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.cos(cuarray.array([0., cuarray.pi]))
    array([ 1., -1.])
    """,
    "cosh": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.cosh(cuarray.array([0., 1.]))
    array([1.        , 1.54308063])
    """,
    "deg2rad": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.deg2rad(cuarray.array([0., 90., 180.]))
    array([0.        , 1.57079633, 3.14159265])
    """,
    "degrees": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.degrees(cuarray.array([0., cuarray.pi / 2, cuarray.pi]))
    array([  0.,  90., 180.])
    """,
    "divide": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.divide(cuarray.array([1, 2, 3]), 2)
    array([0.5, 1. , 1.5])
    """,
    "divmod": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.divmod(cuarray.array([7, -7]), 2)
    (array([ 3, -4]), array([1, 1]))
    """,
    "equal": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.equal(cuarray.array([1, 2, 3]), 2)
    array([False,  True, False])
    """,
    "exp": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.exp(cuarray.array([0., 1.]))
    array([1.        , 2.71828183])
    """,
    "exp2": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.exp2(cuarray.array([0., 1., 3.]))
    array([1., 2., 8.])
    """,
    "expm1": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.expm1(cuarray.array([0., 1e-10]))
    array([0.e+00, 1.e-10])
    """,
    "fabs": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fabs(cuarray.array([-1.5, 2.]))
    array([1.5, 2. ])
    """,
    "float_power": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.float_power(cuarray.array([2, 3]), 2)
    array([4., 9.])
    """,
    "floor": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.floor(cuarray.array([-1.7, -0.5, 0.5, 1.7]))
    array([-2., -1.,  0.,  1.])
    """,
    "floor_divide": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.floor_divide(cuarray.array([7, -7]), 2)
    array([ 3, -4])
    """,
    "fmax": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fmax(cuarray.array([1., cuarray.nan, 3.]), 2.)
    array([2., 2., 3.])
    """,
    "fmin": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fmin(cuarray.array([1., cuarray.nan, 3.]), 2.)
    array([1., 2., 2.])
    """,
    "fmod": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fmod(cuarray.array([7, -7]), 3)
    array([ 1, -1])
    """,
    "frexp": """

    Examples
    --------
    >>> import cuarray
    >>> mantissa, exponent = cuarray.frexp(cuarray.array([8., 0.5, 3.]))
    >>> mantissa
    array([0.5 , 0.5 , 0.75])
    >>> exponent
    array([4, 0, 2], dtype=int32)
    """,
    "gcd": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.gcd(cuarray.array([12, 20]), 8)
    array([4, 4])
    """,
    "greater": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.greater(cuarray.array([1, 2, 3]), 2)
    array([False, False,  True])
    """,
    "greater_equal": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.greater_equal(cuarray.array([1, 2, 3]), 2)
    array([False,  True,  True])
    """,
    "heaviside": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.heaviside(cuarray.array([-1., 0., 2.]), 0.5)
    array([0. , 0.5, 1. ])
    """,
    "hypot": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.hypot(cuarray.array([3., 5.]), cuarray.array([4., 12.]))
    array([ 5., 13.])
    """,
    "invert": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.invert(cuarray.array([0, 5], dtype=cuarray.uint8))
    array([255, 250], dtype=uint8)
    >>> cuarray.invert(cuarray.array([True, False]))
    array([False,  True])
    """,
    "isfinite": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.isfinite(cuarray.array([1., cuarray.inf, cuarray.nan]))
    array([ True, False, False])
    """,
    "isinf": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.isinf(cuarray.array([1., -cuarray.inf, cuarray.nan]))
    array([False,  True, False])
    """,
    "isnan": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.isnan(cuarray.array([1., cuarray.inf, cuarray.nan]))
    array([False, False,  True])
    """,
    "isnat": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.isnat(cuarray.array(['NaT', '2024-01-01'], dtype='datetime64[D]'))
    array([ True, False])
    """,
    "lcm": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.lcm(cuarray.array([4, 6]), 10)
    array([20, 30])
    """,
    "ldexp": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.ldexp(cuarray.array([1., 3.]), 2)
    array([ 4., 12.])
    """,
    "left_shift": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.left_shift(cuarray.array([1, 3]), 2)
    array([ 4, 12])
    """,
    "less": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.less(cuarray.array([1, 2, 3]), 2)
    array([ True, False, False])
    """,
    "less_equal": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.less_equal(cuarray.array([1, 2, 3]), 2)
    array([ True,  True, False])
    """,
    "log": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.log(cuarray.array([1., 10., 100.]))
    array([0.        , 2.30258509, 4.60517019])
    """,
    "log10": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.log10(cuarray.array([1., 10., 1000.]))
    array([0., 1., 3.])
    """,
    "log1p": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.log1p(cuarray.array([0., 1e-10]))
    array([0.e+00, 1.e-10])
    """,
    "log2": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.log2(cuarray.array([1., 2., 8.]))
    array([0., 1., 3.])
    """,
    "logaddexp": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.logaddexp(cuarray.array([0., 1.]), cuarray.array([0., 1.]))
    array([0.69314718, 1.69314718])
    """,
    "logaddexp2": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.logaddexp2(cuarray.array([1., 3.]), 1.)
    array([2.        , 3.32192809])
    """,
    "logical_and": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.logical_and(cuarray.array([True, True, False]), cuarray.array([True, False, False]))
    array([ True, False, False])
    """,
    "logical_not": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.logical_not(cuarray.array([True, False]))
    array([False,  True])
    """,
    "logical_or": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.logical_or(cuarray.array([True, True, False]), cuarray.array([True, False, False]))
    array([ True,  True, False])
    """,
    "logical_xor": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.logical_xor(cuarray.array([True, True, False]), cuarray.array([True, False, False]))
    array([False,  True, False])
    """,
    "maximum": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.maximum(cuarray.array([1., cuarray.nan, 3.]), 2.)
    array([ 2., nan,  3.])
    """,
    "minimum": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.minimum(cuarray.array([1., cuarray.nan, 3.]), 2.)
    array([ 1., nan,  2.])
    """,
    "modf": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.modf(cuarray.array([1.5, -2.25]))
    (array([ 0.5 , -0.25]), array([ 1., -2.]))
    """,
    "multiply": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.multiply(cuarray.arange(3), cuarray.array([[1], [10]]))
    array([[ 0,  1,  2],
           [ 0, 10, 20]])
    """,
    "negative": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.negative(cuarray.array([1., -2.]))
    array([-1.,  2.])
    """,
    "nextafter": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.nextafter(cuarray.array([1.]), 2.) - 1.
    array([2.22044605e-16])
    """,
    "not_equal": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.not_equal(cuarray.array([1, 2, 3]), 2)
    array([ True, False,  True])
    """,
    "positive": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.positive(cuarray.array([1., -2.]))
    array([ 1., -2.])
    """,
    "power": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.power(cuarray.arange(4), 2)
    array([0, 1, 4, 9])
    >>> cuarray.power(2., cuarray.array([-1., 0.5]))
    array([0.5       , 1.41421356])
    """,
    "rad2deg": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.rad2deg(cuarray.array([0., cuarray.pi / 2, cuarray.pi]))
    array([  0.,  90., 180.])
    """,
    "radians": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.radians(cuarray.array([0., 90., 180.]))
    array([0.        , 1.57079633, 3.14159265])
    """,
    "reciprocal": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.reciprocal(cuarray.array([1., 2., 4.]))
    array([1.  , 0.5 , 0.25])
    """,
    "remainder": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.remainder(cuarray.array([7, -7]), 3)
    array([1, 2])
    """,
    "right_shift": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.right_shift(cuarray.array([16, 7]), 2)
    array([4, 1])
    """,
    "rint": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.rint(cuarray.array([-1.7, -0.5, 0.5, 1.5]))
    array([-2., -0.,  0.,  2.])
    """,
    "sign": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.sign(cuarray.array([-3., 0., 2.]))
    array([-1.,  0.,  1.])
    """,
    "signbit": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.signbit(cuarray.array([-1., -0., 0., 2.]))
    array([ True,  True, False, False])
    """,
    "sin": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.sin(cuarray.array([0., cuarray.pi / 2]))
    array([0., 1.])
    """,
    "sinh": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.sinh(cuarray.array([0., 1.]))
    array([0.        , 1.17520119])
    """,
    "spacing": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.spacing(cuarray.array([1., 1024.]))
    array([2.22044605e-16, 2.27373675e-13])
    """,
    "sqrt": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.sqrt(cuarray.array([1., 4., 9.]))
    array([1., 2., 3.])
    >>> cuarray.sqrt(cuarray.array([-4 + 0j]))
    array([0.+2.j])
    """,
    "square": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.square(cuarray.array([-2, 3]))
    array([4, 9])
    """,
    "subtract": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.subtract(cuarray.array([5, 7, 9]), 2)
    array([3, 5, 7])
    """,
    "tan": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.tan(cuarray.array([0., cuarray.pi / 4]))
    array([0., 1.])
    """,
    "tanh": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.tanh(cuarray.array([0., 1.]))
    array([0.        , 0.76159416])
    """,
    "trunc": """

    Examples
    --------
    >>> import cuarray
    >>> cuarray.trunc(cuarray.array([-1.7, -0.5, 0.5, 1.7]))
    array([-1., -0.,  0.,  1.])
    """,
}
