"""Old module paths of oipr-bench 0.2, kept for one release with a DeprecationWarning.

In 0.3 the flat modules moved into layered subpackages (docs/architecture.md). This folder is
appended to ``oipr_bench.__path__`` *after* the package's own folder, so ``import oipr_bench.runner``
finds ``_legacy/runner.py``, which replaces itself in ``sys.modules`` with the module's new home
(``oipr_bench.auditing.runner``): attributes, monkeypatching and ``isinstance`` checks all act on the
one real module. Nothing inside oipr-bench imports these paths.
"""

from __future__ import annotations

import importlib
import sys
import warnings


def alias(old: str, new: str) -> None:
    """Make the module being imported as ``old`` the module ``new``, with a DeprecationWarning."""
    warnings.warn(
        f"{old} is deprecated since oipr-bench 0.3 and will be removed in 0.4; import {new} instead",
        DeprecationWarning,
        stacklevel=3,
    )
    sys.modules[old] = importlib.import_module(new)
