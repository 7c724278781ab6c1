"""Set routines (NumPy "Set routines"): unique and its array-API forms (unique.py), membership
(membership.py: isin, in1d), set operations on 1-D arrays (setops.py). Built on the sort engine
(`_core/sort.py`) and the binary search of `_sorting/searchsorted.py`."""
