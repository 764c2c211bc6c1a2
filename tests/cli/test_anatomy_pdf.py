"""``attention-explorer anatomy --pdf`` (issue 39): the steps as slides, text as text, English and Japanese.
pdftotext finds every step's result (the numbers read from ``anatomy --json`` of the same cell, printed as
the steps print numbers), one page per step after the title page; a target that is not a .pdf is one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_zygote import run_completed

from explorer.anatomy.text import value_text

ROOT = Path(__file__).resolve().parents[2]
PEN = "This is a pen ."
REST = {"en": "+ {n} others = {x}", "ja": "+ 残り {n} 項 = {x}"}  # a shortened sum's rest, as the slides say it
poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils are not installed")


def cli(tmp_path: Path, *argv) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / ".config"),
        "XDG_CACHE_HOME": str(tmp_path / ".cache"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("QT_QPA_PLATFORM", None)  # no screen needed, none asked for
    env.pop("DISPLAY", None)
    return run_completed([str(a) for a in argv], env, tmp_path, 300)


def _number(value) -> object:
    """A JSON result as the step holds it: "-inf" and "inf" are the infinities strict JSON cannot write."""
    if isinstance(value, str) and value in ("-inf", "inf", "nan"):
        return float(value)
    return value


def _flat(text: str) -> str:
    return " ".join(text.split())  # a long line may wrap on the page


@poppler
@pytest.mark.parametrize(
    "cell, language",
    [
        (("--stage", "weights", "--head", "1", "--query", "3", "--key", "1"), "en"),
        (("--stage", "ffn", "--query", "2", "--neuron", "7"), "ja"),
        (("--stage", "probs", "--query", "2", "--dim", "5"), "en"),  # a softmax over the vocabulary: "+ N others"
    ],
)
def test_every_steps_result_is_text_on_its_slide(tmp_path, cell, language):
    asked = ("anatomy", PEN, *cell, "--language", language)
    r = cli(tmp_path, *asked, "--json")
    assert r.returncode == 0, r.stderr
    steps = json.loads(r.stdout)["steps"]
    out = tmp_path / "steps.pdf"
    r = cli(tmp_path, *asked, "--pdf", out)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"wrote {out} ({len(steps) + 1} pages)"
    pages = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    pages = pages.split("\f")[:-1]  # pdftotext ends every page with a form feed
    assert len(pages) == len(steps) + 1
    for step, page in zip(steps, pages[1:]):
        assert _flat(step["label"]) in _flat(page)  # the core's label, in the language asked
        result = value_text(_number(step["result"]))
        if step["op"] == "others":  # "+ 56 others = 0.12": the count and the sum of the rest
            assert REST[language].format(n=step["operands"]["count"], x=result) in _flat(page)
        else:
            assert _flat("→ " + result) in _flat(page)
    assert value_text(_number(steps[-1]["result"])) in _flat(pages[0])  # the title page says the number


def test_a_pdf_target_must_be_a_pdf(tmp_path):
    r = cli(tmp_path, "anatomy", PEN, "--stage", "scores", "--query", "1", "--key", "0", "--pdf", tmp_path / "x.txt")
    assert r.returncode != 0 and r.stderr.strip().startswith("error: --pdf writes a .pdf file")
    assert not (tmp_path / "x.txt").exists()
