"""The atlas's pinned environments and which one this interpreter is.

Each row declares the environment its package is pinned in (``Adapter.env``):
``main`` (atlas/requirements.txt: numpy 1.26 for prts and TSB-AD) or
``modern`` (atlas/requirements-modern.txt: numpy 2 for aeon).  A venv made by
``atlas/make-env.sh [--env NAME] VENV`` records NAME in ``VENV/oipr-atlas-env``;
``oipr-bench atlas --write/--check`` profiles only the rows of the environment
it runs in and keeps the other environment's rows from the stored atlas.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["ENVS", "MARKER", "current_env", "make_env_command"]

#: Environment name -> its requirements file (under ``atlas/``).
ENVS: dict[str, str] = {"main": "requirements.txt", "modern": "requirements-modern.txt"}
#: The file, inside a venv made by atlas/make-env.sh, that names its environment.
MARKER = "oipr-atlas-env"


def current_env() -> str:
    """The environment this interpreter runs in.

    ``OIPR_ATLAS_ENV`` when set, else the name recorded by ``atlas/make-env.sh`` in
    ``sys.prefix``, else ``main`` (a development venv: the main environment's rows,
    unavailable where their packages are missing, as before).  An unknown name is an error.
    """
    name = os.environ.get("OIPR_ATLAS_ENV", "").strip()
    source = "OIPR_ATLAS_ENV"
    if not name:
        marker = Path(sys.prefix) / MARKER
        name = marker.read_text(encoding="utf-8").strip() if marker.is_file() else "main"
        source = str(marker)
    if name not in ENVS:
        raise ValueError(f"{source}: unknown atlas environment {name!r} (one of {', '.join(ENVS)})")
    return name


def make_env_command(env: str) -> str:
    """The command that makes the environment ``env``."""
    return "atlas/make-env.sh VENV" if env == "main" else f"atlas/make-env.sh --env {env} VENV"
