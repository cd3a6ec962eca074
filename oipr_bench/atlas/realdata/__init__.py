"""The atlas on real data (``oipr-bench atlas --realdata DIR``): every row ranking NAB's real detectors.

Room 3 of the atlas (layer 8): may import layers 0-7, ``atlas.adapters`` and ``atlas.running``; the grid
(``atlas``'s own level) reads its files to render them.  Modules: :mod:`.inputs` (NAB read once into
what every row takes), :mod:`.plan` (a row's cost probe and declared subset), :mod:`.work` (what a
worker runs), :mod:`.rowfiles` (one file per row and the summary: the durable cache), :mod:`.summary`
(rankings with intervals, tau with the row's reference and with NAB), :mod:`.render`, :mod:`.run`,
:mod:`.check` (a sample recomputed), :mod:`.place` (your metric beside the rows on real data).
"""
