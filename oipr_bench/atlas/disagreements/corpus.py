"""Inputs of the disagreement study: the dataset's 25 cases and a seeded random differential.

The differential holds named edge cases (no anomaly, all-zero and all-one
predictions, events at both ends, events one point apart, an event exactly
half predicted, one-point events) and random short series (8 to 48 points,
up to three ground-truth and four predicted events) drawn from
``numpy.random.default_rng(SEED)``, so every run sees the same series.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Series", "SEED", "edge_cases", "random_series", "differential", "dataset_series", "events_text"]

SEED = 20221110
N_RANDOM = 2000


class Series(NamedTuple):
    """One input: a label, the ground truth and the 0/1 prediction (int8)."""

    label: str
    y_true: np.ndarray
    y_pred: np.ndarray


def _series(n: int, events: list[tuple[int, int]]) -> np.ndarray:
    y = np.zeros(n, dtype=np.int8)
    for start, end in events:
        y[start:end] = 1
    return y


def edge_cases() -> list[Series]:
    """The named edge cases (length 20 unless stated)."""
    n = 20
    gt = _series(n, [(5, 9)])
    cases = [
        ("no anomaly, some prediction", _series(n, []), _series(n, [(5, 7)])),
        ("no anomaly, all-zero prediction", _series(n, []), _series(n, [])),
        ("no anomaly, all-one prediction", _series(n, []), np.ones(n, np.int8)),
        ("all-zero prediction", gt, _series(n, [])),
        ("all-one prediction", gt, np.ones(n, np.int8)),
        ("perfect detection", gt, gt.copy()),
        ("all-one ground truth, perfect", np.ones(n, np.int8), np.ones(n, np.int8)),
        ("events at both ends", _series(n, [(0, 3), (17, 20)]), _series(n, [(0, 2), (18, 20)])),
        ("prediction at both ends only", gt, _series(n, [(0, 1), (19, 20)])),
        ("ground-truth events one point apart", _series(n, [(4, 7), (8, 11)]), _series(n, [(5, 10)])),
        ("predicted events one point apart", gt, _series(n, [(5, 6), (7, 9)])),
        ("event exactly half predicted", _series(n, [(4, 8)]), _series(n, [(4, 6)])),
        ("one-point event, detected", _series(n, [(10, 11)]), _series(n, [(10, 11)])),
        ("one-point event, detected one step late", _series(n, [(10, 11)]), _series(n, [(11, 12)])),
        ("prediction just after the event", gt, _series(n, [(9, 12)])),
        ("prediction just before the event", gt, _series(n, [(2, 5)])),
        ("two events, one detected", _series(n, [(2, 5), (12, 16)]), _series(n, [(3, 4)])),
        ("one prediction spanning two events", _series(n, [(2, 5), (8, 11)]), _series(n, [(2, 11)])),
        ("single point series, anomaly, detected", np.ones(1, np.int8), np.ones(1, np.int8)),
        ("two-point series", _series(2, [(1, 2)]), _series(2, [(0, 1)])),
    ]
    return [Series(label, t, p) for label, t, p in cases]


def _random_events(rng: np.random.Generator, n: int, k_max: int, len_max: int) -> np.ndarray:
    y = np.zeros(n, dtype=np.int8)
    for _ in range(int(rng.integers(0, k_max + 1))):
        start = int(rng.integers(0, n))
        y[start : start + int(rng.integers(1, len_max + 1))] = 1
    return y


def random_series(count: int = N_RANDOM, seed: int = SEED) -> list[Series]:
    """``count`` random short series (a tenth of them with no anomaly)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        n = int(rng.integers(8, 49))
        y_true = np.zeros(n, np.int8)
        if i % 10:  # every tenth series has no anomaly
            y_true = _random_events(rng, n, 3, 8)
            y_true[int(rng.integers(0, n))] = 1
        y_pred = _random_events(rng, n, 4, 6)
        out.append(Series(f"random #{i}", y_true, y_pred))
    return out


def differential(count: int = N_RANDOM, seed: int = SEED) -> list[Series]:
    """Edge cases, then the random series."""
    return edge_cases() + random_series(count, seed)


def dataset_series() -> list[Series]:
    """One input per dataset case (a random-detector case contributes its first run)."""
    from ... import scenarios

    return [Series(c.id, np.asarray(c.y_true, np.int8), np.asarray(c.predictions[0], np.int8)) for c in scenarios.load()]


def events_text(y: np.ndarray) -> str:
    """Events of a 0/1 series as half-open intervals, e.g. ``[5,9) [12,13)`` (``none`` if empty)."""
    from ...scenarios.events import to_events

    starts, ends = to_events(np.asarray(y).astype(bool))
    return " ".join(f"[{s},{e})" for s, e in zip(starts, ends)) or "none"
