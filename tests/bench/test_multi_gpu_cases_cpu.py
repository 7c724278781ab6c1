"""The multi-GPU bench cases' host logic, with no GPU: the allreduce case's rank launcher (fake
ranks) and per-rank timing loop (a fake library), the Dask case's cluster (one worker process per
GPU, each seeing only its own) and data placement (NumPy chunks stand in for device ones)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from cuarray.bench import cases
from cuarray.bench.cases import _collective_child, collectives


def test_cases_registered():
    ids = {c.id for c in cases.select(groups=["multi-gpu"])}
    assert {"peer-copy", "allreduce", "dask-2gpu"} <= ids
    ar = next(c for c in cases.all_cases() if c.id == "allreduce")
    assert ar.params == ("2 processes", "1 process") and ar.peers_once  # torch has no one-process mode
    assert ar.amount("nbytes", 1, "2 processes") == 2**30  # busbw factor 2 (n - 1) / n is 1 for two ranks


def _fake_ranks(monkeypatch, rounds, fail_rank=None):
    """Popen runs a child printing the given per-round times for its rank instead of NCCL;
    returns the list of ranks launched."""
    real = subprocess.Popen
    launched = []

    def popen(cmd, **kw):
        rank = int(cmd[cmd.index("cuarray.bench.cases._collective_child") + 2])
        launched.append(rank)
        if rank == fail_rank:
            code = "import sys; sys.stderr.write('x\\nRuntimeError: NCCL said no\\n'); sys.exit(3)"
        else:
            code = "print({!r})".format(json.dumps({"rank": rank, "round_s": rounds[rank]}))
        return real([sys.executable, "-c", code], **kw)

    monkeypatch.setattr(collectives.subprocess, "Popen", popen)
    return launched


def test_allreduce_time_is_the_median_round_of_the_slower_rank(monkeypatch):
    launched = _fake_ranks(monkeypatch, {0: [1.0, 3.0, 2.0], 1: [2.0, 1.0, 2.5]})
    out = collectives.run_ranks("cuarray", 2**30)
    assert out["time_s"] == 2.5  # rounds: max(1, 2) = 2, max(3, 1) = 3, max(2, 2.5) = 2.5
    assert out["busbw_GBs"] == pytest.approx(2**30 / 2.5 / 1e9)
    assert launched == [0, 1]
    del launched[:]
    assert collectives.run_ranks("cuarray-group", 2**30)["time_s"] == 2.0  # one process drives both
    assert launched == [0]


def test_allreduce_failing_rank_raises_with_its_last_line(monkeypatch):
    _fake_ranks(monkeypatch, {0: [1.0], 1: [1.0]}, fail_rank=1)
    with pytest.raises(RuntimeError, match="rank failed: RuntimeError: NCCL said no"):
        collectives.run_ranks("torch", 2**20)


def test_child_checks_then_times_rounds(monkeypatch, capsys):
    calls = []

    def fake_rank(rank, nranks, n, rendezvous):
        assert (rank, nranks, n, rendezvous) == (1, 2, 256, "rdv")
        return (lambda: calls.append("ar"), lambda: calls.append("barrier"), lambda: calls.append("sync"),
                lambda: calls.append("reset"), lambda: 0.0, lambda: calls.append("close"))

    monkeypatch.setattr(_collective_child, "_cuarray_rank", fake_rank)
    _collective_child.main(["cuarray", "1", "2", "1024", "3", "4", "rdv"])
    out = json.loads(capsys.readouterr().out)
    assert out["rank"] == 1 and len(out["round_s"]) == 3
    timed_round = ["reset", "barrier", "sync"] + ["ar"] * 4 + ["sync"]
    assert calls == ["ar"] * 3 + ["sync"] + timed_round * 3 + ["close"]


def test_child_refuses_a_wrong_sum(monkeypatch):
    monkeypatch.setattr(_collective_child, "_torch_rank",
                        lambda *a: (None, None, None, None, lambda: 1.5, None))
    with pytest.raises(AssertionError, match="differs from the expected sum by 1.5"):
        _collective_child.main(["torch", "0", "2", "1024", "1", "1", "12345"])


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("distributed")
    from cuarray.bench.cases import dask_gpus

    cluster, client = dask_gpus.gpu_cluster(2)
    yield client
    client.close()
    cluster.close()


def test_one_worker_process_per_gpu(cluster):
    import os

    from cuarray.bench.cases import dask_gpus

    a, b = dask_gpus.worker_addresses(cluster)
    seen = cluster.run(lambda: (os.environ.get("CUDA_VISIBLE_DEVICES"), os.getpid()))
    assert seen[a][0] == "0" and seen[b][0] == "1" and seen[a][1] != seen[b][1]
    assert not cluster.run_on_scheduler(lambda dask_scheduler: "stealing" in dask_scheduler.extensions)


def test_data_placement_and_timed_calls(cluster):
    from cuarray.bench.cases import dask_gpus

    a, b = dask_gpus.worker_addresses(cluster)
    x1 = dask_gpus.place(cluster, "numpy", np, 2**14, 2**10, 1)
    x2 = dask_gpus.place(cluster, "numpy", np, 2**14, 2**10, 2)
    assert [ws for ws in cluster.who_has(x1).values()] == [(a,)] * 16
    assert sorted(ws for ws in cluster.who_has(x2).values()) == sorted([(a,)] * 8 + [(b,)] * 8)
    assert x2.chunks == ((2**10,) * 16,)
    # The timed graphs start from the chunks themselves: no task of the concatenation is left
    # in x2's graph (an alias a chunk was in every timed two-GPU graph).
    assert len(x2.__dask_graph__()) == 16
    want = np.concatenate([np.random.default_rng(s).random(2**10, dtype=np.float32) for s in range(16)])
    for x in (x1, x2):  # the same numbers, wherever they are
        np.testing.assert_array_equal(x.compute(), want)
    for op in ("sum", "chain"):
        out = dask_gpus.measure(cluster, "numpy", np, op, 2**14, 2**10, warmup=1, repeats=2)
        assert out["time_s"] > 0 and out["one_gpu_s"] > 0 and out["speedup"] == out["one_gpu_s"] / out["time_s"]
        assert ("default_tree_s" in out) == (op == "sum")
        assert out["tasks_1gpu"] >= 16 and out["tasks_2gpu"] >= 16  # every chunk's task, at least
        assert 0 < out["task_compute_2gpu_s"] <= out["profiled_wall_2gpu_s"] * 2  # (two workers at once)
    row = {"libs": {"cuarray": {"extras": out | {"speedup": 1.5, "default_tree_s": 0.07}}, "cupy": {"extras": {}}}}
    assert dask_gpus._speedup_note(row) == "2 GPUs vs 1: cuarray 1.50x; Dask's default tree on 2 GPUs: cuarray 70.0 ms"



# -- dask-cuda workloads (cuarray/bench/cases/dask_workloads.py), NumPy chunks on the CPU cluster --
TINY = {"chain-reduce": ((256, 16), (64, 16), "float32"), "tsqr": ((512, 6), (128, 6), "float64"),
        "svd": ((512, 6), (128, 6), "float64"), "map-overlap": ((64, 40), (16, 40), "float32")}


def test_dask_cuda_case_registered_and_skips_without_two_gpus():
    from cuarray.bench.cases import NotAvailable, dask_workloads

    case = next(c for c in cases.all_cases() if c.id == "dask-cuda")
    assert case.group == "multi-gpu" and case.params == ("chain-reduce", "tsqr", "svd", "map-overlap")
    assert case.amount("nbytes", 1, "chain-reduce") == 2**32 * 4
    fake_xp = type("xp", (), {"__name__": "cuarray", "cuda": type("cuda", (), {
        "runtime": type("rt", (), {"getDeviceCount": staticmethod(lambda: 1)})})})
    with pytest.raises(NotAvailable, match="needs two GPUs"):
        next(case.setups["cuarray"](fake_xp, 1, "tsqr"))
    assert set(dask_workloads.SMALL) == set(dask_workloads.WORKLOADS) == set(TINY)


@pytest.mark.parametrize("workload", list(TINY))
def test_dask_cuda_workloads_check_and_time(cluster, workload):
    from cuarray.bench.cases import dask_workloads

    out = dask_workloads.measure(cluster, "numpy", workload, sizes=TINY, warmup=0, repeats=1)
    assert out["time_s"] > 0 and out["one_gpu_s"] > 0 and out["speedup"] == out["one_gpu_s"] / out["time_s"]
    assert out["tasks_1gpu"] >= 4 and out["tasks_2gpu"] >= 4


def test_dask_cuda_placement_splits_row_blocks_between_workers(cluster):
    from cuarray.bench.cases import dask_gpus, dask_workloads

    a, b = dask_gpus.worker_addresses(cluster)
    x = dask_workloads.data("numpy", (256, 8), (32, 8), "float32")
    x1, x2 = (dask_workloads.place(cluster, x, gpus) for gpus in (1, 2))
    assert [ws for ws in cluster.who_has(x1).values()] == [(a,)] * 8
    assert sorted(cluster.who_has(x2).values()) == sorted([(a,)] * 4 + [(b,)] * 4)
    assert len(x2.__dask_graph__()) == 8  # nothing of the placement left to compute
    np.testing.assert_array_equal(x1.compute(), x2.compute())


def test_dask_cuda_check_catches_a_wrong_result():
    from cuarray.bench.cases import dask_workloads

    host = np.random.default_rng(1).random((64, 4))
    q, r = np.linalg.qr(host)
    dask_workloads.check("tsqr", host, [q, r])
    with pytest.raises(AssertionError, match=r"dask-cuda\[tsqr\]: Q @ R differs"):
        dask_workloads.check("tsqr", host, [q, r * 1.001])
