"""One atlas row: a metric of a public package, wrapped as an oipr-bench evaluator.

An :class:`Adapter` is plain data (package, metric name, family, parameters,
declarations) plus a ``build`` function that imports the package lazily and
returns ``fn(y_true, y_pred)``.  :meth:`Adapter.load` turns it into an
:class:`AtlasEvaluator`: a callable carrying the declarations audit() reads
(``input_kind``, ``higher_is_better``, ``bounds``) and ``params``.

A package that is not installed, or whose import fails, makes ``load`` raise
:class:`Unavailable` with a one-line reason; the atlas keeps the row with it.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

__all__ = ["Adapter", "AtlasEvaluator", "Unavailable", "package_version", "import_submodule", "as_labels", "as_scores",
           "SLOW_RANDOM_RUNS", "SLOW_CHANCE_DRAWS", "reduced_audit", "slug"]

#: The reduced audit of the slowest rows: each random-detector case on its first 10 of 100 runs (``Adapter.random_runs``) ...
SLOW_RANDOM_RUNS = 10
#: ... and each chance anchor on its first 4 of 10 uniform-random draws (``Adapter.chance_draws``).  The
#: chance anchors are most of a score audit's calls (300 of 521 distinct calls with 10 draws); a
#: VUS row of TimeEval or aeon takes about 2 s a call.  Stated in every such row and its grid label.
SLOW_CHANCE_DRAWS = 4


def slug(row_id: str) -> str:
    """File-name-safe form of a row id (``TSADmetrics:pwf`` -> ``TSADmetrics__pwf``): its profile, page and badge files."""
    out = "".join(c if c.isalnum() or c in "-_." else "_" for c in row_id.replace(":", "__"))
    return out.strip("_") or "row"


def reduced_audit(slow: bool) -> dict[str, int | None]:
    """The :class:`Adapter` fields of a row: the slowest rows' reduced audit when ``slow``, a full audit otherwise."""
    return {"random_runs": SLOW_RANDOM_RUNS if slow else None, "chance_draws": SLOW_CHANCE_DRAWS if slow else None}

#: ``(lo, hi)`` of a metric's range; ``None`` is an open end.
Bounds = tuple[float | None, float | None]


class Unavailable(Exception):
    """The metric's package cannot be imported or the metric cannot be built."""


def package_version(dist: str) -> str | None:
    """Installed version of distribution ``dist`` (None when it is not installed)."""
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def import_module(name: str) -> Any:
    """Import ``name``; any failure becomes :class:`Unavailable` with a one-line reason."""
    try:
        return importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - any import failure makes the row unavailable
        raise Unavailable(f"import {name} failed: {type(exc).__name__}: {exc}") from None


def import_submodule(package: str, submodule: str) -> Any:
    """Import ``package.submodule`` without executing ``package/__init__.py``.

    Used where a package's ``__init__`` imports heavy or unrelated code (TimeEval's
    pulls dask, docker and its whole experiment runner) while the metric
    sub-package needs only NumPy/scikit-learn.  The top-level package is
    registered as an empty namespace with the package's own search path.
    """
    full = f"{package}.{submodule}"
    if full in sys.modules:
        return sys.modules[full]
    if package not in sys.modules:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise Unavailable(f"package {package!r} is not installed")
        shell = types.ModuleType(package)
        shell.__path__ = list(spec.submodule_search_locations)
        sys.modules[package] = shell
    return import_module(full)


def as_labels(y: Any) -> np.ndarray:
    """A 0/1 series as an int64 array (what the packages expect)."""
    return np.asarray(y).astype(np.int64)


def as_scores(y: Any) -> np.ndarray:
    """A score series as float64."""
    return np.asarray(y, dtype=np.float64)


@dataclass(frozen=True)
class Adapter:
    """What the atlas knows about one metric implementation.

    Attributes
    ----------
    package : str
        Distribution name on the package index ("TSADmetrics", "prts", ...; "oipr-bench" for the built-ins).
    metric : str
        The metric's name inside the package, with its variant (e.g. ``"ts_fscore[front,reciprocal]"``).
    family : str
        Group of the grid (point-wise, point-adjusted, range-based, ...).
    build : callable
        ``build(params) -> fn(y_true, y_pred)``; imports the package (raises :class:`Unavailable`).
    params : mapping
        The parameters in force (the package's defaults unless stated).
    input_kind : {"binary", "scores"}
    kind : {"pr", "score"}
        Result shape: (precision, recall[, f1]) or one number.
    higher_is_better : bool
    bounds : (lo, hi)
        Range of the score (``None`` = open end).
    group : str, optional
        The "same metric" group it belongs to (see :mod:`oipr_bench.atlas.disagreements.study`).
    note : str
        One line on how it is called (e.g. what the adapter converts).
    slow : bool
        Takes about a second or more per call on a 1000-point series; profiled only by
        ``oipr-bench atlas --write --include-slow`` (otherwise its committed row is kept);
        ``atlas --check`` recomputes a fixed sample of its cases (:mod:`oipr_bench.atlas.disagreements.sample`).
    random_runs : int or None
        A reduced audit (:attr:`oipr_bench.auditing.options.AuditOptions.random_runs`): each
        random-detector case is scored on its first ``random_runs`` of 100 runs; None: every run.
        Stated in the row (``random_runs``), its report's options and its grid label.
    chance_draws : int or None
        A reduced audit (:attr:`oipr_bench.auditing.options.AuditOptions.chance_draws`): each chance
        anchor is the mean over the first ``chance_draws`` of the 10 uniform-random score series;
        None: all 10.  Stated like ``random_runs``.
    env : str
        The pinned environment its package is installed in (:mod:`oipr_bench.atlas.adapters.envs`):
        ``main`` (atlas/requirements.txt) or ``modern`` (atlas/requirements-modern.txt).
    shared : str or None
        The package call this row shares with one partner row (e.g. TSB-AD's ``generate_curve``
        gives VUS-ROC and VUS-PR): the pair is profiled in one worker and the partner reuses each
        result once (:mod:`oipr_bench.atlas.adapters.shared`).  Stated in the row's note.
    """

    package: str
    metric: str
    family: str
    build: Callable[[Mapping[str, Any]], Callable[[np.ndarray, np.ndarray], Any]]
    params: Mapping[str, Any] = field(default_factory=dict)
    input_kind: str = "binary"
    kind: str = "score"
    higher_is_better: bool = True
    bounds: Bounds = (0.0, 1.0)
    group: str | None = None
    note: str = ""
    slow: bool = False
    random_runs: int | None = None
    chance_draws: int | None = None
    env: str = "main"
    shared: str | None = None

    @property
    def id(self) -> str:
        """Row id: ``package:metric``."""
        return f"{self.package}:{self.metric}"

    @property
    def version(self) -> str | None:
        """Installed version of the package (None when not installed)."""
        if self.package == "oipr-bench":
            from ..._version import __version__

            return __version__
        return package_version(self.package)

    def load(self) -> "AtlasEvaluator":
        """Import the package and return the evaluator (raises :class:`Unavailable`)."""
        if self.version is None:
            raise Unavailable(f"{self.package} is not installed (see atlas/requirements.txt)")
        try:
            fn = self.build(dict(self.params))
        except Unavailable:
            raise
        except Exception as exc:  # noqa: BLE001 - e.g. another release without the class or function the row calls
            raise Unavailable(f"cannot build the metric: {type(exc).__name__}: {exc}".splitlines()[0]) from None
        return AtlasEvaluator(self, fn)


class AtlasEvaluator:
    """An adapter's metric as an evaluator: ``ev(y_true, y_pred)`` plus declarations."""

    def __init__(self, adapter: Adapter, fn: Callable[[np.ndarray, np.ndarray], Any]) -> None:
        self.adapter = adapter
        self._fn = fn
        self.input_kind = adapter.input_kind
        self.higher_is_better = adapter.higher_is_better
        self.bounds = adapter.bounds
        self.params = dict(adapter.params)
        self.__name__ = adapter.id
        self.__qualname__ = adapter.id

    def __call__(self, y_true: np.ndarray, y_pred: np.ndarray) -> Any:
        return self._fn(y_true, y_pred)

    def __repr__(self) -> str:
        return f"AtlasEvaluator({self.adapter.id})"
