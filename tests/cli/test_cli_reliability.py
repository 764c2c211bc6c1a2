"""The command line with anything a user may type or open: legal but odd input is traced with a `note:`
(exit 0), everything else is one `error:` line with a non-zero exit code, and never a traceback.

test_cli.py covers the common errors (bad mask, zero sizes, missing files); this file covers the rest of
issue 7's list. In-process (fast), except where the process boundary is the point.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer.cli import main
from explorer.config import MAX_TEXT_CHARS, MAX_TRACE_TOKENS
from explorer.weights.presets import get_preset, preset_tokenizer

# Tokens of the long first line (a line is traced without its trailing space) in the default preset's vocabulary.
_PEN100 = len(preset_tokenizer(get_preset("classroom").tokenizer).encode(("This is a pen . " * 100).strip()))

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from untrusted import armed, gpt2_tensors, tiny_gpt2, trap_files  # noqa: E402

PEN = "This is a pen ."


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "Traceback" not in out.out
    return code, out.out, out.err


def notes(err: str) -> list[str]:
    return [ln[len("note: ") :] for ln in err.splitlines() if ln.startswith("note: ")]


def error_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1, err
    return lines[0]


def exported(path: Path) -> tuple[dict, dict]:
    with np.load(path, allow_pickle=False) as data:
        return json.loads(data["manifest"].tobytes()), {k: data[k] for k in data.files if k != "manifest"}


# ------------------------------------------------------------------------------------ legal, odd input


def test_a_single_token(capsys, tmp_path):
    # "The" is one token of the classroom vocabulary ("pen" at the start of a line, without its space, is two)
    code, out, err = run_cli(capsys, "export", "The", "-o", tmp_path / "s.npz")
    assert code == 0 and notes(err) == []
    manifest, arrays = exported(tmp_path / "s.npz")
    assert arrays["layers.0.attn.weights"].shape[-2:] == (1, 1)
    assert arrays["layers.0.attn.weights"][0, :, 0, 0].tolist() == [1.0] * arrays["layers.0.attn.weights"].shape[1]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("\x00\x01 cat \x1b[31m", "␀␁"),  # control characters shown as symbols, never raw to the terminal
        ("a\u202eb", "<U+202E>"),  # a bidi override cannot turn the notice around
        ("emoji 😀🎉 cat", "😀"),
        ("zzqx florb", "zzqx"),
        ("bad \udcff bytes", "\ufffd"),  # what undecodable bytes on the command line become
    ],
    ids=["control", "bidi", "emoji", "unknown", "surrogate"],
)
def test_odd_characters_are_traced_with_a_readable_notice(capsys, tmp_path, text, expected):
    # A word-level vocabulary (seed-toy's) meets unknown words and names them, readably.
    code, out, err = run_cli(capsys, "export", text, "--preset", "seed-toy", "-o", tmp_path / "s.npz")
    assert code == 0, err
    assert any(expected in n for n in notes(err)), err
    assert not any(ch in err for ch in "\x00\x01\x1b\u202e")
    assert exported(tmp_path / "s.npz")[1]["tokens"].shape[0] == 1
    # The classroom preset's subword vocabulary knows every character: the same text has no unknown word.
    code, out, err = run_cli(capsys, "export", text, "-o", tmp_path / "c.npz")
    assert code == 0 and not any("not in the vocabulary" in n for n in notes(err)), err
    assert not any(ch in err for ch in "\x00\x01\x1b\u202e")


def test_japanese_with_a_word_level_vocabulary_says_what_to_do(capsys, tmp_path):
    code, _, err = run_cli(capsys, "export", "これはペンです。", "--preset", "seed-toy", "-o", tmp_path / "s.npz")
    assert code == 0
    assert any("japanese preset" in n for n in notes(err)), err
    # The classroom and japanese presets' subword vocabularies know every character: nothing is unknown.
    for preset in ("classroom", "japanese"):
        code, _, err = run_cli(
            capsys, "export", "これはペンです。", "--preset", preset, "-o", tmp_path / f"{preset}.npz"
        )
        assert code == 0 and not any("vocabulary" in n for n in notes(err)), err
    manifest = exported(tmp_path / "japanese.npz")[0]
    pieces = manifest["batch"][0]["tokens"]
    assert "".join(pieces) == "これはペンです。" and all(1 <= len(p) <= 2 for p in pieces)  # whole characters


@pytest.mark.parametrize(
    "text, said, shape",
    [
        ("This is a pen . " * 6250, ["cut to the model's context of 1024 tokens"], (1, 1024)),  # 100,000 characters
        (
            "This is a pen . " * 100 + "\n" + "The cat sat .\n" * 5000,
            ["only the first 64 of 5001 sentences", f"at most {MAX_TRACE_TOKENS:,} positions"],
            (MAX_TRACE_TOKENS // _PEN100, _PEN100),
        ),
        ("pen " * 80_000, [f"only the first {MAX_TEXT_CHARS:,} are traced", "context of 1024"], (1, 1024)),
    ],
    ids=["100k-characters", "5000-lines", "320k-characters"],
)
def test_long_texts_are_cut_with_notices(capsys, tmp_path, text, said, shape):
    path = tmp_path / "long.txt"
    path.write_text(text, encoding="utf-8")
    code, _, err = run_cli(capsys, "export", "--text-file", path, "--names", "logits", "-o", tmp_path / "s.npz")
    assert code == 0, err
    for part in said:
        assert any(part in n for n in notes(err)), err
    assert exported(tmp_path / "s.npz")[1]["tokens"].shape == shape


def test_more_tokens_than_a_real_models_context_are_cut(capsys, tmp_path):
    folder = tiny_gpt2(tmp_path / "gpt2")  # learned positions: a context of 16 tokens
    code, _, err = run_cli(capsys, "export", "This is a pen . " * 10, "--model", folder, "-o", tmp_path / "s.npz")
    assert code == 0
    assert any("cut to the model's context of 16 tokens" in n for n in notes(err)), err
    assert exported(tmp_path / "s.npz")[1]["tokens"].shape == (1, 16)


@pytest.mark.parametrize("mask, said", [("window:50", "same as causal"), ("prefix:50", "same as no mask")])
def test_a_window_or_prefix_longer_than_the_text(capsys, tmp_path, mask, said):
    code, _, err = run_cli(capsys, "export", PEN, "--mask", mask, "-o", tmp_path / "s.npz")
    assert code == 0 and any(said in n for n in notes(err)), err


def test_float64_of_a_float32_checkpoint_and_reading_it_back(capsys, tmp_path):
    from explorer.config import ModelConfig
    from explorer.weights.bundle import random_bundle
    from explorer.weights.checkpoint import save_checkpoint
    from explorer.weights.presets import preset_tokenizer

    tok = preset_tokenizer("words-en.json")
    save_checkpoint(
        random_bundle(ModelConfig(tok.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1), tok, 2), tmp_path / "ckpt"
    )
    for fmt in ("npz", "pt", "safetensors"):
        out = tmp_path / f"s64.{fmt}"
        code, _, err = run_cli(capsys, "export", PEN, "--model", tmp_path / "ckpt", "--dtype", "float64", "-o", out)
        assert code == 0, err
        code, info, _ = run_cli(capsys, "info", out)
        assert code == 0 and "float64" in info and '"dtype": "float64"' in info


# ------------------------------------------------------------------------------------ refused input


@pytest.mark.parametrize(
    "argv, said",
    [
        (["export", PEN, "-E", "1.5"], "invalid int value"),
        (["export", PEN, "-H", "-2"], "at least 1"),
        (["export", PEN, "--seed", str(10**22)], "seed"),
        (["export", PEN, "--seed", "-1"], "seed"),
        (["export", PEN, "--memory-budget", "inf"], "--memory-budget"),
        (["export", PEN, "--memory-budget", "0"], "--memory-budget"),
        (["export", PEN, "-E", "4096", "-L", "64", "--memory-budget", "1"], "budget"),
        (["export", PEN, "--mask", "window:two"], "whole number"),
        (["export", PEN, "--mask", "diagonal"], "unknown mask"),
        (["export", PEN, "--mask", "explicit"], "painted"),
        (["export", PEN, "--device", "tpu:0"], "unknown device"),
        (["export", PEN, "--temperature", "nan"], "temperature"),
        (["export", PEN, "--temperature", "-1"], "temperature"),
        (["export", PEN, "--positions", "spiral"], "invalid choice"),
        (["export", PEN, "--dtype", "float8"], "invalid choice"),
        (["train", "--corpus", "copy", "--threads", "-1", "--steps", "2"], "threads"),
        (["train", "--corpus", "copy", "--seed", str(2**70), "--steps", "2"], "seed"),
        (["train", "--corpus", "tiny-en", "-E", "4096", "-L", "64", "--steps", "2"], "budget"),
        (["train", "--corpus", "copy", "--steps", "0"], "at least 1"),
    ],
    ids=lambda v: " ".join(v[1:4]) if isinstance(v, list) else None,
)
def test_refused_input_is_one_line(capsys, tmp_path, argv, said):
    argv = [
        *argv,
        *(["-o", str(tmp_path / "s.npz")] if argv[0] == "export" else ["--out", str(tmp_path / "run"), "-q"]),
    ]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusals: a usage line, exit 2
        code = exc.code
    err = capsys.readouterr().err
    assert code not in (0, 1), err
    assert said in err and "Traceback" not in err
    assert not (tmp_path / "s.npz").exists() and not (tmp_path / "run").exists()


# ------------------------------------------------------------------------------------ files


@pytest.mark.parametrize("damage", ["empty", "truncated", "text", "newer"])
def test_damaged_snapshots(capsys, tmp_path, damage):
    good = tmp_path / "good.npz"
    assert run_cli(capsys, "export", PEN, "--preset", "seed-toy", "-o", good)[0] == 0
    bad = tmp_path / "bad.npz"
    if damage == "empty":
        bad.write_bytes(b"")
    elif damage == "truncated":
        bad.write_bytes(good.read_bytes()[:-200])
    elif damage == "text":
        bad.write_text("hello", encoding="utf-8")
    else:
        manifest, arrays = exported(good)
        np.savez(
            bad, manifest=np.frombuffer(json.dumps({**manifest, "format_version": 7}).encode(), np.uint8), **arrays
        )
    code, _, err = run_cli(capsys, "info", bad)
    assert code == 2 and "bad.npz" in error_line(err)
    if damage == "newer":
        assert "newer" in err
    code, _, err = run_cli(capsys, "gui", "--snapshot", bad)  # refused before any window opens
    assert code == 2 and "bad.npz" in error_line(err)


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
def test_pickles_given_to_the_command_never_run(capsys, tmp_path):
    marker = tmp_path / "pwned"
    assert armed(marker)
    for evil in trap_files(tmp_path / "evil", marker, "snap.pt"):
        code, _, err = run_cli(capsys, "info", evil)
        assert code == 2 and error_line(err)
    for evil in trap_files(tmp_path / "bins", marker, "pytorch_model.bin"):
        folder = tiny_gpt2(tmp_path / f"hf-{evil.parent.name}")
        (folder / "model.safetensors").unlink()
        shutil.copy(evil, folder / "pytorch_model.bin")
        code, _, err = run_cli(capsys, "export", PEN, "--model", folder, "-o", tmp_path / "s.npz")
        assert code == 2 and "pytorch_model.bin" in error_line(err)
        code, _, err = run_cli(capsys, "eval", folder)
        assert code == 2 and error_line(err)
    assert not marker.exists()


def test_models_with_missing_tensors_or_wrong_shapes(capsys, tmp_path):
    tensors = gpt2_tensors()
    del tensors["ln_f.bias"]
    code, _, err = run_cli(
        capsys, "export", PEN, "--model", tiny_gpt2(tmp_path / "a", tensors), "-o", tmp_path / "s.npz"
    )
    assert code == 2 and "ln_f.bias" in error_line(err)
    tensors = gpt2_tensors()
    tensors["wte.weight"] = tensors["wte.weight"][:, :5]
    code, _, err = run_cli(
        capsys, "export", PEN, "--model", tiny_gpt2(tmp_path / "b", tensors), "-o", tmp_path / "s.npz"
    )
    assert code == 2 and "wte.weight" in error_line(err)
    gguf = tmp_path / "cut.gguf"
    gguf.write_bytes(b"GGUF\x03\x00\x00\x00" + bytes(10))
    code, _, err = run_cli(capsys, "export", PEN, "--model", gguf, "-o", tmp_path / "s.npz")
    assert code == 2 and "cut.gguf" in error_line(err)
    assert not (tmp_path / "s.npz").exists()


# ------------------------------------------------------------------------------------ writing


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_unwritable_outputs(capsys, tmp_path, where):
    (tmp_path / "a-file").write_text("x")
    base = tmp_path / "a-file" if where == "under-a-file" else Path("/proc")
    if not base.exists():
        pytest.skip("no /proc here")
    code, _, err = run_cli(capsys, "export", PEN, "--preset", "seed-toy", "-o", base / "s.npz")
    assert code == 2 and error_line(err).startswith(f"error: cannot write {base / 's.npz'}")
    code, _, err = run_cli(
        capsys,
        "train",
        "--corpus",
        "copy",
        "-E",
        "8",
        "-D",
        "4",
        "-H",
        "2",
        "-L",
        "1",
        "--steps",
        "2",
        "--out",
        base / "run",
        "-q",
    )
    assert code == 2 and "cannot write" in error_line(err)


def test_a_snapshot_opens_in_the_window_from_the_command_line(tmp_path):
    """`gui --snapshot` still shows a good snapshot (it is now read before the window is built)."""
    snap = tmp_path / "s.npz"
    assert main(["export", PEN, "--preset", "seed-toy", "-o", str(snap)]) == 0
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    r = subprocess.run(
        [sys.executable, "-m", "explorer", "gui", "--snapshot", str(snap), "--screenshot", str(tmp_path / "shot.png")],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "shot.png").stat().st_size > 10_000 and "Traceback" not in r.stderr
