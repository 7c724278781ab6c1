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
from .._base import issparse
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
    blockVectorY = Y
    if maxiter is None:
        maxiter = 20
    bestIterationNumber = maxiter
    sizeY = 0
    if blockVectorY is not None:
        if len(blockVectorY.shape) != 2:
            warnings.warn("Expected rank-2 array for argument Y, instead got {}, so ignore it and use no "
                          "constraints.".format(len(blockVectorY.shape)), UserWarning, stacklevel=2)
            blockVectorY = None
        else:
            sizeY = blockVectorY.shape[1]
    if X is None:
        raise ValueError("The mandatory initial matrix X cannot be None")
    if len(X.shape) != 2:
        raise ValueError("expected rank-2 array for argument X")
    X = as_array(X, "lobpcg")
    bestX = X
    n, sizeX = X.shape
    if X.dtype.kind not in "fc":
        warnings.warn("Data type for argument X is {}, which is not inexact, so casted to np.float32.".format(
            X.dtype), UserWarning, stacklevel=2)
        X = X.astype(numpy.float32)
    lamHist = numpy.zeros((maxiter + 3, sizeX), X.dtype) if retLambdaHistory else None
    resHist = numpy.zeros((maxiter + 3, sizeX), X.dtype) if retResidualNormsHistory else None
    if verbosityLevel:
        print("Solving {} eigenvalue problem with{} preconditioning\n\nmatrix size {}\nblock size {}\n\n{}\n".format(
            "standard" if B is None else "generalized", "out" if M is None else "", n, sizeX,
            "No constraints\n" if blockVectorY is None else "{} constraint{}\n".format(sizeY, "s" if sizeY > 1 else "")))
    if n - sizeY < 5 * sizeX:
        warnings.warn("The problem size {} minus the constraints size {} is too small relative to the block size {}. "
                      "Using a dense eigensolver instead of LOBPCG iterations.No output of the history of the "
                      "iterations.".format(n, sizeY, sizeX), UserWarning, stacklevel=2)
        if blockVectorY is not None:
            raise NotImplementedError("The dense eigensolver does not support constraints.")
        return _dense(A, B, n, min(sizeX, n), largest)
    if tol is None or tol <= 0.0:
        tol = numpy.sqrt(numpy.finfo(X.dtype).eps) * n
    A, B, M = _matmat(A), _matmat(B), _matmat(M)

    project = None
    if blockVectorY is not None:
        project = _constraints(as_array(blockVectorY, "lobpcg"), B)
        X = project(X)
    X, BX, _ = _b_orthonormalize(B, X, verbosityLevel=verbosityLevel)
    if X is None:
        raise ValueError("Linearly dependent initial approximations")
    AX = _checked(X, A(X), "initial approximations", "primary")
    lam, C = _host_linalg().eigh(_read(_herm(X, AX))[0], check_finite=False)
    ii = _get_indx(lam, sizeX, largest)
    lam = lam[ii]
    if lamHist is not None:
        lamHist[0, :] = lam
    C = numpy.ascontiguousarray(C[:, ii])
    X, AX = _in_place(X, C), _in_place(AX, C)
    if B is not None:
        BX = _in_place(BX, C)

    activeMask = numpy.ones((sizeX,), dtype=bool)
    P = AP = BP = None
    smallest = numpy.abs(numpy.finfo(X.dtype).max)
    it = -1
    restart, forcedRestart, explicitGram = True, False, False
    while it < maxiter:
        it += 1
        R, norms = _residual_norms(AX, X if B is None else BX, lam)
        norms = _read(norms)[0]
        if resHist is not None:
            resHist[it, :] = norms
        residualNorm = numpy.sum(numpy.abs(norms)) / sizeX
        if residualNorm < smallest:
            smallest, bestIterationNumber, bestX = residualNorm, it, X
        elif residualNorm > 2 ** restartControl * smallest:
            forcedRestart = True
            AX = _checked(X, A(X), "restarted iterate", "primary")
            if B is not None:
                BX = _checked(X, B(X), "restarted iterate", "secondary")
        activeMask = activeMask & (norms > tol)
        size = int(activeMask.sum())
        if verbosityLevel:
            print("iteration {}\ncurrent block size: {}\neigenvalue(s):\n{}\nresidual norm(s):\n{}".format(
                it, size, lam, norms))
        if size == 0:
            break
        active = from_host(numpy.flatnonzero(activeMask))
        aR = R[:, active]
        if it > 0:
            aP, aAP = P[:, active], AP[:, active]
            aBP = BP[:, active] if B is not None else None
        if M is not None:
            aR = M(aR)
        if project is not None:
            aR = project(aR)
        aR = aR - X @ _herm(X if B is None else BX, aR)  # B-orthogonal to X

        # the Gram matrices of both orthonormalisations in one read
        aBR = aR
        if B is not None:
            try:
                aBR = _checked(aR, B(aR), "orthogonalized matrix", "secondary")
            except ValueError:
                raise
            except Exception as e:
                if verbosityLevel:
                    warnings.warn("Secondary MatMul call failed with error\n{}\n".format(e), UserWarning, stacklevel=2)
                aBR = None
        pairs = [] if aBR is None else [(aR, aBR)] + ([(aP, aP if B is None else aBP)] if it > 0 else [])
        grams = _read(*[_herm(u, v) for u, v in pairs]) if pairs else [None]
        if aBR is not None:
            aR, aBR, _ = _b_orthonormalize(B, aR, aBR, grams[0], verbosityLevel)
        if aBR is None or aR is None:
            warnings.warn("Failed at iteration {} with accuracies {}\n not reaching the requested tolerance {}.".format(
                it, norms, tol), UserWarning, stacklevel=2)
            break
        aAR = A(aR)
        if it > 0:
            aP, aBPn, invR = _b_orthonormalize(B, aP, aBP if B is not None else None, grams[1], verbosityLevel)
            if aP is not None:
                aBP = aBPn if B is not None else None
                aAP = _in_place(aAP, invR)
                restart = forcedRestart
            else:
                restart = True

        myeps = 1 if aAR.dtype == numpy.float32 else numpy.sqrt(numpy.finfo(aR.dtype).eps)
        explicitGram = explicitGram or not norms.max() > myeps
        if B is None:
            BX, aBR = X, aR
            if not restart:
                aBP = aP
        step = _rayleigh_ritz(X, AX, BX, aR, aAR, aBR, None if restart else (aP, aAP, aBP), lam, sizeX, size,
                              explicitGram, it, verbosityLevel)
        if step is None and not restart:
            restart = True  # eigh failed on [X, R, P]: again without the directions P
            step = _rayleigh_ritz(X, AX, BX, aR, aAR, aBR, None, lam, sizeX, size, explicitGram, it, verbosityLevel)
        if step is None:
            break
        lam, C = step
        ii = _get_indx(lam, sizeX, largest)
        lam, C = lam[ii], C[:, ii]
        if lamHist is not None:
            lamHist[it + 1, :] = lam
        cX = from_host(numpy.ascontiguousarray(C[:sizeX]))
        cR = from_host(numpy.ascontiguousarray(C[sizeX:sizeX + size]))
        pp, app = aR @ cR, aAR @ cR
        bpp = aBR @ cR if B is not None else None
        if not restart:
            cP = from_host(numpy.ascontiguousarray(C[sizeX + size:]))
            pp, app = pp + aP @ cP, app + aAP @ cP
            if B is not None:
                bpp = bpp + aBP @ cP
        X, AX = X @ cX + pp, AX @ cX + app
        if B is not None:
            BX = BX @ cX + bpp
        P, AP, BP = pp, app, bpp

    R, norms = _residual_norms(AX, X if B is None else BX, lam)
    norms = _read(norms)[0]
    if lamHist is not None:
        lamHist[it + 1, :] = lam
    if resHist is not None:
        resHist[it + 1, :] = norms
    residualNorm = numpy.sum(numpy.abs(norms)) / sizeX
    if residualNorm < smallest:
        smallest, bestIterationNumber, bestX = residualNorm, it + 1, X
    if numpy.max(numpy.abs(norms)) > tol:
        warnings.warn("Exited at iteration {} with accuracies \n{}\nnot reaching the requested tolerance {}.\nUse "
                      "iteration {} instead with accuracy \n{}.\n".format(it, norms, tol, bestIterationNumber, smallest),
                      UserWarning, stacklevel=2)
    if verbosityLevel:
        print("Final iterative eigenvalue(s):\n{}\nFinal iterative residual norm(s):\n{}".format(lam, norms))

    # the best iterate, the constraints exactly, then a final Rayleigh-Ritz step (SciPy's postprocessing)
    X = bestX if project is None else project(bestX)
    AX = _checked(X, A(X), "postprocessing iterate", "primary")
    BX = X if B is None else _checked(X, B(X), "postprocessing iterate", "secondary")
    gramXAX, gramXBX = _read(_herm(X, AX), _herm(X, BX))
    _report(gramXAX, gramXBX, verbosityLevel)
    la = _host_linalg()
    try:
        lam, C = la.eigh((gramXAX + gramXAX.T.conj()) / 2, (gramXBX + gramXBX.T.conj()) / 2, check_finite=False)
    except la.LinAlgError as e:
        raise ValueError("eigh has failed in lobpcg postprocessing") from e
    ii = _get_indx(lam, sizeX, largest)
    lam = lam[ii]
    Cd = from_host(numpy.ascontiguousarray(C[:, ii]))
    X, AX = X @ Cd, AX @ Cd
    BX = X if B is None else BX @ Cd
    R, norms = _residual_norms(AX, BX, lam)
    norms = _read(norms)[0]
    out = [from_host(lam), X]
    for hist, last in ((lamHist, lam), (resHist, norms)):
        if hist is not None:
            hist[bestIterationNumber + 1, :] = last
            rows = from_host(hist[:bestIterationNumber + 2])
            out.append([rows[i] if sizeX > 1 else rows[i, 0] for i in range(rows.shape[0])])
    if numpy.max(numpy.abs(norms)) > tol:
        warnings.warn("Exited postprocessing with accuracies \n{}\nnot reaching the requested tolerance {}.".format(
            norms, tol), UserWarning, stacklevel=2)
    if verbosityLevel:
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
