"""The LSODA tests' problems written once for any array namespace `xp` (NumPy for the oracle and
the CPU runs, cuarray on the device), in odeint's convention func(y, t): nonstiff (a harmonic
oscillator, Lotka-Volterra) and stiff (Robertson's kinetics, van der Pol with mu = 1000), with
their Jacobians and host reference solutions."""

import numpy as np
import scipy.integrate as si

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
