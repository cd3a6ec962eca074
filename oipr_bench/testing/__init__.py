"""Testing aids for a user's own tests: hypothesis strategies that generate 0/1 series and event layouts.

Layer 3 of 9 (see docs/architecture.md): may import the shared top-level modules, ``scenarios``
and ``evaluators``; nothing above.

* :mod:`.strategies` -- ``binary_series``, ``series_pairs`` and friends.
* :mod:`.families` -- the seeded, named families of series pairs a differential run compares.
* :mod:`.sweeps` -- the event layouts of the sweeping families (cardinality, many events, percent boundaries).
* :mod:`.planted` -- copies of a built-in with one planted bug (targets for a differential run).
"""
