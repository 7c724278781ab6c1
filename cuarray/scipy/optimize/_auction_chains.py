"""The tail of an auction phase in one launch (templates/auction.cu): the last unassigned persons
bid Gauss-Seidel in one block, each to the end of its displacement chain. A phase's last Jacobi
rounds mostly hold a single bidder (on 2000 x 2000 uniform random costs, about three quarters of
some 5,000 rounds), and each round of array operations costs a few dozen launches and a read;
here a bid is one pass over a row and a block reduction. The result is the same kind of state as
the rounds leave: every person holds an object within eps of its best (a Gauss-Seidel bid keeps
eps-complementary slackness as a Jacobi one does)."""

import pathlib

from ...cuda.kernel_family import KernelFamily

__all__ = ["chains", "source", "NAME", "BLOCK"]

_DIR = pathlib.Path(__file__).parent / "templates"
NAME = "cuarray_optimize::auction_chains"
BLOCK = 1024  # AUCTION_BLOCK of auction.cu: a row of 8192 benefits is 8 loads a thread


def source() -> str:
    return (_DIR / "auction.cu").read_text()


AUCTION = KernelFamily("cuarray_optimize_auction", source, namespace="cuarray_optimize", kernels=(
    "auction_chains(const double* a, double* p, long long* owner, bool* free_rows, const long long* persons, "
    "long long count, long long n, long long m, double eps)",
))


def chains(a, p, owner, free, persons, n, m, eps):
    """Run the bids of `persons` (device int64; n for a dummy) and the chains they start, in one
    block: `a` C-contiguous float64 n x m, `p`, `owner`, `free` updated in place."""
    AUCTION.kernel("auction_chains").launch(1, BLOCK, a.data.ptr, p.data.ptr, owner.data.ptr, free.data.ptr,
                                            persons.data.ptr, persons.shape[0], n, m, float(eps))
