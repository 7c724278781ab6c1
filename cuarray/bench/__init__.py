"""Benchmarks of cuarray against its peers: ``python -m cuarray.bench --help``.

`cases` holds the table of cases (one `register` call and a setup per library each), `harness`
times them, `report` prints the table and writes JSON. Targets live in docs/bench-targets.md. Nothing here
imports CuPy or PyTorch until a case runs on them.
"""

from .cases import Case, NotAvailable, register, random_array
from .harness import Settings, run

__all__ = ["Case", "NotAvailable", "register", "random_array", "Settings", "run", "main"]


def main(argv=None) -> int:
    """The command line; see ``python -m cuarray.bench --help``."""
    from .__main__ import main as _main  # cycle: __main__ imports this package (`-m cuarray.bench` runs it itself: not loaded twice)

    return _main(argv)
