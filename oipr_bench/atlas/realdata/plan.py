"""A row's plan on real data: what it runs on, chosen from its cost before any of its results is seen.

Every row runs on all the detectors.  A row whose full run is estimated to cost more than the budget
(``--row-budget``, CPU minutes; 15 by default) runs on a *declared subset* of the series: the series in
:func:`~.inputs.declared_order` (by the SHA-256 of their names), each taken when the estimated cost still
fits the budget (when fewer than :data:`MIN_SERIES` fit, the :data:`MIN_SERIES` shortest series).  The estimate is a cost probe: the CPU time of one
call of the row on :data:`PROBE_SERIES` (its NAB threshold / raw scores of detector
:data:`PROBE_DETECTOR`; the value is discarded), scaled by length: a series of ``n`` rows costs
``probe * n / n_probe`` per detector.  The rule, the probe and the estimate are stated in the row's file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .inputs import RealInputs, declared_order

__all__ = ["DEFAULT_BUDGET_MINUTES", "MIN_SERIES", "PROBE_SERIES", "PROBE_DETECTOR", "Plan", "plan_row", "row_key", "SUBSET_RULE"]

#: CPU minutes a row may cost before it runs on a declared subset.
DEFAULT_BUDGET_MINUTES = 15.0
#: Fewest series of a declared subset (a ranking over one or two series has no interval worth the name).
MIN_SERIES = 3
#: The probe: one call on this series with this detector's output (a real series of median-to-long length; its rows after probation set the scale).
PROBE_SERIES = "realKnownCause/ambient_temperature_system_failure.csv"
PROBE_DETECTOR = "numenta"

SUBSET_RULE = ("all detectors; the series in the order of the SHA-256 of their names, each taken when the estimated "
               "CPU time (cost probe x length ratio x detectors) still fits the row's budget; when fewer than "
               f"{MIN_SERIES} fit, the {MIN_SERIES} shortest series; chosen from the probe before any result")


@dataclass(frozen=True)
class Plan:
    """What a row runs on.

    Attributes
    ----------
    series : tuple of str
        The series, in NAB's order.
    full : bool
        All kept series (no subset).
    estimated_full_cpu_seconds, estimated_cpu_seconds : float or None
        The probe's estimate of the full run and of the planned one (None: no probe, the row is fast or unavailable).
    probe : dict
        The probe's figures (``cpu_seconds``, ``wall_seconds``, ``series``, ``detector``, ``rows``).
    budget_minutes : float
    """

    series: tuple[str, ...]
    full: bool
    estimated_full_cpu_seconds: float | None
    estimated_cpu_seconds: float | None
    probe: Mapping[str, Any]
    budget_minutes: float

    def to_dict(self) -> dict[str, Any]:
        return {"series": list(self.series), "full": self.full, "rule": SUBSET_RULE,
                "budget_cpu_minutes": self.budget_minutes, "probe": dict(self.probe),
                "estimated_full_cpu_seconds": self.estimated_full_cpu_seconds,
                "estimated_cpu_seconds": self.estimated_cpu_seconds}


def probe_series(inputs: RealInputs) -> str:
    """The probe's series: :data:`PROBE_SERIES` when kept, else the longest kept series."""
    names = {s.name for s in inputs.series}
    return PROBE_SERIES if PROBE_SERIES in names else max(inputs.series, key=lambda s: (s.length, s.name)).name


def probe_detector(inputs: RealInputs) -> str:
    return PROBE_DETECTOR if PROBE_DETECTOR in inputs.detectors else inputs.detectors[0]


def plan_row(inputs: RealInputs, probe: Mapping[str, Any], budget_minutes: float) -> Plan:
    """The row's series from its probe (``{"cpu_seconds": t, ...}``) and the budget."""
    lengths = {s.name: s.length for s in inputs.series}
    cpu = probe.get("cpu_seconds")
    probe_rows = lengths[probe_series(inputs)]
    figures = {**probe, "series": probe_series(inputs), "detector": probe_detector(inputs), "rows": probe_rows}
    all_names = tuple(s.name for s in inputs.series)
    if cpu is None:
        return Plan(all_names, True, None, None, figures, budget_minutes)
    per_row = max(float(cpu), 1e-6) / probe_rows * len(inputs.detectors)
    full = per_row * sum(lengths.values())
    budget = budget_minutes * 60.0
    if full <= budget:
        return Plan(all_names, True, full, full, figures, budget_minutes)
    chosen, spent = [], 0.0
    for name in declared_order(all_names):
        cost = per_row * lengths[name]
        if spent + cost <= budget:
            chosen.append(name)
            spent += cost
    if len(chosen) < MIN_SERIES:  # too costly for the budget even on a few series: the shortest ones
        chosen = sorted(all_names, key=lambda n: (lengths[n], n))[:MIN_SERIES]
        spent = per_row * sum(lengths[n] for n in chosen)
    keep = set(chosen)
    return Plan(tuple(n for n in all_names if n in keep), False, full, spent, figures, budget_minutes)


def _canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def row_key(row_fields: Mapping[str, Any], inputs_digest: str, detectors: Sequence[str], protocol: Mapping[str, Any],
            budget_minutes: float) -> str:
    """The key of a row's real-data file: its profile fields, the data, the detectors, the protocol and the budget.

    A committed row file with this key is the row's result: a run skips it (the durable cache).
    """
    fields = {"kind": "realdata-row", "row": {k: v for k, v in row_fields.items() if k not in ("order", "inputs_sha256", "kind")},
              "inputs": inputs_digest, "detectors": list(detectors), "protocol": dict(protocol), "budget_cpu_minutes": budget_minutes}
    return hashlib.sha256(_canonical(fields)).hexdigest()
