"""Handles and plans of the CUDA math libraries (cuBLAS, cuSOLVER, cuFFT, cuRAND, cuSPARSE).

One module per library; each is the only importer of its `nvmath.bindings` module and imports it
lazily (importing nvmath costs ~0.6 s and dlopens 8 libraries: never at `import cuarray`).
`_handles.PerThreadHandle` keeps one handle per (device, thread), as the libraries' documentation
asks (a handle must not be used by two threads at once).
"""
