"""SciPy's result object (`scipy._lib._util._RichResult`, the base of `OptimizeResult` and
`OdeResult`): a dict whose keys are also attributes, printed with SciPy's usual fields first.
One class for every `cuarray.scipy` result of that kind; its array entries are cuarray arrays."""

from __future__ import annotations

__all__ = ["RichResult"]

# SciPy's order for the fields it prints first; a result may set its own in `_order_keys`.
ORDER = ("message", "success", "status", "fun", "funl", "x", "xl", "col_ind", "nit", "lower", "upper",
         "eqlin", "ineqlin", "converged", "flag", "function_calls", "iterations", "root")


class RichResult(dict):
    """A dict whose keys are also attributes (``res.x`` is ``res["x"]``)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    __setattr__ = dict.__setitem__
    __delattr__ = dict.__delitem__

    def __dir__(self):
        return list(self.keys())

    def __repr__(self):
        order = self.get("_order_keys", ORDER)
        shown = [k for k in self if not str(k).startswith("_")]
        keys = [k for k in order if k in shown] + [k for k in shown if k not in order]
        if not keys:
            return type(self).__name__ + "()"
        width = max(len(str(k)) for k in keys) + 1
        return "\n".join(str(k).rjust(width) + ": " + repr(self[k]).replace("\n", "\n" + " " * (width + 2))
                         for k in keys)
