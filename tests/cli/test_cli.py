"""The ``attention-explorer`` command: export and info, in-process (fast) and as real processes.

Expected values come from the shipped vocabulary file and the lecture note's formulas, not from the CLI.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer.cli import main
from explorer.util.paths import resource

VOCAB = json.loads(resource("tokenizers", "words-en.json").read_text(encoding="utf-8"))["model"]["vocab"]
PEN = "This is a pen ."


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def load_npz(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """Read a snapshot with numpy alone, as docs/snapshot-format.md tells a user to."""
    with np.load(path, allow_pickle=False) as data:
        manifest = json.loads(data["manifest"].tobytes().decode("utf-8"))
        arrays = {k: data[k] for k in data.files if k != "manifest"}
    return manifest, arrays


def one_error_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("error:")]
    assert len(errors) == 1, err
    assert "Traceback" not in err
    return errors[0]


# ------------------------------------------------------------------------------------------------ export


def test_export_seed_toy_npz_readable_by_numpy_alone(capsys, tmp_path):
    out = tmp_path / "x.npz"
    code, stdout, err = run_cli(capsys, "export", PEN, "--preset", "seed-toy", "-o", out)
    assert code == 0 and out.is_file() and "Traceback" not in err and "Warning" not in err
    manifest, arrays = load_npz(out)
    assert arrays["tokens"].tolist() == [[VOCAB[w] for w in PEN.split()]]
    assert manifest["batch"][0]["tokens"] == PEN.split()
    cfg = manifest["config"]
    assert (cfg["embed_dim"], cfg["key_dim"], cfg["heads"]) == (3, 2, 2)
    assert arrays["layers.0.attn.weights"].shape == (1, 2, 5, 5)
    assert arrays["params.layers.0.attn.W_q"].shape == (3, 4) and arrays["params.layers.0.attn.W_o"].shape == (4, 3)
    # default mask is causal and scaling is on: scaled = scores / √2, weights lower-triangular, rows sum to 1
    np.testing.assert_allclose(arrays["layers.0.attn.scaled"], arrays["layers.0.attn.scores"] / math.sqrt(2), rtol=1e-6)
    w = arrays["layers.0.attn.weights"]
    assert not w[..., np.triu(np.ones((5, 5), bool), 1)].any()
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-6)
    assert "x.npz" in stdout


@pytest.mark.parametrize("fmt", ["npz", "safetensors", "pt"])
def test_format_flag_overrides_the_file_name(capsys, tmp_path, fmt):
    out = tmp_path / "snapshot.bin"
    code, _, err = run_cli(capsys, "export", PEN, "--preset", "seed-toy", "--format", fmt, "-o", out)
    assert code == 0, err
    head = out.read_bytes()[:8]
    if fmt == "safetensors":
        from safetensors.numpy import load_file

        assert "layers.0.attn.q" in load_file(str(out))
    else:
        assert head[:4] == b"PK\x03\x04"  # npz and pt are both zip archives
        if fmt == "pt":
            import torch

            assert "logits" in torch.load(out, weights_only=True)
        else:
            assert "logits" in load_npz(out)[1]


def test_mask_window_and_no_scale(capsys, tmp_path):
    out = tmp_path / "w.npz"
    code, _, err = run_cli(
        capsys,
        "export",
        "the cat is on the mat .",
        "--preset",
        "seed-toy",
        "--mask",
        "window:2",
        "--no-scale",
        "-o",
        out,
    )
    assert code == 0, err
    manifest, a = load_npz(out)
    C = 7
    i, j = np.arange(C)[:, None], np.arange(C)[None, :]
    assert np.array_equal(a["mask"][0], (j <= i) & (j >= i - 1))  # query i sees keys i−1 and i
    assert np.array_equal(a["layers.0.attn.scaled"], a["layers.0.attn.scores"])  # no scaling
    masked = a["layers.0.attn.masked"][0]
    assert np.isneginf(masked[:, ~a["mask"][0]]).all() and np.isfinite(masked[:, a["mask"][0]]).all()
    assert manifest["options"]["mask"] == {"kind": "window", "size": 2} and manifest["options"]["scale"] is False


def test_dtype_float64_and_names_selection(capsys, tmp_path):
    out = tmp_path / "d.safetensors"
    code, _, err = run_cli(
        capsys, "export", PEN, "--preset", "seed-toy", "--dtype", "float64", "--names", "layers.0.attn.*", "-o", out
    )
    assert code == 0, err
    from safetensors import safe_open

    with safe_open(str(out), framework="numpy") as f:
        keys = set(f.keys())
        manifest = json.loads(f.metadata()["manifest"])
        assert f.get_tensor("layers.0.attn.weights").dtype == np.float64
    stages = {"in", "q", "k", "v", "scores", "scaled", "masked", "weights", "heads", "concat", "out"}
    assert keys == {"tokens", "mask"} | {f"layers.0.attn.{s}" for s in stages}
    assert manifest["dtype"] == "float64"


def test_several_lines_make_a_batch_and_text_file(capsys, tmp_path):
    out = tmp_path / "b.npz"
    code, _, err = run_cli(capsys, "export", "This is\na pen", "--preset", "seed-toy", "-o", out)
    assert code == 0, err
    manifest, a = load_npz(out)
    assert a["tokens"].shape == (2, 2) and manifest["text"] == "This is\na pen"  # the note's B=2, C=2
    assert a["tokens"].tolist() == [[VOCAB["This"], VOCAB["is"]], [VOCAB["a"], VOCAB["pen"]]]

    text = tmp_path / "in.txt"
    text.write_text("This is a pen .\nThe cat\n\nA dog is near the river .\n", encoding="utf-8")
    out2 = tmp_path / "f.npz"
    code, _, err = run_cli(capsys, "export", "--text-file", text, "--preset", "seed-toy", "-o", out2)
    assert code == 0, err
    manifest, a = load_npz(out2)
    assert [r["length"] for r in manifest["batch"]] == [5, 2, 7]  # the blank line is not a sentence
    assert a["tokens"].shape == (3, 7)
    assert not a["mask"][1][:, 2:].any()  # padding keys of the short row are blocked


def test_sizes_seed_and_bare_flags(capsys, tmp_path):
    a_path, b_path, c_path = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "c.npz"
    common = ["export", PEN, "-E", "6", "-D", "3", "-H", "2", "-L", "1", "--bare", "--positions", "none"]
    assert run_cli(capsys, *common, "--seed", "5", "-o", a_path)[0] == 0
    assert run_cli(capsys, *common, "--seed", "5", "-o", b_path)[0] == 0
    assert run_cli(capsys, *common, "--seed", "6", "-o", c_path)[0] == 0
    ma, a = load_npz(a_path)
    _, b = load_npz(b_path)
    _, c = load_npz(c_path)
    assert a["params.layers.0.attn.W_q"].shape == (6, 6) and a["layers.0.attn.q"].shape == (1, 2, 5, 3)
    assert np.array_equal(a["logits"], b["logits"]) and not np.array_equal(a["logits"], c["logits"])
    assert ma["config"]["norm"] == "none" and ma["config"]["residual"] is False and ma["seed"] == 5
    assert not any(k.startswith("params.layers.0.ln_") for k in a)
    # bare: attention reads the embedding itself, and the block's output is the FFN's output
    assert np.array_equal(a["layers.0.attn.in"], a["embed.out"]) and np.array_equal(
        a["layers.0.out"], a["layers.0.ffn.out"]
    )


def test_device_fallback_is_a_note_not_an_error(capsys, tmp_path):
    import torch

    if torch.cuda.device_count() > 7:
        pytest.skip("this machine has a cuda:7")
    out = tmp_path / "dev.npz"
    code, _, err = run_cli(capsys, "export", PEN, "--preset", "seed-toy", "--device", "cuda:7", "-o", out)
    assert code == 0 and "cuda:7" in err and "cpu" in err and "error:" not in err
    assert load_npz(out)[0]["device"] == "cpu"


# ------------------------------------------------------------------------------------------------ info


@pytest.mark.parametrize("fmt", ["npz", "safetensors", "pt"])
def test_info_prints_names_shapes_and_dtypes(capsys, tmp_path, fmt):
    out = tmp_path / f"i.{fmt}"
    assert run_cli(capsys, "export", "This is\na pen", "--preset", "seed-toy", "-o", out)[0] == 0
    code, stdout, err = run_cli(capsys, "info", out)
    assert code == 0, err
    rows = {ln.split()[0]: ln for ln in stdout.splitlines() if ln.strip() and not ln.startswith((" ", "{", "}"))}
    expected = {
        "tokens": "(2, 2)",
        "layers.0.attn.weights": "(2, 2, 2, 2)",
        "layers.0.attn.concat": "(2, 2, 4)",
        "params.layers.0.attn.W_q": "(3, 4)",
        "params.embed.tok": f"({len(VOCAB)}, 3)",
        "logits": f"(2, 2, {len(VOCAB)})",
    }
    for name, shape in expected.items():
        assert name in rows, name
        assert shape in rows[name] and ("float32" in rows[name] or name == "tokens"), rows[name]
    assert '"text": "This is\\na pen"' in stdout  # the manifest is printed too
    code, stdout, _ = run_cli(capsys, "info", "--json", out)
    assert code == 0 and json.loads(stdout)["format_version"] == 1


# ------------------------------------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "argv",
    [
        ["export", PEN, "--mask", "bogus", "-o", "{tmp}/e.npz"],
        ["export", PEN, "--mask", "window:0", "-o", "{tmp}/e.npz"],
        ["export", PEN, "-E", "0", "-o", "{tmp}/e.npz"],
        ["export", PEN, "-H", "3", "-D", "4", "-E", "8", "--value-dim", "-1", "-o", "{tmp}/e.npz"],
        ["export", PEN, "--preset", "nope", "-o", "{tmp}/e.npz"],
        ["export", PEN, "--preset", "seed-toy", "--layers-to-capture", "4", "-o", "{tmp}/e.npz"],
        ["export", PEN, "--preset", "seed-toy", "--names", "nothing.like.this", "-o", "{tmp}/e.npz"],
        ["export", PEN, "--preset", "seed-toy", "-o", "{tmp}/no/such/dir/e.npz"],
        ["export", PEN, "--preset", "seed-toy", "-o", "{tmp}/e.weird"],
        ["export", "  \n ", "--preset", "seed-toy", "-o", "{tmp}/e.npz"],
        ["export", "--text-file", "{tmp}/missing.txt", "-o", "{tmp}/e.npz"],
        ["export", PEN, "-E", "65536", "-L", "256", "-o", "{tmp}/e.npz"],
        ["info", "{tmp}/missing.npz"],
        ["info", "{tmp}/garbage.npz"],
    ],
    ids=lambda a: " ".join(a[1:4]),
)
def test_errors_are_one_line_and_non_zero(capsys, tmp_path, argv):
    (tmp_path / "garbage.npz").write_bytes(b"not a snapshot at all")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, stdout, err = run_cli(capsys, *argv)
    assert code != 0
    line = one_error_line(err)
    assert len(line) > len("error: ") + 10
    assert not (tmp_path / "e.npz").exists() and not list(tmp_path.glob(".e.*"))  # no half-written file left


# ------------------------------------------------------------------------------------------------ real processes


def _spawn(args, cwd):
    return subprocess.Popen(
        [sys.executable, "-m", "explorer", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_as_real_processes(tmp_path):
    """`python -m explorer` end to end (each process imports torch: a few seconds, so only three)."""
    good = _spawn(["export", PEN, "--preset", "seed-toy", "-o", "x.npz"], tmp_path)
    # one failing process is enough here: the in-process tests above cover every kind of error
    bad = [_spawn(["export", PEN, "--mask", "sideways", "-E", "0", "-o", "y.npz"], tmp_path)]
    out, err = good.communicate(timeout=120)
    assert good.returncode == 0, err
    assert "Traceback" not in err and "Warning" not in err
    manifest, arrays = load_npz(tmp_path / "x.npz")
    assert arrays["tokens"].tolist() == [[VOCAB[w] for w in PEN.split()]] and manifest["config"]["embed_dim"] == 3
    for p in bad:
        _, e = p.communicate(timeout=120)
        assert p.returncode not in (0, 1), e  # 1 would be an uncaught exception
        one_error_line(e)
    # `info x.npz | head -1`: the reader closes the pipe early; no traceback
    info = subprocess.Popen(
        [sys.executable, "-m", "explorer", "info", "x.npz"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = info.stdout.readline()
    info.stdout.close()
    err = info.stderr.read().decode()
    info.wait(timeout=120)
    assert first.strip() == b"{" and "Traceback" not in err and "Exception" not in err
