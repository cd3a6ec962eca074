"""``oipr-bench build-scenarios``: regenerate the special-scenario fixtures.

Writes the nine scenario files and ``manifest.json`` deterministically (and
atomically) from :mod:`oipr_bench.scenarios.definitions`, and the property
families of ``properties/`` from :mod:`oipr_bench.scenarios.family_files`.  In a source
checkout the default destination is the repository's ``scenarios/`` folder;
an installed package has no such folder, so ``--out`` is then required.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .._paths import source_root
from ..errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``build-scenarios`` sub-command."""
    parser = subparsers.add_parser(
        "build-scenarios",
        help="regenerate the special-scenario JSON fixtures and their manifest",
        description=(
            "Regenerate the special-scenario fixtures (one JSON file per scenario plus manifest.json) "
            "from the case definitions. The output is byte-for-byte reproducible."
        ),
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="destination folder (default: the repository's scenarios/ folder in a source checkout; "
        "required when oipr-bench is installed as a package)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the fixtures; return the exit code."""
    from ..scenarios.family_files import FAMILIES_FOLDER, write_families
    from ..scenarios.generator import write_dataset
    from ..io import make_output_folder, regenerating

    if args.out is not None:
        out = Path(args.out)
    else:
        root = source_root()
        if root is None:
            raise UsageError(
                "--out DIR is required: oipr-bench is installed as a package, so there is no source "
                "checkout whose scenarios/ folder could be rewritten"
            )
        out = root / "scenarios"
    with regenerating("scenarios"):  # the checkout's scenarios/ may be written here, nothing else of oipr-bench
        make_output_folder(out)  # before any work: never inside oipr-bench's code, other data or its environment
        written = write_dataset(out)
        print(f"wrote {len(written)} files to {out}", file=sys.stdout)
        families = write_families(out)
    print(f"wrote {len(families)} property family files to {out / FAMILIES_FOLDER}", file=sys.stdout)
    return 0
