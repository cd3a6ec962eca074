"""The special-scenario dataset of the OIPR paper (Appendix A, Table A1).

Layer 1 of 9 (see docs/architecture.md): may import the shared top-level modules only (``errors``, ``vocabulary``, ``io``, ``guards``, ``jsondata``, ...); nothing above.
Also holds the 0/1 series primitives (:mod:`.events`), the detectors (:mod:`.detectors`) and users' series files (:mod:`.userdata`).

Nine scenarios, 25 cases, each a ground truth and one or more predictions
built to reveal one evaluator characteristic.  The data live as plain JSON in
the repository's ``scenarios/`` folder (shipped inside the wheel); this
package loads them (:func:`load`, :func:`get`), defines them
(:mod:`.definitions`) and regenerates them (:mod:`.generator`).

Examples
--------
>>> from oipr_bench import scenarios
>>> cases = scenarios.load()
>>> len(cases), cases[0].id
(25, 'overlap_proportion/c1')
>>> scenarios.get("tp_positions/c2").y_pred.nonzero()[0].tolist()
[105]
"""

from __future__ import annotations

from .definitions import (
    CHARACTERISTICS,
    DATASET_VERSION,
    MANIFEST_SCHEMA_ID,
    SCENARIO_CHARACTERISTICS,
    SCENARIO_NAMES,
    SCENARIO_SCHEMA_ID,
    TABLE_A1_VERSION,
)
from .loader import SUPPORTED_VERSIONS, Case, clear_cache, get, load, scenario_names

__all__ = [
    "CHARACTERISTICS",
    "DATASET_VERSION",
    "MANIFEST_SCHEMA_ID",
    "SCENARIO_CHARACTERISTICS",
    "SCENARIO_NAMES",
    "SCENARIO_SCHEMA_ID",
    "TABLE_A1_VERSION",
    "SUPPORTED_VERSIONS",
    "Case",
    "clear_cache",
    "get",
    "load",
    "scenario_names",
]
