"""Docs that cannot go stale: every console transcript is re-run and compared, every module named exists.

A ```console block in README.md or docs/*.md whose first line is ``$ COMMAND`` is a transcript:
the command is run in an empty folder holding the page's example files (a fenced block preceded by
``<!-- file: NAME -->``), with ``pytest`` and ``oipr-bench`` meaning this interpreter's, and its
output must contain the block's lines in order. An argument starting ``../shared/`` names the read-only
material beside the repository (commands are shown as run from the repository root); the transcript is
skipped, with the reason ``shared material not available``, when that path is absent. A line ``...`` in the block stands for any number of
output lines; timings (``in 1.42s``) are compared as ``in <t>``. A block preceded by
``<!-- not run: REASON -->`` is skipped. Prose states no test counts or timings of its own.

Every ``oipr_bench.x.y`` the docs name must import (or be an attribute of the module before it)
without a DeprecationWarning, and every docs page names the module that implements it.
"""

from __future__ import annotations

import importlib
import os
import re
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
FILE_MARK = re.compile(r"<!--\s*file:\s*(\S+)\s*-->")
SKIP_MARK = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->")
TIMING = re.compile(r"\bin \d+(\.\d+)?s\b( \(\d+:\d+:\d+\))?")
WILDCARD = "..."
SHARED_PREFIX = "../shared/"


def blocks(path: Path) -> list[tuple[str, str, list[str], str]]:
    """``(language, mark, lines, where)`` of every fenced block; ``mark`` is the comment just before it."""
    out = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            mark = lines[k].strip() if k >= 0 and lines[k].strip().startswith("<!--") else ""
            out.append((lang, mark, lines[i + 1 : j], f"{path.relative_to(REPO_ROOT)}:{i + 1}"))
            i = j
        i += 1
    return out


def transcripts() -> list[tuple[Path, str, list[str], str]]:
    found = []
    for page in PAGES:
        for lang, mark, lines, where in blocks(page):
            if lang == "console" and lines and lines[0].startswith("$ "):
                found.append((page, mark, lines, where))
    return found


def example_files(page: Path) -> dict[str, str]:
    files = {}
    for _lang, mark, lines, _where in blocks(page):
        match = FILE_MARK.fullmatch(mark)
        if match:
            files[match.group(1)] = "\n".join(lines) + "\n"
    return files


def normalise(line: str) -> str:
    return TIMING.sub("in <t>", line.rstrip())


def matches(expected: list[str], output: list[str]) -> str | None:
    """None when ``output`` holds ``expected`` (with ``...`` wildcards) in order, else the first missing line."""
    segments: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == WILDCARD:
            segments.append([])
        else:
            segments[-1].append(normalise(line))
    out = [normalise(line) for line in output]
    pos = 0
    for n, segment in enumerate(segments):
        if not segment:
            continue
        anchored = n == 0
        starts = [pos] if anchored else range(pos, len(out) - len(segment) + 1)
        for start in starts:
            if out[start : start + len(segment)] == segment:
                pos = start + len(segment)
                break
        else:
            return _first_break(segment, out[pos:], anchored)
    if segments[-1] and pos != len(out):
        return f"(output goes on after the block's last line: {out[pos]!r})"
    return None


def _first_break(segment: list[str], out: list[str], anchored: bool) -> str:
    """The first line of ``segment`` whose run from the segment's start is not in ``out``."""
    for k in range(1, len(segment) + 1):
        head = segment[:k]
        starts = [0] if anchored else range(len(out) - k + 1)
        if not any(out[s : s + k] == head for s in starts):
            return segment[k - 1]
    return segment[0]


def shared_paths(command: str) -> list[Path]:
    """The ``../shared/...`` arguments of ``command``, as paths beside the repository."""
    return [REPO_ROOT.parent / arg[len("../"):] for arg in shlex.split(command) if arg.startswith(SHARED_PREFIX)]


def command_line(command: str) -> list[str]:
    argv = [str(REPO_ROOT.parent / a[len("../"):]) if a.startswith(SHARED_PREFIX) else a for a in shlex.split(command)]
    if argv[0] == "pytest":
        return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *argv[1:]]
    if argv[0] == "oipr-bench":
        return [sys.executable, "-m", "oipr_bench", *argv[1:]]
    raise AssertionError(f"transcripts run pytest or oipr-bench, not {argv[0]!r}")


@pytest.mark.parametrize("page, mark, lines, where", transcripts(), ids=[t[3] for t in transcripts()])
def test_transcript_is_what_the_command_prints(tmp_path, page, mark, lines, where):
    skip = SKIP_MARK.fullmatch(mark)
    if skip:
        pytest.skip(f"{where}: not run: {skip.group(1)}")
    absent = [p for p in shared_paths(lines[0][2:]) if not p.exists()]
    if absent:
        pytest.skip(f"shared material not available ({absent[0].name} is absent beside the repository)")
    for name, text in example_files(page).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "COLUMNS": "80", "PYTHONWARNINGS": "ignore"}
    # pytest prints the short summary untruncated where CI or BUILD_NUMBER is set: show what a terminal shows.
    for name in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER", "CI", "BUILD_NUMBER"):
        env.pop(name, None)
    result = subprocess.run(command_line(lines[0][2:]), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    problem = matches(lines[1:], result.stdout.splitlines())
    assert problem is None, (
        f"{where}: the transcript no longer matches `{lines[0][2:]}`; first differing line:\n  {problem}\n"
        f"--- what it prints now ---\n{result.stdout}{result.stderr}"
    )


def test_the_matcher_honours_wildcards_and_order():
    out = ["a", "b", "c", "d 5 passed in 1.20s"]
    assert matches(["a", "...", "d 5 passed in 9s"], out) is None
    assert matches(["a", "c"], out) == "c"
    assert matches(["x"], out) == "x"
    assert matches(["...", "c", "d 5 passed in 2.0s"], out) is None
    assert matches(["...", "c", "b"], out) is not None
    assert matches(["a", "b"], out) is not None  # the output goes on: needs a trailing "..."


PROSE_COUNT = re.compile(r"`?(\d[\d,]*) (passed|failed|skipped|xfailed|tests collected)|collected \d+ items")


def test_prose_states_no_test_counts():
    found = []
    for page in PAGES:
        fenced = False
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and PROSE_COUNT.search(line):
                found.append(f"{page.relative_to(REPO_ROOT)}:{n}: {line.strip()}")
    assert not found, "test counts in prose go stale; show a checked transcript instead:\n" + "\n".join(found)


DOTTED = re.compile(r"\boipr_bench(?:\.[A-Za-z_]\w*)+")


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", DeprecationWarning)
                obj = importlib.import_module(name)
        except (ImportError, DeprecationWarning):
            continue
        if obj.__name__ != name:  # an old 0.2 path, aliased to its new module by oipr_bench._legacy
            return False
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_every_module_the_docs_name_exists_at_its_current_path():
    missing = []
    for page in PAGES:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for dotted in DOTTED.findall(line):
                if not _resolves(dotted.rstrip(".")):
                    missing.append(f"{page.relative_to(REPO_ROOT)}:{n}: {dotted}")
    assert not missing, "names the docs give that do not resolve (or only through a deprecated path):\n" + "\n".join(missing)


def test_every_docs_page_names_the_module_that_implements_it():
    pages = [p for p in PAGES if p.parent.name == "docs" and p.name != "index.md"]
    silent = [p.name for p in pages if not re.search(r"^Implemented (in|by) .*`oipr_bench[\w.]*`", p.read_text(encoding="utf-8"), re.M)]
    assert not silent, f"say near the top which module implements the page ('Implemented in `oipr_bench...`'): {silent}"


# ---------------------------------------------------------------------------------------------
# Refreshing the transcripts after an intended change of output:
#     python tests/test_docs_transcripts.py --update
# re-runs every transcript and rewrites each run of lines between ``...`` wildcards with the lines
# the command prints now (same number of lines, found by the run's first line; the last run is
# taken from the end of the output). Read the diff before committing it.


def _run(page: Path, command: str, folder: Path) -> list[str]:
    for name, text in example_files(page).items():
        (folder / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "COLUMNS": "80", "PYTHONWARNINGS": "ignore"}
    for name in ("PYTEST_ADDOPTS", "CI", "BUILD_NUMBER"):
        env.pop(name, None)
    return subprocess.run(command_line(command), cwd=folder, env=env, capture_output=True, text=True, timeout=300).stdout.splitlines()


def _refreshed(expected: list[str], out: list[str]) -> list[str]:
    segments: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == WILDCARD:
            segments.append([])
        else:
            segments[-1].append(line)
    if len(segments) == 1:
        return list(out)
    new: list[str] = []
    pos = 0
    for n, segment in enumerate(segments):
        if n:
            new.append(WILDCARD)
        if not segment:
            continue
        if n == len(segments) - 1 and n:
            start = len(out) - len(segment)
        elif n == 0:
            start = 0
        else:
            key = segment[0].split()[0] if segment[0].split() else segment[0]
            start = next((i for i in range(pos, len(out)) if out[i].startswith(key)), pos)
        new.extend(out[start : start + len(segment)])
        pos = start + len(segment)
    return new


def update_transcripts() -> None:
    import tempfile

    for page in PAGES:
        lines = page.read_text(encoding="utf-8").split("\n")
        changed = False
        for _page, mark, block, where in reversed([t for t in transcripts() if t[0] == page]):
            if SKIP_MARK.fullmatch(mark) or any(not p.exists() for p in shared_paths(block[0][2:])):
                continue
            first = int(where.rsplit(":", 1)[1])  # the ``` line, 1-based
            with tempfile.TemporaryDirectory() as folder:
                out = _run(page, block[0][2:], Path(folder))
            body = [block[0], *_refreshed(block[1:], out)]
            if lines[first : first + len(block)] != body:
                lines[first : first + len(block)] = body
                changed = True
        if changed:
            page.write_text("\n".join(lines), encoding="utf-8")
            print(f"updated {page.relative_to(REPO_ROOT)}")


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    update_transcripts()
