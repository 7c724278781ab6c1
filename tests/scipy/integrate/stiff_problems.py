"""Stiff test problems for the implicit solvers, written once for any array namespace `xp` (NumPy
for the oracle and the CPU runs, cuarray on the device): Robertson's chemical kinetics, Van der Pol
with mu = 1000 and a linear stiff system with a known solution (each with its Jacobian)."""

import numpy as np


def problems(xp):
    """{name: (fun, jac, t_span, y0 as a host list, t_eval, exact solution or None)}."""
    def rob(t, y):
        return xp.stack([-0.04 * y[0] + 1e4 * y[1] * y[2], 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
                         3e7 * y[1] ** 2])

    def rob_jac(t, y):
        return xp.stack([xp.stack([-0.04 + 0 * y[0], 1e4 * y[2], 1e4 * y[1]]),
                         xp.stack([0.04 + 0 * y[0], -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]]),
                         xp.stack([0 * y[0], 6e7 * y[1], 0 * y[0]])])

    mu = 1000.0

    def vdp(t, y):
        return xp.stack([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])

    def vdp_jac(t, y):
        return xp.stack([xp.stack([0 * y[0], 1 + 0 * y[0]]),
                         xp.stack([-2 * mu * y[0] * y[1] - 1, mu * (1 - y[0] ** 2)])])

    # y' = A y with eigenvalues -1, -1000 and -1e4: y(t) = V exp(L t) V^-1 y0
    V = np.array([[1.0, 1.0, 0.0], [1.0, -1.0, 1.0], [0.0, 1.0, 1.0]])
    L = np.array([-1.0, -1e3, -1e4])
    A = V @ np.diag(L) @ np.linalg.inv(V)
    y0 = np.array([1.0, 2.0, -1.0])
    c = np.linalg.solve(V, y0)
    Ad = xp.asarray(A)

    def lin(t, y):
        return Ad @ y if y.ndim == 1 else Ad @ y

    def lin_jac(t, y):
        return Ad

    return {
        "robertson": (rob, rob_jac, [0, 1e5], [1.0, 0.0, 0.0], np.logspace(-3, 5, 9), None),
        "vdp1000": (vdp, vdp_jac, [0, 1000], [2.0, 0.0], np.linspace(0, 1000, 6), None),
        "linear": (lin, lin_jac, [0, 3], list(y0), np.linspace(0, 3, 7),
                   lambda t: V @ (c[:, None] * np.exp(L[:, None] * np.asarray(t)[None, :]))),
    }, Ad  # the matrix in xp: the device tests pass it as `jac`
