"""``python -m cuarray``: ``info`` prints the configuration (`cuarray.show_config`); ``bench`` runs
the benchmarks (the same as ``python -m cuarray.bench``)."""

from __future__ import annotations

import sys

_USAGE = """usage: python -m cuarray COMMAND [ARGS]

commands:
  info     versions, CUDA libraries and headers, kernel cache, devices (cuarray.show_config())
           info --coverage [--output PATH]: which NumPy and Array API names cuarray has
           (python -m cuarray info --coverage --output docs/coverage.md regenerates the page)
  bench    benchmarks against NumPy, CuPy and PyTorch (python -m cuarray bench --help)
"""


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_USAGE, end="")
        return 0
    command, rest = argv[0], argv[1:]
    if command == "info" and rest and rest[0] == "--coverage":
        from ._coverage import main as coverage_main  # import time: each subcommand loads only its own modules

        output = rest[2] if len(rest) >= 3 and rest[1] in ("-o", "--output") else None
        return coverage_main(output)
    if command == "info":
        from ._info import show_config  # import time: each subcommand loads only its own modules

        show_config()
        return 0
    if command == "bench":
        from .bench.__main__ import main as bench_main  # import time: each subcommand loads only its own modules

        return bench_main(rest)
    print("unknown command {!r}\n\n{}".format(command, _USAGE), end="", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
