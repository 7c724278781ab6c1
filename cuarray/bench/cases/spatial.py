"""cuarray.scipy.spatial (group `spatial`): cdist/pdist euclidean against torch.cdist/pdist and
cupyx.scipy.spatial.distance (which needs pylibraft: "n/a" without it); KDTree build + query k=8
of 10^7 3-D points and query_ball_point with about 30 neighbours a query against
cupyx.scipy.spatial.KDTree and SciPy's cKDTree on the host (workers=-1); Rotation.apply to 10^7
vectors against SciPy on the host; Delaunay of 10^6 2-D / 10^5 3-D points against
cupyx.scipy.spatial.Delaunay (2-D) and SciPy. The ball case is the group's last (cases run in registration
order): a peer that faults the device there cannot take later spatial rows with it. Distances are float64 (SciPy's dtype) in every column."""

from __future__ import annotations

from . import NotAvailable, random_array, register
import cuarray.scipy.spatial.transform


def _spatial(xp):
    name = getattr(xp, "__name__", "")
    if name == "cuarray":
        return cuarray.scipy.spatial
    if name == "cupy":
        try:
            import cupyx.scipy.spatial as s  # its distance module needs pylibraft
            import cupyx.scipy.spatial.distance  # noqa: F401
        except ImportError as e:
            raise NotAvailable("cupyx.scipy.spatial: {}".format(e)) from None
        return s
    import scipy.spatial as s
    return s


cdist = register(
    "spatial-cdist", group="spatial", description="cdist euclidean, 1e5 x 1e4 points in 64-D, float64",
    size=(100_000, 10_000, 64), quick=(10_000, 10_000, 64), size_label=lambda s: "{}x{}x{}".format(*s),
    flops=lambda s, p: 2.0 * s[0] * s[1] * s[2], nbytes=lambda s, p: 8.0 * s[0] * s[1],
)


@cdist.setup("cuarray", "cupy", "torch")
def _(xp, size, param):
    m, n, d = size
    a, b = random_array(xp, (m, d), "float64", seed=1), random_array(xp, (n, d), "float64", seed=2)
    if getattr(xp, "__name__", "") == "torch":
        return lambda: xp.cdist(a, b)
    f = _spatial(xp).distance.cdist
    return lambda: f(a, b, "euclidean")


pdist = register(
    "spatial-pdist", group="spatial", description="pdist euclidean of 3e4 points in 16-D, float64",
    size=30_000, quick=10_000, nbytes=lambda n, p: 8.0 * n * (n - 1) / 2,
)


@pdist.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    x = random_array(xp, (n, 16), "float64", seed=3)
    if getattr(xp, "__name__", "") == "torch":
        return lambda: xp.pdist(x)
    f = _spatial(xp).distance.pdist
    return lambda: f(x, "euclidean")


knn = register(
    "spatial-kdtree-knn", group="spatial", description="KDTree(x) build + query(x, k=8), 3-D uniform points",
    size=10**7, quick=10**6, timing="host",
)


@knn.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    x = random_array(xp, (n, 3), "float64", seed=4)
    s = _spatial(xp)
    if getattr(xp, "__name__", "") == "numpy":
        return lambda: s.cKDTree(x).query(x, k=8, workers=-1)
    return lambda: s.KDTree(x).query(x, k=8)


rot = register(
    "spatial-rotation-apply", group="spatial",
    description="Rotation.apply to 1e7 vectors: one rotation, and 1e7 rotations one a vector",
    size=10**7, quick=10**6, params=("single", "batch"), nbytes=lambda n, p: 48.0 * n + (32.0 * n if p == "batch" else 0),
)


@rot.setup("cuarray", "numpy")
def _(xp, n, param):
    name = getattr(xp, "__name__", "")
    if name == "cuarray":
        Rotation = cuarray.scipy.spatial.transform.Rotation
    else:
        from scipy.spatial.transform import Rotation
    v = random_array(xp, (n, 3), "float64", seed=6)
    q = random_array(xp, (4,) if param == "single" else (n, 4), "float64", seed=7)
    r = Rotation.from_quat(q)
    return lambda: r.apply(v)


tri = register(
    "spatial-delaunay", group="spatial",
    description="Delaunay(x) of uniform points: 1e6 in 2-D, 1e5 in 3-D (cuarray: 2-D on the GPU, 3-D Qhull on the "
                "host with the arrays back on the device; CuPy has 2-D only)",
    size=10**6, quick=10**5, params=("2d", "3d"), timing="host",
    size_label=lambda n: "{} / {}".format(n, n // 10),
)


@tri.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    d = 2 if param == "2d" else 3
    if getattr(xp, "__name__", "") == "cupy" and d == 3:
        raise NotAvailable("cupyx.scipy.spatial.Delaunay is 2-D only")
    x = random_array(xp, (n if d == 2 else n // 10, d), "float64", seed=8)
    if getattr(xp, "__name__", "") == "cupy":
        import cupyx.scipy.spatial as s  # its Delaunay needs no pylibraft (unlike its distance module)
    else:
        s = _spatial(xp)
    return lambda: s.Delaunay(x).simplices


ball = register(
    "spatial-ball", group="spatial",
    description="query_ball_point(x, r, return_length=True), 1e6 3-D points in the unit cube, ~30 neighbours",
    size=10**6, quick=10**5, timing="host",
)


@ball.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    if getattr(xp, "__name__", "") == "cupy":
        # its fault leaves the process's CUDA context unusable: every later row would fail too
        raise NotAvailable("cupyx KDTree.query_ball_point: illegal address at this size (CuPy 14.2)")
    x = random_array(xp, (n, 3), "float64", seed=5) - 0.5  # uniform in [0, 1)^3
    r = (30 * 3 / (4 * 3.141592653589793 * n)) ** (1 / 3)
    s = _spatial(xp)
    tree = s.cKDTree(x) if getattr(xp, "__name__", "") == "numpy" else s.KDTree(x)
    return lambda: tree.query_ball_point(x, r, return_length=True)
