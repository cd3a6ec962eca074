"""Adapters of the metric packages installed in the atlas's modern pinned environment (atlas/requirements-modern.txt).

Part of room 1 of the atlas (``atlas.adapters``, layer 8): may import layers 0-7 and ``atlas.adapters.base``.
"""
