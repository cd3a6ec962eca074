"""What every built-in evaluator shares: the result type and a small base class.

:class:`Score` and the F1 rule (paper, eq. 1) live in :mod:`oipr_bench.evaluators.score`
and are re-exported here.  :class:`Evaluator` derives ``params`` and
``__repr__`` from the parameters ``__init__`` declares, as scikit-learn's
``BaseEstimator`` does: every ``__init__`` parameter is stored on the instance
under its own name, so nothing is written twice.
"""

from __future__ import annotations

import inspect
from typing import Any

from .score import Score, f1_from, make_score

__all__ = ["Score", "f1_from", "make_score", "Evaluator"]


class Evaluator:
    """Base class of the built-in evaluators.

    A subclass sets ``name`` (the short name of the paper's tables) and stores
    each ``__init__`` parameter as an attribute of the same name.

    Examples
    --------
    >>> class Scaled(Evaluator):
    ...     name = "S"
    ...     def __init__(self, k: float = 1.0) -> None:
    ...         self.k = k
    >>> Scaled(2.0).params, Scaled(2.0)
    ({'k': 2.0}, Scaled(k=2.0))
    """

    #: Short name, as in the paper's tables.
    name: str = ""

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        """The keyword parameters of ``__init__``, in order (``**kwargs`` and ``*args`` are not parameters)."""
        if cls.__init__ is object.__init__:
            return ()
        sig = inspect.signature(cls.__init__)
        kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        return tuple(p.name for p in list(sig.parameters.values())[1:] if p.kind in kinds)

    @property
    def params(self) -> dict[str, Any]:
        """The parameters in force: ``{name: value}`` for every ``__init__`` parameter."""
        return {name: getattr(self, name) for name in self.param_names()}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"
