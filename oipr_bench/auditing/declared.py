"""A declaration is used or refused: expectations the suite never checks, options that do not apply.

Every front end (``oipr-bench audit``, the pytest plugin, :func:`oipr_bench.audit`) asks these
two questions of one :class:`~oipr_bench.auditing.options.AuditOptions` and turns the answer into a
one-line error (an :class:`~oipr_bench.auditing.option_names.OptionError`, phrased with the
front end's flags):

- :func:`unchecked_expectation`, before anything runs: a declared expectation for a metric
  property when the suite does not run the properties, for a characteristic of Table 5 when it
  does not run Table 5, for a sanity check when the sanity checks are off, for
  ``property-search`` without ``hypothesis_examples``.  Silently ignoring it would let a run pass
  that never looked.
- :func:`inapplicable_declaration`, once the evaluator's kind is known (after its first
  successful call): a scalar's orientation or bounds (``--lower-is-better``, ``--bounds``) given
  for an evaluator that returns precision and recall, a precision/recall reference given for one
  that returns one number, or a score reference (AUC, R-AUC, VUS) for one that returns precision and recall.
- :func:`mismatched_reference`, before anything runs: a score reference for an evaluator that
  takes binary predictions (its declared or default ``input_kind``).
"""

from __future__ import annotations

from typing import Any, Mapping

from .option_names import OptionError
from ..evaluators import NUMBER_NAMES, SCORE_NAMES
from ..vocabulary import CHARACTERISTICS, METRIC_PROPERTIES, PROPERTY_SEARCH, SANITY_CHECKS
from ..vocabulary import SUITE_ALL, SUITE_PROPERTIES, SUITE_TABLE5

__all__ = ["unchecked_expectation", "inapplicable_declaration", "mismatched_reference", "refuse"]


def refuse(problem: OptionError | None) -> None:
    """Raise ``problem`` (from :func:`unchecked_expectation` or :func:`inapplicable_declaration`), if any."""
    if problem is not None:
        raise problem


def unchecked_expectation(expectations: Mapping[str, Any], suite: str, *, sanity: bool,
                          hypothesis_examples: int | None) -> OptionError | None:
    """The error for the first declared expectation that ``suite`` never checks, else None.

    Parameters
    ----------
    expectations : mapping of str to Expectation
        The user's declared expectations (not the evaluator's own ``oipr_profile``).
    suite : {"table5", "properties", "all"}
        The suite in force.
    sanity : bool
        Whether the sanity checks run.
    hypothesis_examples : int or None
        Examples of the ``property-search`` sanity check (None: it does not run).
    """
    for name in expectations:
        if name in METRIC_PROPERTIES and suite == SUITE_TABLE5:
            return OptionError(f"{{expect}} {name}: {name} is a metric property, which the suite {suite} does not "
                               f"run; add {{suite}} {SUITE_PROPERTIES} or {SUITE_ALL}", "expect", "suite")
        if name in CHARACTERISTICS and suite == SUITE_PROPERTIES:
            return OptionError(f"{{expect}} {name}: {name} is a characteristic of Table 5, which the suite {suite} "
                               f"does not run; add {{suite}} {SUITE_TABLE5} or {SUITE_ALL}", "expect", "suite")
        if name in (*SANITY_CHECKS, PROPERTY_SEARCH) and not sanity:
            return OptionError(f"{{expect}} {name}: {name} is a sanity check, and the sanity checks are off; "
                               "drop the declaration or run them", "expect")
        if name == PROPERTY_SEARCH and not hypothesis_examples:
            return OptionError(f"{{expect}} {name}: {name} runs only with {{hypothesis_examples}} N (N > 0)",
                               "expect", "hypothesis_examples")
    return None


def inapplicable_declaration(options: Any, kind: str | None, evaluator: str) -> OptionError | None:
    """The error for a declaration that does not apply to an evaluator of ``kind``, else None.

    ``kind`` is ``"pr"`` (precision and recall) or ``"score"`` (one number), None while unknown
    (no call succeeded: nothing is refused).  ``options`` is the run's
    :class:`~oipr_bench.auditing.options.AuditOptions`.
    """
    if kind == "pr":
        for name, given in (("higher_is_better", options.higher_is_better is not None),
                            ("bounds", options.bounds is not None)):
            if given:
                return OptionError(f"{{{name}}} applies to a one-number score, but {evaluator} returns precision and "
                                   f"recall; drop {{{name}}}", name)
    scores = options.reference in SCORE_NAMES + NUMBER_NAMES  # references returning one number
    if kind == "score" and options.reference is not None and not scores:
        return OptionError(f"{{reference}} {options.reference} returns precision and recall, but {evaluator} returns "
                           "one number: their results cannot be compared; drop {reference}", "reference")
    if kind == "pr" and scores:
        return OptionError(f"{{reference}} {options.reference} returns one number, but {evaluator} returns "
                           "precision and recall: their results cannot be compared; drop {reference}", "reference")
    return None


def mismatched_reference(options: Any, input_kind: str, evaluator: str) -> OptionError | None:
    """The error for a score reference (:data:`~oipr_bench.evaluators.SCORE_NAMES`), or a reduced chance anchor
    (``chance_draws``), given for an evaluator that takes binary predictions (``input_kind``), before anything
    runs; else None."""
    if options.reference in SCORE_NAMES and input_kind != "scores":
        return OptionError(f"{{reference}} {options.reference} takes scores, but {evaluator} takes binary predictions: "
                           "their results cannot be compared; declare {input_kind} scores or drop {reference}",
                           "reference", "input_kind")
    if options.reference in NUMBER_NAMES and input_kind == "scores":
        return OptionError(f"{{reference}} {options.reference} takes 0/1 predictions, but {evaluator} takes scores: "
                           "their results cannot be compared; drop {input_kind} scores or {reference}",
                           "reference", "input_kind")
    if options.chance_draws is not None and input_kind != "scores":  # no chance anchor to reduce
        return OptionError(f"{{chance_draws}} applies to a metric taking scores (its chance anchors); {evaluator} takes "
                           "0/1 predictions", "chance_draws")
    return None
