"""Metric properties beyond Table 5: running a property family, its rules, its results, the property search.

Room 4 of the audit core (layer 5): may import layers 0-4, ``auditing.calling``, ``auditing.table5`` and the options/expectations at ``auditing``'s own level.
"""
