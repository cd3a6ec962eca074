"""The disagreement study: the probe corpus, groups of "the same" metric, sampled comparisons, their verdicts and report.

Room 5 of the atlas (layer 8): may import layers 0-7, ``atlas.adapters``, ``atlas.running`` and the grid at ``atlas``'s own level.
"""
