"""Test configuration: the `gpu` marker skips, with the reason, when no CUDA device is usable; the
fake device's fixtures (cuarray.testing.fake_device) for every test directory."""

import os


def visible_gpu(worker, gpus):
    """The GPU a pytest-xdist worker ("gw0", "gw1", ...) is given when a run spreads its workers over a
    machine's `gpus` GPUs (CUARRAY_TEST_GPUS), or None: one GPU, no worker, or no spreading asked."""
    if gpus > 1 and worker.startswith("gw") and worker[2:].isdigit():
        return int(worker[2:]) % gpus
    return None


# The host libraries' thread pools (OpenBLAS, OpenMP, MKL), as the controller of an xdist run sets
# them for its workers before it starts them (`pytest_configure`): each worker's share of the
# cores. Unset, each of 16 workers on the GPU machine's 16 cores ran a 16-thread OpenBLAS: a SciPy
# reference of 2 s on two idle cores (RBFInterpolator's 203-square solves) passed pytest's 200 s
# limit there, and the host eigvals of a 1600-square matrix (3 s here) made test_eigs_large a
# 100-140 s test. A variable the user set is kept.
THREAD_POOLS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def host_threads(workers, cpus):
    """Threads for each of `workers` test processes sharing `cpus` cores: the cores shared out, one
    at least."""
    return max(1, cpus // max(1, workers))


def share_thread_pools(numprocesses, cpus, environ):
    """Set `THREAD_POOLS` in `environ` (where unset) for an xdist run of `numprocesses` workers."""
    if isinstance(numprocesses, int) and numprocesses > 1:
        for var in THREAD_POOLS:
            environ.setdefault(var, str(host_threads(numprocesses, cpus)))


# Set before cuarray (and with it the CUDA driver) is imported: the worker then sees one GPU only.
_GPU = visible_gpu(os.environ.get("PYTEST_XDIST_WORKER", ""), int(os.environ.get("CUARRAY_TEST_GPUS") or 0))
if _GPU is not None and "CUDA_VISIBLE_DEVICES" not in os.environ:
    os.environ["CUDA_VISIBLE_DEVICES"] = str(_GPU)

import pytest  # noqa: E402
from cuarray.testing.fake_device import host_only_backing, recorded_launches  # noqa: F401,E402  (fixtures)

import cuarray  # noqa: E402
import nvrtc_cache  # noqa: E402  (tests/ is on sys.path)


def pytest_report_header(config):
    reason = cuarray.cuda._backend.unavailable_reason()
    if reason is None:
        d = cuarray.cuda.Device()
        return "cuarray: GPU tests run on {} (sm_{})".format(d.name, d.compute_capability)
    return "cuarray: GPU tests skipped: {}".format(reason)


def pytest_collection_modifyitems(config, items):
    reason = cuarray.cuda._backend.unavailable_reason()
    if reason is None:
        return
    skip = pytest.mark.skip(reason="no CUDA device: {}".format(reason))
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_leaked_stream():
    """A test that changes the current stream must not leak it into the next test."""
    yield
    default = cuarray.cuda.stream.default_stream()
    if cuarray.cuda.get_current_stream() is not default:
        default.use()


def pytest_addoption(parser):
    """The GPU fuzzer's budget (tests/fuzz/test_fuzz_gpu.py): a time box, a number of calls, a seed."""
    group = parser.getgroup("cuarray fuzz")
    group.addoption("--fuzz-seconds", type=float, default=60.0, help="time box of the GPU fuzz run (s)")
    calls = os.environ.get("CUARRAY_FUZZ_CALLS")  # (e.g. 100000: issue 54's budget of the GPU run)
    group.addoption("--fuzz-calls", type=int, default=int(calls) if calls else None,
                    help="stop after this many calls (default: $CUARRAY_FUZZ_CALLS, else the time box)")
    group.addoption("--fuzz-seed", type=int, default=0, help="seed of the GPU fuzz run")
    group.addoption("--fuzz-rows", default="", help="comma-separated substrings: only matching catalog rows")
    group.addoption("--fuzz-chunks", type=int, default=None,
                    help="split the run into this many tests (xdist runs them in parallel: consecutive case "
                         "ranges of one seed); default 15 with a number of calls, else 1")
    parser.addoption("--failure-log", default=None,
                     help="append each failure's test id and traceback to this file as it happens (a "
                          "run killed by a time limit still leaves them: pytest prints its own only at the end)")
    parser.addoption("--done-log", default=None,
                     help="append each finished test's id, outcome and seconds to this file as it finishes (the "
                          "tests a run killed by a time limit did not finish are the collected ones not in it)")


def pytest_generate_tests(metafunc):
    """The GPU fuzzer's chunks (tests/fuzz/test_fuzz_gpu.py): one test each."""
    if "fuzz_chunk" in metafunc.fixturenames:
        opt = metafunc.config.getoption
        n = opt("--fuzz-chunks") or (15 if opt("--fuzz-calls") else 1)
        metafunc.parametrize("fuzz_chunk", [(k, n) for k in range(n)], ids=["chunk{}of{}".format(k, n) for k in range(n)])


def pytest_terminal_summary(terminalreporter):
    """The GPU fuzzer's totals over its chunks (each records its counts as user properties, which
    xdist forwards from its workers)."""
    calls = mismatches = chunks = 0
    for key in ("passed", "failed"):
        for rep in terminalreporter.stats.get(key, []):
            props = dict(getattr(rep, "user_properties", ()) or ())
            if getattr(rep, "when", None) == "call" and "fuzz_calls" in props:
                calls, mismatches, chunks = calls + props["fuzz_calls"], mismatches + props["fuzz_mismatches"], chunks + 1
    if chunks:
        terminalreporter.write_line("fuzz total: {} calls in {} chunk(s), {} mismatches (no row left out, no "
                                    "mismatch counted as known)".format(calls, chunks, mismatches))


def pytest_runtest_logreport(report):
    """With --failure-log / --done-log: the failure / the finished test written now (by the controller:
    xdist forwards its workers' reports to it)."""
    done = _done_log[0]
    if done is not None and (report.when == "call" or (report.when == "setup" and not report.passed)):
        with open(done, "a", encoding="utf-8") as f:
            f.write("{} {} {:.2f}\n".format(report.nodeid, report.outcome, report.duration))
    path = _failure_log[0]
    if path is None or not report.failed:
        return
    with open(path, "a", encoding="utf-8") as f:
        f.write("=== {} {} ({})\n{}\n\n".format("FAILED" if report.when == "call" else "ERROR", report.nodeid,
                                              report.when, report.longreprtext))


_failure_log = [None]
_done_log = [None]


@pytest.fixture(autouse=True, scope="session")
def _nvrtc_cache():
    """With CUARRAY_TEST_NVRTC_CACHE=DIR, NVRTC's cubins for this run's compiles kept in DIR and read
    back for the same input (tests/nvrtc_cache.py: .ci/run's second test run reuses the first's)."""
    directory = os.environ.get(nvrtc_cache.ENV)
    if not directory:
        yield
        return
    from cuarray.cuda import compiler

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiler, "_nvrtc_compile", nvrtc_cache.cached(compiler._nvrtc_compile, directory))
        yield


@pytest.fixture(autouse=True)
def _nvrtc_fast(request):
    """A test marked `nvrtc_fast` asks only that its kernels compile for sm_90: NVRTC compiles them
    with --Ofast-compile=max (nvrtc_cache.fast): the scan, views and spgemm checks took 133 CPU-s
    against 417 (the sort kernels gain nothing: their time is CCCL's front end), where NVRTC took
    ~40 % of CI's first test run on two cores, against its 30 minutes. The front end,
    the templates' instantiation and ptxas's checks are the same; the code is less optimised, so
    registers, spills, stack and local memory are asserted at the production options, by tests
    that may not carry the marker (tests/test_nvrtc_cache_cpu.py checks it). The kernels run on the
    GPU machine at the production options. CUARRAY_TEST_NVRTC_FAST=0 compiles them so here too."""
    if request.node.get_closest_marker("nvrtc_fast") is None or os.environ.get("CUARRAY_TEST_NVRTC_FAST") == "0":
        yield
        return
    from cuarray.cuda import compiler

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiler, "_nvrtc_compile", nvrtc_cache.fast(compiler._nvrtc_compile))
        yield


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # an xdist worker leaves the writing to the controller
        _failure_log[0] = config.getoption("--failure-log", default=None)
        _done_log[0] = config.getoption("--done-log", default=None)
        # (xdist starts its workers at session start, after this: they inherit the variables)
        share_thread_pools(getattr(config.option, "numprocesses", None), os.cpu_count() or 1, os.environ)
