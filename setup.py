"""Build of the optional C extensions: cuarray.cuda._poolcore (the memory pool's bookkeeping),
cuarray.cuda._launchcore (kernel launch through cuLaunchKernel) and cuarray._core._nodecore (lazy
mode's graph nodes as C structs, and the trace's commonest records).

Everything else lives in pyproject.toml. All are optional: where no C compiler exists their build
fails quietly and `cuarray.cuda.memory` uses its pure-Python pool, `cuarray.cuda.launch` cuda.core's
launch, `fusion.graph` Python slots (same results, slower). Separate modules: each falls back on its own.
Limited API 3.11 (`cuarray/cuda/_native/limited_api.h`): one abi3 build serves the CPython that built
it and every newer one. The wheel is tagged with the building interpreter's version (cp311-abi3 when
built by 3.11, cp312-abi3 by 3.12): the stable ABI promises that a module built with 3.N's headers
runs on 3.N and later, not on earlier ones (CPython gh-134989: 3.12's headers made modules that
abort on 3.11; limited_api.h works around that one case, the tag keeps the promise).
"""

import sys

from setuptools import Extension, setup

ABI3_TAG = "cp3{}".format(max(11, sys.version_info[1]))  # (the oldest CPython the wheel may be installed on)

setup(
    ext_modules=[
        Extension(
            "cuarray.cuda._poolcore",
            sources=["cuarray/cuda/_native/bins.c", "cuarray/cuda/_native/dev.c", "cuarray/cuda/_native/block.c",
                     "cuarray/cuda/_native/async.c", "cuarray/cuda/_native/pool_malloc.c",
                     "cuarray/cuda/_native/current_stream.c"],
            depends=["cuarray/cuda/_native/poolcore.h", "cuarray/cuda/_native/limited_api.h",
                     "cuarray/cuda/_native/tls_dict.h"],
            define_macros=[("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
            optional=True,
        ),
        Extension(
            "cuarray.cuda._launchcore",
            sources=["cuarray/cuda/_native/launch.c"],
            depends=["cuarray/cuda/_native/limited_api.h"],
            define_macros=[("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
            optional=True,
        ),
        Extension(
            "cuarray._core._nodecore",
            sources=["cuarray/_core/_native/nodes.c", "cuarray/_core/_native/lazyops.c", "cuarray/_core/_native/lazycalls.c",
                     "cuarray/_core/_native/live.c", "cuarray/_core/_native/ufunccall.c",
                     "cuarray/_core/_native/steady.c", "cuarray/_core/_native/threadlocal.c",
                     "cuarray/_core/_native/records.c",
                     "cuarray/_core/_native/elementwise_run.c", "cuarray/_core/_native/lazy_block.c",
                     "cuarray/_core/_native/leaf_class.c"],
            depends=["cuarray/_core/_native/nodecore.h", "cuarray/_core/_native/lazyops.h",
                     "cuarray/cuda/_native/limited_api.h", "cuarray/cuda/_native/tls_dict.h"],
            define_macros=[("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
            optional=True,
        ),
    ],
    options={"bdist_wheel": {"py_limited_api": ABI3_TAG}},
)
