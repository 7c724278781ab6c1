"""Complex hyp2f1 on the GPU, one region of SciPy's (xsf's) methods per subprocess (a fault kills
the context): prints, for each region and loop, ok and the finite fraction and the largest error
against SciPy relative to |value| + 1e-300, or the error.

    python scripts/special/hyp2f1_regions_probe.py             # every region, both loops
    python scripts/special/hyp2f1_regions_probe.py --stack 4096

--stack N sets CU_LIMIT_STACK_SIZE to N bytes a thread first (cuCtxSetLimit on the current
context). The kernel faulted (CUDA_ERROR_ILLEGAL_ADDRESS) in every region that runs a Maclaurin
series while ptxas could not size its stack (beta's recursion) and its 1192-byte frame exceeded the
default 1024: on that code --stack 2048 makes every region ok, which confirms the cause; on the
fixed code every region is ok either way.
"""
import subprocess
import sys

REGIONS = {
    "series |z|<0.9 re>=0": "z = 0.5*np.exp(1j*np.linspace(-1.5, 1.5, n))",
    "lopez-temme 0.9<=|z|<1.1": "z = 1.0*np.exp(1j*np.linspace(1.2, 1.5, n))",
    "z/(z-1) re<0": "z = -0.5 + 0.3j*np.linspace(-1, 1, n)",
    "transform1 |z|~1 near 1": "z = 1.0*np.exp(1j*np.linspace(-0.3, 0.3, n)) + 0.01",
    "transform1 limit c-a-b int": "z = 1.0*np.exp(1j*np.linspace(-0.3, 0.3, n)) + 0.01; c[:] = a + b + 1",
    "transform2 |z|>1.1": "z = 3*np.exp(1j*np.linspace(-3, 3, n))",
    "polynomial a neg int": "z = 2*np.exp(1j*np.linspace(-3, 3, n)); a[:] = -3",
    "transform2 limit a-b int": "z = 3*np.exp(1j*np.linspace(-3, 3, n)); b[:] = a - 2",
    "transform2 limit c-a int too": "z = 3*np.exp(1j*np.linspace(-3, 3, n)); b[:] = a - 2; c[:] = a + 3",
}
CODE = """
import numpy as np, scipy.special as sp, cuarray, cuarray.scipy.special as cs
stack = {stack}
if stack:
    cuarray.zeros(1).get()  # the context, current
    from cuda.bindings import driver
    err, = driver.cuCtxSetLimit(driver.CUlimit.CU_LIMIT_STACK_SIZE, stack)
    assert err == driver.CUresult.CUDA_SUCCESS, err
n = 256
a = np.linspace(0.3, 2.7, n); b = np.linspace(-1.3, 1.9, n); c = np.linspace(0.7, 5.1, n)
{setup}
real, cplx = {types}
args = [a.astype(real), b.astype(real), c.astype(real), z.astype(cplx)]
r = cs.hyp2f1(*(cuarray.asarray(v) for v in args)).get()
with np.errstate(all="ignore"):
    w = sp.hyp2f1(*args)
    err = np.nanmax(np.where(np.isfinite(w), np.abs(r - w) / (np.abs(w) + 1e-300), 0))
print("ok finite {{:.3f}} max rel err {{:.1e}}".format(np.isfinite(r).mean(), err))
"""


def main():
    stack = int(sys.argv[sys.argv.index("--stack") + 1]) if "--stack" in sys.argv else 0
    for loop, types in (("dddD->D", "np.float64, np.complex128"), ("fffF->F", "np.float32, np.complex64")):
        for name, setup in REGIONS.items():
            p = subprocess.run([sys.executable, "-c", CODE.format(stack=stack, setup=setup, types=types)],
                               capture_output=True, text=True, timeout=300)
            out = (p.stdout.strip().splitlines() or [""])[-1]
            err = [ln for ln in p.stderr.splitlines() if "Error" in ln][-1:] if p.returncode else []
            print("{} {:30s} {} {}".format(loop, name, out, err[0][:150] if err else ""), flush=True)


if __name__ == "__main__":
    main()
