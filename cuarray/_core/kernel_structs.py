"""Structured NumPy dtypes as C structs in generated kernels (`ElementwiseKernel` parameters).

A structured scalar (`numpy.void`) is passed by value as the bytes of its dtype (`launch.struct_arg`,
the rule `RawKernel` follows), and an array of a structured dtype as a pointer to such structs, so
what the kernel declares must have that layout. Two ways to name the type in a kernel's parameter
list:

- a type placeholder (one capital letter, ``'S p'``) bound to a structured scalar: the kernel gets a
  struct generated from the dtype (`struct_declaration`): its fields by name at the dtype's offsets,
  explicit padding, packed, so its layout is the dtype's whatever the alignment (``align=True`` or
  not), nested structs and sub-array fields included;
- a C type name the kernel knows (``'float3 v'``: CUDA's vector types, or a struct of the
  ``preamble``): used as it is; NVRTC checks that its size is the dtype's (`size_check`).
"""

from __future__ import annotations

import numpy

from . import dtypes as _dtypes

__all__ = ["is_struct", "struct_declaration", "size_check", "MAX_BY_VALUE"]

# The engine's launches carry a struct in a numeric scalar of up to 16 bytes (`launch.struct_arg`);
# wider ones would need `launch_struct`'s own pointer array, which `Definition.run` does not use.
MAX_BY_VALUE = 16


def is_struct(dtype) -> bool:
    return dtype.fields is not None


def _field_ctype(fdt: numpy.dtype, owner: str, fname: str, out: list) -> str:
    if fdt.fields is not None:
        return _emit(fdt, "{}_{}".format(owner, fname), out)
    if fdt.kind in "biuf" and fdt.char != "e":
        return _dtypes.ctype(_dtypes.normalize_dtype(fdt))
    raise TypeError("field {!r} of dtype {} has no C equivalent in a generated struct (fields of "
                    "bool, integer, float32/float64 or nested structs; declare the struct in the "
                    "preamble and name it in the parameter list instead)".format(fname, fdt))


def _emit(dt: numpy.dtype, name: str, out: list) -> str:
    members, pos = [], 0
    for fname, (fdt, offset, *_) in sorted(dt.fields.items(), key=lambda kv: kv[1][1]):
        if not fname.isidentifier():
            raise TypeError("field name {!r} is not a C identifier".format(fname))
        if offset < pos:
            raise TypeError("dtype {} has overlapping fields; it has no C struct".format(dt))
        if offset > pos:
            members.append("unsigned char _pad{}[{}];".format(len(members), offset - pos))
        base, shape = fdt.base, fdt.shape
        dims = "".join("[{}]".format(d) for d in shape)
        members.append("{} {}{};".format(_field_ctype(base, name, fname, out), fname, dims))
        pos = offset + fdt.itemsize
    if pos < dt.itemsize:
        members.append("unsigned char _pad{}[{}];".format(len(members), dt.itemsize - pos))
    out.append("struct __attribute__((packed)) {} {{ {} }};\n".format(name, " ".join(members)))
    out.append(size_check(name, dt))
    return name


def struct_declaration(name: str, dtype: numpy.dtype) -> str:
    """C declarations of a packed struct `name` with `dtype`'s fields, offsets and size (nested
    structs first), each size checked by NVRTC; TypeError for a field C cannot hold."""
    out: list = []
    _emit(dtype, "_cuarray_struct_" + name, out)
    out.append("typedef _cuarray_struct_{0} {0};\n".format(name))
    return "".join(out)


def size_check(ctype: str, dtype: numpy.dtype) -> str:
    """A compile-time check that the C type `ctype` is as wide as `dtype`'s scalars."""
    return ('static_assert(sizeof({0}) == {1}, "kernel parameter type {0} is not {1} bytes wide like its '
            'structured dtype");\n'.format(ctype, dtype.itemsize))
