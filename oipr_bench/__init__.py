"""oipr-bench: conformance suite and special-scenario dataset for TAD evaluators.

Main entry points
-----------------
- :func:`oipr_bench.scenarios.load` -- the 25 cases of the paper's Table A1.
- :func:`oipr_bench.evaluators.get` -- the seven reference evaluators.
- :func:`oipr_bench.audit` -- the characteristic profile of any evaluator.
- ``pytest --evaluator=pkg.mod:Name`` -- the same audit as a pytest run.
"""

from __future__ import annotations

from typing import Any

from ._version import __version__
from .errors import FixtureError, OiprBenchError, UsageError

__all__ = ["__version__", "FixtureError", "OiprBenchError", "UsageError", "audit"]



def audit(evaluator: Any, **params: Any) -> Any:
    """Profile ``evaluator`` on the special-scenario dataset.

    Thin wrapper around :func:`oipr_bench.auditing.profile.profiles.audit` (imported lazily so
    that ``import oipr_bench`` stays cheap); see there for the parameters.
    """
    from .auditing.profile.profiles import audit as _audit

    return _audit(evaluator, **params)
