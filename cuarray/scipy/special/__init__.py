"""cuarray.scipy.special: SciPy's special functions as cuarray ufuncs. See `scipy.special`.

Every function below except the softmax family, zeta, polygamma, the spherical Bessel functions,
lambertw, sph_harm_y, comb, perm and multigammaln is a `cuarray.ufunc` with SciPy's real loops and
type resolution (cuarray/scipy/special/_ufunc.py): `out=`, `where=`, `dtype=`, broadcasting and
fusion in `cuarray.fuse` and lazy mode work as for `cuarray.exp`. Complex loops exist for wofz and
the error function family (erf, erfc, erfcx, erfi, dawsn), the Bessel and Airy functions and others;
elsewhere a complex argument raises TypeError. docs/scipy.md lists what exists and how it was verified.
"""

# -- error function ------------------------------------------------------------------------------
from ._error import erf as erf
from ._error import erfc as erfc
from ._error import erfcx as erfcx
from ._error import erfinv as erfinv
from ._error import erfcinv as erfcinv
from ._error import dawsn as dawsn
from ._error import erfi as erfi
from ._error import wofz as wofz

# -- gamma and related functions -----------------------------------------------------------------
from ._gamma import gamma as gamma
from ._gamma import gammaln as gammaln
from ._gamma import loggamma as loggamma
from ._gamma import gammasgn as gammasgn
from ._gamma import rgamma as rgamma
from ._gamma import psi as psi
from ._gamma import digamma as digamma
from ._multigammaln import multigammaln as multigammaln
from ._gamma import beta as beta
from ._gamma import betaln as betaln
from ._gamma import poch as poch
from ._gamma import binom as binom
from ._gamma import gammainc as gammainc
from ._gamma import gammaincc as gammaincc
from ._gamma import gammaincinv as gammaincinv
from ._gamma import gammainccinv as gammainccinv
from ._gamma import betainc as betainc
from ._gamma import betaincinv as betaincinv
from ._zeta import polygamma as polygamma

# -- Airy functions ------------------------------------------------------------------------------
from ._airy import airy as airy
from ._airy import airye as airye

# -- Bessel functions ----------------------------------------------------------------------------
from ._bessel import j0 as j0
from ._bessel import j1 as j1
from ._bessel import y0 as y0
from ._bessel import y1 as y1
from ._bessel import yn as yn
from ._bessel import wright_bessel as wright_bessel
from ._bessel import i0 as i0
from ._bessel import i0e as i0e
from ._bessel import i1 as i1
from ._bessel import i1e as i1e
from ._bessel import iv as iv
from ._bessel import jn as jn
from ._bessel import jv as jv
from ._bessel import jve as jve
from ._bessel import yv as yv
from ._bessel import yve as yve
from ._bessel import spherical_jn as spherical_jn
from ._bessel import spherical_yn as spherical_yn
from ._bessel import spherical_in as spherical_in
from ._bessel import spherical_kn as spherical_kn
from ._bessel import ive as ive
from ._bessel import k0 as k0
from ._bessel import k0e as k0e
from ._bessel import k1 as k1
from ._bessel import k1e as k1e
from ._bessel import kn as kn
from ._bessel import kv as kv
from ._bessel import kve as kve
from ._bessel import hankel1 as hankel1
from ._bessel import hankel1e as hankel1e
from ._bessel import hankel2 as hankel2
from ._bessel import hankel2e as hankel2e
from ._bessel import struve as struve
from ._bessel import modstruve as modstruve

# -- statistical functions -----------------------------------------------------------------------
from ._stats import ndtr as ndtr
from ._stats import log_ndtr as log_ndtr
from ._stats import ndtri as ndtri
from ._stats import bdtr as bdtr
from ._stats import bdtrc as bdtrc
from ._stats import bdtri as bdtri
from ._stats import chdtr as chdtr
from ._stats import chdtrc as chdtrc
from ._stats import chdtri as chdtri
from ._stats import fdtr as fdtr
from ._stats import fdtrc as fdtrc
from ._stats import fdtri as fdtri
from ._stats import gdtr as gdtr
from ._stats import gdtrc as gdtrc
from ._stats import nbdtr as nbdtr
from ._stats import nbdtrc as nbdtrc
from ._stats import nbdtri as nbdtri
from ._stats import pdtr as pdtr
from ._stats import pdtrc as pdtrc
from ._stats import pdtri as pdtri
from ._stats import stdtr as stdtr
from ._stats import stdtrit as stdtrit
from ._stats import kolmogorov as kolmogorov
from ._stats import smirnov as smirnov
from ._stats import kolmogi as kolmogi
from ._stats import smirnovi as smirnovi
from ._stats import owens_t as owens_t

# -- other special functions ----------------------------------------------------------------------
from ._expint import exp1 as exp1
from ._expint import expi as expi
from ._expint import expn as expn
from ._expint import sici as sici
from ._expint import shichi as shichi
from ._zeta import zeta as zeta
from ._zeta import zetac as zetac
from ._lambertw import lambertw as lambertw

# -- hypergeometric functions --------------------------------------------------------------------
from ._hypergeometric import hyp2f1 as hyp2f1
from ._hypergeometric import hyp1f1 as hyp1f1

# -- Legendre functions ---------------------------------------------------------------------------
from ._legendre import lpmv as lpmv
from ._sph_harm import sph_harm_y as sph_harm_y

# -- elliptic functions and integrals ------------------------------------------------------------
from ._elliptic import ellipk as ellipk
from ._elliptic import ellipkm1 as ellipkm1
from ._elliptic import ellipe as ellipe
from ._elliptic import ellipkinc as ellipkinc
from ._elliptic import ellipeinc as ellipeinc
from ._elliptic import ellipj as ellipj

# -- combinatorics -----------------------------------------------------------------------------------
from ._combinatorics import comb as comb
from ._combinatorics import perm as perm

# -- convenience functions -----------------------------------------------------------------------
from ._convenience import expit as expit
from ._convenience import logit as logit
from ._convenience import log_expit as log_expit
from ._convenience import xlogy as xlogy
from ._convenience import xlog1py as xlog1py
from ._convenience import entr as entr
from ._convenience import rel_entr as rel_entr
from ._convenience import kl_div as kl_div
from ._convenience import huber as huber
from ._convenience import pseudo_huber as pseudo_huber
from ._convenience import cbrt as cbrt
from ._convenience import exp2 as exp2
from ._convenience import exp10 as exp10
from ._convenience import expm1 as expm1
from ._convenience import log1p as log1p
from ._convenience import cosm1 as cosm1
from ._convenience import radian as radian
from ._convenience import cosdg as cosdg
from ._convenience import sindg as sindg
from ._convenience import tandg as tandg
from ._convenience import cotdg as cotdg
from ._convenience import round as round  # noqa: A004 (SciPy's name)
from ._convenience import boxcox as boxcox
from ._convenience import boxcox1p as boxcox1p
from ._convenience import inv_boxcox as inv_boxcox
from ._convenience import inv_boxcox1p as inv_boxcox1p
from ._convenience import exprel as exprel
from ..._math.misc import sinc as sinc  # scipy.special.sinc is numpy.sinc
from ._logsumexp import logsumexp as logsumexp
from ._softmax import softmax as softmax
from ._softmax import log_softmax as log_softmax
