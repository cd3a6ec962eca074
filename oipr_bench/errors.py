"""Exceptions raised by oipr-bench.

Every error names *where* the problem is: the file, the case id and the JSON
path for fixtures; the evaluator and the argument for evaluator inputs.
"""

from __future__ import annotations


class OiprBenchError(Exception):
    """Base class of every error oipr-bench raises on purpose."""


class FixtureError(OiprBenchError, ValueError):
    """A scenario fixture, manifest or reference-result file is invalid.

    Parameters
    ----------
    message : str
        What is wrong, in one sentence.
    file : str, optional
        The file (name or path) the problem was found in.
    case_id : str, optional
        The stable case id (``"<scenario>/<case>"``) concerned, if any.
    json_path : str, optional
        A JSON path such as ``$.cases[2].y_pred[0]`` locating the bad value.

    Notes
    -----
    ``str(err)`` always reads ``"<file>: case <case_id>: <json_path>: <message>"``
    with the parts that are unknown left out, so a single line tells the user
    exactly where to look.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        case_id: str | None = None,
        json_path: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.case_id = case_id
        self.json_path = json_path
        super().__init__(self._render())

    def _render(self) -> str:
        """One harmless line: every part clipped, control characters (ANSI escapes) shown as ``\\xNN``."""
        from .guards import MAX_QUOTE, clip, printable

        parts = []
        if self.file is not None:
            parts.append(str(self.file))
        if self.case_id is not None:
            parts.append(f"case {clip(str(self.case_id), MAX_QUOTE)}")
        if self.json_path is not None:
            parts.append(clip(str(self.json_path), MAX_QUOTE))
        parts.append(clip(str(self.message), 4 * MAX_QUOTE))
        return printable(": ".join(parts))


class UsageError(OiprBenchError):
    """Bad command-line or plugin usage (unknown name, bad parameter, bad path)."""


class OverwriteRefused(OiprBenchError, OSError):
    """An output path names a file the same run reads (evaluator source, input series...)."""
