"""Ready-made memory hooks: `DebugPrintHook` and `LineProfileHook`. See `cupy.cuda.memory_hooks`.

Stack walks skip cuarray's own frames: a report names the lines of *your* code that allocated.
"""

from __future__ import annotations

import sys

from ._backend import PACKAGE_DIR as _PACKAGE_DIR
from .memory_hook import MemoryHook

__all__ = ["DebugPrintHook", "LineProfileHook", "user_frames", "fmt_bytes"]



def user_frames(skip: int = 1, limit: int = 0) -> list:
    """``(filename, lineno, function)`` of the calling stack outside cuarray, outermost first;
    at most the `limit` innermost ones (0: all)."""
    frames = []
    f = sys._getframe(skip)
    while f is not None:
        code = f.f_code
        if not code.co_filename.startswith(_PACKAGE_DIR):
            frames.append((code.co_filename, f.f_lineno, code.co_name))
            if limit and len(frames) == limit:
                break
        f = f.f_back
    frames.reverse()
    return frames


def fmt_bytes(n: float) -> str:
    """``4.00KB``, ``1.50MB``: CuPy's LineProfileHook units (powers of 1024)."""
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1024:
            return "{:.2f}{}".format(n, unit)
        n /= 1024
    return "{:.2f}TB".format(n)


class DebugPrintHook(MemoryHook):
    """Prints each alloc, malloc and free as one JSON line after it happened. See `cupy.cuda.memory_hooks.DebugPrintHook`.

    Keys: ``hook`` (alloc, malloc, free), ``device_id``, ``size`` (asked for, malloc only),
    ``mem_size`` (rounded), ``mem_ptr``, ``pmem_id`` (hex id of the pooled memory object).
    """

    name = "DebugPrintHook"

    def __init__(self, file=sys.stdout, flush: bool = True):
        self.file = file
        self.flush = flush

    def _print(self, hook: str, kw: dict) -> None:
        rec = {"hook": hook}
        for k in ("device_id", "size", "mem_size", "mem_ptr", "pmem_id"):
            if k in kw:
                rec[k] = hex(kw[k]) if k == "pmem_id" else kw[k]
        import json  # (~1 ms of `import cuarray` otherwise)

        self.file.write(json.dumps(rec, separators=(",", ":")) + "\n")
        if self.flush:
            self.file.flush()

    def alloc_postprocess(self, **kw):
        self._print("alloc", kw)

    def malloc_postprocess(self, **kw):
        self._print("malloc", kw)

    def free_postprocess(self, **kw):
        self._print("free", kw)


class _Node:
    __slots__ = ("frame", "used", "acquired", "children")

    def __init__(self, frame):
        self.frame = frame
        self.used = 0
        self.acquired = 0
        self.children: dict = {}


class LineProfileHook(MemoryHook):
    """GPU memory allocated per Python source line, as a call tree. See `cupy.cuda.memory_hooks.LineProfileHook`.

    `print_report()` prints ``file:line:function (used, acquired)`` per node: `used` is what was
    taken from the pool, `acquired` what the pool had to get from the device for it. `_root` sums
    everything. `max_depth` keeps only the innermost frames of each stack (0: all).
    """

    name = "LineProfileHook"

    def __init__(self, max_depth: int = 0):
        self.max_depth = max_depth
        self._root = _Node(("_root", 0, ""))
        self._stack = None  # the path of the allocation in progress (malloc pre -> post)

    def _path(self):
        node = self._root
        path = [node]
        for fr in user_frames(skip=1, limit=self.max_depth):
            child = node.children.get(fr)
            if child is None:
                child = node.children[fr] = _Node(fr)
            path.append(child)
            node = child
        return path

    def malloc_preprocess(self, **kw):
        self._stack = self._path()

    def alloc_postprocess(self, **kw):
        for node in self._stack or self._path():
            node.acquired += kw["mem_size"]

    def malloc_postprocess(self, **kw):
        for node in self._stack or self._path():
            node.used += kw["mem_size"]
        self._stack = None

    def print_report(self, file=sys.stdout) -> None:
        """Print the tree (children in first-allocation order)."""
        file.write(self.report())

    def report(self) -> str:
        lines = []

        def walk(node, depth):
            fn, line, func = node.frame
            label = "_root" if depth == 0 else "{}:{}:{}".format(fn, line, func)
            lines.append("{}{} ({}, {})".format("  " * depth, label, fmt_bytes(node.used), fmt_bytes(node.acquired)))
            for child in node.children.values():
                walk(child, depth + 1)

        walk(self._root, 0)
        return "\n".join(lines) + "\n"
