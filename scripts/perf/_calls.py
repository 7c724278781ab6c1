"""Python call counts of one call of `f` (function and C-function calls, as sys.setprofile sees
them): the host-path perf scripts' measure of work that timing noise hides. The count is
`cuarray.testing.fake_device.python_calls`, the tests' own."""

from cuarray.testing.fake_device import python_calls as count_calls  # noqa: F401


def print_profile(fn, calls: int = 2000, sort: str = "tottime", top: int = 30) -> None:
    """cProfile's table of `calls` calls of `fn`, sorted by `sort`, its first `top` rows."""
    import cProfile
    import pstats

    pr = cProfile.Profile()
    pr.enable()
    for _ in range(calls):
        fn()
    pr.disable()
    pstats.Stats(pr).sort_stats(sort).print_stats(top)
