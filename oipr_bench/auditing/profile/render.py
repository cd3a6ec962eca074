"""Text and Markdown tables: one renderer for every table oipr-bench prints.

:func:`table` lays out a header and rows as aligned plain text or as a
Markdown table; the audit profile (:func:`render_profile`), ``oipr-bench
profile`` and the reproduction tables (:mod:`oipr_bench.reports.reproduce`) all use it.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ...evaluators import SCORE_NAMES

from ..table5.readings import KIND_PR, KIND_SCORE
from ...vocabulary import DEVIATION, FAILED, NOT_APPLICABLE, NOT_RUN, PASSED, UNDETERMINED, UNEXPECTED_PASS
from ...vocabulary import REPORTED, SUITE_PROPERTIES, SUITE_TABLE5
from ..run_record import present_items

__all__ = ["table", "cell", "STATUS_TEXT", "render_profile", "render_characteristics", "render_properties", "render_cases"]

#: How each status is shown in tables.
STATUS_TEXT = {
    PASSED: "ok",
    FAILED: "FAILED",
    DEVIATION: "xfail (declared)",
    UNEXPECTED_PASS: "XPASS",
    UNDETERMINED: "UNDETERMINED",
    NOT_APPLICABLE: "not applicable",
    NOT_RUN: "not run",
    REPORTED: "reported",
}


def table(header: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool = False, *, rule: bool = False) -> list[str]:
    """Lines of a table: columns padded to width (plain) or ``| a | b |`` (Markdown, ``|`` escaped).

    ``rule=True`` puts a line of dashes under a plain header.
    """
    if markdown:
        esc = [[c.replace("|", "\\|") for c in r] for r in [header, *rows]]
        lines = ["| " + " | ".join(esc[0]) + " |", "|" + "|".join("---" for _ in header) + "|"]
        return lines + ["| " + " | ".join(r) + " |" for r in esc[1:]]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()

    out = [line(header)]
    if rule:
        out.append("  ".join("-" * w for w in widths))
    return out + [line(r) for r in rows]


def cell(x: float | None, decimals: int = 4) -> str:
    """A number at ``decimals`` decimals; ``-`` for None, ``nan`` for NaN."""
    return "-" if x is None else ("nan" if math.isnan(x) else f"{x:.{decimals}f}")


def render_characteristics(profile: Any, markdown: bool = False) -> list[str]:
    """The profile table: characteristic, observed, expected, status, evidence."""
    from ..table5.characteristics import DEFAULT_EXPECTED
    from ...vocabulary import CHARACTERISTICS

    rows = []
    for name in CHARACTERISTICS:
        r = profile.characteristic_results.get(name)
        if r is None:
            rows.append([name, "-", " or ".join(DEFAULT_EXPECTED[name]), STATUS_TEXT[NOT_RUN], ""])
            continue
        exp = " or ".join(r.expectation.values)
        if r.expectation.source != "default":
            exp += f" [{r.expectation.source}]"
        if profile.profile_only:
            exp = "-"  # no expected row: observed values only
        status = r.expectation.differs() if r.status == FAILED else STATUS_TEXT.get(r.status, r.status)
        rows.append([name, r.observed or "-", exp, status, r.message])
    return table(["characteristic", "observed", "expected", "status", "evidence"], rows, markdown)


def render_properties(profile: Any, markdown: bool = False) -> list[str]:
    """The metric properties table: property, input, observed, expected, status, evidence."""
    rows = []
    for r in profile.property_results.values():
        exp = "-" if r.expectation is None else " or ".join(r.expectation.values) + f" [{r.expectation.source}]"
        rows.append([r.name, r.input, r.observed or "-", exp, STATUS_TEXT.get(r.status, r.status), r.message])
    return table(["property", "input", "observed", "expected", "status", "evidence"], rows, markdown)


def render_cases(profile: Any, markdown: bool = False) -> list[str]:
    """The compact per-case table: P, R, F1 (means for random cases) and status."""
    scalar = profile.kind == KIND_SCORE
    rows = []
    for r in profile.case_results.values():
        if scalar:
            vals = ["-" if r.score is None else cell(r.score.f1)]
        else:
            vals = ["-", "-", "-"] if r.score is None else [cell(v) for v in r.score]
        rows.append([r.case_id, str(r.n_runs), *vals, "ok" if r.ok else f"{r.status}: {r.message}"])
    return table(["case", "runs", *(["score"] if scalar else ["P", "R", "F1"]), "status"], rows, markdown)


def describe_kind(profile: Any) -> str:
    """One line: what the evaluator takes and returns, and how a scalar is read."""
    d = profile.declarations
    takes = "anomaly scores (float64)" if d.input_kind == "scores" else "0/1 predictions"
    if profile.kind == KIND_SCORE:
        lo, hi = ("open" if math.isinf(b) else f"{b:g}" for b in d.bounds)
        way = "higher" if d.higher_is_better else "lower"
        returns = f"one number (a score; {way} is better; bounds {lo} to {hi})"
    elif profile.kind == KIND_PR:
        returns = "precision and recall"
    else:
        returns = "nothing usable (no call succeeded)"
    return f"evaluator kind {profile.kind or '-'}: takes {takes}, returns {returns}"


def render_differential(profile: Any) -> list[str]:
    """Lines on the differential run: one per family, and each failing family's shrunk counterexample."""
    res = list(profile.differential_results.values())
    if not res:
        return []
    first, name = res[0], profile.reference['name'] if profile.reference else '-'
    pair = "case" if name in SCORE_NAMES else "pair"  # a score reference's families hold (y_true, scores) cases
    lines = ["", f"differential against {name} (seed {first.seed}, {first.n} {pair}s per family):"]
    for r in res:
        if r.status == PASSED:
            lines.append(f"  {r.family}: {STATUS_TEXT[PASSED]} ({r.checked} {pair}s, {r.seconds:.2f} s)")
        else:
            lines.append(f"  {r.family}: {STATUS_TEXT[FAILED]} at {pair} {(r.index or 0) + 1}")
            lines += [f"    {line}" for line in r.message.splitlines()[1:]]
    return lines


def render_profile(profile: Any, markdown: bool = False) -> str:
    """The whole profile as text: header, characteristics, sanity, reference, cases.

    A multi-line sanity message (``property-search``) shows its first line only;
    :meth:`Profile.failures` has all of it.
    """
    params = ", ".join(f"{k}={v!r}" for k, v in profile.params.items()) or "none"
    lines = [
        f"{'## ' if markdown else ''}oipr-bench profile of {profile.evaluator} (parameters: {params})",
        f"oipr-bench {profile.package_version}, dataset {profile.dataset_version}",
        f"signature: {profile.signature}",
        describe_kind(profile),
        *([f"{profile.run.describe(present_items(profile))} (never ok)"] if not profile.complete else []),
        *(["profile only (no expected row): observed values, reported not judged; a failing case or sanity check "
           "still fails"] if profile.profile_only else []),
        "",
    ]
    suite = profile.options.get("suite", SUITE_TABLE5)
    if suite != SUITE_PROPERTIES:
        if profile.declarations.input_kind == "scores":
            lines += ["Table 5 (its 0/1 predictions handed over as 0.0/1.0 scores)"]
        lines += render_characteristics(profile, markdown)
    if suite != SUITE_TABLE5:
        lines += ([""] if suite != SUITE_PROPERTIES else []) + [
                  "metric properties (reported, not judged, unless declared or set by --reference; docs/properties.md)"]
        lines += render_properties(profile, markdown)
    if profile.sanity_results:
        lines += ["", "sanity: " + ", ".join(
            f"{n} {STATUS_TEXT.get(r.status, r.status)}" + (f" ({r.message.splitlines()[0]})" if r.message else "")
            for n, r in profile.sanity_results.items()
        )]
    if profile.reference is not None and profile.reference["name"] in SCORE_NAMES and not profile.reference_results:
        lines += ["", f"reference {profile.reference['name']}: a score evaluator, compared on generated cases only"]
    elif profile.reference is not None:
        res = list(profile.reference_results.values())
        bad = [r for r in res if r.status != PASSED]
        ref = profile.reference
        lines += ["", f"reference {ref['name']} (against {ref['against']}): {len(res) - len(bad)} of {len(res)} cases match"]
        lines += [f"  {r.case_id}: {r.message}" for r in bad]
        if ref["name"] in SCORE_NAMES and not profile.options.get("differential"):
            lines.append("  warning: these cases hold only 0/1 scores (each 0/1 prediction as 0.0/1.0), so a bug in how "
                         "real scores are ranked, tied or thresholded cannot show here; add --differential N (generated "
                         "real-valued cases, e.g. 100; docs/regression-testing.md)")
    lines += render_differential(profile)
    draws = profile.options.get("chance_draws")
    if draws:
        lines += ["", f"chance anchors: means over the first {draws} of 10 uniform-random score series only (a reduced audit)"]
    if suite != SUITE_PROPERTIES:
        way = "higher" if profile.declarations is None or profile.declarations.higher_is_better else "lower"
        shown = f"score, {way} is better" if profile.kind == KIND_SCORE else "P / R / F1"
        runs = profile.options.get("random_runs")
        over = f"means over their first {runs} runs only (a reduced audit)" if runs else "means over the runs"
        lines += ["", f"cases ({shown}; random-detector cases: {over})"]
        lines += render_cases(profile, markdown)
    return "\n".join(lines) + "\n"
