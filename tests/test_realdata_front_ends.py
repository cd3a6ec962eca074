"""The real-data section behind ``oipr-bench report --realdata`` and ``pytest --oipr-realdata``: the same
numbers as ``oipr-bench realdata --evaluator``, and the refusals of the two new options."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from oipr_bench.cli import main
from test_realdata import write_corpus

pytest_plugins = ["pytester"]


@pytest.fixture()
def corpus(tmp_path) -> Path:
    return write_corpus(tmp_path / "nab")


def _cli(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code)
    out, err = capsys.readouterr()
    return code, out, err


def _tau_rows(html: str) -> dict[str, str]:
    section = html[html.index('<section class="realdata"'):]
    return dict(re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td>", section))


def test_report_section_has_the_same_taus_as_the_command(corpus, tmp_path, capsys):
    page = tmp_path / "r.html"
    code, _, err = _cli(capsys, ["report", "PA", "-o", str(page), "--realdata", str(corpus)])
    assert code in (0, 1) and "realdata: random scored on 3 series" in err
    html = page.read_text(encoding="utf-8")
    assert "Real detectors on real data (NAB)" in html and re.search(r"It agrees most with <b>[^<]*\bPA\b[^<]*</b> \(tau 1.00\)", html)
    _, out, _ = _cli(capsys, ["realdata", "--data", str(corpus), "--evaluator", "PA", "--format", "json", "--quiet"])
    user = json.loads(out)["user"]
    expected = {a["metric"]: f"{a['tau']:.2f}" for a in user["agreement"] if a["tau"] is not None}
    shown = _tau_rows(html)
    assert {k: v for k, v in shown.items() if k in expected} == expected and len(expected) >= 12


def test_report_realdata_refusals(corpus, tmp_path, capsys):
    code, out, err = _cli(capsys, ["report", "PW", "-o", str(tmp_path / "r.html"), "--realdata", str(tmp_path / "no")])
    assert code == 2 and err.strip().endswith("not a folder (a NAB checkout or a copy in NAB's layout)")
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "r.html").exists()
    inside = corpus / "notes.html"
    inside.write_text("mine", encoding="utf-8")
    code, out, err = _cli(capsys, ["report", "PW", "-o", str(inside), "--realdata", str(corpus)])
    assert code == 2 and "refusing to write over a file of the NAB data folder" in err
    assert inside.read_text(encoding="utf-8") == "mine"
    (corpus / "config" / "profiles.json").write_text("[]", encoding="utf-8")
    code, out, err = _cli(capsys, ["report", "PW", "-o", str(tmp_path / "r.html"), "--realdata", str(corpus)])
    assert code == 2 and "config/profiles.json" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r.html").exists()


def test_plugin_prints_the_section_and_puts_it_in_the_html(pytester, corpus):
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=PA", "--oipr-suite=table5",
                                           f"--oipr-realdata={corpus}", "--oipr-html=r.html",
                                           "--expect=existence_detection_reward=yes", timeout=300)
    text = result.stdout.str()
    assert "oipr-bench realdata: the evaluator among the metrics on NAB" in text
    assert "Your metric PA (yours):" in text and re.search(r"agrees most with [^(]*\bPA\b[^(]*\(tau 1.00\)", text)
    html = (pytester.path / "r.html").read_text(encoding="utf-8")
    assert '<section class="realdata"' in html and _tau_rows(html)["PA"] == "1.00"


def test_plugin_refuses_a_missing_realdata_folder(pytester, tmp_path):
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=PW",
                                           f"--oipr-realdata={tmp_path / 'absent'}", timeout=120)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--oipr-realdata" in result.stderr.str() and "not a folder" in result.stderr.str()


def test_plugin_refuses_realdata_without_an_evaluator(pytester, corpus):
    pytester.makepyfile(test_user="def test_one():\n    assert True\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--oipr-realdata={corpus}", timeout=120)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--oipr-realdata needs --evaluator" in result.stderr.str()
