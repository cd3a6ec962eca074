"""What an evaluator declares about itself: input kind, orientation, range.

Three declarations tell an audit how to call an evaluator and how to read a
scalar result (issue "scalar" semantics; :mod:`oipr_bench.auditing.table5.readings`):

- ``input_kind``: ``"binary"`` (0/1 predictions, the default) or ``"scores"``
  (``y_pred`` arrives as float64 anomaly scores; on the special scenarios the
  scores are the 0/1 prediction as 0.0/1.0);
- ``higher_is_better`` (default True): the orientation of a scalar score;
- ``bounds`` (default ``(0, 1)``): the range of a scalar score, either end
  ``None`` (or +-inf) for open.

Each is taken, in increasing priority, from the default, an attribute of the
evaluator (the callable, or the object/class it comes from), and an explicit
argument (``audit()`` keyword, plugin or CLI option).  P/R results are always
read as higher-is-better in [0, 1]; the declarations then only record intent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...errors import UsageError
from ...guards import safe_repr
from .coerce import normalise_bounds
from .runner import INPUT_KINDS

__all__ = ["Declarations", "declarations_of", "parse_bounds", "bounds_text", "DEFAULT_BOUNDS"]

#: The default range of a score: F1's.
DEFAULT_BOUNDS: tuple[float, float] = (0.0, 1.0)


@dataclass(frozen=True)
class Declarations:
    """An evaluator's declarations, validated.

    Attributes
    ----------
    input_kind : {"binary", "scores"}
    higher_is_better : bool
    bounds : (float, float)
        An open end is ``-inf`` / ``inf``.
    """

    input_kind: str = "binary"
    higher_is_better: bool = True
    bounds: tuple[float, float] = DEFAULT_BOUNDS

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: open bounds as ``None``."""
        return {
            "input": self.input_kind,
            "higher_is_better": self.higher_is_better,
            "bounds": [None if math.isinf(b) else b for b in self.bounds],
        }

    @classmethod
    def from_dict(cls, d: Any) -> "Declarations":
        """Inverse of :meth:`to_dict` (missing keys take the defaults)."""
        return cls(str(d.get("input", "binary")), bool(d.get("higher_is_better", True)),
                   normalise_bounds(tuple(d.get("bounds", DEFAULT_BOUNDS))))


def bounds_text(bounds: tuple[float, float]) -> str:
    """``"0:1"``, ``"0:"`` (open top), ``":"`` (both open): the option syntax."""
    return ":".join("" if math.isinf(b) else f"{b:g}" for b in bounds)


def parse_bounds(text: str, *, where: str = "--oipr-bounds") -> tuple[float, float]:
    """Parse ``LO:HI`` (an empty end is open) into a validated pair.

    Raises
    ------
    UsageError
        Not ``LO:HI``, not numbers, or ``LO >= HI``; the message names ``where``.
    """
    lo, sep, hi = str(text).partition(":")
    if not sep:
        raise UsageError(f"{where}: expected LO:HI (an empty end is open, e.g. 0: or 0:1), got {text!r}")
    pair = []
    for part in (lo, hi):
        part = part.strip()
        if not part:
            pair.append(None)
            continue
        try:
            pair.append(float(part))
        except ValueError:
            raise UsageError(f"{where}: {part!r} is not a number (expected LO:HI, e.g. 0:1)") from None
    try:
        return normalise_bounds(tuple(pair))
    except ValueError as exc:
        raise UsageError(f"{where}: {exc}") from None


def _attribute(resolved: Any, name: str) -> tuple[Any, str] | None:
    """The evaluator attribute ``name`` and where it was found, or None."""
    from .isolation import guarded

    missing = object()
    display = str(getattr(resolved, "name", "") or "?")
    for obj in (getattr(resolved, "fn", None), getattr(resolved, "obj", None)):
        if obj is None:
            continue
        value = guarded(display, f"reading its {name!r} attribute failed", getattr, obj, name, missing)
        if value is not missing:
            return value, f"evaluator {display}: the evaluator's {name} attribute"
    return None


def _input_kind(value: Any, where: str) -> str:
    if not isinstance(value, str) or value not in INPUT_KINDS:
        raise UsageError(f"{where}: input kind must be one of {', '.join(INPUT_KINDS)}, got {safe_repr(value)}")
    return value


def _orientation(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise UsageError(f"{where}: higher_is_better must be True or False, got {safe_repr(value)}")
    return value


def _bounds(value: Any, where: str) -> tuple[float, float]:
    if isinstance(value, str):
        return parse_bounds(value, where=where)
    try:
        return normalise_bounds(value)
    except ValueError as exc:
        raise UsageError(f"{where}: {exc}") from None


def declarations_of(
    resolved: Any,
    *,
    input_kind: str | None = None,
    higher_is_better: bool | None = None,
    bounds: Any = None,
    source: str = "audit()",
) -> Declarations:
    """Combine the evaluator's attributes with explicit declarations (explicit wins).

    Parameters
    ----------
    resolved : oipr_bench.auditing.calling.resolve.Resolved
        The evaluator; its ``fn`` and ``obj`` are searched for the attributes
        ``input_kind``, ``higher_is_better`` and ``bounds``.
    input_kind, higher_is_better, bounds : optional
        Explicit declarations (None: not given).  ``bounds`` may be a pair or
        ``"LO:HI"`` text.
    source : str
        How explicit declarations are named in messages (``audit()``, ``--oipr-bounds``...).

    Raises
    ------
    UsageError
        A declaration is invalid; the message names where it came from.
    """
    values: dict[str, Any] = {}
    checks = (("input_kind", input_kind, _input_kind), ("higher_is_better", higher_is_better, _orientation),
              ("bounds", bounds, _bounds))
    for name, given, check in checks:
        if given is not None:
            values[name] = check(given, f"{source} {name}")
            continue
        found = _attribute(resolved, name)
        if found is not None:  # the value is the user's object: checking it runs its code (len, float, repr)
            from .isolation import guarded

            values[name] = guarded(str(getattr(resolved, "name", "") or "?"), f"checking its {name!r} attribute failed",
                                   check, found[0], found[1])
    return Declarations(**values)
