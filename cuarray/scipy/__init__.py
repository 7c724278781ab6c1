"""SciPy on the GPU: `cuarray.scipy.special`, `.linalg`, `.stats`, `.ndimage`, `.signal`, laid out
as SciPy's own modules, so that ``from scipy import special`` becomes
``from cuarray.scipy import special``. See docs/scipy.md.

Each submodule is imported on its own (``import cuarray.scipy.special``), as SciPy's are: importing
this package costs nothing, and `import cuarray` never imports it.
"""
