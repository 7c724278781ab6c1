"""einsum contraction paths, pure Python: NumPy's path format (``['einsum_path', (0, 1), ...]``:
each step names positions in the current operand list; the contracted operands leave it and their
result is appended at the end), a greedy planner with NumPy's rules (pairs that share a label
first, fewest elements left, then fewest FLOPs; intermediates at most `memory_limit` elements), an
exhaustive 'optimal' planner for a few operands, and the FLOP counts of einsum_path's report.
"""

from __future__ import annotations

import itertools
import math

__all__ = ["flop_count", "contract_sets", "greedy", "optimal", "validate", "report"]


def _size(labels, sizes) -> int:
    return math.prod(sizes[c] for c in labels)


def flop_count(idx, inner: bool, n_terms: int, sizes) -> int:
    """NumPy's estimate: elements of the iteration space times (terms - 1, +1 when summing)."""
    factor = max(1, n_terms - 1) + (1 if inner else 0)
    return _size(idx, sizes) * factor


def contract_sets(positions, sets, output):
    """(result labels, remaining sets with the result appended, removed labels, all labels)."""
    idx = frozenset().union(*(sets[p] for p in positions))
    rest = [s for i, s in enumerate(sets) if i not in positions]
    keep = frozenset(output).union(*rest) if rest else frozenset(output)
    result = idx & keep
    return result, rest + [result], idx - result, idx


def greedy(sets, output, sizes, memory_limit=None):
    """NumPy's greedy path over label sets (a list of frozensets)."""
    n = len(sets)
    if n == 1:
        return [(0,)]
    if n == 2:
        return [(0, 1)]
    _, _, removed, idx = contract_sets(range(n), sets, output)
    naive = flop_count(idx, bool(removed), n, sizes)
    known = []
    path = []
    cost_so_far = 0
    pairs = itertools.combinations(range(n), 2)
    for _ in range(n - 1):
        for pos in pairs:
            if sets[pos[0]].isdisjoint(sets[pos[1]]):
                continue
            c = _candidate(pos, sets, output, sizes, memory_limit, cost_so_far, naive)
            if c is not None:
                known.append(c)
        if not known:
            for pos in itertools.combinations(range(len(sets)), 2):
                c = _candidate(pos, sets, output, sizes, memory_limit, cost_so_far, naive)
                if c is not None:
                    known.append(c)
            if not known:
                path.append(tuple(range(len(sets))))
                break
        best = min(known, key=lambda c: c[0])
        known = _shift(known, best)
        sets = best[2]
        new = len(sets) - 1
        pairs = ((i, new) for i in range(new))
        path.append(best[1])
        cost_so_far += best[0][1]
    return path


def _candidate(pos, sets, output, sizes, memory_limit, cost_so_far, naive):
    result, remaining, removed, idx = contract_sets(pos, sets, output)
    new_size = _size(result, sizes)
    if memory_limit is not None and new_size > memory_limit:
        return None
    old = sum(_size(sets[p], sizes) for p in pos)
    cost = flop_count(idx, bool(removed), len(pos), sizes)
    if cost_so_far + cost > naive:
        return None
    return ((-(old - new_size), cost), pos, remaining)


def _shift(known, best):
    """Candidates still valid after `best` ran, renumbered (the result went to the end)."""
    gone = best[1]
    out = []
    for key, pos, remaining in known:
        if any(p in gone for p in pos):
            continue
        new_pos = tuple(p - sum(1 for g in gone if g < p) for p in pos)
        # the sets after `best`, then this candidate's result, as if it ran second
        merged = [s for i, s in enumerate(best[2]) if i not in new_pos] + [remaining[-1]]
        out.append((key, new_pos, merged))
    return out


def optimal(sets, output, sizes, memory_limit=None):
    """The path of least total FLOPs (every order of pairwise contractions; few operands)."""
    best = [None, None]

    def search(cur, path, cost):
        if best[0] is not None and cost >= best[0]:
            return
        if len(cur) == 1:
            best[0], best[1] = cost, list(path)
            return
        for pos in itertools.combinations(range(len(cur)), 2):
            result, remaining, removed, idx = contract_sets(pos, cur, output)
            if memory_limit is not None and _size(result, sizes) > memory_limit:
                continue
            c = flop_count(idx, bool(removed), 2, sizes)
            search(remaining, path + [pos], cost + c)

    if len(sets) == 1:
        return [(0,)]
    search(list(sets), [], 0)
    if best[1] is None:
        return [tuple(range(len(sets)))]
    return best[1]


def validate(path, n: int) -> list:
    """An explicit path (``['einsum_path', (0, 1), ...]``) checked against n operands."""
    if not path or path[0] != "einsum_path":
        raise TypeError("Did not understand the path: {}".format(path))
    steps = [tuple(int(i) for i in p) for p in path[1:]]
    count = n
    for p in steps:
        if not p or len(set(p)) != len(p) or any(not 0 <= i < count for i in p):
            raise ValueError("Invalid einsum_path step {} for {} operands".format(p, count))
        count -= len(p) - 1
    if count != 1 and n > 0:
        raise ValueError("einsum_path does not contract every operand: {}".format(path))
    return steps


def report(inputs, output, sizes, path, show) -> str:
    """einsum_path's text: scaling, FLOP counts, largest intermediate, one line per step."""
    sets = [frozenset(t) for t in inputs]
    _, _, removed, idx = contract_sets(range(len(sets)), sets, output)
    naive = flop_count(idx, bool(removed), len(sets), sizes)
    terms = list(inputs)
    lines = []
    opt = 0
    largest = 0
    scaling = []
    for pos in path:
        result, _, removed, idx = contract_sets(pos, sets, output)
        opt += flop_count(idx, bool(removed), len(pos), sizes)
        scaling.append(len(idx))
        largest = max(largest, _size(result, sizes))
        taken = [terms[p] for p in pos]
        sets = [s for i, s in enumerate(sets) if i not in pos] + [result]
        new_term = "".join(sorted(result, key=lambda c: (output.find(c) if c in output else 99, c)))
        terms = [t for i, t in enumerate(terms) if i not in pos] + [new_term]
        lines.append("{:>4}    {:>24}    {:>40}".format(
            len(idx), show(",".join(taken) + "->" + new_term), show(",".join(terms) + "->" + output)))
    head = [
        "  Complete contraction:  {}".format(show(",".join(inputs) + "->" + output)),
        "         Naive scaling:  {}".format(len(frozenset("".join(inputs)))),
        "     Optimized scaling:  {}".format(max(scaling) if scaling else 0),
        "      Naive FLOP count:  {:.3e}".format(naive),
        "  Optimized FLOP count:  {:.3e}".format(opt),
        "   Theoretical speedup:  {:.3f}".format(naive / opt if opt else 1.0),
        "  Largest intermediate:  {:.3e} elements".format(largest),
        "-" * 74,
        "{:>6}{:>24}{:>44}".format("scaling", "current", "remaining"),
        "-" * 74,
    ]
    return "\n".join(head + lines)
