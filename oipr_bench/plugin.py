"""pytest plugin entry point (registered through ``pytest11``); inert unless ``--evaluator`` is given."""
