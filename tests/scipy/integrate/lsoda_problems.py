"""The LSODA tests' problems written once for any array namespace `xp` (NumPy for the oracle and
the CPU runs, cuarray on the device), in odeint's convention func(y, t): nonstiff (a harmonic
oscillator, Lotka-Volterra) and stiff (Robertson's kinetics, van der Pol with mu = 1000), with
their Jacobians and host reference solutions."""

import numpy as np
import scipy.integrate as si
import scipy.linalg

MU = 1000.0


def problems(xp):
    """{name: (func, Dfun, t_end)}."""
    def osc(y, t):
        return xp.stack([y[1], -y[0]])

    def osc_jac(y, t):
        z = y * 0.0
        return xp.stack([xp.stack([z[0], z[0] + 1.0]), xp.stack([z[0] - 1.0, z[0]])])

    def lv(y, t):
        return xp.stack([1.5 * y[0] - y[0] * y[1], -3.0 * y[1] + y[0] * y[1]])

    def lv_jac(y, t):
        return xp.stack([xp.stack([1.5 - y[1], -y[0]]), xp.stack([y[1], y[0] - 3.0])])

    def robertson(y, t):
        return xp.stack([-0.04 * y[0] + 1e4 * y[1] * y[2], 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
                         3e7 * y[1] ** 2])

    def robertson_jac(y, t):
        z = y[0] * 0.0
        return xp.stack([xp.stack([z - 0.04, 1e4 * y[2], 1e4 * y[1]]),
                         xp.stack([z + 0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]]),
                         xp.stack([z, 6e7 * y[1], z])])

    def vdp(y, t):
        return xp.stack([y[1], MU * (1.0 - y[0] ** 2) * y[1] - y[0]])

    def vdp_jac(y, t):
        z = y[0] * 0.0
        return xp.stack([xp.stack([z, z + 1.0]), xp.stack([-2.0 * MU * y[0] * y[1] - 1.0, MU * (1.0 - y[0] ** 2)])])

    # van der Pol stays before its first relaxation jump (near t = 0.8 mu): the solution is smooth
    # there, so a comparison at fixed times is not dominated by where a jump is placed
    return {"oscillator": (osc, osc_jac, 10.0), "lotka_volterra": (lv, lv_jac, 10.0),
            "robertson": (robertson, robertson_jac, 400.0), "van_der_pol": (vdp, vdp_jac, 700.0)}


STIFF = ("robertson", "van_der_pol")


def initial_state(name, rng):
    """A fresh initial state for which the problem stays well behaved."""
    if name == "oscillator":
        return rng.uniform(-2.0, 2.0, 2)
    if name == "lotka_volterra":
        return rng.uniform(4.0, 10.0, 2)
    if name == "robertson":
        return np.array([1.0, 0.0, 0.0])
    return np.array([2.0, 0.0])


def reference(name, y0, t):
    """A tight-tolerance solution at the times t (Radau for the stiff problems, DOP853 for the
    others; the oscillator's is exact)."""
    if name == "oscillator":
        c, s = np.cos(t), np.sin(t)
        return np.stack([y0[0] * c + y0[1] * s, -y0[0] * s + y0[1] * c], axis=1)
    func, jac, _ = problems(np)[name]
    kw = dict(method="Radau", jac=lambda s, y: jac(y, s), rtol=1e-10) if name in STIFF else \
        dict(method="DOP853", rtol=1e-12)
    sol = si.solve_ivp(lambda s, y: func(y, s), [t[0], t[-1]], y0, t_eval=t,
                       atol=1e-14 if name == "robertson" else 1e-13, **kw)
    assert sol.success
    return sol.y.T


# -- banded stiff linear problems (LSODA's lband/uband, odeint's ml/mu) ---------------------------
BANDS = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 3)]


def packed(J, ml, mu):
    """J's band in LSODA's packed rows, ab[mu + i - j, j] = J[i, j]."""
    n = J.shape[0]
    ab = np.zeros((ml + mu + 1, n))
    for i in range(n):
        for j in range(max(0, i - ml), min(n, i + mu + 1)):
            ab[mu + i - j, j] = J[i, j]
    return ab


def banded(n, ml, mu, rng):
    """A stiff banded J: diagonal -10^(0..3) (rates from 1 to 1000, evenly in log, shuffled),
    each off-diagonal entry at most 0.1 of its row's diagonal, so the off-diagonal row sums are
    at most 0.4 |J_ii| (ml + mu <= 4): by
    Gershgorin every eigenvalue has real part <= -0.6 min |J_ii| < 0 (a contracting flow, I - c J
    diagonally dominant, well conditioned for any c >= 0)."""
    d = -rng.permutation(np.logspace(0, 3, n))
    J = np.diag(d)
    for k in range(1, ml + 1):
        J += np.diag(0.1 * np.abs(d[k:]) * rng.uniform(-1, 1, n - k), -k)
    for k in range(1, mu + 1):
        J += np.diag(0.1 * np.abs(d[:-k]) * rng.uniform(-1, 1, n - k), k)
    return J


def exact_linear(J, b, y0, t):
    """y' = J y + b: y(t) = expm(J t) (y0 + J^-1 b) - J^-1 b."""
    c = np.linalg.solve(J, b)
    return np.stack([scipy.linalg.expm(J * s) @ (y0 + c) - c for s in t], axis=1)
