"""The cache key fields of an atlas row's profile (:func:`~.cache.profile_fields`), from its adapter.

What determines a profile: the row as declared (:func:`declaration`), the code that builds its
evaluator (:func:`adapter_sha256`), the dataset it is audited on (:func:`inputs_sha256`), the order
its cases run in, and oipr-bench's reading version (in :func:`~.cache.profile_fields`).
"""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path
from typing import Any

from ..adapters.base import Adapter
from .cache import profile_fields

__all__ = ["declaration", "adapter_sha256", "inputs_sha256", "profile_key_fields"]


def declaration(adapter: Adapter) -> dict[str, Any]:
    """The row as its adapter declares it, as plain data: package and installed version, metric, parameters, declarations."""
    return {
        "id": adapter.id, "package": adapter.package, "version": adapter.version, "metric": adapter.metric,
        "family": adapter.family, "group": adapter.group, "params": {str(k): repr(v) for k, v in sorted(adapter.params.items())},
        "input_kind": adapter.input_kind, "kind": adapter.kind, "higher_is_better": adapter.higher_is_better,
        "bounds": [None if b is None else float(b) for b in adapter.bounds], "note": adapter.note, "slow": adapter.slow,
        "random_runs": adapter.random_runs, "chance_draws": adapter.chance_draws, "env": adapter.env, "shared": adapter.shared,
    }


@functools.lru_cache(maxsize=None)
def _module_sha256(module: str) -> str:
    path = getattr(sys.modules.get(module), "__file__", None)
    if not path:
        return "no-source"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def adapter_sha256(adapter: Adapter) -> str:
    """SHA-256 over the source of the module building the row's evaluator and the adapters' ``base`` and ``shared``."""
    from ..adapters import base, shared  # noqa: F401 - imported so that their sources are found

    h = hashlib.sha256()
    for module in (getattr(adapter.build, "__module__", ""), base.__name__, shared.__name__):
        h.update(f"{module}:{_module_sha256(module)}\n".encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def inputs_sha256() -> str:
    """SHA-256 over every file of the dataset (``scenarios/``: the cases and the property families), by relative path."""
    from ..._paths import data_dir

    root = data_dir("scenarios")
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(f"{path.relative_to(root).as_posix()}\n".encode())
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def profile_key_fields(adapter: Adapter, reverse: bool = False) -> dict[str, Any]:
    """The key fields of ``adapter``'s profile, its cases run first to last or (``reverse``, ``atlas --check``) last to first."""
    return profile_fields(declaration(adapter), adapter_sha256(adapter), inputs_sha256(), "reverse" if reverse else "forward")
