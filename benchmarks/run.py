"""Speed and memory benchmark of the seven reference evaluators and the NAB score (run on demand).

Usage (from the repository root, with oipr-bench installed)::

    python benchmarks/run.py                  # N = 1e5, 1e6, 1e7; best of 3
    python benchmarks/run.py --quick          # N = 1e4, 1e5; best of 2 (smoke run)
    python benchmarks/run.py --sizes 1e6 --repeat 5 --evaluators OIPR,PW

What is measured
----------------
For each series length N a fixed-seed synthetic pair is generated once: about
1 % of the points are anomalous, in events of 1-60 points; the prediction
detects most events partially (shifted, fragmented), misses some, and adds
isolated and clustered false positives.  The pair is saved as ``.npy`` files
and every measurement runs in a **fresh Python subprocess** that loads them:

* wall time: ``time.perf_counter`` around ``evaluator(y_true, y_pred)``
  (input checking included), best of ``--repeat`` calls after one untimed
  warm-up call;
* peak memory, two ways: ``RSS+`` is the growth of the process's peak
  resident set (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) over the
  baseline taken after the imports, the data load and the construction of
  the evaluator, i.e. the extra memory the warm-up and timed calls needed
  (the driver never holds the data itself, because Linux carries a process's
  peak RSS over into the programs it starts);
  ``traced`` is the ``tracemalloc`` peak of one extra call (NumPy reports its
  array allocations to tracemalloc, so this counts the arrays the call
  allocates).
* the literal Algorithm 1 (:func:`oipr_bench.evaluators.oracles.oipr.oipr_oracle`, a
  per-point Python loop) on the same pair, up to ``--literal-max``
  points (default 1e6), on plain Python lists (the conversion is not timed);
  best of ``min(--repeat, 3)`` calls; in the same subprocess the vectorised
  OIPR is timed interleaved with it (3 calls after each literal call), so
  that both see the same machine load.  Each round gives a ratio (that
  literal call / the best of its 3 OIPR calls); the target is judged on the
  median round ratio and the spread (min / median / max) is printed, with
  the ratio of the best times and the ratio against OIPR's fresh-process row
  for information (the fresh-process ratio swings on a loaded machine).
* worst cases (``--worst-size``, default the largest size): for each
  evaluator one subprocess times the typical pair and the families of
  :data:`FAMILIES` in interleaved rounds (best of ``--repeat``) and takes the
  tracemalloc peak of one call per family; the CPU time (``time.process_time``)
  of the same calls is printed beside the wall-time ratio the target is judged on.

* the NAB score (``evaluators.get("NAB")``, one number) in the same rows, and up to
  ``--literal-max`` points its literal loop-by-loop oracle
  (:func:`oipr_bench.evaluators.oracles.nab.nab_oracle`) interleaved with it in one process as
  for OIPR: NAB's row is printed beside that baseline (the ratio of the median round, and whether
  both give the same number, 1e-9 relative).  NAB has no time target of its own.

Targets: OIPR at 1e6 >= 100x faster than literal; every evaluator
<= 0.1 s at 1e6; OIPR at 1e7 <= 1 s and peak memory <= 1 GB.  Worst cases:
every evaluator's worst family within 3x of its typical time and under
300 MB (tracemalloc peak).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np

NAMES = ("PW", "PA", "PA%K", "RP/RR", "TaPR", "AM", "OIPR")
#: The one-number evaluators of 0/1 predictions measured beside them (their score is one float).
ONE_NUMBER = ("NAB",)
LITERAL = "literal OIPR (Algorithm 1)"
LITERAL_NAB = "literal NAB (loop oracle)"
SEED = 20240601


# --------------------------------------------------------------------------- data


def make_pair(n: int, seed: int = SEED, anomaly_rate: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    """A fixed-seed ``(y_true, y_pred)`` int8 pair of length ``n`` (~1 % anomalies in events)."""
    rng = np.random.default_rng(seed)
    y_true = np.zeros(n, dtype=np.int8)
    y_pred = np.zeros(n, dtype=np.int8)
    mean_len = 30.5  # event lengths uniform in 1..60
    n_events = max(1, int(round(n * anomaly_rate / mean_len)))
    slot = n // n_events  # one event per slot, so events never touch
    lengths = rng.integers(1, 61, size=n_events)
    lengths = np.minimum(lengths, max(1, slot - 2))
    offsets = (rng.random(n_events) * (slot - lengths - 1)).astype(np.int64) + 1
    starts = np.arange(n_events, dtype=np.int64) * slot + offsets
    ends = starts + lengths
    _fill(y_true, starts, ends)

    # Prediction: 85 % of events detected, each by a shifted window of 30-100 % of
    # its length (start shifted by -3..+5 points), some of them fragmented.
    detected = rng.random(n_events) < 0.85
    frac = rng.uniform(0.3, 1.0, n_events)
    p_len = np.maximum(1, (lengths * frac).astype(np.int64))
    p_start = np.clip(starts + rng.integers(-3, 6, n_events), 0, n - 1)
    p_end = np.minimum(p_start + p_len, n)
    _fill(y_pred, p_start[detected], p_end[detected])
    holes = rng.random(n) < 0.05  # fragments: drop 5 % of the predicted points
    y_pred[holes & (y_pred == 1)] = 0
    # False positives: isolated points (0.2 %) and short bursts.
    y_pred[rng.random(n) < 0.002] = 1
    n_bursts = max(1, n // 20_000)
    b_start = rng.integers(0, n - 10, n_bursts)
    _fill(y_pred, b_start, b_start + rng.integers(2, 10, n_bursts))
    return y_true, y_pred


def _fill(y: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> None:
    """Set ``y[s:e] = 1`` for every pair, without a Python loop over points."""
    delta = np.zeros(y.shape[0] + 1, dtype=np.int32)
    np.add.at(delta, starts, 1)
    np.add.at(delta, ends, -1)
    y[np.cumsum(delta[:-1]) > 0] = 1


#: Worst-case families, each derived from the typical pair of the same length
#: (streamed kernels).  "typical" is the fixed-seed pair of :func:`make_pair`.
FAMILIES = ("typical", "all-ones", "alternating", "one-event", "tiny-events")
FAMILY_NOTES = {
    "typical": "the fixed-seed pair above (about 1 % anomalous, events of 1-60 points)",
    "all-ones": "the typical ground truth against an all-ones prediction (one predicted event)",
    "alternating": "y_true = y_pred = 1, 0, 1, 0, ... (T/2 one-point events in each, the most possible)",
    "one-event": "one ground-truth event covering the whole series against the typical prediction",
    "tiny-events": "one-point ground-truth events about every 20 points; one-point predictions "
    "near most of them plus 1 % isolated false positives",
}


def family_pair(family: str, y_true: np.ndarray, y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``(y_true, y_pred)`` int8 pair of ``family`` built from the typical pair of the same length."""
    n = y_true.shape[0]
    if family == "typical":
        return y_true, y_pred
    if family == "all-ones":
        return y_true, np.ones(n, dtype=np.int8)
    if family == "alternating":
        alt = np.zeros(n, dtype=np.int8)
        alt[0::2] = 1
        return alt, alt.copy()
    if family == "one-event":
        return np.ones(n, dtype=np.int8), y_pred
    if family == "tiny-events":
        return _tiny_events(n)
    raise ValueError(f"unknown family {family!r}; choose from {', '.join(FAMILIES)}")


def _tiny_events(n: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """One-point events every 20 points (jittered), predictions near 80 % of them, 1 % false positives."""
    rng = np.random.default_rng(seed + 1)
    truth = np.arange(0, n, 20, dtype=np.int64) + rng.integers(0, 10, (n + 19) // 20)
    truth = truth[truth < n]
    y_true = np.zeros(n, dtype=np.int8)
    y_true[truth] = 1
    found = truth[rng.random(truth.shape[0]) < 0.8]
    found = np.clip(found + rng.integers(-2, 3, found.shape[0]), 0, n - 1)
    y_pred = np.zeros(n, dtype=np.int8)
    y_pred[found] = 1
    y_pred[rng.random(n) < 0.01] = 1
    return y_true, y_pred


# --------------------------------------------------------------------------- worker (fresh subprocess)


def _maxrss_bytes() -> int:
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss if sys.platform == "darwin" else rss * 1024  # Linux reports KiB


def worker(name: str, data_dir: str, repeat: int) -> dict:
    """Measure one evaluator (or the literal Algorithm 1) on the saved pair; return a JSON-able dict."""
    if name.startswith("generate:"):
        y_true, y_pred = make_pair(int(name.split(":", 1)[1]))
        np.save(os.path.join(data_dir, "y_true.npy"), y_true)
        np.save(os.path.join(data_dir, "y_pred.npy"), y_pred)
        return {"share": float(y_true.mean())}
    y_true = np.load(os.path.join(data_dir, "y_true.npy"))
    y_pred = np.load(os.path.join(data_dir, "y_pred.npy"))
    if name == LITERAL:
        return _literal_worker(y_true, y_pred, repeat)
    if name == LITERAL_NAB:
        return _literal_nab_worker(y_true, y_pred, repeat)
    if name.startswith("worst:"):
        return _families_worker(name.split(":", 1)[1], y_true, y_pred, repeat)
    return _evaluator_worker(name, y_true, y_pred, repeat)


def _evaluator_worker(name: str, y_true: np.ndarray, y_pred: np.ndarray, repeat: int) -> dict:
    import gc

    from oipr_bench import evaluators

    evaluator = evaluators.get(name)
    gc.collect()
    base = _maxrss_bytes()
    score = evaluator(y_true, y_pred)  # warm-up (imports, caches)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        score = evaluator(y_true, y_pred)
        times.append(time.perf_counter() - t0)
    rss = _maxrss_bytes() - base
    return {"time": min(times), "rss": rss, "traced": _traced_peak(evaluator, y_true, y_pred),
            "score": _floats(score)}


def _floats(score) -> list[float]:  # type: ignore[no-untyped-def]
    """An evaluator's result as a list: (P, R, F1), or one number (NAB) as a one-item list."""
    return [float(score)] if np.ndim(score) == 0 else list(map(float, score))


def _literal_nab_worker(y_true: np.ndarray, y_pred: np.ndarray, repeat: int) -> dict:
    """NAB's loop-by-loop oracle interleaved with the vectorised NAB: both see the same machine load."""
    import gc

    from oipr_bench import evaluators
    from oipr_bench.evaluators.oracles.nab import nab_oracle

    t_list, p_list = y_true.tolist(), y_pred.tolist()
    gc.collect()
    base = _maxrss_bytes()
    fast = evaluators.get("NAB")
    value = fast(y_true, y_pred)  # warm-up of the vectorised one
    times, fast_times, ratios = [], [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        literal = nab_oracle(t_list, p_list)
        times.append(time.perf_counter() - t0)
        round_fast = []
        for _ in range(3):
            t0 = time.perf_counter()
            value = fast(y_true, y_pred)
            round_fast.append(time.perf_counter() - t0)
        fast_times.extend(round_fast)
        ratios.append(times[-1] / min(round_fast))
    return {"time": min(times), "rss": _maxrss_bytes() - base, "traced": None, "score": [float(literal)],
            "fast_score": [float(value)], "fast_time_same_process": min(fast_times), "round_ratios": ratios}


def _traced_peak(evaluator, y_true: np.ndarray, y_pred: np.ndarray) -> int:  # type: ignore[no-untyped-def]
    """The tracemalloc peak of one call (NumPy reports its array allocations to tracemalloc)."""
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    evaluator(y_true, y_pred)
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return traced


def _literal_worker(y_true: np.ndarray, y_pred: np.ndarray, repeat: int) -> dict:
    """Literal Algorithm 1 interleaved with the vectorised OIPR: both see the same machine load."""
    import gc

    from oipr_bench import evaluators
    from oipr_bench.evaluators.oracles.oipr import oipr_oracle

    t_list, p_list = y_true.tolist(), y_pred.tolist()
    gc.collect()
    base = _maxrss_bytes()
    fast = evaluators.get("OIPR", l_dis=5, l_obs=20, b_dur=0.5, attenuation="sigmoid")
    fast(y_true, y_pred)  # warm-up of the vectorised one
    times, fast_times, ratios = [], [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        precision, recall = oipr_oracle(t_list, p_list, 5, 20, 0.5, "sigmoid")
        times.append(time.perf_counter() - t0)
        round_fast = []
        for _ in range(3):
            t0 = time.perf_counter()
            fast(y_true, y_pred)
            round_fast.append(time.perf_counter() - t0)
        fast_times.extend(round_fast)
        ratios.append(times[-1] / min(round_fast))  # this round's literal call / its best OIPR call
    return {"time": min(times), "rss": _maxrss_bytes() - base, "traced": None, "score": [precision, recall],
            "oipr_time_same_process": min(fast_times), "round_ratios": ratios}


def _families_worker(name: str, y_true: np.ndarray, y_pred: np.ndarray, repeat: int) -> dict:
    """Every family for one evaluator in one process, timed in interleaved rounds (best of ``repeat``)."""
    from oipr_bench import evaluators

    pairs = {f: family_pair(f, y_true, y_pred) for f in FAMILIES}
    evaluator = evaluators.get(name)
    for t, p in pairs.values():
        evaluator(t, p)  # warm-up
    times: dict[str, list[float]] = {f: [] for f in FAMILIES}
    cpu: dict[str, list[float]] = {f: [] for f in FAMILIES}
    for _ in range(repeat):
        for f, (t, p) in pairs.items():
            c0, t0 = time.process_time(), time.perf_counter()
            evaluator(t, p)
            times[f].append(time.perf_counter() - t0)
            cpu[f].append(time.process_time() - c0)
    return {
        "time": {f: min(v) for f, v in times.items()},
        "cpu": {f: min(v) for f, v in cpu.items()},
        "traced": {f: _traced_peak(evaluator, t, p) for f, (t, p) in pairs.items()},
        "score": {f: _floats(evaluator(t, p)) for f, (t, p) in pairs.items()},
    }


def _run_worker(name: str, data_dir: str, repeat: int) -> dict:
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", name, "--data", data_dir, "--repeat", str(repeat)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["worker failed"])[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------- driver

#: Worst-case targets: every family within this factor of the typical time, at most this memory.
WORST_TIME_FACTOR = 3.0
WORST_MEMORY = 300 * 2**20


def _mb(n_bytes: float | None) -> str:
    return "-" if n_bytes is None else f"{n_bytes / 2**20:.1f}"


def _parse_sizes(text: str) -> list[int]:
    try:
        return [int(float(s)) for s in text.split(",") if s.strip()]
    except ValueError:
        raise SystemExit(f"run.py: --sizes must be comma-separated numbers such as 1e5,1e6; got {text!r}") from None


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1e5,1e6,1e7", help="comma-separated series lengths (default 1e5,1e6,1e7)")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per evaluator; the best is reported (default 3)")
    parser.add_argument("--quick", action="store_true", help="smoke run: sizes 1e4,1e5, repeat 2")
    parser.add_argument("--evaluators", default=",".join(NAMES + ONE_NUMBER),
                        help="comma-separated evaluator names (default: all seven and NAB)")
    parser.add_argument("--literal-max", type=float, default=1e6, help="largest N for the literal Algorithm 1 (default 1e6)")
    parser.add_argument("--worst-size", type=float, default=None,
                        help="N of the worst-case families (default: the largest of --sizes; 0 skips them)")
    parser.add_argument("--json", metavar="FILE", help="also write the raw measurements to FILE")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def _print_header(repeat: int) -> None:
    import oipr_bench

    print(f"oipr-bench {oipr_bench.__version__} benchmark, {date.today().isoformat()}")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.processor() or platform.platform()}; "
        f"Python {platform.python_version()}, NumPy {np.__version__}; load average {_load()}"
    )
    print(f"best of {repeat} timed calls after a warm-up; each evaluator in a fresh subprocess")
    print("RSS+ = growth of peak RSS (ru_maxrss) over the baseline after imports and data load; "
          "traced = tracemalloc peak of one call")
    print()


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except (AttributeError, OSError):
        return "n/a"


def _generate(n: int, tmp: str) -> str:
    # Generated in a subprocess: Linux keeps a process's peak RSS across fork+exec,
    # so the driver must stay small for the workers' ru_maxrss baselines to be their own.
    gen = _run_worker(f"generate:{n}", tmp, 1)
    if "error" in gen:
        raise SystemExit(f"run.py: data generation failed for N={n}: {gen['error']}")
    return f"{gen['share'] * 100:.2f} %"


def _typical_table(sizes: list[int], names: list[str], repeat: int, literal_max: float, tmp: str) -> list[dict]:
    records = []
    header = f"{'N':>10}  {'evaluator':<27} {'time (s)':>10} {'RSS+ (MB)':>10} {'traced (MB)':>11} {'anomalies':>10}"
    print(header)
    print("-" * len(header))
    for n in sizes:
        share = _generate(n, tmp)
        jobs = list(names) + ([LITERAL] if "OIPR" in names and n <= literal_max else [])
        jobs += [LITERAL_NAB] if "NAB" in names and n <= literal_max else []
        for name in jobs:
            res = _run_worker(name, tmp, min(repeat, 3) if name in (LITERAL, LITERAL_NAB) else repeat)
            records.append({"n": n, "evaluator": name, **res})
            if "error" in res:
                print(f"{n:>10}  {name:<27} FAILED: {res['error']}")
            else:
                print(f"{n:>10}  {name:<27} {res['time']:>10.4f} {_mb(res['rss']):>10} {_mb(res['traced']):>11} {share:>10}")
            sys.stdout.flush()
    return records


def _worst_table(n: int, names: list[str], repeat: int, tmp: str) -> list[dict]:
    """Typical and worst-case families side by side at ``n`` points, one process per evaluator."""
    _generate(n, tmp)
    print()
    print(f"Worst cases at N={n}: per evaluator one process, the families timed in interleaved rounds "
          f"(best of {repeat}); time in s / tracemalloc peak of one call in MB")
    for f in FAMILIES:
        print(f"  {f}: {FAMILY_NOTES[f]}")
    header = f"{'evaluator':<9}" + "".join(f"{f:>20}" for f in FAMILIES) + f"{'worst/typical':>15}{'(CPU)':>8}"
    print(header)
    print("-" * len(header))
    records = []
    for name in names:
        res = _run_worker(f"worst:{name}", tmp, repeat)
        records.append({"n": n, "evaluator": name, "families": res})
        if "error" in res:
            print(f"{name:<9} FAILED: {res['error']}")
            continue
        cells = "".join(f"{res['time'][f]:>11.4f}/{_mb(res['traced'][f]):>7}" + " " for f in FAMILIES)
        print(f"{name:<9}{cells}{_worst_ratio(res)[1]:>14.1f}x{_worst_ratio(res, 'cpu')[1]:>7.1f}x")
        sys.stdout.flush()
    return records


def _worst_ratio(res: dict, clock: str = "time") -> tuple[str, float]:
    """The slowest family relative to the typical pair, as ``(family, factor)``.

    ``clock`` is ``"time"`` (wall time, what the target is judged on) or ``"cpu"``
    (``time.process_time``, printed beside it: on a shared machine it shows how much
    of a wall-time ratio is the queue).
    """
    typical = res[clock]["typical"]
    family = max((f for f in FAMILIES if f != "typical"), key=lambda f: res[clock][f])
    return family, res[clock][family] / typical


def _literal_summary(sizes: list[int], by: dict) -> None:
    print()
    print("OIPR vs the literal Algorithm 1 (same data; interleaved in one process):")
    for n in sizes:
        fast, slow = by.get((n, "OIPR")), by.get((n, LITERAL))
        if not slow:
            continue
        same = slow["oipr_time_same_process"]
        spread = sorted(slow["round_ratios"])
        line = (f"  N={n:>9}: literal {slow['time']:.3f} s, OIPR {same:.4f} s interleaved, ratio {slow['time'] / same:.0f}x; "
                f"per-round spread min/median/max {spread[0]:.0f}x / {statistics.median(spread):.0f}x / {spread[-1]:.0f}x")
        if fast:
            agree = all(abs(a - b) < 1e-9 for a, b in zip(fast["score"], slow["score"]))
            line += f"; OIPR's fresh-process row {slow['time'] / fast['time']:.0f}x (P/R agree: {'yes' if agree else 'NO'})"
        print(line)


def _nab_summary(sizes: list[int], by: dict) -> None:
    """NAB's row beside its baseline, the literal oracle timed in the same process."""
    rows = [(n, by.get((n, "NAB")), by.get((n, LITERAL_NAB))) for n in sizes]
    rows = [(n, fast, slow) for n, fast, slow in rows if slow]
    if not rows:
        return
    print()
    print("NAB vs its literal loop oracle (same data; interleaved in one process):")
    for n, fast, slow in rows:
        same = slow["fast_time_same_process"]
        spread = sorted(slow["round_ratios"])
        a, b = slow["fast_score"][0], slow["score"][0]
        agree = abs(a - b) <= 1e-9 * max(1.0, abs(b))
        line = (f"  N={n:>9}: literal {slow['time']:.3f} s, NAB {same:.4f} s interleaved, median round ratio "
                f"{statistics.median(spread):.0f}x (min/max {spread[0]:.0f}x / {spread[-1]:.0f}x); "
                f"score {a:.6f}, same number: {'yes' if agree else 'NO'}")
        if fast:
            line += f"; NAB's fresh-process row {fast['time']:.4f} s"
        print(line)


def _verdicts(records: list[dict], worst: list[dict], by: dict) -> list[bool | None]:
    print()
    print("Targets:")
    verdicts: list[bool | None] = []

    def verdict(label: str, ok: bool | None, detail: str) -> None:
        state = "n/a " if ok is None else ("MET " if ok else "MISS")
        verdicts.append(ok)
        print(f"  [{state}] {label}: {detail}")

    slow = by.get((10**6, LITERAL))
    if slow:
        ratio = statistics.median(slow["round_ratios"])
        verdict("OIPR >= 100x faster than literal at 1e6", ratio >= 100,
                f"{ratio:.0f}x (median over rounds interleaved in one process)")
    else:
        verdict("OIPR >= 100x faster than literal at 1e6", None, "not measured (needs N=1e6)")
    for r in (r for r in records if r["n"] == 10**6 and r["evaluator"] in NAMES):
        ok = "error" not in r and r["time"] <= 0.1
        verdict(f"{r['evaluator']} <= 0.1 s at 1e6", ok, "failed" if "error" in r else f"{r['time']:.4f} s")
    big = by.get((10**7, "OIPR"))
    if big:
        verdict("OIPR <= 1 s at 1e7", big["time"] <= 1.0, f"{big['time']:.3f} s")
        peak = max(big["rss"], big["traced"] or 0)
        verdict("OIPR peak memory <= 1 GB at 1e7", peak <= 2**30, f"{_mb(peak)} MB (max of RSS+ and traced)")
    for w in worst:
        res, label = w["families"], f"{w['evaluator']} worst case at N={w['n']} within {WORST_TIME_FACTOR:g}x typical, < 300 MB"
        if "error" in res:
            verdict(label, False, "failed")
            continue
        family, factor = _worst_ratio(res)
        heavy = max(FAMILIES, key=lambda f: res["traced"][f])
        ok = factor <= WORST_TIME_FACTOR and res["traced"][heavy] < WORST_MEMORY
        cpu_family, cpu_factor = _worst_ratio(res, "cpu")
        verdict(label, ok, f"slowest {family} {factor:.1f}x (CPU time: {cpu_family} {cpu_factor:.1f}x); "
                f"most memory {heavy} {_mb(res['traced'][heavy])} MB")
    return verdicts


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.data, max(1, args.repeat))))
        return 0
    sizes = [10**4, 10**5] if args.quick else _parse_sizes(args.sizes)
    repeat = 2 if args.quick else max(1, args.repeat)
    names = [n.strip() for n in args.evaluators.split(",") if n.strip()]
    unknown = [n for n in names if n not in NAMES + ONE_NUMBER]
    if unknown:
        raise SystemExit(f"run.py: unknown evaluator(s) {', '.join(unknown)}; choose from {', '.join(NAMES + ONE_NUMBER)}")
    worst_n = max(sizes) if args.worst_size is None else int(args.worst_size)

    _print_header(repeat)
    with tempfile.TemporaryDirectory(prefix="oipr-bench-") as tmp:
        records = _typical_table(sizes, names, repeat, args.literal_max, tmp)
        worst = _worst_table(worst_n, names, repeat, tmp) if worst_n > 0 else []
    by = {(r["n"], r["evaluator"]): r for r in records if "error" not in r}
    _literal_summary(sizes, by)
    _nab_summary(sizes, by)
    verdicts = _verdicts(records, worst, by)
    print(f"load average at the end: {_load()}")
    if args.json:
        Path(args.json).write_text(json.dumps(records + worst, indent=2) + "\n", encoding="utf-8")
    return 1 if any(v is False for v in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
