"""cuarray's functions accept the Array API 2025.12 signatures: every positional parameter and
every keyword-only parameter of the standard's published stubs (data-apis/array-api,
src/array_api_stubs/_2025_12; the literal below lists, per function, the number of positional
parameters, the keyword-only names, and whether it takes *args). ufunc objects take their
operands positionally and are checked by the ufunc tests; the inspection API and the array
object are checked in tests/_dtype/test_dtype_routines_cpu.py and tests/test_coverage.py."""

from __future__ import annotations

import inspect

import pytest

import cuarray
from cuarray._core.ufunc import ufunc

SIGS = {  # name: (positional parameters, keyword-only names, *args)
    'abs': (1, (), False),
    'acos': (1, (), False),
    'acosh': (1, (), False),
    'add': (2, (), False),
    'all': (1, ('axis', 'keepdims'), False),
    'any': (1, ('axis', 'keepdims'), False),
    'arange': (3, ('dtype', 'device'), False),
    'argmax': (1, ('axis', 'keepdims'), False),
    'argmin': (1, ('axis', 'keepdims'), False),
    'argsort': (1, ('axis', 'descending', 'stable'), False),
    'asarray': (1, ('dtype', 'device', 'copy'), False),
    'asin': (1, (), False),
    'asinh': (1, (), False),
    'astype': (2, ('copy', 'device'), False),
    'atan': (1, (), False),
    'atan2': (2, (), False),
    'atanh': (1, (), False),
    'bitwise_and': (2, (), False),
    'bitwise_invert': (1, (), False),
    'bitwise_left_shift': (2, (), False),
    'bitwise_or': (2, (), False),
    'bitwise_right_shift': (2, (), False),
    'bitwise_xor': (2, (), False),
    'broadcast_arrays': (0, (), True),
    'broadcast_shapes': (0, (), True),
    'broadcast_to': (2, (), False),
    'can_cast': (2, (), False),
    'ceil': (1, (), False),
    'clip': (3, (), False),
    'concat': (1, ('axis',), False),
    'conj': (1, (), False),
    'copysign': (2, (), False),
    'cos': (1, (), False),
    'cosh': (1, (), False),
    'count_nonzero': (1, ('axis', 'keepdims'), False),
    'cumulative_prod': (1, ('axis', 'dtype', 'include_initial'), False),
    'cumulative_sum': (1, ('axis', 'dtype', 'include_initial'), False),
    'diff': (1, ('axis', 'n', 'prepend', 'append'), False),
    'divide': (2, (), False),
    'empty': (1, ('dtype', 'device'), False),
    'empty_like': (1, ('dtype', 'device'), False),
    'equal': (2, (), False),
    'exp': (1, (), False),
    'expand_dims': (2, (), False),
    'expm1': (1, (), False),
    'eye': (2, ('k', 'dtype', 'device'), False),
    'fft.fft': (1, ('n', 'axis', 'norm'), False),
    'fft.fftfreq': (1, ('d', 'dtype', 'device'), False),
    'fft.fftn': (1, ('s', 'axes', 'norm'), False),
    'fft.fftshift': (1, ('axes',), False),
    'fft.hfft': (1, ('n', 'axis', 'norm'), False),
    'fft.ifft': (1, ('n', 'axis', 'norm'), False),
    'fft.ifftn': (1, ('s', 'axes', 'norm'), False),
    'fft.ifftshift': (1, ('axes',), False),
    'fft.ihfft': (1, ('n', 'axis', 'norm'), False),
    'fft.irfft': (1, ('n', 'axis', 'norm'), False),
    'fft.irfftn': (1, ('s', 'axes', 'norm'), False),
    'fft.rfft': (1, ('n', 'axis', 'norm'), False),
    'fft.rfftfreq': (1, ('d', 'dtype', 'device'), False),
    'fft.rfftn': (1, ('s', 'axes', 'norm'), False),
    'finfo': (1, (), False),
    'flip': (1, ('axis',), False),
    'floor': (1, (), False),
    'floor_divide': (2, (), False),
    'from_dlpack': (1, ('device', 'copy'), False),
    'full': (2, ('dtype', 'device'), False),
    'full_like': (2, ('dtype', 'device'), False),
    'greater': (2, (), False),
    'greater_equal': (2, (), False),
    'hypot': (2, (), False),
    'iinfo': (1, (), False),
    'imag': (1, (), False),
    'isdtype': (2, (), False),
    'isfinite': (1, (), False),
    'isin': (2, ('invert',), False),
    'isinf': (1, (), False),
    'isnan': (1, (), False),
    'less': (2, (), False),
    'less_equal': (2, (), False),
    'linalg.cholesky': (1, ('upper',), False),
    'linalg.cross': (2, ('axis',), False),
    'linalg.det': (1, (), False),
    'linalg.diagonal': (1, ('offset',), False),
    'linalg.eig': (1, (), False),
    'linalg.eigh': (1, (), False),
    'linalg.eigvals': (1, (), False),
    'linalg.eigvalsh': (1, (), False),
    'linalg.inv': (1, (), False),
    'linalg.matmul': (2, (), False),
    'linalg.matrix_norm': (1, ('keepdims', 'ord'), False),
    'linalg.matrix_power': (2, (), False),
    'linalg.matrix_rank': (1, ('rtol',), False),
    'linalg.matrix_transpose': (1, (), False),
    'linalg.outer': (2, (), False),
    'linalg.pinv': (1, ('rtol',), False),
    'linalg.qr': (1, ('mode',), False),
    'linalg.slogdet': (1, (), False),
    'linalg.solve': (2, (), False),
    'linalg.svd': (1, ('full_matrices',), False),
    'linalg.svdvals': (1, (), False),
    'linalg.tensordot': (2, ('axes',), False),
    'linalg.trace': (1, ('offset', 'dtype'), False),
    'linalg.vecdot': (2, ('axis',), False),
    'linalg.vector_norm': (1, ('axis', 'keepdims', 'ord'), False),
    'linspace': (3, ('dtype', 'device', 'endpoint'), False),
    'log': (1, (), False),
    'log10': (1, (), False),
    'log1p': (1, (), False),
    'log2': (1, (), False),
    'logaddexp': (2, (), False),
    'logical_and': (2, (), False),
    'logical_not': (1, (), False),
    'logical_or': (2, (), False),
    'logical_xor': (2, (), False),
    'matmul': (2, (), False),
    'matrix_transpose': (1, (), False),
    'max': (1, ('axis', 'keepdims'), False),
    'maximum': (2, (), False),
    'mean': (1, ('axis', 'keepdims'), False),
    'meshgrid': (0, ('indexing',), True),
    'min': (1, ('axis', 'keepdims'), False),
    'minimum': (2, (), False),
    'moveaxis': (3, (), False),
    'multiply': (2, (), False),
    'negative': (1, (), False),
    'nextafter': (2, (), False),
    'nonzero': (1, (), False),
    'not_equal': (2, (), False),
    'ones': (1, ('dtype', 'device'), False),
    'ones_like': (1, ('dtype', 'device'), False),
    'permute_dims': (2, (), False),
    'positive': (1, (), False),
    'pow': (2, (), False),
    'prod': (1, ('axis', 'dtype', 'keepdims'), False),
    'real': (1, (), False),
    'reciprocal': (1, (), False),
    'remainder': (2, (), False),
    'repeat': (2, ('axis',), False),
    'reshape': (2, ('copy',), False),
    'result_type': (0, (), True),
    'roll': (2, ('axis',), False),
    'round': (1, (), False),
    'searchsorted': (2, ('side', 'sorter'), False),
    'sign': (1, (), False),
    'signbit': (1, (), False),
    'sin': (1, (), False),
    'sinh': (1, (), False),
    'sort': (1, ('axis', 'descending', 'stable'), False),
    'sqrt': (1, (), False),
    'square': (1, (), False),
    'squeeze': (2, (), False),
    'stack': (1, ('axis',), False),
    'std': (1, ('axis', 'correction', 'keepdims'), False),
    'subtract': (2, (), False),
    'sum': (1, ('axis', 'dtype', 'keepdims'), False),
    'take': (2, ('axis',), False),
    'take_along_axis': (2, ('axis',), False),
    'tan': (1, (), False),
    'tanh': (1, (), False),
    'tensordot': (2, ('axes',), False),
    'tile': (2, (), False),
    'tril': (1, ('k',), False),
    'triu': (1, ('k',), False),
    'trunc': (1, (), False),
    'unique_all': (1, (), False),
    'unique_counts': (1, (), False),
    'unique_inverse': (1, (), False),
    'unique_values': (1, (), False),
    'unstack': (1, ('axis',), False),
    'var': (1, ('axis', 'correction', 'keepdims'), False),
    'vecdot': (2, ('axis',), False),
    'where': (3, (), False),
    'zeros': (1, ('dtype', 'device'), False),
    'zeros_like': (1, ('dtype', 'device'), False),
}


def _resolve(name):
    obj = cuarray
    for part in name.split("."):
        obj = getattr(obj, part, None)
    return obj


@pytest.mark.parametrize("name", sorted(SIGS))
def test_function_accepts_the_standards_signature(name):
    npos, keywords, varargs = SIGS[name]
    fn = _resolve(name)
    assert fn is not None, "cuarray.{} is missing".format(name)
    if isinstance(fn, ufunc):
        assert fn.nin == npos or name in ("clip", "round"), name
        return
    params = inspect.signature(fn).parameters.values()
    var_kw = any(p.kind == p.VAR_KEYWORD for p in params)
    var_pos = any(p.kind == p.VAR_POSITIONAL for p in params)
    names = {p.name for p in params}
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert var_kw or set(keywords) <= names, "{} lacks {}".format(name, set(keywords) - names)
    assert var_pos or len(positional) >= npos, name
    assert var_pos or not varargs, name


def test_the_literal_is_the_2025_12_set():
    assert {"broadcast_shapes", "isin", "linalg.eig", "linalg.eigvals"} <= set(SIGS)
    assert SIGS["sort"][1] == ("axis", "descending", "stable")
