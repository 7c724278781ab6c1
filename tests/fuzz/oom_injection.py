"""Out of memory at each allocation of an operation in turn, refused by the memory pool itself.

Why not a pool limit raised step by step: the pool reserves segments larger than the request (an
array under 10 MiB gets a 20 MiB segment, cuda/memory.py), and `free_all_blocks()` cannot give back
a segment that still holds the input, so `set_limit(total_bytes())` leaves megabytes the operation
can use without ever reaching the limit (on the H100 run argsort, cumsum, solve and matmul never
failed). Here an allocator wrapped around the pool (through `using_allocator`, for the calling
thread) passes allocations through and, at the k-th, asks the pool for more than a temporary limit
allows: the pool's own OutOfMemoryError, from its own failure path (`grow`).

The checks run after the ``except`` block, never inside it: while it runs, the exception's
traceback holds the frames of the failed call, and with them its temporaries (in NumPy as in
cuarray: it is Python's rule). Once the block ends they go; what stays in use is a real leak.
"""

from __future__ import annotations

from cuarray.cuda import memory


class RefuseAt:
    """An allocator serving from `pool`, except that its `k`-th call raises the pool's OutOfMemoryError."""

    def __init__(self, pool, k: int):
        self.pool = pool
        self.k = k
        self.calls = 0

    def __call__(self, size: int):
        self.calls += 1
        if self.calls != self.k:
            return self.pool.malloc(size)
        pool = self.pool
        limit = pool.get_limit()
        total = pool.total_bytes()
        pool.set_limit(max(total, 1))
        try:  # larger than any cached block and than the limit: the pool must grow, and may not
            pool.malloc(total + size + (1 << 20))
        finally:
            pool.set_limit(limit)
        raise AssertionError("the pool served a request past its limit")


def refuse_each_allocation(pool, run, after_refusal, most: int = 200) -> int:
    """Call `run()` with its 1st, 2nd, ... allocation refused until a run needs fewer allocations
    than the refused one; after each refusal, outside the except block, `after_refusal(k)`.
    Returns how many runs were refused."""
    for k in range(1, most + 1):
        refuse = RefuseAt(pool, k)
        refused = False
        with memory.using_allocator(refuse):
            try:
                run()
            except memory.OutOfMemoryError:
                refused = True
        if not refused:
            assert refuse.calls < k, "allocation {} was refused, yet the operation returned".format(k)
            return k - 1
        after_refusal(k)
    raise AssertionError("still allocating after {} refusals".format(most))
