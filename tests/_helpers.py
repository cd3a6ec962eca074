"""Small helpers shared by the tests."""

from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator

import numpy as np
import pytest

from oipr_bench.evaluators import Score
from oipr_bench.scenarios.events import from_events

EXACT = 1e-12


def series(length: int, *events: tuple[int, int]) -> np.ndarray:
    """A 0/1 int8 series of ``length`` points with the half-open ``events`` set to 1."""
    return from_events(events, length)


def assert_score(score: Score, precision: float, recall: float) -> None:
    """``score`` is a Score with the given P and R (to 1e-12) and F1 = 2PR/(P+R) (eq. 1)."""
    assert isinstance(score, Score)
    assert score.precision == pytest.approx(precision, abs=EXACT)
    assert score.recall == pytest.approx(recall, abs=EXACT)
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    assert score.f1 == pytest.approx(f1, abs=EXACT)


@contextmanager
def no_hang(seconds: int = 20) -> Iterator[None]:
    """Fail (instead of hanging forever) when the body blocks, e.g. on a FIFO (SIGALRM, main thread)."""

    def _alarm(signum: int, frame: object) -> None:
        raise AssertionError(f"blocked for {seconds} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
