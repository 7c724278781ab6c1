"""Where the pool's C core is: one function shared by the pool fixtures and the C-core tests (a
module of its own: `from conftest import ...` picks whichever conftest was imported first when
several test folders run in one process)."""

from __future__ import annotations

import importlib


def native_core():
    """The C core (`cuarray.cuda._poolcore`) when it is built here, else None."""
    try:
        return importlib.import_module("cuarray.cuda._poolcore")
    except ImportError:
        return None
