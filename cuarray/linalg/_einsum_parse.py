"""einsum subscripts: parsing and checking, pure Python (no GPU).

`parse(subscripts_or_operands, shapes)` accepts every form NumPy does: ``'ij,jk->ik'``, implicit
output (``'ij,jk'``: the labels seen once, in ASCII order, after the broadcast dims), ellipses
(``'...ij,...jk'``) and the interleaved sublist form (``einsum(a, [0, 1], b, [1, 2], [0, 2])``).
The result is one label string per operand and one for the output; an ellipsis becomes private
labels (one per broadcast dim, right-aligned across operands), so later stages see only labels.
"""

from __future__ import annotations

import string

__all__ = ["parse", "split_operands", "label_sizes", "ELLIPSIS_BASE"]

_LETTERS = string.ascii_uppercase + string.ascii_lowercase
_VALID = frozenset(_LETTERS)
# Ellipsis dim j (counted from the right, 0 = last) gets label chr(ELLIPSIS_BASE + j): below every
# letter in no ordering we use, and never a valid user symbol.
ELLIPSIS_BASE = 0x2000


def _ell(j: int) -> str:
    return chr(ELLIPSIS_BASE + j)


def split_operands(args):
    """(subscripts string, operands) from einsum's positional arguments, either form."""
    if not args:
        raise ValueError("must specify the einstein sum subscripts string and at least one operand")
    if isinstance(args[0], str):
        return args[0], list(args[1:])
    ops = list(args[0::2])
    subs = list(args[1::2])
    out = None
    if len(args) % 2 == 1 and len(args) > 1:
        out = ops.pop()
        if isinstance(out, (list, tuple)):
            pass
        else:
            raise TypeError("einsum(): the output subscript list must be a list of integers")
    terms = [_sublist(s) for s in subs]
    text = ",".join(terms)
    if out is not None:
        text += "->" + _sublist(out)
    return text, ops


def _sublist(sub) -> str:
    parts = []
    for s in sub:
        if s is Ellipsis:
            parts.append("...")
            continue
        try:
            i = int(s)
        except (TypeError, ValueError):
            raise TypeError("For this input type lists must contain either int or Ellipsis") from None
        if not 0 <= i < 52:
            raise ValueError("subscript is not within the valid range [0, 52)")
        parts.append(_LETTERS[i])
    return "".join(parts)


def parse(subscripts: str, shapes: list) -> tuple:
    """(input label strings, output label string) for operands of the given shapes."""
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        lhs, _, rhs = subscripts.partition("->")
        if "->" in rhs or "-" in rhs.replace("->", "") or ">" in rhs:
            raise ValueError("einstein sum subscript string does not contain proper '->' output specified")
        explicit = True
    else:
        if "-" in subscripts or ">" in subscripts:
            raise ValueError("einstein sum subscript string does not contain proper '->' output specified")
        lhs, rhs, explicit = subscripts, "", False
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError("{} operands provided to einstein sum function than specified in the "
                         "subscripts string".format("more" if len(shapes) > len(terms) else "fewer"))
    for ch in lhs + rhs:
        if ch not in _VALID and ch not in ",.":
            raise ValueError("invalid subscript '{}' in einstein sum subscripts string, subscripts "
                             "must be letters".format(ch))
    inputs = []
    max_ell = 0
    for i, (term, shape) in enumerate(zip(terms, shapes)):
        labels = _expand(term, len(shape), i)
        inputs.append(labels)
        max_ell = max(max_ell, sum(1 for c in labels if ord(c) >= ELLIPSIS_BASE))
    seen = "".join(inputs)
    if explicit:
        if rhs.count("...") > 1 or (rhs.replace("...", "").count(".")):
            raise ValueError("einstein sum subscripts string contains a '.' that is not part of an "
                             "ellipsis ('...') in the output")
        out = rhs.replace("...", "".join(_ell(j) for j in range(max_ell - 1, -1, -1)))
        if "..." not in rhs and max_ell:
            raise ValueError("output has more dimensions than subscripts given in einstein sum, "
                             "but no '...' ellipsis provided to broadcast the extra dimensions.")
        for c in rhs.replace("...", ""):
            if rhs.count(c) > 1:
                raise ValueError("einstein sum subscripts string includes output subscript '{}' "
                                 "multiple times".format(c))
            if c not in seen:
                raise ValueError("einstein sum subscripts string included output subscript '{}' "
                                 "which never appeared in an input".format(c))
    else:
        once = sorted(c for c in set(seen) if ord(c) < ELLIPSIS_BASE and seen.count(c) == 1)
        out = "".join(_ell(j) for j in range(max_ell - 1, -1, -1)) + "".join(once)
    return inputs, out


def _expand(term: str, ndim: int, i: int) -> str:
    if "." in term:
        if term.count("...") != 1 or term.replace("...", "").count("."):
            raise ValueError("einstein sum subscripts string contains a '.' that is not part of "
                             "an ellipsis ('...') in operand {}".format(i))
        n_named = len(term) - 3
        n_ell = ndim - n_named
        if n_ell < 0:
            raise ValueError("einstein sum subscripts string contains too many subscripts for "
                             "operand {}".format(i))
        return term.replace("...", "".join(_ell(j) for j in range(n_ell - 1, -1, -1)))
    if len(term) > ndim:
        raise ValueError("einstein sum subscripts string contains too many subscripts for operand {}"
                         .format(i))
    if len(term) < ndim:
        raise ValueError("operand has more dimensions than subscripts given in einstein sum, but no "
                         "'...' ellipsis provided to broadcast the extra dimensions.")
    return term


def label_sizes(inputs: list, shapes: list) -> dict:
    """label -> size; a dim of length 1 broadcasts, other mismatches raise ValueError as NumPy."""
    sizes: dict = {}
    for i, (labels, shape) in enumerate(zip(inputs, shapes)):
        for c, d in zip(labels, shape):
            old = sizes.get(c)
            if old is None or old == 1:
                sizes[c] = d
            elif d != 1 and d != old:
                shown = c if ord(c) < ELLIPSIS_BASE else "..."
                raise ValueError("operands could not be broadcast together with remapped shapes: "
                                 "label '{}' has sizes {} and {} (operand {})".format(shown, old, d, i))
    return sizes
