"""cuarray.linalg: NumPy's numpy.linalg on cuBLAS and cuSOLVER. See `numpy.linalg`.

Products (matmul, dot, einsum, ...) live in `_products`/`_einsum` and are also exported from the
main namespace; decompositions, solvers and norms in the modules named after them.
"""

from numpy.linalg import LinAlgError as LinAlgError

# -- products (main-namespace names re-exported here as numpy.linalg does) -----------------------

# -- decompositions, eigenvalues, solvers, norms and numbers ------------------------------------
