"""cuarray.sparse: SciPy's sparse matrices and arrays on the GPU. See `scipy.sparse`.

CSR, CSC, COO, DIA and BSR, each as a *matrix* (`csr_matrix`: `*` is the matrix product) and an
*array* (`csr_array`: `*` is elementwise), with products on cuSPARSE (`cuda/libs/cusparse.py`,
imported on first use: `import cuarray` stays free of nvmath) and conversions on the sort
engine. docs/sparse.md lists what exists and how it differs from SciPy.
"""

import importlib

from . import _base
from . import _data

# -- classes ----------------------------------------------------------------------------------
from ._format_csr import csr_matrix as csr_matrix
from ._format_csr import csr_array as csr_array
from ._format_csc import csc_matrix as csc_matrix
from ._format_csc import csc_array as csc_array
from ._format_coo import coo_matrix as coo_matrix
from ._format_coo import coo_array as coo_array
from ._format_dia import dia_matrix as dia_matrix
from ._format_dia import dia_array as dia_array
from ._format_bsr import bsr_matrix as bsr_matrix
from ._format_bsr import bsr_array as bsr_array
from ._base import spmatrix as spmatrix
from ._base import sparray as sparray

# -- identification -----------------------------------------------------------------------------
from ._sputils import issparse as issparse
from ._base import isspmatrix as isspmatrix
from ._format_csr import isspmatrix_csr as isspmatrix_csr
from ._format_csc import isspmatrix_csc as isspmatrix_csc
from ._format_coo import isspmatrix_coo as isspmatrix_coo
from ._format_dia import isspmatrix_dia as isspmatrix_dia
from ._format_bsr import isspmatrix_bsr as isspmatrix_bsr

# -- construction -------------------------------------------------------------------------------
from ._construct import eye as eye
from ._construct import eye_array as eye_array
from ._construct import identity as identity
from ._construct import diags as diags
from ._construct import diags_array as diags_array
from ._construct import spdiags as spdiags
from ._construct import random as random
from ._construct import random_array as random_array
from ._construct import rand as rand
from ._construct import kron as kron
from ._construct import kronsum as kronsum
from ._construct import hstack as hstack
from ._construct import vstack as vstack
from ._construct import bmat as bmat
from ._construct import block_array as block_array
from ._construct import block_diag as block_diag

# -- extraction ---------------------------------------------------------------------------------
from ._extract import find as find
from ._extract import tril as tril
from ._extract import triu as triu

# -- files --------------------------------------------------------------------------------------
from ._npz import save_npz as save_npz
from ._npz import load_npz as load_npz


def __getattr__(name):
    # `cuarray.sparse.linalg` (and `csgraph`) on first access, as SciPy's are submodules to import: the
    # iterative solvers are ~35 ms of import, which a first sparse product that solves nothing should not pay.
    if name in ("linalg", "csgraph"):
        return importlib.import_module(__name__ + "." + name)  # sets this package's attribute
    raise AttributeError("module {!r} has no attribute {!r}".format(__name__, name))


def __dir__():
    return sorted(set(globals()) | {"linalg", "csgraph"})

_data.bind(_base._spbase)
