"""One package call read by two atlas rows: VUS-ROC and VUS-PR from a single ``generate_curve``.

TSB-AD's and TSB-UAD's ``generate_curve`` and vus's ``RangeAUC_volume_opt``
compute the ROC and the PR volume in one call; the package's VUS-ROC row and its
VUS-PR row each take one number of the same result.  Profiling both rows makes
every call twice.  A *shared* pair (:attr:`Adapter.shared` names the call) is
profiled in one worker, the storing row first (:func:`oipr_bench.atlas.build.profile_all`):

- the storing row (``role="store"``) always makes the package call and keeps its
  result, keyed on the call's name, its parameters and the bytes of both inputs;
- the taking row (``role="take"``) takes a kept result for the same call and the
  same inputs, once: the entry is removed, so a second call of the taking row on
  those inputs (the audit's determinism check) makes the package call again.  With
  no kept result it makes the call itself.

Every number is still the package's own result for that input; only a repeat of the
identical call by the partner row is saved.  The store is bounded
(:data:`MAX_KEPT` results, oldest dropped first) and lives in one process.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any, Callable, Mapping

import numpy as np

__all__ = ["MAX_KEPT", "shared_result", "clear"]

#: Most results kept at once (a full audit makes about 600 distinct calls).
MAX_KEPT = 4096

_KEPT: "OrderedDict[tuple[str, str], Any]" = OrderedDict()


def _digest(name: str, params: Mapping[str, Any], y_true: np.ndarray, y_score: np.ndarray) -> tuple[str, str]:
    h = hashlib.sha256()
    for a in (np.ascontiguousarray(y_true), np.ascontiguousarray(y_score)):
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    return name, repr(sorted(params.items())) + h.hexdigest()


def shared_result(name: str, params: Mapping[str, Any], y_true: np.ndarray, y_score: np.ndarray,
                  call: Callable[[], Any], role: str) -> Any:
    """The result of ``call()`` (the package call ``name`` with ``params`` on these inputs), shared as described above.

    Parameters
    ----------
    name : str
        The package call (e.g. ``"TSB-AD generate_curve"``).
    params : mapping
        Its parameters (part of the key).
    y_true, y_score : numpy.ndarray
        The arrays handed to the package (part of the key, by dtype, shape and bytes).
    call : callable
        Makes the package call.
    role : {"store", "take"}
        The row's role in its pair.
    """
    if role not in ("store", "take"):
        raise ValueError(f"role must be 'store' or 'take', got {role!r}")
    key = _digest(name, params, y_true, y_score)
    if role == "take" and key in _KEPT:
        return _KEPT.pop(key)
    result = call()
    if role == "store":
        _KEPT[key] = result
        _KEPT.move_to_end(key)
        while len(_KEPT) > MAX_KEPT:
            _KEPT.popitem(last=False)
    return result


def clear() -> None:
    """Drop every kept result (after a pair is profiled)."""
    _KEPT.clear()
