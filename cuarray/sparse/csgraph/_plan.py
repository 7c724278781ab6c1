"""The plan of connected_components, no GPU needed: the vertex index type, the launch shapes of
templates/csgraph.cu's kernels, their names, and when the strong components' label propagation
stops trimming and hands what is left to the host.

Launch shape: BLOCK threads, grid-stride loops over at most BLOCKS_PER_SM blocks per SM (enough
resident warps to hide the scattered loads of the union-find and the propagation passes); a
thread of the CSR linking kernel takes CSR_CHUNK consecutive entries (one binary search for its
first row). Not tuned on a GPU: the values are the usual ones for memory-bound grid-stride loops.

Strong components: each propagation pass is one kernel over the edges and one host read (did
anything change?). Trimming goes on while a pass removes at least 1/TRIM_STOP of the live
vertices. Label propagation needs as many passes as the longest path it has to cover, so a chain
of a million vertices would take a million; after MAX_PASSES passes, or once at most HOST_TAIL
vertices are left, the rest goes to SciPy's Tarjan on the host (the live subgraph, copied), when
SciPy is installed (the optional `cuarray[scipy]`); without it the passes go on to the end.
"""

from __future__ import annotations

import numpy

__all__ = ["BLOCK", "BLOCKS_PER_SM", "CSR_CHUNK", "TRIM_STOP", "MAX_PASSES", "HOST_TAIL", "index_dtype", "grid",
           "csr_grid", "kernel_names", "trim_again", "to_host"]

BLOCK = 256
BLOCKS_PER_SM = 8
CSR_CHUNK = 4
TRIM_STOP = 1000
MAX_PASSES = 2048
HOST_TAIL = 4096
_I32, _I64 = numpy.dtype(numpy.int32), numpy.dtype(numpy.int64)
_CTYPE = {_I32: "int", _I64: "long long"}
KERNELS = ("cc_link_coo", "cc_link_csr", "cc_flatten", "cc_min_member", "scc_degrees", "scc_trim", "scc_reach",
           "scc_color", "scc_color_back", "scc_take")


def index_dtype(n: int, given=None) -> numpy.dtype:
    """The vertex index type: int32 while every vertex id fits (n <= 2^31 - 1), else int64; an
    index array already int64 (a large CSR's) keeps int64 (no conversion pass)."""
    if n > numpy.iinfo(numpy.int32).max or (given is not None and numpy.dtype(given) == _I64):
        return _I64
    return _I32


def grid(work: int, sm_count: int) -> int:
    """Blocks for a grid-stride loop over `work` items (0: nothing to launch)."""
    if work <= 0:
        return 0
    return int(min(-(-work // BLOCK), BLOCKS_PER_SM * max(1, sm_count)))


def csr_grid(nnz: int, sm_count: int) -> int:
    """Blocks of cc_link_csr: its threads take CSR_CHUNK entries each."""
    return grid(-(-nnz // CSR_CHUNK), sm_count)


def kernel_names(dtype) -> dict:
    """{kernel: name expression} of the vertex index type `dtype`."""
    t = _CTYPE[numpy.dtype(dtype)]
    return {k: "{}<{}>".format(k, t) for k in KERNELS}


def trim_again(removed: int, live: int) -> bool:
    """Another trimming pass after one that removed `removed`, `live` vertices left."""
    return removed > 0 and live > 0 and removed * TRIM_STOP >= live


def to_host(live: int, passes: int, host_available: bool) -> bool:
    """Whether the `live` vertices left after `passes` propagation passes go to the host."""
    return host_available and live > 0 and (live <= HOST_TAIL or passes >= MAX_PASSES)
