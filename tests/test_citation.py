"""Licence and citation: LICENSE matches pyproject.toml, CITATION.cff and the "How to cite" sections agree
with the package version and with the OIPR paper's title page."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from oipr_bench import __version__

ROOT = Path(__file__).resolve().parents[1]
PAPER = ROOT.parent / "shared" / "paper" / "oipr-paper.tex"
ARXIV = "2503.01260"

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _bibtex(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    head = text.index("## How to cite")
    match = re.search(r"```bibtex\n(.*?)```", text[head:], re.S)
    assert match, f"{path.name}: no BibTeX block under 'How to cite'"
    return match.group(1)


def test_the_licence_file_is_the_licence_pyproject_declares():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert "LICENSE" in project["license-files"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "WITHOUT WARRANTY OF ANY KIND" in text


def test_citation_cff_names_this_version_and_the_paper():
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert cff.startswith("cff-version: 1.2.0\n")
    assert re.search(r"^version: (\S+)$", cff, re.M).group(1) == __version__
    assert re.search(r"^license: MIT$", cff, re.M)
    assert f"arXiv:{ARXIV}" in cff and "OIPR: Evaluation for Time-series Anomaly Detection Inspired by Operator Interest" in cff


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_how_to_cite_gives_both_entries_in_bibtex(page):
    bib = _bibtex(ROOT / page)
    assert re.search(r"@software\{oipr_bench,", bib) and f"version = {{{__version__}}}" in bib
    assert re.search(r"@article\{jing2025oipr,", bib) and f"arXiv:{ARXIV}" in bib and "year    = {2025}" in bib


def _paper_authors() -> list[str]:
    tex = PAPER.read_text(encoding="utf-8")
    block = tex[tex.index("\\author{"): tex.index("\\thanks{")]
    block = re.sub(r"\\IEEEmembership\{[^}]*\}", "", block)
    names = [n.replace("~", " ").strip(" ,\n") for n in re.split(r",|\band\b", block[len("\\author{"):])]
    return [n for n in names if n]


@pytest.mark.skipif(not PAPER.exists(), reason="shared material not available")
def test_the_cited_authors_and_title_are_the_papers():
    authors = _paper_authors()
    assert len(authors) == 9, authors
    tex = PAPER.read_text(encoding="utf-8")
    title = re.search(r"\\title\{(.*?)\}\n", tex).group(1)
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    cff_authors = [f"{g} {f}" for f, g in re.findall(r"- family-names: (\S+)\n\s+given-names: (\S+)", cff)]
    assert cff_authors == authors
    for page in ("README.md", "docs/index.md"):
        bib = _bibtex(ROOT / page)
        listed = re.search(r"@article\{jing2025oipr,.*?author\s*=\s*\{(.*?)\},\n", bib, re.S).group(1)
        bib_authors = [" ".join(reversed([x.strip() for x in a.split(",")])) for a in re.split(r"\s+and\s+", listed)]
        assert bib_authors == authors, page
        assert title.replace("OIPR", "{OIPR}") in bib
