"""Padding arrays (NumPy's "Padding arrays" page): `pad`, above statistics in the routine order
(it takes each side's max/min/mean/median)."""
