"""The atlas as a static site: a page and a badge per row, generated beside the grid by ``atlas --write``.

Room 7 of the atlas (layer 8): may import layers 0-7, ``atlas.adapters``, ``atlas.running``, the grid at ``atlas``'s own level
``atlas.disagreements`` and ``atlas.compare``.  Modules: :mod:`.thumbnails` (a case as a small SVG), :mod:`.references` (the
built-in evaluator a score row is compared with), :mod:`.badges` (a row's claim and its SVG),
:mod:`.pages` (a row's HTML page), :mod:`.files` (the ``pages/`` and ``badges/`` folders: written, checked).
"""
