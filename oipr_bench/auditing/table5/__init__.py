"""The paper's Table 5: reading results on a metric's own scale, the characteristic rules and their findings, discrimination checks.

Room 2 of the audit core (layer 5): may import layers 0-4 and ``auditing.calling``.
"""
