"""The metric atlas: public TAD metric implementations profiled by oipr-bench.

Layer 8 of 9 (see docs/architecture.md): may import every layer below it; never a front end (``pytest_plugin``, ``cli``).

One adapter module per package family (:mod:`.builtins`, :mod:`.tsadmetrics`,
:mod:`.prts`, :mod:`.tsb_ad`, :mod:`.tadpak`, :mod:`.pate`, :mod:`.vus`,
:mod:`.timeeval`) declares its rows (:class:`~._adapter.Adapter`); no metric
package is imported until a row is loaded.  :mod:`.build` audits rows,
:mod:`.store` reads/writes the ``atlas/`` folder, :mod:`.render` draws the
grid, :mod:`.nearest` places a metric among the rows, :mod:`.select` answers
"which rows have these characteristic/property values?", :mod:`.drift` compares
a recomputation with the committed atlas and :mod:`.disagreements` compares
implementations of "the same" metric.  See docs/atlas.md.
"""

from ._adapter import Adapter, AtlasEvaluator, Unavailable
from .registry import adapters, by_id
from .select import where

__all__ = ["Adapter", "AtlasEvaluator", "Unavailable", "adapters", "by_id", "where"]
