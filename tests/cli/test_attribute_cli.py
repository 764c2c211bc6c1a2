"""The command line of issue 15: ``attribute`` and ``export``'s intervention options. Numbers are checked
against a trace of the same model (its logit and probs) and, for the export, against a model whose W_o rows
are zeroed by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from explorer.cli import main
from explorer.trace.run import run_trace
from explorer.weights.presets import load_preset

TEXT = "the cat sat on the dog ."
TEXT2 = "a dog ran to the cat ."
SIZES = ["--preset", "classroom", "--seed", "5", "-L", "3"]


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_attribute_json_sums_to_the_logit_and_lens_ends_at_probs(capsys):
    code, out, err = run_cli(capsys, "attribute", TEXT, "--target", " dog", "--position", "4", *SIZES, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) >= {"position", "target", "logit", "logit_lens", "contributions", "constant"}
    bundle = load_preset("classroom", seed=5, layers=3)
    trace = run_trace(bundle, TEXT)
    (dog,) = bundle.tokenizer.encode(" dog").ids  # the classroom's subword vocabulary glues the space to the word
    assert data["position"] == 4 and data["target"] == " dog"
    assert data["logit"] == pytest.approx(float(trace["logits"][0, 4, dog]), abs=1e-6)
    total = sum(c["value"] for c in data["contributions"]) + data["constant"]
    assert abs(total - data["logit"]) <= 1e-4 * max(1.0, abs(data["logit"]))
    assert [r["layer"] for r in data["logit_lens"]] == [0, 1, 2]
    assert data["logit_lens"][-1]["prob"] == pytest.approx(float(trace["probs"][0, 4, dog]), abs=1e-6)
    assert {c["component"] for c in data["contributions"]} >= {"embed", "layers.2.attn.head.0", "layers.0.ffn"}


def test_attribute_defaults_to_the_last_token_and_reads_ids(capsys):
    code, out, _ = run_cli(capsys, "attribute", TEXT, "--target-id", "7", *SIZES, "--json")
    data = json.loads(out)
    assert code == 0 and data["position"] == 6 and data["target_id"] == 7


@pytest.mark.parametrize(
    "argv,words",
    [
        (["attribute", TEXT, "--target", "the cat"], "not one token"),
        (["attribute", TEXT], "--target TOKEN or --target-id ID"),
        (["attribute", TEXT, "--target", " dog", "--position", "9"], "--position 9 does not exist"),
        (["export", TEXT, "-o", "{tmp}/x.npz", "--ablate", "0.9"], "head 9 does not exist"),
        (["export", TEXT, "-o", "{tmp}/x.npz", "--ablate", "1"], "expected layer.head"),
        (["export", TEXT, "-o", "{tmp}/x.npz", "--patch", "layers.0.out"], "--patch needs --patch-from"),
        (
            ["export", TEXT, "-o", "{tmp}/x.npz", "--patch-from", "the cat .", "--patch", "layers.0.out"],
            "same length in tokens",
        ),
        (["export", TEXT, "-o", "{tmp}/x.npz", "--cut", "0.0:1"], "expected layer.head:query:key"),
    ],
)
def test_errors_are_one_line(capsys, tmp_path, argv, words):
    code, _, err = run_cli(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in argv], *SIZES)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], err


def test_export_with_interventions_writes_the_run_the_baseline_and_the_manifest(capsys, tmp_path):
    path = tmp_path / "iv.npz"
    code, _, err = run_cli(
        capsys,
        "export",
        TEXT,
        "-o",
        path,
        *SIZES,
        "--ablate",
        "1.2,2.0",
        "--cut",
        "0.1:3:2",
        "--patch-from",
        TEXT2,
        "--patch",
        "layers.0.attn.heads@1,2#3",
    )
    assert code == 0, err
    data = np.load(path, allow_pickle=False)
    manifest = json.loads(bytes(data["manifest"]).decode())
    assert manifest["interventions"]["ablations"] == [
        {"layer": 1, "head": 2, "mode": "zero"},
        {"layer": 2, "head": 0, "mode": "zero"},
    ]
    assert manifest["interventions"]["patches"] == [{"name": "layers.0.attn.heads", "positions": [1, 2], "heads": [3]}]
    assert manifest["interventions"]["patch_from"] == TEXT2
    bundle = load_preset("classroom", seed=5, layers=3)
    assert np.array_equal(data["baseline.logits"], run_trace(bundle, TEXT)["logits"])
    assert not data["layers.1.attn.heads"][0, 2].any() and data["layers.0.attn.weights"][0, 1, 3, 2] == 0.0
    assert np.allclose(data["baseline.probs"][0].sum(-1), 1.0, atol=1e-5)


def test_export_ablation_equals_the_model_with_W_o_rows_zeroed(capsys, tmp_path):
    path = tmp_path / "ab.npz"
    assert run_cli(capsys, "export", TEXT, "-o", path, *SIZES, "--ablate", "1.1")[0] == 0
    edited = load_preset("classroom", seed=5, layers=3)
    Dv = edited.config.D_v
    with torch.no_grad():
        edited.model.layers[1].attn.W_o[Dv : 2 * Dv] = 0.0
    assert np.abs(np.load(path)["logits"] - run_trace(edited, TEXT)["logits"]).max() < 1e-5
