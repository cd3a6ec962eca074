"""Testing aids for a user's own tests: hypothesis strategies that generate 0/1 series and event layouts.

Layer 3 of 9 (see docs/architecture.md): may import the shared top-level modules, ``scenarios``
and ``evaluators``; nothing above.

* :mod:`.strategies` -- ``binary_series``, ``series_pairs`` and friends.
"""
