"""``atlas --write DIR --pin PKG==VERSION``: the rows of one package, profiled at a stated version.

``--pin`` installs nothing: it checks that the running environment has exactly ``PKG VERSION``
installed and refuses otherwise (a usage error naming the version found), so the atlas written
states the version it was computed with.  The scratch environment is made by the user
(docs/atlas.md, "Comparing two atlases"): a copy of the atlas environment made by
``atlas/make-env.sh`` with ``pip install --no-deps PKG==VERSION`` run in it.
"""

from __future__ import annotations

import re
from typing import Sequence

__all__ = ["parse_pin", "pinned_rows"]

_PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([A-Za-z0-9][A-Za-z0-9.+!_-]*)\s*$")


def parse_pin(text: str) -> tuple[str, str]:
    """``"aeon==1.5.0"`` -> ``("aeon", "1.5.0")``; anything else is a usage error."""
    from ...errors import UsageError

    match = _PIN.match(text)
    if match is None:
        raise UsageError(f"--pin {text!r}: expected PKG==VERSION (e.g. telemeval==0.3.0)")
    return match.group(1), match.group(2)


def _same_name(a: str, b: str) -> bool:
    """Distribution names compare case-, ``-``/``_``/``.``-insensitively (PEP 503)."""
    norm = lambda s: re.sub(r"[-_.]+", "-", s).lower()  # noqa: E731
    return norm(a) == norm(b)


def pinned_rows(text: str, env: str, *, include_slow: bool, only: Sequence[str] | None) -> set[str]:
    """The ids of the rows ``--write --pin text`` profiles: every row of the package in this environment.

    Raises
    ------
    UsageError
        Not ``PKG==VERSION``; no row comes from PKG; PKG's rows belong to the other environment;
        the installed PKG is not VERSION (or PKG is not installed); a row of PKG is declared slow
        and ``--include-slow`` is not given (unless ``--only`` leaves it out); an ``--only`` row is
        not one of PKG's.
    """
    from ...errors import UsageError
    from ..adapters.registry import adapters

    package, version = parse_pin(text)
    rows = [a for a in adapters() if _same_name(a.package, package)]
    if not rows:
        known = sorted({a.package for a in adapters()})
        raise UsageError(f"--pin {text}: no atlas row comes from package {package} (packages: {', '.join(known)})")
    here = [a for a in rows if a.env == env]
    if not here:
        raise UsageError(f"--pin {text}: {rows[0].package}'s rows belong to the {rows[0].env} environment; "
                         f"this is the {env} environment")
    installed = here[0].version
    if installed != version:
        found = f"{rows[0].package} {installed}" if installed else f"no {rows[0].package}"
        raise UsageError(f"--pin {text}: this environment has {found} installed, not {version}; run it in a scratch copy "
                         f"of the environment with `pip install --no-deps {rows[0].package}=={version}` (docs/atlas.md)")
    ids = {a.id for a in here}
    stray = sorted(set(only or ()) - ids)
    if stray:
        raise UsageError(f"--pin {text}: --only row {stray[0]} is not a row of {rows[0].package}")
    chosen = [a for a in here if not only or a.id in only]
    slow = [a.id for a in chosen if a.slow and not include_slow]
    if slow:
        raise UsageError(f"--pin {text}: {len(slow)} of {rows[0].package}'s rows are declared slow ({', '.join(slow[:3])}"
                         f"{', ...' if len(slow) > 3 else ''}); give --include-slow, or name the others with --only")
    return {a.id for a in chosen}
