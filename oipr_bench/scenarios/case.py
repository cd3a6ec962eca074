"""The :class:`Case` data type: one row of the paper's Table A1."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True, eq=False)
class Case:
    """One case (one row of the paper's Table A1).

    Attributes
    ----------
    id : str
        Stable id ``"<scenario>/<case>"``, e.g. ``"overlap_proportion/c1"``.
    scenario, case : str
        The two parts of the id.
    scenario_title : str
        Scenario name as the paper writes it ("Overlap proportion").
    length : int
        Series length ``T``.
    description : str
        One line on what the prediction does.
    characteristics : list of str
        Canonical names of the characteristic(s) the scenario probes.
    y_true : ndarray of int8, shape (length,)
        Ground truth (read-only).
    predictions : list of ndarray of int8
        One prediction for a deterministic case, ``n_runs`` (100) for a
        random-detector case (read-only arrays).
    y_true_events : list of [start, end]
        Ground-truth events as half-open intervals.
    prediction_events : list of list of [start, end]
        The events of each prediction.
    provenance : dict
        ``paper_table``, ``row_label`` (as printed in the paper), ``source``
        (``authors_csv``, ``paper_text`` or ``reconstructed``),
        ``authors_csv`` (file name or None) and ``note``.
    generator : dict or None
        The random generator spec of a random-detector case, else None.
    file : str
        The fixture file the case was read from.
    """

    id: str
    scenario: str
    case: str
    scenario_title: str
    length: int
    description: str
    characteristics: list[str]
    y_true: np.ndarray = field(repr=False)
    predictions: list[np.ndarray] = field(repr=False)
    y_true_events: list[list[int]] = field(repr=False)
    prediction_events: list[list[list[int]]] = field(repr=False)
    provenance: dict[str, Any] = field(repr=False)
    generator: dict[str, Any] | None = field(repr=False)
    file: str = field(repr=False)

    @property
    def n_runs(self) -> int:
        """Number of predictions: 1 for a deterministic case, 100 for a random one."""
        return len(self.predictions)

    @property
    def is_random(self) -> bool:
        """True for a random-detector case (several prediction runs)."""
        return self.generator is not None

    @property
    def y_pred(self) -> np.ndarray:
        """The single prediction of a deterministic case.

        Raises
        ------
        ValueError
            For a multi-run (random-detector) case; use :attr:`predictions`.
        """
        if len(self.predictions) != 1:
            raise ValueError(
                f"case {self.id} has {len(self.predictions)} prediction runs; "
                "use .predictions (and average the per-run scores) instead of .y_pred"
            )
        return self.predictions[0]
