"""Issue 13: hostile and odd inputs given to the command as a real process. Each case ends in exactly one
`error:` line and exit code 2 (or, where the input is legal, exit 0), never a traceback, never a hang (a
FIFO case finishes in seconds, well inside its timeout), with the peak memory measured inside the child
where memory is the point, and the user's files left as they were.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
import hostile  # noqa: E402
from hostile import PEN, one_error, run_cli  # noqa: E402
from untrusted import armed, tiny_gpt2, trap_files  # noqa: E402

GiB = 1024**3


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    return hostile.good_snapshot(tmp_path_factory.mktemp("good") / "good.npz")


# ------------------------------------------------------------------------------------------ hangs


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _hf_with_fifo(folder: Path, member: str) -> Path:
    tiny_gpt2(folder)
    (folder / member).unlink()
    _fifo(folder / member)
    return folder


def _checkpoint_with_fifo(folder: Path) -> Path:
    from explorer.weights.checkpoint import save_checkpoint
    from explorer.weights.presets import load_preset

    save_checkpoint(load_preset("seed-toy"), folder)
    (folder / "model.safetensors").unlink()
    _fifo(folder / "model.safetensors")
    return folder


FIFO_CASES = {
    "info": lambda t: ["info", _fifo(t / "fifo.npz")],
    "gui-snapshot": lambda t: ["gui", "--snapshot", _fifo(t / "fifo.npz")],
    "export-text-file": lambda t: ["export", "--text-file", _fifo(t / "fifo"), "-o", t / "s.npz"],
    "train-corpus": lambda t: ["train", "--corpus", _fifo(t / "fifo"), "--steps", "2", "--out", t / "run", "-q"],
    "eval-corpus": lambda t: ["eval", "--preset", "classroom", "--corpus", _fifo(t / "fifo")],
    "model-fifo": lambda t: ["export", PEN, "--model", _fifo(t / "model.gguf"), "-o", t / "s.npz"],
    "hf-safetensors-fifo": lambda t: [
        "export",
        PEN,
        "--model",
        _hf_with_fifo(t / "hf", "model.safetensors"),
        "-o",
        t / "s.npz",
    ],
    "hf-tokenizer-fifo": lambda t: [
        "export",
        PEN,
        "--model",
        _hf_with_fifo(t / "hf", "tokenizer.json"),
        "-o",
        t / "s.npz",
    ],
    "hf-config-fifo": lambda t: ["export", PEN, "--model", _hf_with_fifo(t / "hf", "config.json"), "-o", t / "s.npz"],
    "checkpoint-weights-fifo": lambda t: ["export", PEN, "--model", _checkpoint_with_fifo(t / "ck"), "-o", t / "s.npz"],
    "window-model-fifo": lambda t: [
        "gui",
        "--model",
        _hf_with_fifo(t / "hf", "model.safetensors"),
        "--screenshot",
        t / "shot.png",
    ],
}


@pytest.mark.parametrize("case", list(FIFO_CASES))
def test_a_fifo_given_as_any_input_is_refused_at_once(tmp_path, case):
    argv = FIFO_CASES[case](tmp_path)
    # Nobody writes to the FIFO: reading it would block for ever, so the process ending at all (with the
    # error) shows it was refused before any read. The timeout only keeps a regression from hanging the suite.
    code, _, err, _ = run_cli(tmp_path, *argv, timeout=600)
    assert code == 2, err
    assert "named pipe (FIFO), not a regular file" in one_error(err)
    assert (
        not (tmp_path / "s.npz").exists() and not (tmp_path / "run").exists() and not (tmp_path / "shot.png").exists()
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["export", PEN, "--model", "/dev/zero"],
        ["export", "--text-file", "/dev/zero"],
        ["eval", "--preset", "classroom", "--corpus", "/dev/zero"],
        ["info", "/dev/zero"],
    ],
    ids=["model", "text-file", "corpus", "info"],
)
def test_dev_zero_is_a_device_not_a_missing_file(tmp_path, argv):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    argv = [*argv, *(["-o", tmp_path / "s.npz"] if argv[0] == "export" else [])]
    code, _, err, rss = run_cli(tmp_path, *argv, timeout=90)
    assert code == 2 and "character device, not a regular file" in one_error(err)
    assert "no such file" not in err
    assert rss < 1 * GiB


def test_a_catastrophic_tokenizer_regex_is_one_line(tmp_path):
    folder = hostile.tiny_llama(tmp_path / "llama", tokenizer_json=hostile.catastrophic_tokenizer_json())
    text = "a" * 5000 + "!"
    code, _, err, _ = run_cli(tmp_path, "export", text, "--model", folder, "-o", tmp_path / "s.npz", timeout=90)
    assert code == 2 and "the model's tokenizer failed on this text" in one_error(err)
    assert "panicked" not in err and "PanicException" not in err and len(err.splitlines()) <= 2
    # the window: the worker reports it instead of dying, so the window is not left waiting
    code, _, err, _ = run_cli(
        tmp_path, "gui", "--model", folder, "--text", text, "--screenshot", tmp_path / "shot.png", timeout=150
    )
    assert code == 2 and "tokenizer failed" in one_error(err), err
    assert not (tmp_path / "shot.png").exists()


# ------------------------------------------------------------------------------------------ memory


def test_a_huge_sparse_text_file_costs_little(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(GiB)  # sparse: NUL characters, no disk used
    before = big.stat()
    code, _, err, rss = run_cli(
        tmp_path, "export", "--text-file", big, "--names", "logits", "-o", tmp_path / "s.npz", timeout=180
    )
    assert code == 0, err
    assert "only its start is read" in err and "Traceback" not in err
    assert rss < 1 * GiB  # the whole file once took 2.1 GB
    assert big.stat().st_mtime_ns == before.st_mtime_ns


@pytest.mark.parametrize("budget", [None, "1"])
def test_an_npz_zip_bomb_is_refused_from_its_headers(tmp_path, good, budget):
    bomb = hostile.npz_bomb(good, tmp_path / "bomb.npz", gib=6)
    assert bomb.stat().st_size < 8 * 1024**2
    env = {"ATTENTION_EXPLORER_MEMORY_GB": budget} if budget else {}
    code, out, err, rss = run_cli(tmp_path, "info", bomb, env=env)
    assert code == 0, err  # info reads headers only: it shows what the file declares
    assert "(24576, 65536)" in out and rss < 1 * GiB
    code, _, err, rss = run_cli(tmp_path, "gui", "--snapshot", bomb, env=env)
    assert code == 2 and "6.0 GiB of tensors, more than the" in one_error(err)
    assert rss < 1 * GiB  # decompressing it once took 6.3 GB


def test_a_sparse_safetensors_tensor_is_refused_from_its_header(tmp_path, good):
    big = hostile.sparse_safetensors(good, tmp_path / "big.safetensors", gib=5)
    code, out, err, rss = run_cli(tmp_path, "info", big)
    assert code == 0 and "(20480, 65536)" in out, err
    assert rss < 1 * GiB  # it once cost 10.5 GB
    code, _, err, rss = run_cli(tmp_path, "gui", "--snapshot", big)
    assert code == 2 and "memory budget" in one_error(err) and rss < 1 * GiB


@pytest.mark.slow
@pytest.mark.parametrize("budget", [None, 3.5])
def test_the_export_memory_check_counts_everything_it_will_hold(tmp_path, budget):
    """8 sentences × 1024 tokens, E=256, H=8, D=32, L=3 peaked at 5.8 GB under a 3.5 or 4 GiB budget."""
    text = tmp_path / "8x1024.txt"
    text.write_text("\n".join(" ".join(["the cat sat on a mat ."] * 147) for _ in range(8)), encoding="utf-8")
    extra = ["--memory-budget", str(budget)] if budget else []
    code, _, err, rss = run_cli(
        tmp_path,
        "export",
        "--text-file",
        text,
        "-E",
        "256",
        "-H",
        "8",
        "-D",
        "32",
        "-L",
        "3",
        *extra,
        "-o",
        tmp_path / "s.npz",
        timeout=300,
    )
    assert code == 2 and "more than the" in one_error(err) and "memory budget" in err
    assert rss < (budget or 4) * GiB
    assert not (tmp_path / "s.npz").exists()


# ------------------------------------------------------------------------------------------ snapshots

VALUE_ONLY = {"nan-tensor", "inf-tensor", "ids-out-of-vocab"}  # only the data shows these: `info` reads headers


@pytest.mark.parametrize("case", list(hostile.manifest_cases()))
def test_hostile_snapshots_are_one_line_in_info_and_the_window(tmp_path, good, case):
    bad = hostile.hostile_snapshot(good, case, tmp_path / f"{case}.npz")
    before = digest(bad)
    code, out, err, _ = run_cli(tmp_path, "info", bad)
    if case in VALUE_ONLY:
        assert code == 0 and "Traceback" not in err
    else:
        assert code == 2 and f"{case}.npz" in one_error(err), err
    code, _, err, _ = run_cli(tmp_path, "gui", "--snapshot", bad, "--screenshot", tmp_path / "shot.png")
    assert code == 2 and f"{case}.npz" in one_error(err), err
    assert not (tmp_path / "shot.png").exists()
    assert digest(bad) == before


def _bf16_safetensors(good: Path, out: Path) -> Path:
    import torch
    from safetensors.torch import save_file

    manifest, arrays = hostile.npz_parts(good)
    tensors = {k: torch.from_numpy(arrays[k]) for k in ("tokens", "mask")}
    tensors["logits"] = torch.from_numpy(arrays["logits"]).to(torch.bfloat16)
    save_file(tensors, str(out), metadata={"manifest": json.dumps(manifest)})
    return out


def _bf16_pt(good: Path, out: Path) -> Path:
    import torch

    manifest, arrays = hostile.npz_parts(good)
    payload = {k: torch.from_numpy(arrays[k]) for k in ("tokens", "mask")}
    payload["logits"] = torch.from_numpy(arrays["logits"]).to(torch.bfloat16)
    payload["manifest"] = json.dumps(manifest)
    torch.save(payload, out)
    return out


@pytest.mark.parametrize("make", [_bf16_safetensors, _bf16_pt], ids=["safetensors", "pt"])
def test_bfloat16_snapshots_say_so(tmp_path, good, make):
    bad = make(good, tmp_path / f"bf16.{'pt' if make is _bf16_pt else 'safetensors'}")
    for argv in (["info", bad], ["gui", "--snapshot", bad]):
        code, _, err, _ = run_cli(tmp_path, *argv)
        assert code == 2 and "bfloat16 is not supported here" in one_error(err)


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
def test_pickles_say_what_was_found(tmp_path):
    marker = tmp_path / "pwned"
    assert armed(marker)
    evil = trap_files(tmp_path / "evil", marker, "snap.pt")[0]  # torch's zip format
    code, _, err, _ = run_cli(tmp_path, "info", evil)
    assert code == 2 and "contains Python objects (pickle), which are never loaded" in one_error(err)
    assert "Weights only load failed" not in err
    folder = tiny_gpt2(tmp_path / "hf")
    (folder / "model.safetensors").unlink()
    (folder / "pytorch_model.bin").write_bytes(evil.read_bytes())
    code, _, err, _ = run_cli(tmp_path, "export", PEN, "--model", folder, "-o", tmp_path / "s.npz")
    assert code == 2 and "pytorch_model.bin contains Python objects (pickle)" in one_error(err)
    assert not marker.exists()


# ------------------------------------------------------------------------------------------ models


def _gpt2(folder: Path, **config) -> Path:
    tiny_gpt2(folder)
    cfg = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**cfg, **config}))
    return folder


def _raw_config(text: str):
    def make(folder: Path) -> Path:
        tiny_gpt2(folder)
        (folder / "config.json").write_text(text)
        return folder

    return make


def _checkpoint_config(text_of):
    def make(folder: Path) -> Path:
        from explorer.weights.checkpoint import save_checkpoint
        from explorer.weights.presets import load_preset

        save_checkpoint(load_preset("seed-toy"), folder)
        cfg = (folder / "config.json").read_text()
        (folder / "config.json").write_text(text_of(cfg))
        return folder

    return make


def _weight_map_list(folder: Path) -> Path:
    tiny_gpt2(folder)
    (folder / "model.safetensors.index.json").write_text(
        json.dumps({"weight_map": {"wte.weight": ["model.safetensors"]}})
    )
    return folder


def _weight_map_outside(folder: Path) -> Path:
    tiny_gpt2(folder)
    (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"wte.weight": "/etc/passwd"}}))
    return folder


NAN = float("nan")
MODEL_CASES = {
    "gpt2-n_head-0": (lambda f: _gpt2(f, n_head=0), "n_head must lie between 1 and"),
    "gpt2-eps-abc": (lambda f: _gpt2(f, layer_norm_epsilon="abc"), "layer_norm_epsilon must be a number"),
    "gpt2-eps-list": (lambda f: _gpt2(f, layer_norm_epsilon=[1]), "layer_norm_epsilon must be a number"),
    "gpt2-huge-int": (lambda f: _gpt2(f, n_embd=10**30), "n_embd must lie between 1 and"),
    "llama-heads-0": (
        lambda f: hostile.tiny_llama(f, {"num_attention_heads": 0}),
        "num_attention_heads must lie between 1",
    ),
    "llama-eps-x": (lambda f: hostile.tiny_llama(f, {"rms_norm_eps": "x"}), "rms_norm_eps must be a number"),
    "llama-head_dim--4": (lambda f: hostile.tiny_llama(f, {"head_dim": -4}), "head_dim must lie between 1 and"),
    "llama-theta-negative": (lambda f: hostile.tiny_llama(f, {"rope_theta": -1}), "rope_theta must be positive"),
    "llama-nan-weights": (
        lambda f: hostile.tiny_llama(f, tensors={"model.norm.weight": np.full(8, np.nan, np.float32)}),
        "contains NaN or infinite values",
    ),
    "llama-int32-weights": (
        lambda f: hostile.tiny_llama(f, tensors={"model.norm.weight": np.ones(8, np.int32)}),
        "is int32, expected floating point",
    ),
    "llama-bool-weights": (
        lambda f: hostile.tiny_llama(f, tensors={"model.norm.weight": np.ones(8, bool)}),
        "is bool, expected floating point",
    ),
    "weight_map-list": (_weight_map_list, "must name a file in"),
    "weight_map-outside": (_weight_map_outside, "must name a file in"),
    "config-deep": (
        _raw_config('{"model_type": "gpt2", "x": ' + "[" * 200_000 + "]" * 200_000 + "}"),
        "nested too deeply",
    ),
    "config-5000-digits": (_raw_config('{"model_type": "gpt2", "n_embd": ' + "9" * 5000 + "}"), "number too long"),
    "checkpoint-deep": (
        _checkpoint_config(lambda c: c[:-2] + ', "x": ' + "[" * 200_000 + "]" * 200_000 + "}"),
        "nested too deeply",
    ),
    "checkpoint-5000-digits": (_checkpoint_config(lambda c: c[:-2] + ', "x": ' + "9" * 5000 + "}"), "number too long"),
    "checkpoint-nan-theta": (
        _checkpoint_config(lambda c: c.replace('"rope_theta": 10000.0', '"rope_theta": NaN')),
        "rope_theta must be a finite number",
    ),
    "gguf-head_count-0": (
        lambda f: hostile.tiny_gguf(f.with_suffix(".gguf"), {"llama.attention.head_count": 0}),
        "head_count must lie between 1",
    ),
    "gguf-embedding-abc": (
        lambda f: hostile.tiny_gguf(f.with_suffix(".gguf"), {"llama.embedding_length": "abc"}),
        "embedding_length must be a whole number",
    ),
    "gguf-embedding-inf": (
        lambda f: hostile.tiny_gguf(f.with_suffix(".gguf"), {"llama.embedding_length": float("inf")}),
        "embedding_length must be a whole number",
    ),
    "gguf-epsilon-x": (
        lambda f: hostile.tiny_gguf(f.with_suffix(".gguf"), {"llama.attention.layer_norm_rms_epsilon": "x"}),
        "epsilon must be a number",
    ),
    "gguf-theta-negative": (
        lambda f: hostile.tiny_gguf(f.with_suffix(".gguf"), {"llama.rope.freq_base": -1.0}),
        "freq_base must be positive",
    ),
    "gguf-theta-nan": (
        lambda f: hostile.tiny_gguf(f.with_suffix(".gguf"), {"llama.rope.freq_base": NAN}),
        "freq_base must be a finite number",
    ),
    "gguf-nan-weights": (
        lambda f: hostile.tiny_gguf(
            f.with_suffix(".gguf"), weights={"output_norm.weight": np.full(8, np.nan, np.float32)}
        ),
        "contains NaN or infinite values",
    ),
    "gguf-int-weights": (
        lambda f: hostile.tiny_gguf(f.with_suffix(".gguf"), weights={"output_norm.weight": np.ones(8, np.int32)}),
        "expected floating point numbers",
    ),
}


@pytest.mark.parametrize("case", list(MODEL_CASES))
def test_hostile_models_are_one_line(tmp_path, case):
    make, said = MODEL_CASES[case]
    model = make(tmp_path / "model")
    code, _, err, _ = run_cli(tmp_path, "export", PEN, "--model", model, "-o", tmp_path / "s.npz")
    assert code == 2 and said in one_error(err), err
    assert not (tmp_path / "s.npz").exists()


@pytest.mark.parametrize("case", ["gpt2-n_head-0", "llama-nan-weights", "gguf-theta-nan"])
def test_hostile_models_in_the_window_are_one_line(tmp_path, case):
    make, said = MODEL_CASES[case]
    model = make(tmp_path / "model")
    code, _, err, _ = run_cli(tmp_path, "gui", "--model", model, "--screenshot", tmp_path / "shot.png", timeout=150)
    assert code == 2 and said in one_error(err), err


def test_a_good_gguf_still_opens(tmp_path):
    code, out, err, _ = run_cli(
        tmp_path, "export", "ab ab", "--model", hostile.tiny_gguf(tmp_path / "g.gguf"), "-o", tmp_path / "s.npz"
    )
    assert code == 0, err
    assert (tmp_path / "s.npz").exists()


def test_the_gguf_cache_warning_is_a_note(tmp_path):
    (tmp_path / "not-a-folder").write_text("x")  # the cache cannot be created under a file
    g = hostile.tiny_gguf(tmp_path / "g.gguf")
    code, _, err, _ = run_cli(
        tmp_path,
        "export",
        "ab",
        "--model",
        g,
        "-o",
        tmp_path / "s.npz",
        env={"XDG_CACHE_HOME": str(tmp_path / "not-a-folder")},
    )
    assert code == 0, err
    cache_lines = [ln for ln in err.splitlines() if "could not cache" in ln]
    assert cache_lines and all(ln.startswith("note: ") for ln in cache_lines), err


# ------------------------------------------------------------------------------------------ options


def test_weight_decay_nan_is_an_option_error(tmp_path):
    code, _, err, _ = run_cli(
        tmp_path, "train", "--corpus", "copy", "--steps", "2", "--weight-decay", "nan", "--out", tmp_path / "run", "-q"
    )
    assert code == 2 and "weight decay must be a number ≥ 0" in one_error(err)
    assert "diverged" not in err and not (tmp_path / "run").exists()


@pytest.mark.slow
def test_a_huge_sparse_corpus_is_read_in_part(tmp_path):
    from explorer.train.corpora import MAX_CORPUS_CHARS

    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(GiB)
    code, _, err, rss = run_cli(
        tmp_path, "train", "--corpus", big, "--steps", "1", "--out", tmp_path / "run", "-q", timeout=300
    )
    assert code == 0, err
    assert f"note: big.txt is longer than {MAX_CORPUS_CHARS:,} characters: only its start is used" in err
    assert rss < 1.5 * GiB  # 16 million characters once took 2.8 GB; the whole file would take far more
    assert f"{MAX_CORPUS_CHARS:,}" in (hostile.ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
