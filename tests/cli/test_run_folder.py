"""A run folder is a model (issue 12, item 7), and every command offers the same size options (item 8).

`train --out runs/x` writes runs/x/step-000000, step-000002, …; `eval runs/x`, `export --model runs/x` and
the window's Open take its latest *complete* checkpoint and say which in a `note:` line.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from safetensors.numpy import load_file

from explorer import vocab
from explorer.cli import build_parser, main
from explorer.session.open import model_path

SMALL = ["-E", "8", "-D", "4", "-H", "2", "-L", "1"]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "x"
    assert (
        main(
            [
                "train",
                "--corpus",
                "copy",
                "--steps",
                "4",
                "--batch-size",
                "4",
                "--eval-every",
                "2",
                "--checkpoint-every",
                "2",
                "--out",
                str(out),
                "-q",
                *SMALL,
            ]
        )
        == 0
    )
    # a checkpoint being written when the run was killed: its weights are missing, so it is not complete
    (out / "step-000006").mkdir()
    shutil.copy(out / "step-000004" / "config.json", out / "step-000006" / "config.json")
    return out


def test_eval_takes_the_latest_complete_checkpoint_of_a_run_folder(run_dir, capsys):
    assert main(["eval", str(run_dir)]) == 0
    captured = capsys.readouterr()
    assert "note:" in captured.err and "step-000004" in captured.err and "step-000006" not in captured.err
    result = json.loads(captured.out)
    assert "step-000004" in result["model"]
    assert main(["eval", str(run_dir / "step-000004")]) == 0  # the checkpoint itself: the same numbers, no note
    direct = capsys.readouterr()
    assert "note:" not in direct.err
    assert json.loads(direct.out)["heldout_loss"] == result["heldout_loss"]


def test_export_model_accepts_a_run_folder(run_dir, tmp_path, capsys):
    out = tmp_path / "x.npz"
    assert main(["export", "abc", "--model", str(run_dir), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "note:" in err and "step-000004" in err
    weights = load_file(str(run_dir / "step-000004" / "model.safetensors"))
    with np.load(out, allow_pickle=False) as z:
        np.testing.assert_array_equal(z["params.embed.tok"], weights["embed.tok"])


def test_a_run_folder_with_a_manifest_is_a_model_too(run_dir, tmp_path, capsys):
    copy = tmp_path / "y"
    shutil.copytree(run_dir, copy)
    (copy / "run.json").write_text(json.dumps({"format": "attention-explorer-run"}), encoding="utf-8")
    assert main(["eval", str(copy)]) == 0
    assert "step-000004" in capsys.readouterr().err
    assert model_path(str(copy)).endswith("step-000004")  # the window's File → Open


def test_a_run_folder_without_a_complete_checkpoint_is_refused_in_one_line(tmp_path, capsys):
    empty = tmp_path / "z"
    empty.mkdir()
    (empty / "run.json").write_text("{}", encoding="utf-8")
    assert main(["eval", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "without a complete checkpoint" in err and err.count("\n") == 1


def _choices(command: str, flag: str):
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    return next(a for a in sub._actions if flag in a.option_strings)


@pytest.mark.parametrize("command", ["export", "train"])
def test_every_command_offers_the_same_size_options(command):
    assert tuple(_choices(command, "--positions").choices) == vocab.POSITIONS  # rope included
    assert tuple(_choices(command, "--norm").choices) == vocab.NORMS
    for opt in vocab.SIZE_OPTIONS:
        assert _choices(command, opt.flags[0]).option_strings == list(opt.flags)
    for flag in ("--no-residual", "--bare", "--unfactored", "--max-positions"):
        assert _choices(command, flag)


def test_export_takes_the_norm_and_residual_choice(tmp_path, capsys):
    out = tmp_path / "r.npz"
    assert (
        main(["export", "This is a pen .", "--positions", "rope", "--norm", "rmsnorm", "--no-residual", "-o", str(out)])
        == 0
    )
    capsys.readouterr()
    with np.load(out, allow_pickle=False) as z:
        assert (
            "params.layers.0.ln_attn.weight" in z.files and "params.layers.0.ln_attn.bias" not in z.files
        )  # RMSNorm: γ only
        # no residual: the stream after attention is the attention output itself
        np.testing.assert_array_equal(z["layers.0.mid"], z["layers.0.attn.out"])
    assert main(["export", "x", "--bare", "--norm", "layernorm", "-o", str(out)]) == 2
    assert "--bare means no norm" in capsys.readouterr().err
