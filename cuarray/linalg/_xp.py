"""The routines the linalg solvers build on, in one place (`from . import _xp as xp`; `xp.sum`),
imported from their own modules: the package root is not imported by a subpackage of it."""

# ruff: noqa: F401, A004
from .._creation.basic import empty as empty
from .._creation.basic import zeros as zeros
from .._creation.basic import ones as ones
from .._creation.basic import full as full
from .._creation.from_data import asarray as asarray
from .._creation.ranges import arange as arange
from .._creation.matrices import eye as eye
from .._creation.matrices import tril as tril
from .._creation.matrices import triu as triu
from .._manipulation.dims import broadcast_to as broadcast_to
from .._manipulation.transpose import moveaxis as moveaxis
from .._manipulation.transpose import swapaxes as swapaxes
from .._manipulation.dims import expand_dims as expand_dims
from .._manipulation.joining import concatenate as concatenate
from .._manipulation.joining import stack as stack
from .._manipulation.rearranging import roll as roll
from .._indexing.inserting import put_along_axis as put_along_axis
from .._indexing.inserting import take_along_axis as take_along_axis
from .._indexing.inserting import diagonal as diagonal
from .._math.arithmetic import add as add
from .._math.arithmetic import subtract as subtract
from .._math.arithmetic import multiply as multiply
from .._math.arithmetic import divide as divide
from .._math.arithmetic import negative as negative
from .._math.arithmetic import power as power
from .._math.arithmetic import reciprocal as reciprocal
from .._math.sums import sum as sum  # noqa: A001
from .._math.sums import prod as prod
from .._math.sums import trace as trace
from .._math.explog import log as log
from .._math.complex import real as real
from .._math.complex import imag as imag
from .._math.complex import conj as conj
from .._math.complex import conjugate as conjugate
from .._math.misc import sqrt as sqrt
from .._math.misc import absolute as absolute
from .._math.misc import abs as abs  # noqa: A001
from .._math.misc import sign as sign
from .._logic.comparison import greater as greater
from .._logic.comparison import less as less
from .._logic.comparison import equal as equal
from .._logic.comparison import not_equal as not_equal
from .._logic.ops import logical_and as logical_and
from .._logic.ops import logical_not as logical_not
from .._logic.content import isnan as isnan
from .._sorting.searching import where as where
from .._logic.truth import any as any  # noqa: A001
from .._logic.truth import all as all  # noqa: A001
from .._sorting.counting import count_nonzero as count_nonzero
from .._statistics.order import max as max  # noqa: A001
from .._statistics.order import min as min  # noqa: A001
from .._statistics.order import amax as amax
from .._statistics.order import amin as amin
from .._manipulation.shape import reshape as reshape
from .._logic.content import isfinite as isfinite
