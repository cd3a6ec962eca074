"""The audit core: call an evaluator safely on the cases, read its results, judge each characteristic.

Layer 5 of 9 (see docs/architecture.md): may import the shared top-level modules, ``scenarios``,
``evaluators``, ``testing`` and ``reference``; never ``plots``, ``reports`` or a front end.

Flow: :mod:`.resolve` (evaluator spec) -> :mod:`.options` -> :mod:`.profiles` (the session) ->
:mod:`.case_runs` / :mod:`.runner` (guarded calls, :mod:`.isolation`, :mod:`.coerce`) ->
:mod:`.readings` / :mod:`.rules` / :mod:`.characteristics` (verdicts), :mod:`.sanity`,
:mod:`.comparison` (reference values), :mod:`.expectations` -> :mod:`.results` (the profile) and
:mod:`.render` (its plain-text form).  Regression testing: :mod:`.differential` (the evaluator
against a reference on generated pairs) and :mod:`.shrink`, :mod:`.case_sets` (a user's own cases),
:mod:`.signature` and :mod:`.verify` (recompute a report); :mod:`.assembly` orders a profile.
"""
