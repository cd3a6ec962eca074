"""The package counts and lists the README and docs/atlas.md give are the committed atlas's.

The atlas holds rows of third-party packages plus oipr-bench's own built-ins (package ``oipr-bench``).
The README and docs/atlas.md name the packages, state how many there are, and docs/atlas.md gives
each one's pinned version; ATLAS.md's first line is generated.  Each is compared with ``atlas.json``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oipr_bench.atlas.render import render_markdown
from oipr_bench.atlas.store import read_atlas

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not (ROOT / "atlas" / "atlas.json").exists(), reason="the source checkout's atlas/ is not available")


@pytest.fixture(scope="module")
def atlas() -> dict:
    return read_atlas(ROOT / "atlas")


def _packages(doc: dict) -> dict[str, str]:
    return {r["package"]: r["version"] for r in doc["rows"] if r["package"] != "oipr-bench"}


def _builtins(doc: dict) -> int:
    return sum(r["package"] == "oipr-bench" for r in doc["rows"])


def _paragraph(path: Path, start: str) -> str:
    text = path.read_text(encoding="utf-8")
    at = text.index(start)
    return " ".join(text[at:text.index("\n\n", at)].split())


def test_the_readme_names_every_package_of_the_atlas_and_counts_them(atlas: dict):
    para = _paragraph(ROOT / "README.md", "The atlas profiles")
    count = re.search(r"of (\d+) maintained packages \(([^)]*)\) plus the (\d+) built-ins", para)
    assert count, para[:300]
    names = {n.strip() for n in re.split(r",|\band in a second pinned environment\b", count.group(2)) if n.strip()}
    assert names == set(_packages(atlas))
    assert int(count.group(1)) == len(_packages(atlas)) == 16
    assert int(count.group(3)) == _builtins(atlas) == 13


def test_docs_atlas_names_every_package_with_its_pinned_version_and_counts_them(atlas: dict):
    para = _paragraph(ROOT / "docs" / "atlas.md", "**The metric atlas.**")
    count = re.search(r"metrics of (\d+) maintained packages on the index, next to the (\d+) built-in evaluators", para)
    assert count, para[:300]
    assert int(count.group(1)) == len(_packages(atlas)) and int(count.group(2)) == _builtins(atlas)
    listed = para[para.index("cases:"):para.index("The first line of")]
    for package, version in _packages(atlas).items():
        assert re.search(rf"(^|[\s,;:]){re.escape(package)} {re.escape(version)}\b", listed), (package, version)
    named = re.findall(r"([A-Za-z][\w-]*) \d[\w.]*", re.sub(r"\([^)]*\)", "", listed))  # asides in brackets dropped
    assert set(named) == set(_packages(atlas)), sorted(set(named) ^ set(_packages(atlas)))


def test_atlas_md_first_line_counts_the_third_party_packages_apart_from_the_builtins(atlas: dict):
    first = render_markdown(atlas).splitlines()[2]
    packages = sorted(_packages(atlas), key=str.lower)
    assert f"from {len(packages)} packages ({', '.join(packages)}) plus the {_builtins(atlas)} built-in evaluators" in first
    assert "oipr-bench" not in first.split(" metric rows from ")[1].split("plus the")[0]
    assert (ROOT / "atlas" / "ATLAS.md").read_text(encoding="utf-8").splitlines()[2] == first
