"""Pictures of the special-scenario dataset and of OIPR (optional ``plot`` extra).

Layer 6 of 9 (see docs/architecture.md): may import every layer below it up to ``auditing``; never ``reports``, ``atlas`` or a front end.

* :mod:`.gallery` - the scenario gallery (the paper's Fig. A);
* :mod:`.interest` - operator-interest curves with TP/FP/FN areas (Figs. 3-5);
* :mod:`.sweep` - OIPR over an ``l_dis`` x ``l_obs`` grid and detector rankings (Appendix D);
* :mod:`.sources` - the series a picture shows (dataset case, scenario or user files);
* :mod:`.property_curves` - a metric property's curve as inline SVG (no matplotlib).

matplotlib is imported lazily by :mod:`._mpl`; importing this package never needs it.
"""
