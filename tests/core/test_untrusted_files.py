"""Files from anywhere: nothing in them runs, and every damaged one is a one-line ModelLoadError or
SnapshotError.

Every place that could meet a pickle is covered: snapshots (.pt, and .npz with object arrays: also in
test_snapshot_roundtrip.py), Hugging Face folders with pytorch_model.bin, and checkpoint folders whose
weights file is not what its name says. Each trap would create a marker file if it were unpickled; the
tests first prove the trap fires when loaded unsafely.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from untrusted import Trap, armed, gpt2_tensors, tiny_gpt2, trap_files

from explorer.errors import ExplorerError, ModelLoadError, SnapshotError
from explorer.weights.loaders import load_model


def one_line(exc: BaseException) -> str:
    msg = str(exc)
    assert msg and "\n" not in msg and "Traceback" not in msg
    return msg


@pytest.fixture
def marker(tmp_path):
    m = tmp_path / "pwned"
    assert armed(m), "the trap must fire when unpickled unsafely, or the tests below prove nothing"
    return m


# ------------------------------------------------------------------------------------ pickles never run


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
def test_hf_pytorch_model_bin_with_a_pickle_payload_does_not_run(tmp_path, marker):
    for evil in trap_files(tmp_path / "bins", marker, "pytorch_model.bin"):
        folder = tiny_gpt2(tmp_path / f"hf-{evil.parent.name}")
        (folder / "model.safetensors").unlink()  # so the loader falls back to pytorch_model.bin
        shutil.copy(evil, folder / "pytorch_model.bin")
        with pytest.raises(ModelLoadError) as err:
            load_model(folder)
        assert "pytorch_model.bin" in one_line(err.value)
        assert not marker.exists(), f"{evil.parent.name}: the pickle ran"


@pytest.mark.parametrize("name", ["model.safetensors", "tokenizer.json", "config.json"])
def test_checkpoint_files_that_are_pickles_do_not_run(tmp_path, marker, name):
    from explorer.config import ModelConfig
    from explorer.weights.bundle import random_bundle
    from explorer.weights.checkpoint import load_checkpoint, save_checkpoint
    from explorer.weights.presets import preset_tokenizer

    tok = preset_tokenizer("words-en.json")
    bundle = random_bundle(ModelConfig(tok.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1), tok, 1)
    for evil in trap_files(tmp_path / "bins", marker, name):
        folder = save_checkpoint(bundle, tmp_path / f"ckpt-{evil.parent.name}")
        shutil.copy(evil, folder / name)
        with pytest.raises(ModelLoadError) as err:
            load_checkpoint(folder)
        one_line(err.value)
        with pytest.raises(ModelLoadError):
            load_model(folder)  # the generic opener (File → Open model, --model) as well
        assert not marker.exists(), f"{name} ({evil.parent.name}): the pickle ran"


def test_a_checkpoint_ignores_stray_pickles_beside_its_weights(tmp_path, marker):
    from explorer.config import ModelConfig
    from explorer.weights.bundle import random_bundle
    from explorer.weights.checkpoint import load_checkpoint, save_checkpoint
    from explorer.weights.presets import preset_tokenizer

    tok = preset_tokenizer("words-en.json")
    bundle = random_bundle(ModelConfig(tok.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1), tok, 1)
    folder = save_checkpoint(bundle, tmp_path / "ckpt")
    for evil in trap_files(tmp_path / "bins", marker, "pytorch_model.bin"):
        shutil.copy(evil, folder / f"{evil.parent.name}.pt")
    shutil.copy(tmp_path / "bins" / "zip" / "pytorch_model.bin", folder / "pytorch_model.bin")
    load_checkpoint(folder)
    assert not marker.exists()


@pytest.mark.parametrize("suffix", ["pt", "npz", "safetensors"])
@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
def test_snapshot_pickles_do_not_run_whatever_the_name(tmp_path, marker, suffix):
    from explorer.export.snapshot import read_snapshot

    for evil in trap_files(tmp_path / "bins", marker, f"snap.{suffix}"):
        with pytest.raises(SnapshotError) as err:
            read_snapshot(evil)
        one_line(err.value)
    assert not marker.exists()
    obj = tmp_path / f"objects.{suffix}"
    with open(obj, "wb") as fh:
        np.savez(fh, manifest=np.frombuffer(b"{}", np.uint8), tokens=np.array([Trap(marker)], dtype=object))
    with pytest.raises(SnapshotError):
        read_snapshot(obj)
    assert not marker.exists()


# ------------------------------------------------------------------------------------ damaged files


def test_hf_folder_with_a_missing_tensor_or_a_wrong_shape(tmp_path):
    tensors = gpt2_tensors()
    del tensors["h.0.attn.c_proj.weight"]
    with pytest.raises(ModelLoadError) as err:
        load_model(tiny_gpt2(tmp_path / "missing", tensors))
    assert "h.0.attn.c_proj.weight" in one_line(err.value) and "missing" in str(err.value)
    tensors = gpt2_tensors()
    tensors["h.0.mlp.c_fc.weight"] = np.zeros((8, 31), np.float32)
    with pytest.raises(ModelLoadError) as err:
        load_model(tiny_gpt2(tmp_path / "shape", tensors))
    assert "h.0.mlp.c_fc.weight" in one_line(err.value) and "(8, 31)" in str(err.value)


@pytest.mark.parametrize(
    "damage", ["empty", "truncated", "text", "missing-config", "bad-json", "no-weights", "no-tokenizer"]
)
def test_damaged_hf_folders_are_one_line_errors(tmp_path, damage):
    folder = tiny_gpt2(tmp_path / "hf")
    weights = folder / "model.safetensors"
    if damage == "empty":
        weights.write_bytes(b"")
    elif damage == "truncated":
        weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
    elif damage == "text":
        weights.write_text("not tensors", encoding="utf-8")
    elif damage == "missing-config":
        (folder / "config.json").unlink()
    elif damage == "bad-json":
        (folder / "config.json").write_text("{ not json", encoding="utf-8")
    elif damage == "no-weights":
        weights.unlink()
    else:
        (folder / "tokenizer.json").unlink()
    with pytest.raises(ModelLoadError) as err:
        from explorer.trace import run_trace

        run_trace(load_model(folder), "This is a pen .")  # damage found at load or at the latest when read
    one_line(err.value)


@pytest.mark.parametrize(
    "content", [b"", b"GGUF", b"GGUF" + bytes(20), b"GGUF\x03\x00\x00\x00" + b"\xff" * 64, b"not a model"]
)
def test_damaged_gguf_files_are_one_line_errors(tmp_path, content):
    path = tmp_path / "model.gguf"
    path.write_bytes(content)
    with pytest.raises(ModelLoadError) as err:
        load_model(path)
    one_line(err.value)


@pytest.mark.parametrize(
    "damage", ["empty-weights", "truncated-weights", "weights-are-text", "config-empty", "config-list", "newer"]
)
def test_damaged_checkpoints_are_one_line_errors(tmp_path, damage):
    from explorer.config import ModelConfig
    from explorer.weights.bundle import random_bundle
    from explorer.weights.checkpoint import load_checkpoint, save_checkpoint
    from explorer.weights.presets import preset_tokenizer

    tok = preset_tokenizer("words-en.json")
    folder = save_checkpoint(
        random_bundle(ModelConfig(tok.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1), tok, 1), tmp_path / "c"
    )
    weights, config = folder / "model.safetensors", folder / "config.json"
    if damage == "empty-weights":
        weights.write_bytes(b"")
    elif damage == "truncated-weights":
        weights.write_bytes(weights.read_bytes()[:100])
    elif damage == "weights-are-text":
        weights.write_text("hello", encoding="utf-8")
    elif damage == "config-empty":
        config.write_text("", encoding="utf-8")
    elif damage == "config-list":
        config.write_text("[1, 2]", encoding="utf-8")
    else:
        meta = json.loads(config.read_text(encoding="utf-8"))
        config.write_text(json.dumps({**meta, "format_version": 99}), encoding="utf-8")
    with pytest.raises(ExplorerError) as err:
        load_checkpoint(folder)
    assert isinstance(err.value, ModelLoadError)
    msg = one_line(err.value)
    if damage == "newer":
        assert "newer" in msg
