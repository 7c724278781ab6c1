"""What ptxas records about each kernel of a cubin, read from the ELF's .nv.info sections (no
cuobjdump needed): the records read are of format EIFMT_SVAL (4): (symbol index, value). Used by the codegen
tests that check registers, frames (local memory: spills) and stack sizes on a machine with no GPU."""

from __future__ import annotations

import os
import struct

FRAME_SIZE = 0x11  # EIATTR_FRAME_SIZE: a kernel's own frame in bytes (0: no local memory)
MIN_STACK_SIZE = 0x12  # EIATTR_MIN_STACK_SIZE: 0xFFFFFFFF where ptxas could not size it (recursion)
REGCOUNT = 0x2F  # EIATTR_REGCOUNT: registers a thread
_SYMBOL_VALUE = (FRAME_SIZE, MIN_STACK_SIZE, REGCOUNT)  # the records read (others' payloads differ)


def kernel_attributes(cubin: bytes) -> dict:
    """{symbol name: {attribute code: value}} of the frame, stack and register records in the
    cubin's .nv.info sections (the global one and each kernel's .nv.info.<name>)."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3a)
    secs = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize) for i in range(shnum)]

    def cstr(base, at):
        return cubin[base + at:cubin.index(b"\0", base + at)].decode()

    symtab = next(s for s in secs if s[1] == 2)  # SHT_SYMTAB
    names = [cstr(secs[symtab[6]][4], struct.unpack_from("<I", cubin, symtab[4] + 24 * j)[0])
             for j in range(symtab[5] // 24)]
    found: dict = {}
    for sec in secs:
        if not cstr(secs[shstrndx][4], sec[0]).startswith(".nv.info"):
            continue
        at, end = sec[4], sec[4] + sec[5]
        while at < end:
            fmt, attr = cubin[at], cubin[at + 1]
            size = struct.unpack_from("<H", cubin, at + 2)[0] if fmt == 4 else (2 if fmt == 3 else 0)
            if fmt == 4 and attr in _SYMBOL_VALUE:
                sym, value = struct.unpack_from("<II", cubin, at + 4)
                found.setdefault(names[sym], {})[attr] = value
            at += 4 + size
    return found


KPARAM_INFO = 0x17  # EIATTR_KPARAM_INFO: (index u32, ordinal u16, offset u16, flags u32; size = flags >> 18)


def kernel_params(cubin: bytes) -> dict:
    """{section name '.nv.info.<kernel>': [(ordinal, offset, size) of each parameter, by ordinal]}:
    where the driver copies each kernel parameter to, and how many bytes it copies."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3a)
    secs = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    found: dict = {}
    for sec in secs:
        name = cubin[names + sec[0]:cubin.index(b"\0", names + sec[0])].decode()
        if not name.startswith(".nv.info."):
            continue
        at, end = sec[4], sec[4] + sec[5]
        while at < end:
            fmt, attr = cubin[at], cubin[at + 1]
            size = struct.unpack_from("<H", cubin, at + 2)[0] if fmt == 4 else (2 if fmt == 3 else 0)
            if fmt == 4 and attr == KPARAM_INFO:
                _, ordinal, offset, flags = struct.unpack_from("<IHHI", cubin, at + 4)
                found.setdefault(name, []).append((ordinal, offset, (flags >> 18) & 0x3FFF))
            at += 4 + size
    return {k: sorted(v) for k, v in found.items()}


def ptxas_verbose(source: str, names, filename: str = "kernels.cu") -> tuple:
    """NVRTC for sm_90 with `ptxas -v` over the kernels `names` (name expressions) of `source`:
    (ptxas's log, {lowered name: name expression}). Fails the test if it does not compile."""
    from cuda.bindings import nvrtc

    prog = nvrtc.nvrtcCreateProgram(source.encode(), filename.encode(), 0, [], [])[1]
    for n in names:
        nvrtc.nvrtcAddNameExpression(prog, n.encode())
    core = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cuarray", "_core", "templates")
    flags = [b"-arch=sm_90", b"-std=c++17", b"--ptxas-options=-v", b"--include-path=" + os.path.abspath(core).encode()]
    ok = nvrtc.nvrtcCompileProgram(prog, len(flags), flags)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    log = nvrtc_text(prog, "log")
    assert ok, log
    return log, {nvrtc.nvrtcGetLoweredName(prog, n.encode())[1].decode(): n for n in names}


def nvrtc_text(prog, what: str = "ptx") -> str:
    """The PTX (`what="ptx"`) or the compile log (`"log"`) of a compiled NVRTC program, read into a
    buffer of its own: NVRTC writes into the bytes object it is given, and `b" " * 1` (an empty
    log's size) is CPython's shared one-byte object, which the NUL would overwrite for the whole
    process (print's separators came out as NUL once). The text stops at NVRTC's NUL."""
    from cuda.bindings import nvrtc

    size, get = ((nvrtc.nvrtcGetPTXSize, nvrtc.nvrtcGetPTX) if what == "ptx"
                 else (nvrtc.nvrtcGetProgramLogSize, nvrtc.nvrtcGetProgramLog))
    buf = bytes(size(prog)[1] + 1)  # (a new object of at least 2 bytes)
    get(prog, buf)
    return buf[:buf.index(b"\0")].decode()


def compile_sm90(source: str, names) -> tuple:
    """cuarray's NVRTC compile of `source` for sm_90 with the name expressions `names`: (cubin,
    {name: lowered name}); the test is skipped where NVRTC's library is not installed."""
    import pytest

    from cuarray.cuda import compiler

    try:
        return compiler.compile_cubin(source, arch="sm_90", name_expressions=tuple(names))
    except Exception as e:  # noqa: BLE001
        if "nvrtc" in str(e).lower() and "not" in str(e).lower() and "found" in str(e).lower():
            pytest.skip("NVRTC unavailable: {}".format(e))
        raise
