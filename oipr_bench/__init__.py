"""oipr-bench: conformance suite and special-scenario dataset for TAD evaluators.

Main entry points
-----------------
- :func:`oipr_bench.scenarios.load` -- the 25 cases of the paper's Table A1.
- :func:`oipr_bench.evaluators.get` -- the seven reference evaluators.
- :func:`oipr_bench.audit` -- the characteristic profile of any evaluator.
- ``pytest --evaluator=pkg.mod:Name`` -- the same audit as a pytest run.
"""

from __future__ import annotations

import os
from typing import Any

from ._version import __version__
from .errors import FixtureError, OiprBenchError, UsageError

__all__ = ["__version__", "FixtureError", "OiprBenchError", "UsageError", "audit"]

# The flat module paths of 0.2 (``oipr_bench.auditing.runner``, ``oipr_bench.pytest_plugin.plugin``, ...) resolve through
# ``_legacy/`` for one release, with a DeprecationWarning (see oipr_bench/_legacy/__init__.py).
__path__.append(os.path.join(os.path.dirname(__file__), "_legacy"))


def audit(evaluator: Any, **params: Any) -> Any:
    """Profile ``evaluator`` on the special-scenario dataset.

    Thin wrapper around :func:`oipr_bench.auditing.profiles.audit` (imported lazily so
    that ``import oipr_bench`` stays cheap); see there for the parameters.
    """
    from .auditing.profiles import audit as _audit

    return _audit(evaluator, **params)
