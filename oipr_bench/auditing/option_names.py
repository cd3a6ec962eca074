"""How each front end spells the audit options, and the error that names them.

An :class:`OptionError` names the *Python* parameter at fault (``timeout``, ``against``,
...); :meth:`OptionError.phrased` re-phrases it with a front end's flags: :data:`CLI_FLAGS`
for ``oipr-bench audit``, :data:`PLUGIN_FLAGS` for the pytest plugin.  The checks themselves
live in :mod:`oipr_bench.auditing.options`.
"""

from __future__ import annotations

from typing import Mapping

from ..errors import UsageError

__all__ = ["CLI_FLAGS", "PLUGIN_FLAGS", "OptionError"]

#: How ``oipr-bench audit`` names each option.
CLI_FLAGS: dict[str, str] = {
    "timeout": "--timeout",
    "isolate": "--isolate",
    "reference": "--reference",
    "reference_params": "--reference-param",
    "against": "--against",
    "tolerance": "--tolerance",
    "hypothesis_examples": "--hypothesis-examples",
    "expect": "--expect",
    "input_kind": "--input",
    "higher_is_better": "--lower-is-better",
    "bounds": "--bounds",
    "suite": "--suite",
    "differential": "--differential",
    "seed": "--seed",
    "shrink_budget": "--shrink-budget",
    "cases": "--cases",
    "profile_only": "--profile-only",
}
#: How the pytest plugin names each option.
PLUGIN_FLAGS: dict[str, str] = {
    **CLI_FLAGS,
    "timeout": "--oipr-timeout",
    "isolate": "--oipr-isolate",
    "hypothesis_examples": "--oipr-hypothesis-examples",
    "input_kind": "--oipr-input",
    "higher_is_better": "--oipr-lower-is-better",
    "bounds": "--oipr-bounds",
    "suite": "--oipr-suite",
    "differential": "--oipr-differential",
    "seed": "--oipr-seed",
    "shrink_budget": "--oipr-shrink-budget",
    "cases": "--oipr-cases",
    "profile_only": "--oipr-profile-only",
}


class OptionError(UsageError):
    """An audit option is invalid.

    Parameters
    ----------
    template : str
        The message, with each parameter it names written ``{name}``
        (``"{against} needs {reference}"``).
    parameters : tuple of str
        The parameters named in ``template``; the first is the one at fault.

    Notes
    -----
    ``str(err)`` names the Python parameters; :meth:`phrased` names a front
    end's flags instead.  The template is filled by plain replacement, so a
    quoted user value may contain braces.
    """

    def __init__(self, template: str, *parameters: str) -> None:
        self.template = template
        self.parameters = parameters
        self.parameter = parameters[0]
        super().__init__(self.phrased({}))

    def phrased(self, names: Mapping[str, str]) -> str:
        """The message with each parameter called ``names.get(parameter, parameter)``."""
        out = self.template
        for p in self.parameters:
            out = out.replace("{" + p + "}", names.get(p, p))
        return out
