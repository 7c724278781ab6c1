"""The on-disk kernel cache: one checksummed file per key under `get_cache_dir()`.

File: header (8-byte magic, u32 format version, u64 payload length, sha256 of payload) + payload.
Payload: key (64 ASCII hex) + u32 entry count + entries (u32 len, name expression, u32 len, mangled
name) + u64 len + cubin. Little-endian; no pickle, so a cache file can never run Python code.

Any file that fails a check (truncated, flipped bits, other format version, filed under another key)
is deleted and rebuilt, never loaded. Writes are atomic (temp file + `os.replace`), so processes
compiling the same kernel at once leave one whole, identical file. An unwritable location costs one
`CacheWarning`, then the process keeps kernels in memory only.
"""

from __future__ import annotations

import hashlib
import os
import struct
import warnings

__all__ = ["CacheWarning", "get_cache_dir", "clear", "load", "store"]


class CacheWarning(UserWarning):
    """The on-disk kernel cache cannot be used; kernels are cached in this process only."""


_MAGIC = b"CUARRAYK"
FORMAT_VERSION = 1  # bump when the layout changes: older files then fail the check
_HEADER = struct.Struct("<8sIQ32s")
_SUFFIX = ".cukernel"
# The same format holds small derived values the key needs (a header directory's content digest,
# `compiler._headers_digest`), under their own suffix so kernel entries stay countable.
SMALL_SUFFIX = ".cudigest"
_unwritable: set = set()  # dirs we warned about; writes there are skipped for the process


def get_cache_dir() -> str:
    """The kernel cache directory: $CUARRAY_CACHE_DIR, else $XDG_CACHE_HOME/cuarray/kernels."""
    d = os.environ.get("CUARRAY_CACHE_DIR")
    if d:
        return os.path.abspath(os.path.expanduser(d))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cuarray", "kernels")


def encode(key: str, cubin: bytes, mapping: dict) -> bytes:
    out = [key.encode("ascii"), struct.pack("<I", len(mapping))]
    for expr, mangled in mapping.items():
        e = expr.encode() if isinstance(expr, str) else bytes(expr)
        m = mangled.encode() if isinstance(mangled, str) else bytes(mangled)
        out += [struct.pack("<I", len(e)), e, struct.pack("<I", len(m)), m]
    out += [struct.pack("<Q", len(cubin)), cubin]
    payload = b"".join(out)
    return _HEADER.pack(_MAGIC, FORMAT_VERSION, len(payload), hashlib.sha256(payload).digest()) + payload


def decode(data: bytes, key: str):
    """(cubin, mapping), or None for anything truncated, corrupt, foreign or of another version."""
    if len(data) < _HEADER.size:
        return None
    magic, version, length, digest = _HEADER.unpack_from(data)
    payload = memoryview(data)[_HEADER.size:]
    if magic != _MAGIC or version != FORMAT_VERSION or length != len(payload):
        return None
    if hashlib.sha256(payload).digest() != digest or bytes(payload[:64]) != key.encode("ascii"):
        return None
    try:
        pos = 64
        (count,) = struct.unpack_from("<I", payload, pos)
        pos += 4
        mapping = {}
        for _ in range(count):
            (n,) = struct.unpack_from("<I", payload, pos)
            expr = bytes(payload[pos + 4:pos + 4 + n]).decode()
            pos += 4 + n
            (n,) = struct.unpack_from("<I", payload, pos)
            mapping[expr] = bytes(payload[pos + 4:pos + 4 + n])  # cuda.core's own type: bytes
            pos += 4 + n
        (n,) = struct.unpack_from("<Q", payload, pos)
        pos += 8
        cubin = bytes(payload[pos:pos + n])
        if pos + n != len(payload):
            return None
    except (struct.error, UnicodeDecodeError):
        return None
    return cubin, mapping


def load(key: str, suffix: str = _SUFFIX):
    path = os.path.join(get_cache_dir(), key + suffix)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:  # missing, unreadable, or the cache "dir" is a file: a miss
        return None
    hit = decode(data, key)
    if hit is None:
        try:
            os.unlink(path)  # never load it; the rebuild writes a good one
        except OSError:
            pass
    return hit


def _warn_unwritable(d: str, exc: BaseException) -> None:
    if d not in _unwritable:
        _unwritable.add(d)
        warnings.warn(
            "cuarray cannot write its kernel cache in {} ({}); compiled kernels are kept in this "
            "process only. Set CUARRAY_CACHE_DIR to a writable directory.".format(d, exc),
            CacheWarning,
            stacklevel=4,
        )


def store(key: str, cubin: bytes, mapping: dict, suffix: str = _SUFFIX) -> None:
    d = get_cache_dir()
    if d in _unwritable:
        return
    tmp = None
    try:
        os.makedirs(d, mode=0o700, exist_ok=True)  # private: a cubin in it is executed as is
        import tempfile  # only when writing (~3 ms of import)

        fd, tmp = tempfile.mkstemp(dir=d, prefix=key[:16] + ".", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(encode(key, cubin, mapping))
        # No fsync: a file torn by a crash fails its checksum and is rebuilt. os.replace is atomic,
        # so concurrent writers of one key leave one whole (identical) file; the last one wins.
        os.replace(tmp, os.path.join(d, key + suffix))
        tmp = None
    except OSError as exc:
        # A derived value's entry only saves time: a read-only cache that holds every kernel a
        # program needs (one filled by an earlier version, say) gives no warning for it.
        if suffix == _SUFFIX:
            _warn_unwritable(d, exc)
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def clear() -> None:
    """Delete every cached kernel, header digest and stray temporary file in `get_cache_dir()`."""
    d = get_cache_dir()
    try:
        names = os.listdir(d)
    except OSError:
        return
    for fname in names:
        if fname.endswith((_SUFFIX, SMALL_SUFFIX, ".tmp")):
            try:
                os.unlink(os.path.join(d, fname))
            except OSError:
                pass
