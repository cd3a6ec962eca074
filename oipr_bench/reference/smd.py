"""The paper authors' SMD slice: the ground truth and the outputs of the eight detectors of Tables 6-8.

The OIPR authors publish a 7,084-point slice of the SMD dataset (the paper's Table 9, column SMD:
N = 7084, 118 anomaly events) with one CSV per detector, ``SMD_<detector>.csv``, columns ``gt,pred``,
in their repository (:data:`SOURCE_REPOSITORY`, folder :data:`SOURCE_FOLDER`). oipr-bench never
ships these files: the user points ``--data DIR`` at a folder holding them, and :func:`load_smd`
reads and checks them (columns exactly ``gt,pred``, 0/1 values, :data:`SMD_LENGTH` rows, the same
ground truth in every file). Every problem is one :class:`~oipr_bench.errors.UsageError` line naming
the file and, where it applies, the line.

:data:`SMD_PARAMS` is the paper's Table 3 setting for SMD (PA%K ``K = 50``; RP/RR ``alpha = 0.5``,
``1/x`` cardinality, front-end bias for recall and flat for precision; TaPR ``alpha = 0.5``,
``delta = 5``, ``theta = 0``; OIPR ``l_dis = 5``, ``l_obs = 20``, ``b_dur = 0.5``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from ..errors import UsageError
from ..guards import clip, printable
from ..scenarios.events import to_events
from ..scenarios.userdata import read_series

__all__ = ["Detector", "SmdData", "SmdStatistics", "DETECTORS", "TABLE_DETECTORS", "SMD_LENGTH", "SMD_PARAMS",
           "SOURCE_REPOSITORY", "SOURCE_FOLDER", "detector", "load_smd", "missing_files", "slice_statistics"]

#: Where the paper says its data are published (footnote 1), and the folder holding the SMD slice.
SOURCE_REPOSITORY = "https://github.com/weatherjyh/OIPR"
SOURCE_FOLDER = "datasets/real_world_dataset/SMD"
#: Points of the slice (Table 9, "Size of dataset N", column SMD).
SMD_LENGTH = 7084

#: The paper's Table 3 parameters for SMD, by evaluator (the seven built-ins' defaults, stated here).
SMD_PARAMS: dict[str, dict[str, Any]] = {
    "PW": {},
    "PA": {},
    "PA%K": {"k": 50},
    "RP/RR": {"alpha_r": 0.5, "alpha_p": 0.0, "cardinality": "reciprocal", "bias_r": "front", "bias_p": "flat"},
    "TaPR": {"alpha": 0.5, "delta": 5, "theta": 0.0},
    "AM": {},
    "OIPR": {"l_dis": 5, "l_obs": 20, "b_dur": 0.5},
}


@dataclass(frozen=True)
class Detector:
    """One detector of Tables 6-8.

    Attributes
    ----------
    id : str
        Our name: the paper's detector name (``TimesNet``) or symbol (``d_fp``).
    csv : str
        The authors' file name.
    title : str
        What the paper calls it.
    """

    id: str
    csv: str
    title: str


#: The eight detectors, in the paper's order (Table 6, then 7, then 8).
DETECTORS: tuple[Detector, ...] = (
    Detector("Autoformer", "SMD_Autoformer.csv", "Autoformer"),
    Detector("DLinear", "SMD_DLinear.csv", "DLinear"),
    Detector("TimesNet", "SMD_TimesNet.csv", "TimesNet"),
    Detector("d_fp", "SMD_first_point_detector.csv", "first point detector"),
    Detector("d_l", "SMD_long_anomaly_detector.csv", "long anomaly detector"),
    Detector("d_disp", "SMD_dispersive_disturbance_detector.csv", "dispersed disturbance detector"),
    Detector("d_aggr", "SMD_aggregation_disturbance_detector.csv", "aggregated disturbance detector"),
    Detector("d_cont", "SMD_continuous_disturbance_detector.csv", "continuous disturbance detector"),
)
#: The detectors of each table's SMD rows, in the paper's row order.
TABLE_DETECTORS: dict[str, tuple[str, ...]] = {
    "6": ("Autoformer", "DLinear", "TimesNet"),
    "7": ("d_fp", "d_l"),
    "8": ("d_disp", "d_aggr", "d_cont"),
}


def detector(detector_id: str) -> Detector:
    """The :class:`Detector` named ``detector_id``."""
    for det in DETECTORS:
        if det.id == detector_id:
            return det
    raise KeyError(f"unknown SMD detector {detector_id!r}; known: {', '.join(d.id for d in DETECTORS)}")


@dataclass(frozen=True)
class SmdData:
    """The ground truth and the predictions read from one folder.

    Attributes
    ----------
    y_true : ndarray of int8, shape (7084,)
    predictions : dict of str to ndarray of int8
        Detector id -> prediction, in the order asked for.
    folder : str
        The folder they were read from.
    """

    y_true: np.ndarray
    predictions: dict[str, np.ndarray]
    folder: str


def _where_to_get() -> str:
    return f"get them from the authors' repository {SOURCE_REPOSITORY} (folder {SOURCE_FOLDER})"


def missing_files(folder: str | os.PathLike[str], detectors: Iterable[str]) -> list[str]:
    """The CSV names of ``detectors`` that are not regular files in ``folder``."""
    return [detector(d).csv for d in detectors if not (Path(folder) / detector(d).csv).is_file()]


def _not_a_file(path: Path) -> str:
    """What ``path`` is when it exists but is not a regular file ("is a folder, not a file"), else ``""``."""
    import stat

    if not os.path.lexists(path):
        return ""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "is a symbolic link that leads nowhere (a loop or a missing target)"
    if stat.S_ISREG(mode):
        return ""
    what = ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
    return f"is {what}, not a file"


def load_smd(folder: str | os.PathLike[str], detectors: Iterable[str] | None = None) -> SmdData:
    """Read and check the authors' CSVs of ``detectors`` (default: all eight) from ``folder``.

    Raises
    ------
    UsageError
        The folder is missing, a file is missing (all missing ones are named, with where to get
        them), a file does not have exactly the columns ``gt,pred``, holds a value other than 0/1,
        has not :data:`SMD_LENGTH` rows, or its ground truth differs from the first file's.
    """
    wanted = [d.id for d in DETECTORS] if detectors is None else [detector(d).id for d in detectors]
    where = printable(clip(os.fspath(folder), 200))
    if not Path(folder).is_dir():
        raise UsageError(f"--data {where}: no such folder; it must hold the authors' SMD CSVs "
                         f"({', '.join(detector(d).csv for d in wanted)}); {_where_to_get()}")
    odd = [f"{detector(d).csv} {_not_a_file(Path(folder) / detector(d).csv)}" for d in wanted
           if _not_a_file(Path(folder) / detector(d).csv)]
    if odd:  # there, but not a file to read
        raise UsageError(f"--data {where}: {'; '.join(odd)}; each must be the authors' CSV file")
    missing = missing_files(folder, wanted)
    if missing:
        raise UsageError(f"--data {where}: missing {', '.join(missing)}; {_where_to_get()}")
    y_true: np.ndarray | None = None
    first = ""
    predictions: dict[str, np.ndarray] = {}
    for det_id in wanted:
        path = Path(folder) / detector(det_id).csv
        gt, pred = _read_one(path)
        if y_true is None:
            y_true, first = gt, path.name
        elif not np.array_equal(gt, y_true):
            k = int(np.flatnonzero(gt != y_true)[0])
            raise UsageError(f"{path}: column 'gt', line {k + 2}: ground truth {int(gt[k])} differs from "
                             f"{first} ({int(y_true[k])}); every SMD file must hold the same ground truth")
        predictions[det_id] = pred
    assert y_true is not None
    return SmdData(y_true=y_true, predictions=predictions, folder=os.fspath(folder))


def _read_one(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """``(gt, pred)`` of one authors' file, checked (read by :func:`~oipr_bench.scenarios.userdata.read_series`)."""
    series = read_series(path)  # file, line and value of a non-0/1 cell, ragged rows, blank lines
    names = ["gt", *series.predictions]
    if [n.lower() for n in names] != ["gt", "pred"]:
        raise UsageError(f"{path}: line 1: columns {printable(clip(','.join(names), 200))}; expected exactly gt,pred "
                         "(the authors' SMD format)")
    n = int(series.y_true.shape[0])
    if n != SMD_LENGTH:
        raise UsageError(f"{path}: {n} data rows; the authors' SMD slice has {SMD_LENGTH} "
                         f"(a header line gt,pred, then one line per point)")
    return series.y_true, series.y_pred


@dataclass(frozen=True)
class SmdStatistics:
    """The SMD column of the paper's Table 9, computed from the slice.

    Attributes
    ----------
    n_points, n_events : int
        ``N`` and ``N_a``.
    mean_length : float
        ``L_a``: the mean ground-truth event length (the paper prints it rounded).
    long_threshold : int
        ``L``: the shortest event the long-anomaly detector detects completely.
    event_ratio, point_ratio : float
        ``R_e(L)`` and ``R_p(L)``: the share of events, and of anomalous points, in events at least ``L`` long.
    normal_ratio : dict of str to float
        ``R_N`` per detector: the share of normal intervals holding a false positive, the stretches
        before the first and after the last event counted as normal intervals (as the printed
        values are; see docs/deviations.md).
    normal_ratio_between : dict of str to float
        ``R_N`` by the paper's words: only the intervals between two adjacent events.
    """

    n_points: int
    n_events: int
    mean_length: float
    long_threshold: int
    event_ratio: float
    point_ratio: float
    normal_ratio: dict[str, float]
    normal_ratio_between: dict[str, float]


def slice_statistics(data: SmdData, long_detector: str = "d_l") -> SmdStatistics:
    """Table 9's statistics of the slice (``long_detector`` must be among ``data.predictions``)."""
    starts, ends = to_events(data.y_true)
    lengths = ends - starts
    caught = np.array([bool(data.predictions[long_detector][s:e].all()) for s, e in zip(starts, ends)])
    threshold = int(lengths[caught].min()) if caught.any() else 0
    is_long = lengths >= threshold
    between = list(zip(ends[:-1].tolist(), starts[1:].tolist()))
    edges = [(0, int(starts[0])), *between, (int(ends[-1]), int(data.y_true.shape[0]))]
    edges = [(a, b) for a, b in edges if b > a]

    def share(pred: np.ndarray, intervals: list[tuple[int, int]]) -> float:
        return sum(bool(pred[a:b].any()) for a, b in intervals) / len(intervals)

    return SmdStatistics(
        n_points=int(data.y_true.shape[0]),
        n_events=int(starts.shape[0]),
        mean_length=float(lengths.mean()),
        long_threshold=threshold,
        event_ratio=float(is_long.mean()),
        point_ratio=float(lengths[is_long].sum() / lengths.sum()),
        normal_ratio={d: share(p, edges) for d, p in data.predictions.items()},
        normal_ratio_between={d: share(p, between) for d, p in data.predictions.items()},
    )
