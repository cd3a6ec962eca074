"""The metric atlas: public TAD metric implementations profiled by oipr-bench.

Layer 8 of 9 (see docs/architecture.md): may import every layer below it; never a front end (``pytest_plugin``, ``cli``).

Its rooms, lowest first (a room imports only the rooms below it):

1. :mod:`.adapters` -- one adapter module per package family (``builtins``, ``tsadmetrics``, ``prts``,
   ``tsb_ad``, ``tadpak``, ``pate``, ``vus``, ``timeeval``) declaring its rows
   (:class:`~.adapters.base.Adapter`), and their ``registry``; no metric package is imported until a
   row is loaded.
2. :mod:`.running` -- the execution layer: every job as Dask tasks (:mod:`.running.tasks`), its options (:mod:`.running.options`) and the
   content-addressed result cache (:mod:`.running.cache`).
3. :mod:`.realdata` -- the atlas on real data: every row ranking NAB's detectors (``atlas --realdata``):
   the inputs, the declared subsets, the cells run on Dask, the per-row files, their analysis and rendering.
4. this level -- the grid: :mod:`.build` audits rows, :mod:`.store` reads/writes the ``atlas/``
   folder, :mod:`.render` draws the grid, :mod:`.nearest` and :mod:`.place` place a metric among
   the rows, :mod:`.select` answers "which rows have these values?", :mod:`.drift` compares a
   recomputation with the committed atlas, :mod:`.integrity` checks the files beside the rows, :mod:`.timings`.
5. :mod:`.disagreements` -- implementations of "the same" metric compared input by input (corpus,
   groups, samples, verdicts, the study and its report).  See docs/atlas.md.
6. :mod:`.compare` -- two atlases compared cell by cell (``atlas --diff``): the folders read and checked,
   each row's reference, the classification; ``--write --pin`` (a package's rows at a stated version).
7. :mod:`.site` -- a page and a badge per row (``pages/``, ``badges/``), written by ``atlas --write``
   and checked by ``atlas --check``.
"""

from .adapters.base import Adapter, AtlasEvaluator, Unavailable
from .adapters.registry import adapters, by_id
from .select import where

__all__ = ["Adapter", "AtlasEvaluator", "Unavailable", "adapters", "by_id", "where"]
