"""The result of one metric property as plain data: :class:`PropertyFinding` and :class:`PropertyResult`.

A property's rule (:mod:`oipr_bench.auditing.properties.rules`) returns a
:class:`PropertyFinding`: the observed value, the numbers it compared, one
line of explanation and, where the property is a curve over the family's
parameter, the curve itself.  A :class:`PropertyResult` adds the expectation
(none by default: a property is reported, not judged) and the status.  Both
round-trip through the JSON report (``properties`` in
``schema/report.schema.json``, layout version 3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..expectations import Expectation
from ...vocabulary import FAILED, UNDETERMINED

__all__ = ["Curve", "PropertyFinding", "PropertyResult"]


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def _unnum(x: Any) -> float:
    return math.nan if x is None else float(x)


@dataclass(frozen=True)
class Curve:
    """The oriented score of each case of a family, over the family's parameter.

    Attributes
    ----------
    x_label : str
        What the parameter is (``"lag (points; negative = early)"``).
    x : tuple of float or str
        The parameter of each case (a number, or a role such as ``"forward"``).
    y : tuple of float
        The score on the metric's anchored scale, or its raw value (NaN stored as null).
    cases : tuple of str
        The case ids, in the same order.
    y_label : str
        What ``y`` is: the score on the anchored scale, or the raw value.
    """

    x_label: str
    x: tuple[Any, ...]
    y: tuple[float, ...]
    cases: tuple[str, ...]
    y_label: str = "score"

    def to_dict(self) -> dict[str, Any]:
        return {"x_label": self.x_label, "x": list(self.x), "y": [_num(v) for v in self.y], "cases": list(self.cases),
                "y_label": self.y_label}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Curve":
        return cls(str(d["x_label"]), tuple(d["x"]), tuple(_unnum(v) for v in d["y"]), tuple(d["cases"]),
                   str(d.get("y_label", "score")))


@dataclass(frozen=True)
class PropertyFinding:
    """The observed value of one property and the evidence behind it.

    Attributes
    ----------
    name : str
        The property (one of :data:`oipr_bench.vocabulary.METRIC_PROPERTIES`).
    value : str
        The observed value (one of :data:`oipr_bench.vocabulary.PROPERTY_VALUES` ``[name]``).
    numbers : dict of str to float
        The numbers the rule compared.
    explanation : str
        One line saying why the value is what it is.
    curve : Curve or None
        The scores over the family's parameter.
    """

    name: str
    value: str
    numbers: dict[str, float]
    explanation: str
    curve: Curve | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "numbers": {k: _num(v) for k, v in self.numbers.items()},
                "explanation": self.explanation, "curve": None if self.curve is None else self.curve.to_dict()}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "PropertyFinding":
        curve = None if d.get("curve") is None else Curve.from_dict(d["curve"])
        return cls(str(d["name"]), str(d["value"]), {k: _unnum(v) for k, v in d["numbers"].items()},
                   str(d["explanation"]), curve)


@dataclass(frozen=True)
class PropertyResult:
    """Observed value, expectation (None: reported only) and evidence of one property."""

    name: str
    input: str
    observed: str | None
    status: str
    expectation: Expectation | None = None
    finding: PropertyFinding | None = None
    message: str = ""
    source: str = field(default="", compare=False)

    @property
    def counts_as_failure(self) -> bool:
        """True when the run fails on it: a declared expectation not met, or one that could not be checked."""
        return self.status == FAILED or (self.status == UNDETERMINED and self.expectation is not None)

    def to_dict(self) -> dict[str, Any]:
        e = self.expectation
        return {
            "name": self.name,
            "input": self.input,
            "source": self.source,
            "observed": self.observed,
            "expected": None if e is None else list(e.values),
            "expectation_source": None if e is None else e.source,
            "expectation_reason": "" if e is None else e.reason,
            "status": self.status,
            "message": self.message,
            "evidence": None if self.finding is None else self.finding.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "PropertyResult":
        e = None if d.get("expected") is None else Expectation(
            d["name"], tuple(d["expected"]), d.get("expectation_source") or "--expect", d.get("expectation_reason", ""))
        f = None if d.get("evidence") is None else PropertyFinding.from_dict(d["evidence"])
        return cls(d["name"], d["input"], d.get("observed"), d["status"], e, f, d.get("message", ""),
                   d.get("source", ""))
