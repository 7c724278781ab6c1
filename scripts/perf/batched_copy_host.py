"""Where the host time of a small batched copy goes (3 inputs of 64 B): plan, table allocation,
table upload, launch, and the whole concatenate. Run on the GPU machine."""

import time

import numpy

import cuarray
from cuarray._core import batched_copy as bc
from cuarray._core import transfer
from cuarray.cuda import memory, stream


def per_call(fn, reps=2000):
    fn()
    cuarray.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    dt = (time.perf_counter() - t0) / reps
    cuarray.cuda.Device().synchronize()
    return dt * 1e6


def main():
    parts = [cuarray.asarray(numpy.arange(16, dtype=numpy.float32)) for _ in range(3)]
    res = cuarray.empty(48, numpy.float32)
    rows, pitch, pieces = bc.concat_geometry((48,), 0, 4, [(p.data.ptr, 16, 16 * i) for i, p in enumerate(parts)])
    w, wide, table, nblocks = bc.plan(pieces, rows, res.data.ptr, pitch)
    s = stream.get_current_stream()
    mem = memory.alloc(table.nbytes)
    print("plan           {:6.1f} us".format(per_call(lambda: bc.plan(pieces, rows, res.data.ptr, pitch))))
    print("alloc table    {:6.1f} us".format(per_call(lambda: memory.alloc(table.nbytes))))
    print("h2d table      {:6.1f} us".format(per_call(lambda: transfer._h2d(mem, table, table.nbytes, s))))
    print("copy_pieces    {:6.1f} us".format(per_call(lambda: bc.copy_pieces(res.data.ptr, pitch, rows, pieces))))
    print("concatenate 3  {:6.1f} us".format(per_call(lambda: cuarray.concatenate(parts))))
    print("concatenate 2  {:6.1f} us".format(per_call(lambda: cuarray.concatenate(parts[:2]))))
    print("x + y (16)     {:6.1f} us".format(per_call(lambda: parts[0] + parts[1])))
    # Crossover of the two paths: n inputs of 64 B and of 1 MiB, batched vs one copy each.
    for size in (16, 1 << 18):
        xs = [cuarray.asarray(numpy.arange(size, dtype=numpy.float32)) for _ in range(8)]
        for n in range(2, 9):
            row = []
            for min_pieces in (2, 10**9):
                bc.MIN_PIECES = min_pieces
                row.append(per_call(lambda: cuarray.concatenate(xs[:n]), reps=500))
            print("{} x {} B: batched {:6.1f} us, per input {:6.1f} us".format(n, 4 * size, *row))


if __name__ == "__main__":
    main()
