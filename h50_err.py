import numpy as np, scipy.integrate as si, warnings, sys
sys.path.insert(0, "."); sys.path.insert(1, "tests/scipy/integrate")
from _ivp_host import host_integrate
H = host_integrate()
f = lambda y, t: -y
y0 = np.array([1.0, 2.0]); t = np.linspace(0, 1, 5)
cases = [dict(t=[0, 1, 0.5]), dict(args=3), dict(func=3), dict(Dfun=3), dict(y0=np.ones((2, 2))), dict(t=np.ones((2, 2))),
         dict(rtol=[1e-6]*3), dict(atol=np.ones(5)), dict(mxordn=-1), dict(mxords=-1),
         dict(func=lambda y, t: np.ones((2, 1))), dict(func=lambda y, t: np.ones(3)), dict(Dfun=lambda y, t: np.ones((3, 2))),
         dict(Dfun=lambda y, t: np.ones((2, 2, 1))), dict(Dfun=lambda y, t: np.ones((2, 2)), ml=1), dict(rtol=-1.0), dict(hmax=-1.0), dict(hmin=-1.0),
         dict(mxstep=-1), dict(ixpr=2), dict(mxhnil=-1), dict(ml=2), dict(h0=-0.1), dict(mxstep=2), dict(tcrit=[0.3, 0.4]), dict(tcrit=0.45),  dict(atol=0.0, rtol=0.0), dict(t=[0.0, 0.0, 1e-300])]
for kw in cases:
    out = []
    for mod in (si, H):
        kk = dict(func=f, y0=y0, t=t); kk.update(kw)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                r = mod.odeint(kk.pop("func"), kk.pop("y0"), kk.pop("t"), full_output=True, **kk)
                out.append(("ok", [str(x.message)[:60] for x in w], r[1]["message"], np.round(r[0][-1], 6)))
            except Exception as e:
                out.append((type(e).__name__, str(e)[:90]))
    print(list(kw), "SAME" if str(out[0]) == str(out[1]) else "DIFF"); 
    if str(out[0]) != str(out[1]): print("   ", out[0]); print("   ", out[1])
