"""The front ends agree: ``audit``, ``report`` and ``atlas --evaluator`` take the same options and exit alike.

The options are spelled once (:func:`oipr_bench.cli.audit.add_run_options`) and turned into one
:class:`~oipr_bench.auditing.options.AuditOptions` by ``options_from_flags``, which the plugin uses too.
"""

from __future__ import annotations

import pytest

from oipr_bench.cli import build_parser, main
from oipr_bench.cli.audit import options_from

COMMON = ["--param", "k=1", "--expect", "fragments_merging=no", "--expect", "discriminates=no", "--timeout", "7",
          "--isolate", "--input", "scores", "--lower-is-better", "--bounds", "0:", "--hypothesis-examples", "3",
          "--reference", "OIPR", "--reference-param", "l_obs=20", "--against", "paper"]

COMMANDS = {
    "audit": ["audit", "X"],
    "report": ["report", "X", "-o", "r.html"],
    "atlas": ["atlas", "--evaluator", "X"],
}


def test_the_three_commands_read_the_same_options_the_same_way():
    options = {}
    for name, head in COMMANDS.items():
        argv = [*head, *COMMON]
        args = build_parser(argv).parse_args(argv)
        assert args.param == ["k=1"], name
        options[name] = options_from(args)
    assert options["audit"] == options["report"] == options["atlas"]
    o = options["audit"]
    assert (o.timeout, o.isolate, o.input_kind, o.higher_is_better, o.hypothesis_examples) == (7.0, True, "scores", False, 3)
    assert set(o.expectations) == {"fragments_merging", "discriminates"}


def test_atlas_keeps_the_old_spelling_of_param_and_needs_evaluator_for_run_options(capsys):
    argv = ["atlas", "--evaluator", "X", "--evaluator-param", "k=1"]
    assert build_parser(argv).parse_args(argv).param == ["k=1"]
    assert main(["atlas", "--bounds", "0:", "--lower-is-better"]) == 2
    assert "--lower-is-better, --bounds need --evaluator" in capsys.readouterr().err


LOSS = "import numpy as np\n\ndef loss(y_true, y_pred):\n    tp = float(np.sum(y_true * y_pred))\n" \
       "    p, r = tp / max(float(y_pred.sum()), 1.0), tp / max(float(y_true.sum()), 1.0)\n" \
       "    return 1.0 if p + r == 0 else 1.0 - 2 * p * r / (p + r)\n"
PW_ROW = ["existence_detection_reward=no", "fragments_merging=no", "addressing_ambiguous_labels=no",
          "early_detection_reward=no", "long_anomaly_misleading=present"]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_exit_codes_agree(name, tmp_path, monkeypatch, capsys):
    # 1 - PW's F1, lower is better: PW's row, so the default expectations fail (exit 1, problems on stderr)
    # and declaring PW's row passes (exit 0) - in every front end.
    tmp_path.joinpath("my_loss.py").write_text(LOSS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    head = [("my_loss:loss" if a == "X" else a) for a in COMMANDS[name]]
    base = [*head, "--lower-is-better"]
    assert main(base) == 1
    err = capsys.readouterr().err
    assert f"oipr-bench {name}: characteristic[existence_detection_reward]: observed no, differs from OIPR's row (expected yes)" in err
    assert main([*base, *[x for e in PW_ROW for x in ("--expect", e)]]) == 0
