"""Calling a user's evaluator safely: resolving its spec (and where code a report names may come from), guarded calls in or out of process, its output streams, coercing results, its declared attributes.

Room 1 of the audit core (layer 5): may import layers 0-4 only; nothing else of ``auditing``.
"""
