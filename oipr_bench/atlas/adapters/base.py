"""The adapter base (until the move on main lands, it lives in :mod:`oipr_bench.atlas._adapter`)."""

from .._adapter import Adapter, AtlasEvaluator, Unavailable, as_labels, as_scores, import_module, import_submodule, package_version

__all__ = ["Adapter", "AtlasEvaluator", "Unavailable", "as_labels", "as_scores", "import_module", "import_submodule", "package_version"]
