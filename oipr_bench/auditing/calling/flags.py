"""An option given twice is refused, in every front end.

``oipr-bench`` (:mod:`oipr_bench.cli`) and the pytest plugin (:mod:`oipr_bench.pytest_plugin`)
both parse with argparse, whose plain ``store`` keeps the last of several values without a word:
``--bounds 0:1 --bounds 0:2`` declared two ranges and audited with one.  :class:`GivenOnce`
stores the first value and makes a second occurrence a usage error naming both.
"""

from __future__ import annotations

import argparse
from typing import Any

from ...guards import clip

__all__ = ["GivenOnce", "once"]

#: Namespace attribute where :class:`GivenOnce` records the options already given.
GIVEN_ATTRIBUTE = "oipr_given_options"


class GivenOnce(argparse.Action):
    """Store an option's value; a second occurrence (same value or not) is a usage error naming both."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        given = getattr(namespace, GIVEN_ATTRIBUTE, None)
        if given is None:
            given = {}
            setattr(namespace, GIVEN_ATTRIBUTE, given)
        if self.dest in given:
            first_flag, first = given[self.dest]
            parser.error(f"{option_string} given twice ({first_flag} {clip(repr(first), 80)}, then "
                         f"{option_string} {clip(repr(values), 80)}): give it once")
        given[self.dest] = (option_string, values)
        setattr(namespace, self.dest, values)


def once(names: tuple[str, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` of ``add_argument(*names, **kwargs)`` with :class:`GivenOnce` for a single-valued option.

    Options (not positionals) with the default ``store`` action and one value get it; repeatable
    options say so with ``action="append"`` and flags (``store_true``) may repeat harmlessly.
    """
    if names and all(n.startswith("-") for n in names) and kwargs.get("action", "store") == "store" \
            and kwargs.get("nargs") is None:
        return {**kwargs, "action": GivenOnce}
    return kwargs
