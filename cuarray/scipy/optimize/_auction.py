"""The device core of `linear_sum_assignment`: Bertsekas' forward auction with epsilon-scaling
("The auction algorithm: a distributed relaxation method for the assignment problem", Annals of
Operations Research 14, 1988; "Auction algorithms for network flow problems: a tutorial
introduction", Computational Optimization and Applications 1, 1992), Jacobi form: every
unassigned person bids at once, with array operations over the benefit matrix.

The problem here is square: `a` is n x m (n <= m) benefits, maximized, and the m - n missing
persons are dummies of benefit 0 for every object (the padding that makes a rectangular problem
square without storing it). Dummies are identical, so the k unassigned ones bid together: the
t-th bids for the t-th cheapest object at the (k+1)-th lowest price plus eps, which leaves each
winner within eps of its best alternative, as a single bidder's bid does (Bertsekas and
Castanon, "The auction algorithm for the transportation problem", 1989, treat such classes of
similar persons).

A phase's last few bids, mostly one bidder a round, run Gauss-Seidel in one launch
(`_auction_chains`). Host reads: one per bidding round (how many persons are unassigned) and one
per relaxation sweep of the optimality certificate."""

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import full, ones, zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate, stack
from ..._math.extrema import maximum, minimum
from ..._sorting.counting import count_nonzero
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from ..._sorting.sorting import argsort
from ..._statistics.order import max as max_, min as min_
from ._auction_chains import chains

__all__ = ["auction"]

# eps shrinks by this factor between phases (Bertsekas recommends 4 to 10)
THETA = 8
# relaxation sweeps of the certificate before another phase is run instead
CERTIFY_SWEEPS = 64
# a phase's last max(1, m // TAIL_DIVISOR) unassigned persons bid Gauss-Seidel in one launch: a
# Jacobi round costs a few dozen launches and a read, a Gauss-Seidel bid one pass over a row
TAIL_DIVISOR = 64


def _columns_of(owner, n, m):
    """The object each real person holds (m where none): the inverse of `owner`."""
    col = full(n + 2, m, dtype=numpy.int64)
    col[where((owner[:m] >= 0) & (owner[:m] < n), owner[:m], n + 1)] = arange(m)
    return col[:n]


def _bids(a, p, rows, u, n, m, eps):
    """Each of the u unassigned real persons `rows` bids for its best object at the price that
    makes it indifferent between that object and its second best, plus eps."""
    vals = (a if u == n else a[rows]) - p[None, :m]
    j1 = argmax(vals, axis=1)
    w1 = take_along_axis(vals, j1[:, None], axis=1)[:, 0]
    w2 = max_(where(arange(m)[None, :] == j1[:, None], -numpy.inf, vals), axis=1)
    return j1, p[j1] + (w1 - w2) + eps


def _round(a, p, owner, free, n, m, eps, u, k):
    """One Jacobi bidding round: bids, the highest bid per object wins (the earliest bidder among
    equal bids), prices and owners move. The arrays carry a trash slot (`p[m]`, `owner[m]`,
    `free[n + 1]`) that losing bids write to, so every scatter has distinct targets without a
    data-dependent (syncing) compaction; `free[n]` is the dummies' slot."""
    tgts, bids, who = [], [], []
    if u:
        rows = _free_rows(free, n, u)
        j1, b = _bids(a, p, rows, u, n, m, eps)
        tgts.append(j1)
        bids.append(b)
        who.append(rows)
    if k:
        order = argsort(p[:m])
        tgts.append(order[:k])
        bids.append(zeros(k) + (p[order[k]] + eps))
        who.append(full(k, n, dtype=numpy.int64))
    tgt, bid, who = concatenate(tgts), concatenate(bids), concatenate(who)
    best = full(m, -numpy.inf)
    maximum.at(best, tgt, bid)
    pos = arange(u + k)
    first_pos = full(m, u + k, dtype=numpy.int64)
    minimum.at(first_pos, tgt, where(bid == best[tgt], pos, u + k))
    won = first_pos[tgt] == pos
    prev = owner[tgt]
    free[where(won & (prev >= 0), prev, n + 1)] = True
    free[where(won, who, n + 1)] = False
    dst = where(won, tgt, m)
    owner[dst] = who
    p[dst] = bid


def _free_rows(free, n, u):
    """The u free rows in increasing order (stable: when all n are free they are arange(n), and
    `_bids` reads `a` unpermuted)."""
    return argsort(where(free[:n], 0, 1).astype(numpy.int8), stable=True)[:u]


def _phase(a, p, owner, free, n, m, eps):
    """Auction rounds until every person, real or dummy, holds an object; the last
    `max(1, m // TAIL_DIVISOR)` unassigned persons bid in one launch (`chains`)."""
    while True:
        # the one read of a round: how many real persons and dummies are unassigned
        cnt = to_host(stack([count_nonzero(free[:n]), count_nonzero(owner[:m] == n)]))
        u, k = int(cnt[0]), (m - n) - int(cnt[1])
        if u == 0 and k == 0:
            return
        if u + k <= max(1, m // TAIL_DIVISOR):
            chains(a, p, owner, free, concatenate([_free_rows(free, n, u), full(k, n, dtype=numpy.int64)]), n, m, eps)
            return
        _round(a, p, owner, free, n, m, eps, u, k)


def _keep_eps_cs(a, p, owner, free, n, m, eps):
    """Release the assignments that break eps-complementary slackness at the new eps (a phase
    may start from any assignment that satisfies it; keeping the rest saves rebidding)."""
    vals = a - p[None, :m]
    col = _columns_of(owner, n, m)
    held = col < m
    own = take_along_axis(vals, where(held, col, 0)[:, None], axis=1)[:, 0]
    drop = held & (own < max_(vals, axis=1) - eps)
    owner[where(drop, col, m)] = -1
    free[:n] = free[:n] | drop
    dummy_drop = (owner[:m] == n) & (p[:m] > min_(p[:m]) + eps)
    owner[:m] = where(dummy_drop, -1, owner[:m])


def certified(a, p, owner, n, m, tol):
    """Whether prices exist at which every person holds an object within `tol` of its best
    (tol-complementary slackness, so the assignment is within m * tol of optimal, and optimal
    when tol is 0 and the benefits are integers): Bellman-Ford relaxation from the auction's
    prices, raising p_j to max_i (p_sigma(i) - a_i,sigma(i) + a_ij) over the other persons i
    until no price moves by more than tol; False after CERTIFY_SWEEPS sweeps."""
    col = _columns_of(owner, n, m)
    own = take_along_axis(a, col[:, None], axis=1)[:, 0]
    own_mask = arange(m)[None, :] == col[:, None]
    dummy = owner[:m] == n
    pp = p[:m]
    for _ in range(CERTIFY_SWEEPS):
        cand = max_(where(own_mask, -numpy.inf, a + (pp[col] - own)[:, None]), axis=0)
        if m > n:  # a dummy may take any object at its own object's price
            cand = maximum(cand, max_(where(dummy, pp, -numpy.inf)))
        up = cand > pp + tol
        if not bool(to_host(any_(up))):  # the one read of a sweep
            return True
        pp = where(up, cand, pp)
    return False


def auction(a, eps0, eps_min, tol, scale, integer):
    """The object of each real person (length n) after eps-scaling from eps0 down to eps_min,
    stopping earlier once `certified` at `tol` (tried once 16 eps m <= scale, the benefits'
    range). With `integer` benefits eps stays an integer, so all arithmetic is exact."""
    n, m = a.shape
    p = zeros(m + 1)
    owner = full(m + 1, -1, dtype=numpy.int64)
    free = ones(n + 2, dtype=bool)
    eps = eps0
    while True:
        _phase(a, p, owner, free, n, m, eps)
        if eps <= eps_min or (16 * eps * m <= scale and certified(a, p, owner, n, m, tol)):
            return _columns_of(owner, n, m)
        eps = max(eps_min, eps // THETA if integer else eps / THETA)
        _keep_eps_cs(a, p, owner, free, n, m, eps)
