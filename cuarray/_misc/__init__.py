"""Miscellaneous routines. See NumPy's "Miscellaneous routines"."""
