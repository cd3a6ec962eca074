"""The pytest front end: ``pytest --evaluator=...`` audits an evaluator as pytest items.

Layer 9 of 9 (a front end, beside ``cli``; see docs/architecture.md): may import every layer
below it, never ``cli``.

* :mod:`.plugin` -- options, hooks and the report (registered as the ``pytest11`` entry point);
* :mod:`.items` -- the collector and one item per check;
* :mod:`.realdata` -- ``--oipr-realdata``: the evaluator among the built-ins on NAB's real detectors.
"""
