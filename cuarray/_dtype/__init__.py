"""Data type routines. See NumPy's "Data type routines"."""
