"""SciPy's solve_ivp test problems (scipy/integrate/_ivp/tests/test_ivp.py) written once for any
array namespace `xp` (NumPy for the oracle and the CPU runs, cuarray on the device)."""

import numpy as np


def problems(xp):
    """{name: (fun, t_span, y0 as a host list, exact solution or None)}."""
    def fun_rational(t, y):
        return xp.stack([y[1] / t, y[1] * (y[0] + 2 * y[1] - 1) / (t * (y[0] - 1))])

    def fun_linear(t, y):
        return xp.stack([-y[0] - 5 * y[1], y[0] + y[1]])

    def fun_decay(t, y):
        return -0.5 * y

    def fun_lv(t, y):
        return xp.stack([1.5 * y[0] - y[0] * y[1], -3 * y[1] + y[0] * y[1]])

    def fun_complex(t, y):
        return -y

    return {
        "rational": (fun_rational, [5, 9], [1 / 3, 2 / 9], lambda t: np.asarray((t / (t + 10), 10 * t / (t + 10) ** 2))),
        "linear": (fun_linear, [0, 2], [0.0, 2.0],
                   lambda t: np.vstack((-5 * np.sin(2 * t), 2 * np.cos(2 * t) + np.sin(2 * t)))),
        "decay": (fun_decay, [0, 10], [2.0, 4.0, 8.0], lambda t: np.array([2.0, 4.0, 8.0])[:, None] * np.exp(-0.5 * t)),
        "lotka_volterra": (fun_lv, [0, 10], [10.0, 5.0], None),
        "complex": (fun_complex, [0.5, 3], [0.5 + 1j], lambda t: (0.5 + 1j) * np.exp(0.5 - t)[None]),
    }


def lv_batch(xp, params):
    """Lotka-Volterra systems, one per row of `params` (batch, 4): the batched right-hand side."""
    a, b, c, d = (params[:, i] for i in range(4))

    def f(t, y):
        x, z = y[:, 0], y[:, 1]
        return xp.stack([a * x - b * x * z, -c * z + d * x * z], axis=1)

    return f


def lv_single(p):
    a, b, c, d = p

    def f(t, y):
        return np.array([a * y[0] - b * y[0] * y[1], -c * y[1] + d * y[0] * y[1]])

    return f
