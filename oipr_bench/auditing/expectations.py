"""Expected characteristic values: declaring them and judging observations.

The default expectation of every characteristic is OIPR's row of the paper's
Table 5 (:data:`oipr_bench.auditing.table5.characteristics.DEFAULT_EXPECTED`).  Users declare
deviations with ``--expect name=value``, an expectation file (TOML or JSON), or
an ``oipr_profile`` attribute on the evaluator; :func:`judge` turns an
observed value and its expectation into a status.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Mapping

from .table5 import characteristics as ch
from ..errors import UsageError
from ..guards import clip, printable
from .option_names import OptionError

__all__ = [
    "Expectation",
    "declared_expectations",
    "expectations_from",
    "load_expect_file",
    "merge_expectations",
    "reference_row",
    "REFERENCE_SOURCE",
    "judge",
    "PASSED",
    "DEVIATION",
    "UNEXPECTED_PASS",
    "FAILED",
    "UNDETERMINED",
    "NOT_RUN",
    "NOT_APPLICABLE",
    "SANITY_NAMES",
    "SANITY_VALUES",
    "SANITY_OK",
    "judge_sanity",
]

# Statuses of a characteristic (defined in :mod:`oipr_bench.vocabulary`).
from ..vocabulary import DEVIATION, FAILED, NOT_APPLICABLE, NOT_RUN, PASSED, UNDETERMINED, UNEXPECTED_PASS  # noqa: E402
from ..vocabulary import METRIC_PROPERTIES, PROPERTY_VALUES  # noqa: E402
from ..vocabulary import NO, PROPERTY_SEARCH, REPORTED, SANITY_CHECKS, YES  # noqa: E402

#: Sanity checks can be declared too: ``yes`` (the default) the check passes, ``no`` it fails as expected
#: (``--expect discriminates=no`` for an event-wise metric that cannot tell all-ones from perfect).
SANITY_NAMES: tuple[str, ...] = SANITY_CHECKS + (PROPERTY_SEARCH,)
SANITY_VALUES: tuple[str, ...] = (YES, NO)
SANITY_DEFAULT: tuple[str, ...] = (YES,)
#: Sanity statuses that are not a problem: passed, or a declared failure (and its unexpected pass).
SANITY_OK: tuple[str, ...] = (PASSED, DEVIATION, UNEXPECTED_PASS)



@dataclass(frozen=True)
class Expectation:
    """What a characteristic is expected to be.

    Attributes
    ----------
    name : str
        Characteristic name, or a sanity check's (:data:`SANITY_NAMES`; values ``yes``/``no``).
    values : tuple of str
        Accepted observed values.
    source : str
        Where the expectation comes from: ``"default"`` (OIPR's row of Table 5),
        ``"--expect"``, an expectation file, or ``"oipr_profile"``.
    reason : str
        Optional free text given with the declaration.
    baseline : tuple of str or None
        The default this expectation departs from, when it is not OIPR's: the reference's own row
        under ``--reference`` (:func:`reference_row`).
    """

    name: str
    values: tuple[str, ...]
    source: str = "default"
    reason: str = ""
    baseline: tuple[str, ...] | None = None

    @property
    def default(self) -> tuple[str, ...]:
        """The default expectation: the reference's own value under ``--reference`` (``baseline``), else
        OIPR's value(s); ``yes`` for a sanity check (it passes); none for a metric property (reported,
        not judged)."""
        if self.baseline is not None:
            return self.baseline
        return ch.DEFAULT_EXPECTED.get(self.name, SANITY_DEFAULT if self.name in SANITY_NAMES else ())

    @property
    def deviation(self) -> bool:
        """True when the declaration shares no value with a default: a declared deviation (characteristics only)."""
        return bool(self.default) and not set(self.values) & set(self.default)

    def differs(self) -> str:
        """What a ``failed`` verdict against this expectation means: ``"differs from OIPR's row"`` (the
        default), ``"differs from PA's row"`` (``--reference PA``), ``"differs from the declared value"``."""
        if self.source == "default":
            return "differs from OIPR's row"
        if self.source.startswith(REFERENCE_SOURCE):
            return f"differs from {self.source[len(REFERENCE_SOURCE):].strip()}'s row"
        return "differs from the declared value"

    def describe(self) -> str:
        """``"no (declared by --expect)"``-style text."""
        vals = " or ".join(self.values)
        if self.source.startswith(REFERENCE_SOURCE):
            return f"{vals} (the row of {self.source})"
        why = f": {self.reason}" if self.reason else ""
        return f"{vals} (declared by {self.source}{why})" if self.source != "default" else vals


def _parse_values(name: str, value: Any, source: str) -> tuple[str, ...]:
    allowed = ch.VALUES.get(name) or PROPERTY_VALUES.get(name) or (SANITY_VALUES if name in SANITY_NAMES else None)
    if allowed is None:
        raise UsageError(
            f"{source}: unknown characteristic {name!r}; known: {', '.join(ch.CHARACTERISTICS)} "
            f"(metric properties: {', '.join(METRIC_PROPERTIES)}; sanity checks, yes or no: {', '.join(SANITY_NAMES)})"
        )
    raw = value if isinstance(value, (list, tuple)) else [value]
    if not raw:
        raise UsageError(f"{source}: no value given for {name}")
    out = []
    for item in raw:
        if not isinstance(item, str):
            raise UsageError(f"{source}: {name} must be one of {', '.join(allowed)}, got {item!r}")
        v = ch.normalise_value(item) if name not in SANITY_NAMES else str(item).strip().lower()
        if v not in allowed:
            raise UsageError(f"{source}: {name}={item!r} is not a value of {name}; use one of {', '.join(allowed)}")
        if v not in out:
            out.append(v)
    return tuple(out)


def expectations_from(declared: Mapping[str, Any] | Iterable[str] | None, source: str) -> dict[str, Expectation]:
    """Validate declared expectations.

    Parameters
    ----------
    declared : mapping or iterable of str
        ``{name: value or [values]}``, or ``"name=value"`` strings (``--expect``;
        several values separated by ``|`` or ``,``).
    source : str
        Where the declaration comes from (used in messages and reports).

    Raises
    ------
    UsageError
        Unknown characteristic name or value, a malformed item, or a characteristic declared twice
        (in any spelling: ``fragments_merging`` and ``FRAGMENTS_MERGING`` are one name).
    """
    if declared is None:
        return {}
    if isinstance(declared, Mapping):
        items = list(declared.items())
    else:
        items = []
        for item in declared:
            name, sep, value = str(item).partition("=")
            if not sep or not name.strip() or not value.strip():
                raise UsageError(f"{source} {item!r}: expected characteristic=value")
            values = [v for v in value.replace("|", ",").split(",") if v.strip()]
            items.append((name.strip(), values))
    out: dict[str, Expectation] = {}
    for given, value in items:
        name = ch.normalise_value(given)
        if name.replace("_", "-") == PROPERTY_SEARCH:
            name = PROPERTY_SEARCH
        if name in out:
            raise UsageError(f"{source}: {clip(printable(str(given)), 80)} is declared twice (characteristic names "
                             "ignore case); declare each characteristic once")
        reason = ""
        if isinstance(value, Mapping):  # {value = "...", reason = "..."} in a file
            reason = str(value.get("reason", ""))
            value = value.get("value", value.get("values"))
        out[name] = Expectation(name, _parse_values(name, value, source), source, reason)
    return out


def load_expect_file(path: str | Path) -> dict[str, Expectation]:
    """Read declared expectations from a TOML or JSON file.

    The file holds ``name = "value"`` pairs (or lists of values, or tables
    ``{value = "...", reason = "..."}``), at top level or under a table named
    ``oipr_profile`` or ``expect``.  TOML is read with :mod:`tomllib` (Python
    3.11+) or ``tomli``; a ``.json`` file as strict JSON (a duplicate key is
    an error).  Only a regular file of at most 1 MiB and 64 levels of nesting
    is read (:mod:`oipr_bench.guards`).

    Raises
    ------
    UsageError
        Missing, non-regular, oversized or unreadable file, bad syntax,
        duplicate keys, unknown names or values.
    """
    from ..guards import MAX_EXPECT_BYTES, UnreadableFile, loads_json, loads_toml, read_regular_bytes

    p = Path(path)
    try:
        raw = read_regular_bytes(p, MAX_EXPECT_BYTES, what="the expectation file")
    except UnreadableFile as exc:
        raise UsageError(f"--expect-file {str(p)!r}: cannot read: {exc}") from None
    try:
        text = raw.decode("utf-8")
        data = loads_json(text) if p.suffix.lower() == ".json" else loads_toml(text)
    except UnicodeDecodeError as exc:
        raise UsageError(f"--expect-file {str(p)!r}: not UTF-8 text ({exc.reason})") from None
    except ValueError as exc:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        raise UsageError(f"--expect-file {str(p)!r}: cannot parse: {exc}") from None
    if not isinstance(data, Mapping):
        raise UsageError(f"--expect-file {str(p)!r}: expected a table of characteristic = value")
    for key in ("oipr_profile", "expect"):
        if isinstance(data.get(key), Mapping):
            data = data[key]
            break
    return expectations_from(data, str(p))


def merge_expectations(*layers: Mapping[str, Expectation],
                       base: Mapping[str, Expectation] | None = None) -> dict[str, Expectation]:
    """Default expectations overridden by each layer in turn (later wins).

    ``base`` (the reference's own row, :func:`reference_row`) replaces OIPR's row first; a layer's
    declaration of a characteristic in ``base`` is then judged as a departure from the reference's
    value (a declared property is judged plainly, as without a reference).
    """
    out = {name: Expectation(name, ch.DEFAULT_EXPECTED[name]) for name in ch.CHARACTERISTICS}
    base = dict(base or {})
    out.update(base)
    for layer in layers:
        out.update({n: replace(e, baseline=base[n].values) if n in base and n in ch.CHARACTERISTICS else e for n, e in layer.items()})
    return out


#: The source of an expectation taken from the reference's own profile (``"--reference PA"``).
REFERENCE_SOURCE = "--reference"


def reference_row(label: str, observed: Mapping[str, str | None]) -> dict[str, Expectation]:
    """The expectations of ``--reference``: each characteristic and property as the reference reads it.

    ``observed`` maps a characteristic or property name to the reference's own value (its audit, with
    its parameters).  An undetermined value (None) sets nothing (OIPR's row, or no expectation, stays);
    neither does a property the reference cannot read (``not_applicable``: not judged, as without
    ``--reference``).  The expectations are their own default, so they pass or fail, never deviate.
    """
    out: dict[str, Expectation] = {}
    for name, value in observed.items():
        if value is None or (value == NOT_APPLICABLE and name in METRIC_PROPERTIES):
            continue
        out[name] = Expectation(name, (value,), f"{REFERENCE_SOURCE} {label}", baseline=(value,))
    return out


def judge(observed: str | None, expectation: Expectation, *, profile_only: bool = False) -> str:
    """Status of an observed value against its expectation (``profile_only``: ``reported``, never judged).

    Without a declared deviation: ``passed`` when the value is expected, else
    ``failed``.  ``not_applicable`` observed gives the status ``not_applicable``
    under the default expectation and ``failed`` under a declared one that
    does not list it.  With one (the declared values share none with the default):
    the declared value gives ``deviation`` (pytest: xfail), the default value
    ``unexpected_pass`` (pytest: XPASS), anything else ``failed``.
    """
    if observed is None:
        return UNDETERMINED
    if profile_only:  # no expected row: the observed value is the result
        return NOT_APPLICABLE if observed == NOT_APPLICABLE else REPORTED
    if observed == NOT_APPLICABLE and observed not in expectation.values:
        # The rule needs a quantity the evaluator does not give: a status of its own, a failure
        # only when a declared expectation asks for a value.
        return NOT_APPLICABLE if expectation.source == "default" else FAILED
    if expectation.deviation:
        if observed in expectation.values:
            return DEVIATION
        return UNEXPECTED_PASS if observed in expectation.default else FAILED
    return PASSED if observed in expectation.values else FAILED


def judge_sanity(passed: bool, expectation: Expectation | None) -> str:
    """Status of a sanity check that ``passed`` (or failed) against a declaration (``None``: not declared).

    Declared ``no``: a failure is the declared ``deviation`` (pytest: xfail), a pass an
    ``unexpected_pass``; otherwise ``passed`` or ``failed``.
    """
    if expectation is None or not expectation.deviation:
        return PASSED if passed else FAILED
    return UNEXPECTED_PASS if passed else DEVIATION


def declared_expectations(expect: Mapping[str, Any] | Iterable[str] | str | None, source: str) -> dict[str, Expectation]:
    """Validate ``audit(expect=...)``: a mapping, ``NAME=VALUE`` strings, or one such string.

    A bare string is one ``NAME=VALUE`` item (never read character by character).
    """
    if expect is None:
        return {}
    if isinstance(expect, str):
        expect = [expect]
    elif not isinstance(expect, (Mapping, list, tuple, set, frozenset)):
        raise OptionError(
            f"{{expect}} must be a mapping of characteristic to value or a list of NAME=VALUE strings, "
            f"got {type(expect).__name__}",
            "expect",
        )
    return expectations_from(expect, source)
