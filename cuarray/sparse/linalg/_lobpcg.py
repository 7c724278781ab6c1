"""lobpcg: the locally optimal block preconditioned conjugate gradient eigensolver (Knyazev,
2001). See `scipy.sparse.linalg.lobpcg`.

SciPy's iteration step for step, so that a run stops where SciPy's stops and returns what SciPy
returns (values to rounding): the active set of unconverged columns, the preconditioned residuals
B-orthogonalised to X and B-orthonormalised by the Cholesky factor of their Gram matrix, the
Rayleigh-Ritz step on [X, W, P] (on [X, W] after a restart), implicit Gram blocks until the
residuals reach sqrt(eps) (1 in single precision) and explicit ones after, the forced restart
when the residual grows 2**restartControl-fold, the best iterate kept and a final Rayleigh-Ritz
step on it, SciPy's warnings and dtypes (a block keeps its dtype where SciPy multiplies in place).

The blocks (X, the residuals, the directions P) and every product with A, B, M and the
constraints live on the device; the small Gram matrices (at most 3k x 3k) are read to the host
(three reads an iteration: the residual norms, the two Gram matrices to orthonormalise, the
Rayleigh-Ritz blocks) and solved there by SciPy's `eigh`, `cholesky` and `inv`, the
coefficients uploaded again. Problems too small for the iteration (n - size of Y < 5 k) are
solved densely, as SciPy does: the matrices are formed on the device and solved on the host.
"""

from __future__ import annotations

import warnings

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import from_host, to_host
from ..._creation.matrices import eye
from ..._manipulation.joining import concatenate
from ..._math.complex import conj
from ..._math.misc import absolute, sqrt
from ..._math.sums import sum as sum_
from .._sputils import issparse
from ._interface import LinearOperator

__all__ = ["lobpcg"]


def _host_linalg():
    # host work: the Rayleigh-Ritz problems of the small trial bases (SciPy's LAPACK routines)
    import scipy.linalg

    return scipy.linalg


def _matmat(m):
    """SciPy's `_makeMatMat`: a callable (a LinearOperator too) is called, anything else is
    multiplied; a host array is refused (cuarray does not copy data implicitly)."""
    if m is None:
        return None
    if callable(m):
        return lambda v: m(v)
    if not issparse(m):
        m = as_array(m, "lobpcg")
    return lambda v: m @ v


def _herm(U, V):
    """U^H V on the device."""
    return (conj(U) if U.dtype.kind == "c" else U).T @ V


def _read(*arrays):
    """Small device arrays read to the host in one copy (one synchronisation), each in its own
    dtype (SciPy's Gram blocks keep theirs)."""
    common = numpy.result_type(*[a.dtype for a in arrays])
    flat = to_host(concatenate([a.astype(common).reshape(-1) for a in arrays]))
    out, start = [], 0
    for a in arrays:
        out.append(flat[start:start + a.size].reshape(a.shape).astype(a.dtype))
        start += a.size
    return out


def _in_place(x, c):
    """SciPy's `_matmul_inplace`: x @ c stored into x (x keeps its dtype), promoted only where
    NumPy's in-place product would refuse the cast (complex coefficients into a real block)."""
    y = x @ from_host(c)
    if y.dtype != x.dtype and numpy.can_cast(y.dtype, x.dtype, "same_kind"):
        y = y.astype(x.dtype)
    return y


def _checked(V, W, what, which):
    if W.shape != V.shape:
        raise ValueError("The shape {} of the {} not preserved\nand changed to {} after multiplying by the {} "
                         "matrix.\n".format(V.shape, what, W.shape, which))
    return W


def _b_orthonormalize(B, V, BV=None, grams=None, verbosityLevel=0):
    """(V, BV, inv(R)) with V^H B V = I by the Cholesky factor R of V's Gram matrix, or three
    Nones where the factorisation fails. `grams`, when given, is the host Gram matrix already
    read."""
    if BV is None:
        if B is None:
            BV = V
        else:
            try:
                BV = B(V)
            except Exception as e:
                if verbosityLevel:
                    warnings.warn("Secondary MatMul call failed with error\n{}\n".format(e), UserWarning, stacklevel=3)
                return None, None, None
            _checked(V, BV, "orthogonalized matrix", "secondary")
    VBV = _read(_herm(V, BV))[0] if grams is None else grams
    la = _host_linalg()
    try:
        VBV = la.inv(la.cholesky(VBV, overwrite_a=True), overwrite_a=True)
    except la.LinAlgError:
        if verbosityLevel:
            warnings.warn("Cholesky has failed.", UserWarning, stacklevel=3)
        return None, None, None
    V = _in_place(V, VBV)
    if B is not None:
        BV = _in_place(BV, VBV)
    return V, (V if B is None else BV), VBV


def _get_indx(lam, num, largest):
    ii = numpy.argsort(lam)
    return ii[:-num - 1:-1] if largest else ii[:num]


def _report_nonhermitian(M, name):
    la = _host_linalg()
    nmd = la.norm(M - M.T.conj(), 1)
    tol = 10 * numpy.finfo(M.dtype).eps
    tol = max(tol, tol * la.norm(M, 1))
    if nmd > tol:
        warnings.warn("Matrix {} of the type {} is not Hermitian: condition: {} < {} fails.".format(
            name, M.dtype, nmd, tol), UserWarning, stacklevel=4)


def _report(gramA, gramB, verbosityLevel):
    if verbosityLevel:
        _report_nonhermitian(gramA, "gramA")
        _report_nonhermitian(gramB, "gramB")


def _residual_norms(AX, BX, lam):
    R = AX - BX * from_host(lam)[None, :]
    return R, sqrt(absolute(sum_(conj(R) * R if R.dtype.kind == "c" else R * R, axis=0)))


def lobpcg(A, X, B=None, M=None, Y=None, tol=None, maxiter=None, largest=True, verbosityLevel=0,
           retLambdaHistory=False, retResidualNormsHistory=False, restartControl=20):
    """See `scipy.sparse.linalg.lobpcg`: SciPy's iteration, the blocks on the device and the
    small Rayleigh-Ritz problems on the host (SciPy's `eigh`: three device reads an iteration);
    returns device arrays (the histories as lists of device arrays).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.diags([1., 2., 3., 4., 5., 6.]).tocsr()
    >>> w, v = splinalg.lobpcg(a, cuarray.ones((6, 1)), tol=1e-8, maxiter=50)
    >>> round(float(w[0]), 4)
    6.0
    """
    if maxiter is None:
        maxiter = 20
    sizeY = 0
    if Y is not None:
        if len(Y.shape) != 2:
            warnings.warn("Expected rank-2 array for argument Y, instead got {}, so ignore it and use no "
                          "constraints.".format(len(Y.shape)), UserWarning, stacklevel=2)
            Y = None
        else:
            sizeY = Y.shape[1]
    if X is None:
        raise ValueError("The mandatory initial matrix X cannot be None")
    if len(X.shape) != 2:
        raise ValueError("expected rank-2 array for argument X")
    X = as_array(X, "lobpcg")
    n, sizeX = X.shape
    if X.dtype.kind not in "fc":
        warnings.warn("Data type for argument X is {}, which is not inexact, so casted to np.float32.".format(
            X.dtype), UserWarning, stacklevel=2)
        X = X.astype(numpy.float32)
    if verbosityLevel:
        print("Solving {} eigenvalue problem with{} preconditioning\n\nmatrix size {}\nblock size {}\n\n{}\n".format(
            "standard" if B is None else "generalized", "out" if M is None else "", n, sizeX,
            "No constraints\n" if Y is None else "{} constraint{}\n".format(sizeY, "s" if sizeY > 1 else "")))
    if n - sizeY < 5 * sizeX:
        warnings.warn("The problem size {} minus the constraints size {} is too small relative to the block size {}. "
                      "Using a dense eigensolver instead of LOBPCG iterations.No output of the history of the "
                      "iterations.".format(n, sizeY, sizeX), UserWarning, stacklevel=2)
        if Y is not None:
            raise NotImplementedError("The dense eigensolver does not support constraints.")
        return _dense(A, B, n, min(sizeX, n), largest)
    if tol is None or tol <= 0.0:
        tol = numpy.sqrt(numpy.finfo(X.dtype).eps) * n
    run = _Run(_matmat(A), _matmat(B), _matmat(M), None if Y is None else as_array(Y, "lobpcg"), X, tol, maxiter,
               largest, verbosityLevel, retLambdaHistory, retResidualNormsHistory, restartControl)
    while run.it < maxiter and run.step():
        pass
    return run.finish()


class _Run:
    """One lobpcg run: SciPy's loop variables (blockVectorX is `X`, ...) and its three phases,
    `__init__` (constraints, the first Rayleigh-Ritz step), `step` (one iteration: False where
    SciPy's loop breaks) and `finish` (the best iterate's final Rayleigh-Ritz step)."""

    def __init__(self, A, B, M, Y, X, tol, maxiter, largest, verbosity, lam_history, res_history, restart_control):
        self.A, self.B, self.M, self.tol, self.largest, self.verbosity = A, B, M, tol, largest, verbosity
        self.restart_control = restart_control
        self.sizeX = X.shape[1]
        self.lamHist = numpy.zeros((maxiter + 3, self.sizeX), X.dtype) if lam_history else None
        self.resHist = numpy.zeros((maxiter + 3, self.sizeX), X.dtype) if res_history else None
        self.best, self.bestX = maxiter, X
        self.project = None if Y is None else _constraints(Y, B)
        if self.project is not None:
            X = self.project(X)
        X, BX, _ = _b_orthonormalize(B, X, verbosityLevel=verbosity)
        if X is None:
            raise ValueError("Linearly dependent initial approximations")
        AX = _checked(X, A(X), "initial approximations", "primary")
        lam, C = _host_linalg().eigh(_read(_herm(X, AX))[0], check_finite=False)
        ii = _get_indx(lam, self.sizeX, largest)
        self.lam = lam[ii]
        if self.lamHist is not None:
            self.lamHist[0, :] = self.lam
        C = numpy.ascontiguousarray(C[:, ii])
        self.X, self.AX = _in_place(X, C), _in_place(AX, C)
        self.BX = _in_place(BX, C) if B is not None else BX
        self.active = numpy.ones((self.sizeX,), dtype=bool)
        self.P = self.AP = self.BP = None
        self.smallest = numpy.abs(numpy.finfo(self.X.dtype).max)
        self.it = -1
        self.restart, self.forced_restart, self.explicit = True, False, False

    def _residuals(self):
        """The residual block and its column norms (read), the best iterate and the forced
        restart updated as SciPy's loop head does."""
        R, norms = _residual_norms(self.AX, self.X if self.B is None else self.BX, self.lam)
        norms = _read(norms)[0]
        if self.resHist is not None:
            self.resHist[self.it, :] = norms
        residual = numpy.sum(numpy.abs(norms)) / self.sizeX
        if residual < self.smallest:
            self.smallest, self.best, self.bestX = residual, self.it, self.X
        elif residual > 2 ** self.restart_control * self.smallest:
            self.forced_restart = True
            self.AX = _checked(self.X, self.A(self.X), "restarted iterate", "primary")
            if self.B is not None:
                self.BX = _checked(self.X, self.B(self.X), "restarted iterate", "secondary")
        return R, norms

    def step(self):
        self.it += 1
        A, B, it = self.A, self.B, self.it
        R, norms = self._residuals()
        self.active &= norms > self.tol
        size = int(self.active.sum())
        if self.verbosity:
            print("iteration {}\ncurrent block size: {}\neigenvalue(s):\n{}\nresidual norm(s):\n{}".format(
                it, size, self.lam, norms))
        if size == 0:
            return False
        active = from_host(numpy.flatnonzero(self.active))
        aR = R[:, active]
        aP = aAP = aBP = None
        if it > 0:
            aP, aAP = self.P[:, active], self.AP[:, active]
            aBP = self.BP[:, active] if B is not None else None
        if self.M is not None:
            aR = self.M(aR)
        if self.project is not None:
            aR = self.project(aR)
        X, AX, BX = self.X, self.AX, self.BX
        aR = aR - X @ _herm(X if B is None else BX, aR)  # B-orthogonal to X
        aR, aBR, aP, aAP, aBP = self._orthonormalize(aR, aP, aAP, aBP)
        if aR is None:
            warnings.warn("Failed at iteration {} with accuracies {}\n not reaching the requested tolerance {}.".format(
                it, norms, self.tol), UserWarning, stacklevel=3)
            return False
        aAR = A(aR)
        myeps = 1 if aAR.dtype == numpy.float32 else numpy.sqrt(numpy.finfo(aR.dtype).eps)
        self.explicit = self.explicit or not norms.max() > myeps
        if B is None:
            BX = self.BX = X
        restart = self.restart
        step = _rayleigh_ritz(X, AX, BX, aR, aAR, aBR, None if restart else (aP, aAP, aBP), self.lam, self.sizeX,
                              size, self.explicit, it, self.verbosity)
        if step is None and not restart:
            restart = self.restart = True  # eigh failed on [X, R, P]: again without the directions P
            step = _rayleigh_ritz(X, AX, BX, aR, aAR, aBR, None, self.lam, self.sizeX, size, self.explicit, it,
                                  self.verbosity)
        if step is None:
            return False
        lam, C = step
        ii = _get_indx(lam, self.sizeX, self.largest)
        self.lam, C = lam[ii], C[:, ii]
        if self.lamHist is not None:
            self.lamHist[it + 1, :] = self.lam
        self._ritz_vectors(C, size, aR, aAR, aBR, None if restart else (aP, aAP, aBP))
        return True

    def _orthonormalize(self, aR, aP, aAP, aBP):
        """The active residuals B-orthonormalised (None where that fails: SciPy stops) and the
        active directions too (a restart where that fails), both Gram matrices read at once."""
        B = self.B
        aBR = aR
        if B is not None:
            try:
                aBR = _checked(aR, B(aR), "orthogonalized matrix", "secondary")
            except ValueError:
                raise
            except Exception as e:
                if self.verbosity:
                    warnings.warn("Secondary MatMul call failed with error\n{}\n".format(e), UserWarning, stacklevel=4)
                return None, None, aP, aAP, aBP
        pairs = [(aR, aBR)] + ([(aP, aP if B is None else aBP)] if aP is not None else [])
        grams = _read(*[_herm(u, v) for u, v in pairs])
        aR, aBR, _ = _b_orthonormalize(B, aR, aBR, grams[0], self.verbosity)
        if aR is None or aP is None:
            return aR, aBR, aP, aAP, aBP
        aP, aBPn, invR = _b_orthonormalize(B, aP, aBP, grams[1], self.verbosity)
        if aP is None:
            self.restart = True
            return aR, aBR, None, None, None
        self.restart = self.forced_restart
        return aR, aBR, aP, _in_place(aAP, invR), (aBPn if B is not None else aP)

    def _ritz_vectors(self, C, size, aR, aAR, aBR, directions):
        """X, AX, BX and the new directions P, AP, BP from the Rayleigh-Ritz coefficients."""
        sizeX, B = self.sizeX, self.B
        cX = from_host(numpy.ascontiguousarray(C[:sizeX]))
        cR = from_host(numpy.ascontiguousarray(C[sizeX:sizeX + size]))
        pp, app = aR @ cR, aAR @ cR
        bpp = aBR @ cR if B is not None else None
        if directions is not None:
            aP, aAP, aBP = directions
            cP = from_host(numpy.ascontiguousarray(C[sizeX + size:]))
            pp, app = pp + aP @ cP, app + aAP @ cP
            if B is not None:
                bpp = bpp + aBP @ cP
        self.X, self.AX = self.X @ cX + pp, self.AX @ cX + app
        if B is not None:
            self.BX = self.BX @ cX + bpp
        self.P, self.AP, self.BP = pp, app, bpp

    def finish(self):
        """SciPy's exit: the last residuals, then the best iterate (constrained exactly) through a
        final Rayleigh-Ritz step; the results and the truncated histories."""
        A, B, it, tol = self.A, self.B, self.it, self.tol
        R, norms = _residual_norms(self.AX, self.X if B is None else self.BX, self.lam)
        norms = _read(norms)[0]
        if self.lamHist is not None:
            self.lamHist[it + 1, :] = self.lam
        if self.resHist is not None:
            self.resHist[it + 1, :] = norms
        residual = numpy.sum(numpy.abs(norms)) / self.sizeX
        if residual < self.smallest:
            self.smallest, self.best, self.bestX = residual, it + 1, self.X
        if numpy.max(numpy.abs(norms)) > tol:
            warnings.warn("Exited at iteration {} with accuracies \n{}\nnot reaching the requested tolerance {}.\nUse "
                          "iteration {} instead with accuracy \n{}.\n".format(it, norms, tol, self.best, self.smallest),
                          UserWarning, stacklevel=3)
        if self.verbosity:
            print("Final iterative eigenvalue(s):\n{}\nFinal iterative residual norm(s):\n{}".format(self.lam, norms))
        X = self.bestX if self.project is None else self.project(self.bestX)
        AX = _checked(X, A(X), "postprocessing iterate", "primary")
        BX = X if B is None else _checked(X, B(X), "postprocessing iterate", "secondary")
        gramXAX, gramXBX = _read(_herm(X, AX), _herm(X, BX))
        _report(gramXAX, gramXBX, self.verbosity)
        la = _host_linalg()
        try:
            lam, C = la.eigh((gramXAX + gramXAX.T.conj()) / 2, (gramXBX + gramXBX.T.conj()) / 2, check_finite=False)
        except la.LinAlgError as e:
            raise ValueError("eigh has failed in lobpcg postprocessing") from e
        ii = _get_indx(lam, self.sizeX, self.largest)
        lam = lam[ii]
        Cd = from_host(numpy.ascontiguousarray(C[:, ii]))
        X, AX = X @ Cd, AX @ Cd
        R, norms = _residual_norms(AX, X if B is None else BX @ Cd, lam)
        norms = _read(norms)[0]
        out = [from_host(lam), X]
        for hist, last in ((self.lamHist, lam), (self.resHist, norms)):
            if hist is not None:
                hist[self.best + 1, :] = last
                rows = from_host(hist[:self.best + 2])
                out.append([rows[i] if self.sizeX > 1 else rows[i, 0] for i in range(rows.shape[0])])
        if numpy.max(numpy.abs(norms)) > tol:
            warnings.warn("Exited postprocessing with accuracies \n{}\nnot reaching the requested tolerance {}.".format(
                norms, tol), UserWarning, stacklevel=3)
        if self.verbosity:
            print("Final postprocessing eigenvalue(s):\n{}\nFinal residual norm(s):\n{}".format(lam, norms))
        return tuple(out)


def _rayleigh_ritz(X, AX, BX, R, AR, BR, directions, lam, sizeX, size, explicit, it, verbosityLevel):
    """SciPy's Rayleigh-Ritz step on [X, R] or [X, R, P] (`directions` (P, AP, BP)): every
    Gram block it computes read at once; (lambda, coefficients), or None where eigh fails."""
    blocks = {"XAR": (X, AR), "RAR": (R, AR)}
    if explicit:
        blocks.update(XAX=(X, AX), XBX=(X, BX), RBR=(R, BR), XBR=(X, BR))
    if directions is not None:
        P, AP, BP = directions
        blocks.update(XAP=(X, AP), RAP=(R, AP), PAP=(P, AP), XBP=(X, BP), RBP=(R, BP))
        if explicit:
            blocks["PBP"] = (P, BP)
    g = dict(zip(blocks, _read(*[_herm(u, v) for u, v in blocks.values()])))
    dt = AR.dtype
    if explicit:
        g["RAR"] = (g["RAR"] + g["RAR"].T.conj()) / 2
        g["XAX"] = (g["XAX"] + g["XAX"].T.conj()) / 2
    else:
        g.update(XAX=numpy.diag(lam).astype(dt), XBX=numpy.eye(sizeX, dtype=dt), RBR=numpy.eye(size, dtype=dt),
                 XBR=numpy.zeros((sizeX, size), dtype=dt))
    if directions is None:
        gramA = numpy.block([[g["XAX"], g["XAR"]], [g["XAR"].T.conj(), g["RAR"]]])
        gramB = numpy.block([[g["XBX"], g["XBR"]], [g["XBR"].T.conj(), g["RBR"]]])
    else:
        if explicit:
            g["PAP"] = (g["PAP"] + g["PAP"].T.conj()) / 2
        else:
            g["PBP"] = numpy.eye(size, dtype=dt)
        gramA = numpy.block([[g["XAX"], g["XAR"], g["XAP"]], [g["XAR"].T.conj(), g["RAR"], g["RAP"]],
                             [g["XAP"].T.conj(), g["RAP"].T.conj(), g["PAP"]]])
        gramB = numpy.block([[g["XBX"], g["XBR"], g["XBP"]], [g["XBR"].T.conj(), g["RBR"], g["RBP"]],
                             [g["XBP"].T.conj(), g["RBP"].T.conj(), g["PBP"]]])
    _report(gramA, gramB, verbosityLevel)
    la = _host_linalg()
    try:
        return la.eigh(gramA, gramB, check_finite=False)
    except la.LinAlgError as e:
        if directions is None:
            warnings.warn("eigh failed at iteration {} with error\n{}\n".format(it, e), UserWarning, stacklevel=3)
        elif verbosityLevel:
            warnings.warn("eigh failed at iteration {} \nwith error {} causing a restart.\n".format(it, e), UserWarning,
                          stacklevel=3)
        return None


def _constraints(Y, B):
    """V -> V minus its B-projection on span(Y), in V's dtype (SciPy subtracts in place): the
    inverse of Y's Gram matrix from its Cholesky factor on the host, the products on the
    device."""
    BY = Y if B is None else _checked(Y, B(Y), "constraint", "secondary")
    la = _host_linalg()
    G = _read(_herm(Y, BY))[0]
    try:
        factor = la.cho_factor(G, overwrite_a=True)
    except la.LinAlgError as e:
        raise ValueError("Linearly dependent constraints") from e
    Ginv = from_host(la.cho_solve(factor, numpy.eye(G.shape[0], dtype=G.dtype)))
    return lambda V: (V - Y @ (Ginv @ _herm(BY, V))).astype(V.dtype, copy=False)


def _dense(A, B, n, k, largest):
    """SciPy's dense path for small problems: A and B formed on the device (an operator or a
    callable applied to the integer identity, a sparse matrix densified), one eigh on the host."""
    def formed(m, which):
        try:
            if isinstance(m, LinearOperator) or callable(m):
                out = m(eye(n, dtype=numpy.int64))
                if not isinstance(m, LinearOperator) and out.shape != (n, n):
                    raise ValueError("The shape {} of the {} matrix\ndefined by a callable object is wrong.\n".format(
                        out.shape, which))
                return out
            return m.toarray() if issparse(m) else as_array(m, "lobpcg")
        except Exception as e:
            raise Exception("{} MatMul call failed with error\n{}\n".format(which.capitalize(), e))

    a = to_host(formed(A, "primary"))
    b = None if B is None else to_host(formed(B, "secondary"))
    try:
        vals, vecs = _host_linalg().eigh(a, b, subset_by_index=(n - k, n - 1) if largest else (0, k - 1),
                                         check_finite=False)
    except Exception as e:
        raise Exception("Dense eigensolver failed with error\n{}\n".format(e))
    if largest:
        vals, vecs = vals[::-1], vecs[:, ::-1]
    return from_host(numpy.ascontiguousarray(vals)), from_host(numpy.ascontiguousarray(vecs))
