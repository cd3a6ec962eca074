"""Adapters of third-party metric packages (one module per package family) and their registry.

Room 1 of the atlas (layer 8): may import layers 0-7 only; nothing else of ``atlas``.
"""
