"""The README and docs/ stay navigable: every relative link resolves, the front page stays short.

Links are checked the way GitHub renders them: a relative target is a path from the linking
file's folder, and an ``#anchor`` must be the slug of a heading in the target file (or in the
same file for a bare ``#anchor``). Code blocks and inline code are not links.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
README = REPO_ROOT / "README.md"

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"`+[^`]*`+")
EXTERNAL = ("http://", "https://", "mailto:")


def _prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code removed."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(INLINE_CODE.sub("", line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor a Markdown file offers (duplicate headings get -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        match = re.match(r"#{1,6}\s+(.*)", line)
        if fenced or not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def broken_links(path: Path) -> list[str]:
    """Every relative link of ``path`` whose file or anchor does not exist, as readable lines."""
    problems = []
    for number, line in enumerate(_prose_lines(path.read_text(encoding="utf-8")), start=1):
        for target in LINK.findall(line):
            if target.startswith(EXTERNAL):
                continue
            file_part, _, anchor = target.partition("#")
            resolved = (path.parent / file_part).resolve() if file_part else path
            if not resolved.exists():
                problems.append(f"{path.name}: link {target!r}: no such file {file_part!r}")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                problems.append(f"{path.name}: link {target!r}: no heading with anchor #{anchor} in {resolved.name}")
    return problems


def _doc_files() -> list[Path]:
    if not README.is_file():
        pytest.skip("README.md not available (not a source checkout)")
    return [README, REPO_ROOT / "CHANGELOG.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]


def test_every_relative_link_resolves():
    files = _doc_files()
    assert len(files) >= 12, [f.name for f in files]
    problems = [problem for path in files for problem in broken_links(path)]
    assert problems == []


def test_every_docs_page_is_reachable_from_the_index():
    files = _doc_files()
    index = (REPO_ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    pages = [f.name for f in files if f.parent == REPO_ROOT / "docs" and f.name != "index.md"]
    assert [name for name in pages if f"]({name})" not in index] == []


def test_readme_is_a_short_front_page_with_the_two_commands_first():
    text = _doc_files()[0].read_text(encoding="utf-8")
    assert len(text) <= 15_000
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[0] == "## Two commands"
    assert "pip install . && oipr-bench reproduce" in text
    # The test command is the one CI runs (.ci/run): an editable install with the dev extra, then pytest on two workers.
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -e '.[dev]' && python -m pytest -n 2\n" in text
    assert "pip install --quiet -e '.[dev]'" in ci and "\npython -m pytest -n 2\n" in ci


def test_the_link_checker_finds_a_missing_file_and_a_missing_anchor(tmp_path):
    (tmp_path / "a.md").write_text("# Title\n\n## A `code` section, with punctuation!\n", encoding="utf-8")
    page = tmp_path / "b.md"
    page.write_text(
        "[ok](a.md#a-code-section-with-punctuation) [ok](#b) [web](https://example.org/x)\n"
        "# B\n"
        "[gone](c.md) [bad anchor](a.md#nope) ![img](pic.png)\n"
        "```\n[in code](nowhere.md)\n```\n"
        "`[inline](nowhere.md)`\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "b.md: link 'c.md': no such file 'c.md'",
        "b.md: link 'a.md#nope': no heading with anchor #nope in a.md",
        "b.md: link 'pic.png': no such file 'pic.png'",
    ]


def test_slug_matches_github_for_the_headings_we_link():
    assert slug("Reproducing the paper (Tables A1, C1, C2)") == "reproducing-the-paper-tables-a1-c1-c2"
    assert slug("Table A1 (generated by `oipr-bench reproduce --format markdown`)") == (
        "table-a1-generated-by-oipr-bench-reproduce---format-markdown"
    )
    assert slug("PA%K (Kim et al., AAAI 2022), `K = 50`") == "pak-kim-et-al-aaai-2022-k--50"


def _boom(y_true, y_pred):
    raise ValueError("boom")


def _nan_precision(y_true, y_pred):
    return float("nan"), 0.5


def _above_one(y_true, y_pred):
    return 1.5, 0.5


def _mutates(y_true, y_pred):
    y_pred[:] = 0
    return 0.5, 0.5


def f(y_true):  # the wrong signature: one argument
    return 0.5, 0.5


@pytest.mark.parametrize(
    ("evaluator", "quoted"),
    [
        (_boom, "raised ValueError: boom"),
        (_nan_precision, "precision is NaN although it is well defined here"),
        (_above_one, "precision = 1.5 lies outside [0, 1]"),
        (_mutates, "mutated its input y_pred"),
        (f, "raised TypeError: f() takes 1 positional argument but 2 were given"),
    ],
)
def test_troubleshooting_quotes_the_messages_the_runner_gives(evaluator, quoted):
    """The misbehaving-evaluator table of docs/troubleshooting.md quotes real messages."""
    import numpy as np

    from oipr_bench.auditing.calling.runner import call_evaluator

    page = REPO_ROOT / "docs" / "troubleshooting.md"
    if not page.is_file():
        pytest.skip("docs/troubleshooting.md not available (not a source checkout)")
    outcome = call_evaluator(evaluator, np.array([0, 1, 1, 0]), np.array([0, 1, 0, 1]))
    assert quoted in outcome.message
    assert quoted in page.read_text(encoding="utf-8")
