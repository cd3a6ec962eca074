"""Two atlases compared cell by cell (``oipr-bench atlas --diff OLD NEW``): the folders, the references, the classification.

Room 6 of the atlas (layer 8): may import layers 0-7, ``atlas.adapters``, ``atlas.running``, the grid at ``atlas``'s own level
and ``atlas.disagreements``.
"""
