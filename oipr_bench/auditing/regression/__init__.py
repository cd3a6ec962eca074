"""Regression tools: differential runs against a reference on generated pairs, shrinking, signatures, a user's own case sets.

Room 5 of the audit core (layer 5): may import layers 0-4 and rooms 1-4 of ``auditing`` (``calling``, ``table5``, the options, ``properties``).
"""
