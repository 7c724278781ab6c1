"""Tests of cuarray.sparse. Not named `sparse`: pytest imports this package under its folder's
name, and SciPy's array-API detection takes a top-level module `sparse` for pydata/sparse."""
