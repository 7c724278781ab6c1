/* Python.h as every C extension of cuarray includes it: the limited API of 3.11, for one abi3 build
   that serves CPython 3.11 and newer (setup.py tags the wheel with the building interpreter's
   version: `cp3X-abi3`). nodecore.h (cuarray._core._nodecore), poolcore.h (cuarray.cuda._poolcore)
   and launch.c (cuarray.cuda._launchcore) include this and nothing else of Python's;
   tests/test_native_builds.py holds them to it.

   The singletons' return macros: the headers of CPython 3.12.0 to 3.12.x (and 3.13 before 3.13.5)
   define Py_RETURN_NONE, Py_RETURN_TRUE, Py_RETURN_FALSE and Py_RETURN_NOTIMPLEMENTED as a bare
   `return Py_None` (the singletons are immortal from 3.12 on) even for a limited API of 3.11
   (CPython gh-134989). A module built with such headers and run on 3.11 gives away a reference it
   never took at each such return: None's count falls to zero and 3.11 aborts in none_dealloc
   (after ~4000 calls of `_launchcore.clear()`, measured with 3.12.1's headers). So they are
   defined here as 3.11's own headers and CPython's fix define them, the reference taken. */
#ifndef CUARRAY_LIMITED_API_H
#define CUARRAY_LIMITED_API_H

#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030B0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if Py_LIMITED_API + 0 < 0x030C0000
#undef Py_RETURN_NONE
#undef Py_RETURN_TRUE
#undef Py_RETURN_FALSE
#undef Py_RETURN_NOTIMPLEMENTED
#define Py_RETURN_NONE return Py_NewRef(Py_None)
#define Py_RETURN_TRUE return Py_NewRef(Py_True)
#define Py_RETURN_FALSE return Py_NewRef(Py_False)
#define Py_RETURN_NOTIMPLEMENTED return Py_NewRef(Py_NotImplemented)
#endif


/* An int as a 64-bit value, as PyLong_AsLongLong / PyLong_AsUnsignedLongLong answer (the same
   errors and error value): where `long` has 64 bits, the `long` forms, which read a multi-digit
   int directly; 3.11's `long long` forms go through _PyLong_AsByteArray for one (~180
   instructions an address, several an operation: callgrind, device stubbed). */
#include <limits.h>
#if LONG_MAX == LLONG_MAX
#define AS_I64(o) ((long long)PyLong_AsLong(o))
#define AS_U64(o) ((unsigned long long)PyLong_AsUnsignedLong(o))
#else
#define AS_I64(o) PyLong_AsLongLong(o)
#define AS_U64(o) PyLong_AsUnsignedLongLong(o)
#endif

#endif
