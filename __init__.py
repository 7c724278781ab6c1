"""Not the package: the checkout's top folder. The package is the folder `cuarray/` inside it.

`git clone` names this folder `cuarray`, so a script started in the folder that holds the clone
imports this folder as `cuarray`. Without this file Python would take it as an empty namespace
package, and the user's first call would fail with "module 'cuarray' has no attribute 'asarray'".
This file makes that import fail at once and say why (NumPy does the same for an import from its
source tree). Imports from inside the checkout or from anywhere else find the real package.

pytest imports this file too (a folder with an __init__.py is a package to it), under the
checkout folder's name, and from inside the checkout `cuarray` is the real package: so only an
import that found this file as `cuarray` raises.
"""

import os as _os

if __name__ == "cuarray":
    raise ImportError(
        "`import cuarray` found the folder of cuarray's checkout ({0}), not the package inside it: "
        "Python looks in the current folder first, and this one holds the clone. Run from inside the "
        "checkout, or from any other folder after `pip install -e {0}` (README, 'Install').".format(
            _os.path.dirname(_os.path.abspath(__file__)))
    )
