"""The seven reference evaluators compared in the OIPR paper.

Layer 2 of 9 (see docs/architecture.md): may import the shared top-level modules and ``scenarios``; nothing above.
Also holds the score type (:mod:`.score`) and input checks (:mod:`.inputs`). Its rooms, lowest first:
:mod:`.kernels` (the block-streamed NumPy kernels), this level (the public evaluators), :mod:`.scores`
(the score evaluators), :mod:`.oracles`
(the literal loop-by-loop transcriptions); a room imports only the rooms below it.

Use :func:`get` to build one by its paper name and :func:`names` to list them::

    >>> from oipr_bench import evaluators
    >>> oipr = evaluators.get("OIPR", l_dis=5, l_obs=20, b_dur=0.5)
    >>> oipr([0, 1, 1, 0], [0, 1, 0, 0])        # doctest: +SKIP
    Score(precision=..., recall=..., f1=...)

Each evaluator is a small class: ``__init__`` takes its parameters (the paper's
Table 3 setting by default), ``__call__(y_true, y_pred)`` returns a
:class:`Score`, and ``.params`` holds the parameters in force.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ._base import Score, f1_from, make_score

__all__ = ["Score", "EvaluatorInfo", "get", "names", "info", "f1_from", "make_score", "NAMES", "SCORE_NAMES",
           "NUMBER_NAMES"]


@dataclass(frozen=True)
class EvaluatorInfo:
    """What the registry knows about one built-in evaluator.

    Attributes
    ----------
    name : str
        The paper's name ("PW", "PA", "PA%K", "RP/RR", "TaPR", "AM", "OIPR").
    module, class_name : str
        Where the implementation lives inside :mod:`oipr_bench.evaluators`.
    n_custom_params : int
        Number of custom parameters/functions, as counted by the paper's Table 5.
    description : str
        One line naming the source paper.
    """

    name: str
    module: str
    class_name: str
    n_custom_params: int
    description: str

    def load(self) -> type:
        """Import and return the implementing class."""
        mod = importlib.import_module(f"oipr_bench.evaluators.{self.module}")
        return getattr(mod, self.class_name)

    @property
    def default_params(self) -> dict[str, Any]:
        """The parameters of a default-constructed instance (Table 3 setting)."""
        return dict(self.load()().params)


_REGISTRY: tuple[EvaluatorInfo, ...] = (
    EvaluatorInfo("PW", "pointwise", "PointWise", 0, "point-wise precision/recall"),
    EvaluatorInfo("PA", "pointwise", "PointAdjust", 0, "point adjustment (Xu et al., WWW 2018)"),
    EvaluatorInfo("PA%K", "pointwise", "PointAdjustK", 1, "PA%K (Kim et al., AAAI 2022)"),
    EvaluatorInfo("RP/RR", "range_based", "RangeBased", 4, "range-based precision/recall (Tatbul et al., NeurIPS 2018)"),
    EvaluatorInfo("TaPR", "tapr", "TaPR", 4, "time-series aware precision/recall (Hwang et al., CIKM 2019)"),
    EvaluatorInfo("AM", "affiliation", "Affiliation", 0, "affiliation metrics (Huet et al., KDD 2022)"),
    EvaluatorInfo("OIPR", "oipr", "OIPR", 3, "operator-interest precision/recall (Jing et al., this paper)"),
)

NAMES: tuple[str, ...] = tuple(i.name for i in _REGISTRY)

#: The score evaluators (``input_kind = "scores"``, one float per call); :func:`get` and
#: :func:`info` know them, :data:`NAMES` and :func:`names` stay the paper's seven.
_SCORE_REGISTRY: tuple[EvaluatorInfo, ...] = (
    EvaluatorInfo("AUC-ROC", "scores.auc", "AucRoc", 0, "area under the ROC curve (scikit-learn roc_auc_score)"),
    EvaluatorInfo("AUC-PR", "scores.auc", "AucPr", 1, "area under the PR curve (average precision or trapezoid)"),
    EvaluatorInfo("R-AUC-ROC", "scores.range_auc", "RangeAucRoc", 3, "range-AUC of ROC (Paparrizos et al., VLDB 2022)"),
    EvaluatorInfo("R-AUC-PR", "scores.range_auc", "RangeAucPr", 3, "range-AUC of PR (Paparrizos et al., VLDB 2022)"),
    EvaluatorInfo("VUS-ROC", "scores.vus", "VusRoc", 3, "volume under the ROC surface (Paparrizos et al., VLDB 2022)"),
    EvaluatorInfo("VUS-PR", "scores.vus", "VusPr", 3, "volume under the PR surface (Paparrizos et al., VLDB 2022)"),
)
SCORE_NAMES: tuple[str, ...] = tuple(i.name for i in _SCORE_REGISTRY)

#: Evaluators of 0/1 predictions that return one number instead of P/R/F1: the NAB score
#: (:class:`oipr_bench.evaluators.nab.NAB`); :func:`get` and :func:`info` know them.
_NUMBER_REGISTRY: tuple[EvaluatorInfo, ...] = (
    EvaluatorInfo("NAB", "nab", "NAB", 2, "the NAB score (Lavin & Ahmad, ICMLA 2015; numenta/NAB's scorer)"),
)
NUMBER_NAMES: tuple[str, ...] = tuple(i.name for i in _NUMBER_REGISTRY)


def info(name: str) -> EvaluatorInfo:
    """Return the :class:`EvaluatorInfo` of the built-in evaluator ``name``.

    Raises
    ------
    KeyError
        If ``name`` is not one of :data:`NAMES`; the message lists them.
    """
    for item in _REGISTRY + _SCORE_REGISTRY + _NUMBER_REGISTRY:
        if item.name == name:
            return item
    raise KeyError(f"unknown evaluator {name!r}; built-in evaluators are {', '.join(NAMES)}; "
                   f"score evaluators are {', '.join(SCORE_NAMES)}; one-number evaluators are {', '.join(NUMBER_NAMES)}")


def get(name: str, **params: Any) -> Callable[[np.ndarray, np.ndarray], Score]:
    """Build the built-in evaluator ``name`` with ``params``.

    Parameters
    ----------
    name : str
        One of "PW", "PA", "PA%K", "RP/RR", "TaPR", "AM", "OIPR", or a score
        evaluator of :data:`SCORE_NAMES` (its call takes ``(y_true, scores)`` and returns a float), or
        "NAB" (:data:`NUMBER_NAMES`: 0/1 predictions in, one number out).
    **params
        Evaluator parameters; omitted ones take the paper's Table 3 values.

    Returns
    -------
    callable
        ``evaluator(y_true, y_pred) -> Score``.

    Raises
    ------
    KeyError
        Unknown evaluator name.
    TypeError, ValueError
        Unknown or invalid parameter (the message names the evaluator).
    """
    cls = info(name).load()
    accepted = [
        p.name
        for p in inspect.signature(cls.__init__).parameters.values()
        if p.name != "self" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        known = ", ".join(accepted) if accepted else "none"
        raise TypeError(f"{name}: unknown parameter(s) {', '.join(unknown)}; its parameters are: {known}")
    return cls(**params)


def names() -> list[EvaluatorInfo]:
    """List the seven built-in evaluators in the paper's column order."""
    return list(_REGISTRY)
