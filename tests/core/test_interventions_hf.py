"""Ablating a head of a real model's folder equals the folder with that head's rows of the output
projection zeroed on disk (and its bias unchanged): GPT-2 (Conv1D c_proj, (in, out)) and Llama (o_proj,
(out, in), grouped-query heads). The edited folder is read by the ordinary loader; no intervention code
touches it."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from safetensors.torch import load_file, save_file
from test_hf_oracle import make_gpt2, make_llama  # the same tiny folders as the HF oracle

from explorer.interventions import HeadAblation, Interventions, run_intervened
from explorer.trace.run import run_trace
from explorer.weights.loaders import load_model

TEXT = "The cat sat on the mat because it was tired ."


def zero_head_on_disk(src, dst, key_end: str, rows: slice, transpose: bool) -> None:
    shutil.copytree(src, dst)
    tensors = load_file(str(dst / "model.safetensors"))
    key = next(k for k in tensors if k.endswith(key_end))
    w = tensors[key].clone()
    if transpose:
        w[:, rows] = 0.0  # nn.Linear stores (out, in): head h is a block of input columns
    else:
        w[rows] = 0.0  # Conv1D stores (in, out): head h is a block of rows
    tensors[key] = w
    save_file(tensors, str(dst / "model.safetensors"), metadata={"format": "pt"})


@pytest.mark.parametrize("family,layer,head", [("gpt2", 0, 1), ("gpt2", 1, 3), ("llama", 2, 2)])
def test_ablation_equals_the_folder_edited_on_disk(tmp_path, tokenizer_json, family, layer, head):
    if family == "gpt2":
        folder = make_gpt2(tmp_path / "m", tokenizer_json)
        D = 64 // 4
        zero_head_on_disk(
            folder, tmp_path / "edited", f"h.{layer}.attn.c_proj.weight", slice(head * D, (head + 1) * D), False
        )
    else:
        folder = make_llama(tmp_path / "m", tokenizer_json)
        D = 64 // 4
        zero_head_on_disk(
            folder,
            tmp_path / "edited",
            f"layers.{layer}.self_attn.o_proj.weight",
            slice(head * D, (head + 1) * D),
            True,
        )
    run = run_intervened(load_model(str(folder)), TEXT, Interventions(ablations=(HeadAblation(layer, head),)))
    oracle = run_trace(load_model(str(tmp_path / "edited")), TEXT)["logits"]
    assert np.abs(run["logits"] - oracle).max() < 1e-5
    assert np.abs(run["baseline.logits"] - oracle).max() > 1e-3  # the edit changed something


def test_gguf_ablation_equals_the_file_written_with_the_head_zeroed(tmp_path, tokenizer_json, monkeypatch):
    pytest.importorskip("gguf")
    import torch
    import transformers
    from test_gguf import write_gguf

    monkeypatch.setenv("ATTENTION_EXPLORER_NO_CACHE", "1")
    folder = make_llama(tmp_path / "m", tokenizer_json)
    model = transformers.LlamaForCausalLM.from_pretrained(folder, dtype=torch.float32).eval()
    write_gguf(tmp_path / "plain.gguf", model, tokenizer_json)
    layer, head, D = 1, 3, 64 // 4
    with torch.no_grad():
        model.model.layers[layer].self_attn.o_proj.weight[:, head * D : (head + 1) * D] = 0.0
    write_gguf(tmp_path / "edited.gguf", model, tokenizer_json)
    run = run_intervened(
        load_model(str(tmp_path / "plain.gguf")), TEXT, Interventions(ablations=(HeadAblation(layer, head),))
    )
    oracle = run_trace(load_model(str(tmp_path / "edited.gguf")), TEXT)["logits"]
    assert np.abs(run["logits"] - oracle).max() < 1e-5
    assert np.abs(run["baseline.logits"] - oracle).max() > 1e-3
