"""The QMC engines' kernel family (templates/qmc.cu with sobol.cuh and halton.cuh): a point's
coordinate computed from its index, one thread each."""

from __future__ import annotations

import pathlib

from ...._core.ndarray import ndarray
from ....cuda.kernel_family import KernelFamily

__all__ = ["QMC", "source", "TEMPLATES", "draw"]

TEMPLATES = pathlib.Path(__file__).parent / "templates"


def source() -> str:
    return "#define CUARRAY_DEVICE __device__\n" + "".join(
        (TEMPLATES / f).read_text() for f in ("sobol.cuh", "halton.cuh", "qmc.cu"))


QMC = KernelFamily("cuarray_qmc", source, namespace="cuarray_qmc", kernels=(
    "sobol_draw<U>(const U* sv, const U* shift, double* out, unsigned long long start, long long n, int d, int bits, "
    "double scale)",
    "halton_draw(const long long* bases, const int* perms, const long long* offsets, const int* counts, double* out, "
    "long long start, long long n, int d, int scrambled)",
))

BLOCK = 256  # threads a block: one a coordinate


def draw(name, total, *args):
    """`total` threads of the family's kernel `name` (one a coordinate), its arguments in order:
    cuarray arrays as their device pointers, the rest as they are. The engines' one launch (the CPU
    tests stand a g++ build of the same point function in for it)."""
    QMC.kernel(name).launch(-(-total // BLOCK), BLOCK, *(a.data.ptr if isinstance(a, ndarray) else a for a in args))
