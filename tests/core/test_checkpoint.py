"""Checkpoint folders: exact round trip, atomic writes, clear errors for damaged files, no pickle."""

from __future__ import annotations

import json

import pytest
import torch

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError, SnapshotError
from explorer.tokenize import Tokenizer
from explorer.util.paths import resource
from explorer.weights import checkpoint as ckpt
from explorer.weights.bundle import random_bundle
from explorer.weights.checkpoint import load_checkpoint, read_checkpoint_meta, save_checkpoint
from explorer.weights.loaders import detect_kind, load_model


@pytest.fixture
def bundle():
    tok = Tokenizer.from_file(resource("tokenizers", "letters.json"))
    cfg = ModelConfig(
        vocab_size=tok.vocab_size, embed_dim=16, key_dim=4, heads=2, layers=2, positions="learned", max_positions=16
    )
    return random_bundle(cfg, tok, seed=3)


def _ids(bundle, text="abcabc"):
    return torch.tensor([bundle.tokenizer.encode(text).ids])


def test_round_trip_gives_identical_logits(bundle, tmp_path):
    folder = save_checkpoint(bundle, tmp_path / "ck", step=42, train={"corpus": {"name": "induction"}, "seed": 3})
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "model.safetensors", "tokenizer.json"]
    assert folder.stat().st_mode & 0o777 == 0o755  # not the private mode of a temporary folder
    assert all(p.stat().st_mode & 0o777 == 0o644 for p in folder.iterdir())
    meta = json.loads((folder / "config.json").read_text())
    assert meta["format"] == "attention-explorer-checkpoint" and meta["format_version"] == 1
    assert meta["step"] == 42 and meta["tokenizer_kind"] == "char" and meta["config"] == bundle.config.to_dict()
    loaded = load_checkpoint(folder)
    assert loaded.source == f"checkpoint:{folder.resolve()}"
    assert loaded.config == bundle.config and loaded.seed == 3
    assert loaded.tokenizer.to_str() == bundle.tokenizer.to_str()
    with torch.inference_mode():
        assert torch.equal(loaded.model(_ids(bundle)), bundle.model(_ids(bundle)))
    # The generic loader recognises the folder too.
    assert detect_kind(folder) == "checkpoint"
    assert torch.equal(load_model(folder).model.embed.tok, bundle.model.embed.tok)


def test_tensor_names_are_the_state_dict_keys(bundle, tmp_path):
    from safetensors import safe_open

    folder = save_checkpoint(bundle, tmp_path / "ck")
    with safe_open(str(folder / "model.safetensors"), framework="pt") as fh:
        assert sorted(fh.keys()) == sorted(bundle.model.state_dict())
        assert tuple(fh.get_tensor("layers.0.attn.W_q").shape) == (16, 8)  # (E, H·D): the note's orientation


def test_a_model_and_config_can_be_saved_without_a_bundle(bundle, tmp_path):
    folder = save_checkpoint(bundle.model, tmp_path / "m", tokenizer=bundle.tokenizer)
    assert load_checkpoint(folder).config == bundle.config


def test_an_interrupted_write_leaves_no_partial_folder(bundle, tmp_path, monkeypatch):
    target = tmp_path / "ck"

    def boom(path, tensors):
        path.write_bytes(b"half a file")
        raise RuntimeError("disk unplugged")

    monkeypatch.setattr(ckpt, "_write_weights", boom)
    with pytest.raises(RuntimeError):
        save_checkpoint(bundle, target)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary folder left behind either


def test_an_interrupted_overwrite_keeps_the_old_checkpoint(bundle, tmp_path, monkeypatch):
    target = save_checkpoint(bundle, tmp_path / "ck", step=1)
    monkeypatch.setattr(
        ckpt, "_write_weights", lambda path, tensors: (_ for _ in ()).throw(OSError(28, "No space left"))
    )
    with pytest.raises(SnapshotError, match="disk is full"):
        save_checkpoint(bundle, target, step=2)
    assert read_checkpoint_meta(target)["step"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["ck"]
    load_checkpoint(target)


def _saved(bundle, tmp_path):
    return save_checkpoint(bundle, tmp_path / "ck")


def test_missing_files_are_clear_errors(bundle, tmp_path):
    folder = _saved(bundle, tmp_path)
    (folder / "model.safetensors").unlink()
    with pytest.raises(ModelLoadError, match="missing its weights"):
        load_checkpoint(folder)
    with pytest.raises(ModelLoadError, match="no such checkpoint"):
        load_checkpoint(tmp_path / "nowhere")
    (folder / "config.json").unlink()
    with pytest.raises(ModelLoadError, match="config.json is missing"):
        load_checkpoint(folder)


def test_missing_tokenizer_is_a_clear_error(bundle, tmp_path):
    folder = _saved(bundle, tmp_path)
    (folder / "tokenizer.json").unlink()
    with pytest.raises(ModelLoadError, match="tokenizer"):
        load_checkpoint(folder)


def test_truncated_weights_are_a_clear_error(bundle, tmp_path):
    folder = _saved(bundle, tmp_path)
    data = (folder / "model.safetensors").read_bytes()
    for cut in (4, 200, len(data) - 100):
        (folder / "model.safetensors").write_bytes(data[:cut])
        with pytest.raises(ModelLoadError, match="damaged or truncated"):
            load_checkpoint(folder)


def test_wrong_shapes_and_names_are_clear_errors(bundle, tmp_path):
    from safetensors.torch import save_file

    folder = _saved(bundle, tmp_path)
    tensors = {k: v.clone() for k, v in bundle.model.state_dict().items()}
    tensors["layers.1.attn.W_k"] = torch.zeros(16, 4)
    save_file(tensors, str(folder / "model.safetensors"))
    with pytest.raises(ModelLoadError, match=r"layers.1.attn.W_k has shape \(16, 4\)"):
        load_checkpoint(folder)
    del tensors["layers.1.attn.W_k"]
    save_file(tensors, str(folder / "model.safetensors"))
    with pytest.raises(ModelLoadError, match="missing layers.1.attn.W_k"):
        load_checkpoint(folder)
    tensors["layers.1.attn.W_k"] = torch.full((16, 8), float("nan"))
    save_file(tensors, str(folder / "model.safetensors"))
    with pytest.raises(ModelLoadError, match="NaN"):
        load_checkpoint(folder)


def test_bad_config_files_are_clear_errors(bundle, tmp_path):
    folder = _saved(bundle, tmp_path)
    cfg = folder / "config.json"
    meta = json.loads(cfg.read_text())
    cfg.write_text("{not json")
    with pytest.raises(ModelLoadError, match="cannot be read as JSON"):
        load_checkpoint(folder)
    cfg.write_text(json.dumps({**meta, "format": "something-else"}))
    with pytest.raises(ModelLoadError, match="not an Attention Explorer checkpoint"):
        load_checkpoint(folder)
    cfg.write_text(json.dumps({**meta, "format_version": 99}))
    with pytest.raises(ModelLoadError, match="newer version"):
        load_checkpoint(folder)
    cfg.write_text(json.dumps({**meta, "config": {**meta["config"], "heads": 0}}))
    with pytest.raises(ModelLoadError, match="invalid model config"):
        load_checkpoint(folder)
    cfg.write_text(json.dumps({**meta, "config": {**meta["config"], "vocab_size": 99}}))
    with pytest.raises(ModelLoadError, match="tokenizer has 28 tokens"):
        load_checkpoint(folder)


def test_loading_never_unpickles(bundle, tmp_path, monkeypatch):
    import pickle

    folder = _saved(bundle, tmp_path)

    def refuse(*a, **k):
        raise AssertionError("unpickling attempted")

    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(torch, "load", refuse)
    load_checkpoint(folder)


def test_a_gated_checkpoint_with_biases_written_before_the_gate_bias_opens_with_a_zero_one(tmp_path):
    """Issue 42 gave a gated FFN with biases its gate bias (b_gate); a checkpoint saved before has none: it opens
    and computes what it computed then (a gate without bias), any other missing tensor is still an error."""
    from safetensors.torch import load_file, save_file

    tok = Tokenizer.from_file(resource("tokenizers", "letters.json"))
    cfg = ModelConfig(
        vocab_size=tok.vocab_size, embed_dim=16, key_dim=4, heads=2, layers=1, ffn_activation="silu_gated", bias=True
    )
    bundle = random_bundle(cfg, tok, seed=3)
    folder = save_checkpoint(bundle, tmp_path / "ck")
    tensors = load_file(folder / "model.safetensors")
    assert "layers.0.ffn.b_gate" in tensors
    del tensors["layers.0.ffn.b_gate"]
    save_file(tensors, folder / "model.safetensors")
    loaded = load_checkpoint(folder)
    assert torch.equal(loaded.model.layers[0].ffn.b_gate.detach(), torch.zeros(cfg.F))
    with torch.inference_mode():
        assert torch.equal(loaded.model(_ids(bundle)), bundle.model(_ids(bundle)))
    del tensors["layers.0.ffn.b_in"]
    save_file(tensors, folder / "model.safetensors")
    with pytest.raises(ModelLoadError, match="missing layers.0.ffn.b_in"):
        load_checkpoint(folder)
