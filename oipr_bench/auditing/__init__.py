"""The audit core: call an evaluator safely on the cases, read its results, judge each characteristic.

Layer 5 of 9 (see docs/architecture.md): may import the shared top-level modules, ``scenarios``,
``evaluators``, ``testing`` and ``reference``; never ``plots``, ``reports`` or a front end.

Its rooms, lowest first; a room may import the rooms below it, never one above
(``tests/test_architecture.py`` checks it):

1. :mod:`.calling` -- the user's code, safely: the evaluator spec (``resolve``), guarded calls
   (``runner``, ``isolation``, ``streams``), reading a result (``coerce``), declared attributes
   (``declarations``), option flags given once (``flags``).
2. :mod:`.table5` -- the paper's Table 5: results on the metric's own scale (``readings``), the
   rules, their findings, the characteristics, discrimination checks.
3. this level -- the audit's options (``options``, ``option_names``), declared expectations
   (``expectations``, ``declared``) and the record of what a run planned and ran (``run_record``).
4. :mod:`.properties` -- metric properties beyond Table 5 (``run``, ``rules``, ``results``, ``search``).
5. :mod:`.regression` -- differential runs (``differential``, ``shrink``), signatures, a user's own
   case sets (``case_sets``).
6. :mod:`.profile` -- the audit session (``profiles``), its results and report (``results``,
   ``render``, ``report_upgrade``, ``assembly``), case runs, reference comparison, sanity checks,
   ``verify`` (recompute a report) and the stored property reference values.
"""
