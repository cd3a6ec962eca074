"""``--oipr-atlas``: the audited evaluator's row among the committed atlas rows, printed in the summary.

The grid placement is :mod:`oipr_bench.atlas.place`'s, as ``oipr-bench atlas --evaluator`` prints it.
With ``--oipr-realdata DIR`` too, the evaluator's ranking of NAB's detectors (the cells the real-data
table already computed) is compared with the committed real-data rows
(:func:`oipr_bench.atlas.realdata.place.lines_from_table`), as ``atlas --evaluator X --realdata DATA`` does.
"""

from __future__ import annotations

from typing import Any

import pytest

from .options import value

__all__ = ["write_atlas_placement"]


def write_atlas_placement(tr: Any, config: pytest.Config, state: Any) -> None:
    """Print the placement; a problem is one line, never an internal error at the very end of the run."""
    try:
        from ..atlas.place import placement_lines, unplaceable, user_row
        from ..atlas.store import default_dir, read_atlas

        profile = state.build_profile()
        problem = unplaceable(profile.to_dict())
        if problem:
            tr.write_line(f"oipr-bench: --oipr-atlas: {problem}")
            return
        row = user_row(profile.evaluator, profile.to_dict(), profile.declarations)
        tr.write_sep("=", f"oipr-bench atlas: {profile.evaluator} among the metrics")
        for line in placement_lines(row, read_atlas()):
            tr.write_line(line)
        result = getattr(state, "realdata", None)
        if result is not None:
            from ..atlas.realdata.place import lines_from_table

            for line in lines_from_table(result, value(config, "realdata"), default_dir(), profile.evaluator):
                tr.write_line(line)
    except Exception as exc:  # never an internal error at the very end
        tr.write_line(f"oipr-bench: --oipr-atlas: could not place the evaluator: {type(exc).__name__}: {exc}")
