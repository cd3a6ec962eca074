"""Real detectors on real data: every metric's ranking of NAB's detectors, with bootstrap intervals.

Layer 6 of 9 (beside ``plots``, kept apart from it; see docs/architecture.md): may import every layer
below it up to ``auditing`` (the evaluators, the NAB reader of ``reference``, the guarded calling of
``auditing.calling``); never ``plots``, ``reports``, ``atlas`` or a front end.

* :mod:`.analysis` - plain functions over a metric x detector x series table: rankings, bootstrap
  intervals over series, the placement of ``random`` and ``null``, Kendall's tau between metrics with
  a cluster-bootstrap interval;
* :mod:`.protocol` - the protocol (labels, probationary rows, thresholds) and the built-in metrics;
* :mod:`.table` - walking a NAB corpus one result file at a time into that table, the user's
  evaluator called through the audit's guards;
* :mod:`.render` - the result as text, JSON, Markdown or CSV.
"""
