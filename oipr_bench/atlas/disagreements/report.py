"""Write ``DISAGREEMENTS.md`` from :func:`oipr_bench.atlas.disagreements.study`.

Per group: the setting, every member's counts on the 25 cases and on the
differential, then for each member the smallest input where it disagrees with
the reference, crashes, leaves [0, 1] or scores a bool prediction differently
from int8 (length, events, every implementation's output), and the verdict of
:data:`oipr_bench.atlas.disagreements.verdicts.VERDICTS`; then the hand-traced
entries across the two environments (:mod:`oipr_bench.atlas.disagreements.cross_env`) and the
atlas's NAB-score rows against oipr-bench's NAB (:mod:`oipr_bench.atlas.disagreements.nab_rows`).
"""

from __future__ import annotations

from typing import Any

from .corpus import Series, dataset_series, differential, edge_cases, events_text
from .cross_env import render_cross_env
from .nab_rows import render_nab_rows
from .verdicts import INTRO, VERDICTS

__all__ = ["render_disagreements"]


def _versions(labels: list[str]) -> str:
    from .groups import groups

    seen = {}
    for g in groups():
        for m in g.members:
            seen[m.label] = m.adapter.version or "not installed"
    return ", ".join(dict.fromkeys(f"{label.split(':')[0]} {seen.get(label, '?')}" for label in labels))


def _repro(kind: str, index: int, inputs: list[Series], run: dict[str, Any]) -> list[str]:
    s = inputs[index]
    out = [f"  - {kind}: `{s.label}`, length {len(s.y_true)}, y_true {events_text(s.y_true)}, y_pred {events_text(s.y_pred)}"]
    for label, outs in zip(run["members"], run["outcomes"]):
        out.append(f"    - {label}: {outs[index].text()}")
    return out


def _counts(r: Any) -> str:
    return f"{r.disagreements} differ, {r.crashes} crash, {r.out_of_range} outside [0,1], {r.dtype_differs} bool!=int8"


def _member_lines(cases: dict[str, Any], diff: dict[str, Any], case_inputs: list[Series], diff_inputs: list[Series]) -> list[str]:
    out = ["| member | 25 cases | differential |", "|---|---|---|"]
    for rc, rd in zip(cases["results"], diff["results"]):
        out.append(f"| {rc.label} | {_counts(rc)} | {_counts(rd)} |")
    out.append("")
    for rc, rd in zip(cases["results"], diff["results"]):
        lines = []
        for run, res, inputs in ((cases, rc, case_inputs), (diff, rd, diff_inputs)):
            for kind, idx in (("disagrees with the reference", res.first), ("crashes", res.first_crash),
                              ("outside [0, 1]", res.first_out_of_range), ("bool prediction scores differently from int8", res.first_dtype)):
                if idx is not None:
                    lines += _repro(kind, idx, inputs, run)
        if lines:
            out += [f"- **{rc.label}**, smallest reproductions:"] + lines
    return out


def render_disagreements(results: list[tuple[Any, dict[str, Any], dict[str, Any]]]) -> str:
    """The Markdown text of ``DISAGREEMENTS.md``."""
    case_inputs = dataset_series()
    out = ["# Disagreements between implementations of the same metric", "",
           "Written by `oipr-bench atlas --disagreements` (do not edit).", "", *INTRO, "",
           "Inputs: the dataset's 25 cases (a random-detector case contributes its first run) and a differential of "
           f"short series: {len(edge_cases())} named edge cases and 2000 seeded random series (400 for the VUS and "
           "PATE-on-scores groups, whose members take 0.1 to 0.3 s per call even on 8 to 48 points).", ""]
    out += ["## Summary", "", "| group | members | agree on all 25 cases and the differential |", "|---|---|---|"]
    for group, cases, diff in results:
        agree = all(r.disagreements == 0 and r.crashes == 0 for r in cases["results"] + diff["results"])
        out.append(f"| {group.name} | {len(cases['members'])} | {'yes' if agree else 'no'} |")
    out.append("")
    for group, cases, diff in results:
        out += [f"## {group.name}", "", f"Setting: {group.setting}. Follows: {group.paper}.",
                f"Versions: {_versions(cases['members'])}. Reference (first row): {cases['members'][0] if cases['members'] else '-'}.", ""]
        for label, reason in cases["unavailable"].items():
            out.append(f"- {label}: could not be loaded: {reason}")
        out.append(f"Differential: {len(edge_cases()) + group.n_random} series.")
        out += _member_lines(cases, diff, case_inputs, differential(group.n_random)) + [""]
        out += ["**Verdict.** " + VERDICTS.get(group.name, "(no verdict written)"), ""]
    out += render_cross_env()
    out += render_nab_rows()
    return "\n".join(out).rstrip() + "\n"
