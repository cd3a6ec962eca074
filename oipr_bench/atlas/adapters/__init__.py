"""Adapter modules of the metric atlas (one per package) and what they share.

On main the atlas adapters are moving here (``base`` was ``atlas/_adapter``);
this branch adds the packages of the second pinned environment ("modern",
docs/atlas.md) here first.
"""
