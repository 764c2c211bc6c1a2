"""``worksheet --anatomy`` (issue 39): one number's anatomy as an exercise with its key, English and Japanese.
Every step's result, recomputed here in numpy from ``export`` of the same text and printed as the worksheet
prints numbers (three decimals), is text in the key; the sheet prints only the inputs (every number on it is
one this file computed as an input), so no answer is on it."""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cli_zygote import run_completed

ROOT = Path(__file__).resolve().parents[2]
TEXT = "the cat sat on the mat"
poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils are not installed")
NUMBER = re.compile(r"[−-]?\d+\.\d{3}|[−-]?∞")


def cli(tmp_path: Path, *argv) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / ".config"),
        "XDG_CACHE_HOME": str(tmp_path / ".cache"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("QT_QPA_PLATFORM", None)
    env.pop("DISPLAY", None)
    return run_completed([str(a) for a in argv], env, tmp_path, 300)


def printed(values) -> list[str]:
    """Numbers as a worksheet prints them: three decimals, a real minus sign, no "−0.000", −∞."""
    out = []
    for x in np.ravel(np.asarray(values, dtype=np.float64)):
        if math.isinf(x):
            out.append("−∞" if x < 0 else "∞")
            continue
        text = f"{x:.3f}"
        out.append((text.lstrip("-") if text.lstrip("-") == "0.000" else text).replace("-", "−"))
    return out


def numbers(path: Path) -> list[str]:
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return NUMBER.findall(text.replace("-", "−"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, np.ndarray]:
    tmp = tmp_path_factory.mktemp("export")
    r = cli(tmp, "export", TEXT, "--preset", "seed-toy", "-o", tmp / "x.npz")
    assert r.returncode == 0, r.stderr
    with np.load(tmp / "x.npz", allow_pickle=False) as data:
        return {k: data[k].astype(np.float64) if data[k].dtype.kind == "f" else data[k] for k in data.files}


def _weight(A, h: int, i: int, j: int) -> tuple[list, list]:
    """(inputs, every step's result and running sum) of weight (i, j) of head h in layer 0."""
    q, k = A["layers.0.attn.q"][0, h], A["layers.0.attn.k"][0, h]  # (C, D)
    terms = q[i] * k[j]
    root = math.sqrt(q.shape[-1])
    row = np.where(A["mask"][0, i].astype(bool), A["layers.0.attn.scaled"][0, h, i], -np.inf)  # (C,)
    exps = np.exp(row - row[np.isfinite(row)].max())
    shares = exps / exps.sum()
    inputs = [q[i], k[j], root, np.delete(row, j)]
    answers = [terms, np.cumsum(terms), terms.sum() / root, row[j], row.max(), exps, np.cumsum(exps), exps.sum()]
    return inputs, answers + [shares, np.cumsum(shares), A["layers.0.attn.weights"][0, h, i, j]]


def _neuron(A, i: int, n: int) -> tuple[list, list]:
    """(inputs, results) of FFN neuron n at token i: x · W_in[:, n], GELU, its contribution h · W_out[n]."""
    x, w_in, w_out = A["layers.0.ffn.in"][0, i], A["params.layers.0.ffn.W_in"][:, n], A["params.layers.0.ffn.W_out"][n]
    z = float(x @ w_in)
    h = 0.5 * z * (1 + math.erf(z / math.sqrt(2)))
    return [x, w_in, w_out], [x * w_in, np.cumsum(x * w_in), h, h * w_out, A["layers.0.ffn.hidden"][0, i, n]]


@poppler
@pytest.mark.parametrize(
    "cell, language",
    [("weights:0:1:2:1", "en"), ("weights:0:0:3:0", "ja"), ("ffn:0:0:2:n4", "en")],
)
def test_the_key_holds_every_steps_result_and_the_sheet_only_the_inputs(tmp_path, exported, cell, language):
    sheet, key = tmp_path / "sheet.pdf", tmp_path / "key.pdf"
    r = cli(tmp_path, "worksheet", TEXT, "--preset", "seed-toy", "--anatomy", cell, "--language", language)
    assert r.returncode == 2  # -o is required
    argv = ("worksheet", TEXT, "--preset", "seed-toy", "--anatomy", cell, "--language", language)
    r = cli(tmp_path, *argv, "-o", sheet, "--answers", key)
    assert r.returncode == 0, r.stderr
    stage, _layer, head, query, column = cell.split(":")
    if stage == "weights":
        inputs, answers = _weight(exported, int(head), int(query), int(column))
    else:
        inputs, answers = _neuron(exported, int(query), int(column[1:]))
    given = {t for v in inputs for t in printed(v)}
    results = [t for v in answers for t in printed(v)]
    on_key, on_sheet = set(numbers(key)), numbers(sheet)
    assert [t for t in results if t not in on_key] == []  # every step's result is on the key
    assert on_sheet and [t for t in on_sheet if t not in given] == []  # the sheet: inputs only, no result
    assert [t for t in results if t not in given and t in on_sheet] == []


@pytest.mark.parametrize(
    "argv, said",
    [
        (("--anatomy", "weights:0:0"), "--anatomy takes STAGE:LAYER:HEAD:QUERY"),
        (("--anatomy", "weights:0:0:2:9"), "key 9 does not exist"),
        (("--anatomy", "weights:0:0:2:1", "--exercises", "qk"), "leave out --exercises"),
        (("--anatomy", "ffn:0:0:2"), "the FFN needs --neuron N"),
    ],
)
def test_an_anatomy_the_sheet_cannot_hold_is_one_error_line(tmp_path, argv, said):
    r = cli(tmp_path, "worksheet", TEXT, "--preset", "seed-toy", *argv, "-o", tmp_path / "s.pdf")
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert r.returncode == 2 and len(errors) == 1 and said in errors[0], r.stderr
    assert not (tmp_path / "s.pdf").exists()
