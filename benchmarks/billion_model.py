"""A Llama-3.2-1B-shaped model with random weights, built in memory for bench_billion.py: our ModelConfig read
from the real config.json's fields by the Llama family's own reader (llama3 rotary scaling, GQA 32/8, tied
embeddings), our random initialisation, a word-level tokenizer of "t0" … "t128255", and the transformers peer
(LlamaForCausalLM from a LlamaConfig of the same fields) whose parameters are views of ours: one copy of the
weights in memory, the very same numbers on both sides.

BENCH_BILLION_LAYERS shrinks the depth while trying the scripts (16 by default)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

LAYERS = int(os.environ.get("BENCH_BILLION_LAYERS", 16))

# meta-llama/Llama-3.2-1B's config.json, less the fields that only name the checkpoint
LLAMA_3_2_1B = {
    "model_type": "llama",
    "attention_bias": False,
    "bos_token_id": 128000,
    "eos_token_id": 128001,
    "head_dim": 64,
    "hidden_act": "silu",
    "hidden_size": 2048,
    "intermediate_size": 8192,
    "max_position_embeddings": 131072,
    "mlp_bias": False,
    "num_attention_heads": 32,
    "num_hidden_layers": 16,
    "num_key_value_heads": 8,
    "rms_norm_eps": 1e-05,
    "rope_scaling": {
        "factor": 32.0,
        "high_freq_factor": 4.0,
        "low_freq_factor": 1.0,
        "original_max_position_embeddings": 8192,
        "rope_type": "llama3",
    },
    "rope_theta": 500000.0,
    "tie_word_embeddings": True,
    "vocab_size": 128256,
}


def config_json(layers: int = LAYERS) -> dict:
    return {**LLAMA_3_2_1B, "num_hidden_layers": layers}


def word_tokenizer(vocab: int, folder: Path | None = None):
    """Our Tokenizer of the words "t0" … "t{vocab−1}" (id i is "ti"), written as a tokenizer.json."""
    import tokenizers
    from tokenizers import models, pre_tokenizers

    from explorer.weights.hf import load_hf_tokenizer

    folder = Path(folder or tempfile.mkdtemp())
    tok = tokenizers.Tokenizer(models.WordLevel({f"t{i}": i for i in range(vocab)}, unk_token="t0"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.save(str(folder / "tokenizer.json"))
    return load_hf_tokenizer(folder)


def ours(layers: int = LAYERS, seed: int = 0, dtype: str = "float32"):
    """Our bundle of the 1B shape with random weights (random_bundle: the app's own path). In bfloat16 or
    float16 the weights are made in that dtype, as a checkpoint stored in it and opened in it holds them (no
    float32 master: explorer/weights/real_models.py)."""
    import dataclasses

    import torch

    from explorer.weights.bundle import DTYPES, random_bundle
    from explorer.weights.hf import config_from_hf

    data = config_json(layers)
    cfg = config_from_hf(data, "Llama-3.2-1B/config.json")
    before = torch.get_default_dtype()
    torch.set_default_dtype(DTYPES[dtype])  # the parameters are created (and drawn into) in this dtype
    try:
        bundle = random_bundle(cfg, word_tokenizer(cfg.vocab_size), seed, name="Llama-3.2-1B-shaped")
    finally:
        torch.set_default_dtype(before)
    return bundle if dtype == "float32" else dataclasses.replace(bundle, stored=dtype)


def peer(bundle, attention: str = "sdpa", dtype: str = "float32"):
    """transformers' LlamaForCausalLM of the same fields, its parameters views of the bundle's (no copy); in
    another ``dtype``, views of the bundle's own cast copy (ModelBundle.model_for), the weights our side runs."""
    import torch
    import transformers

    from explorer.families.llama_kind import hf_llama_sources
    from explorer.weights.hf import transform

    data = config_json(bundle.config.layers)
    settings = {k: v for k, v in data.items() if k != "model_type"}
    cfg = transformers.LlamaConfig(**settings, attn_implementation=attention)
    with torch.device("meta"):
        model = transformers.LlamaForCausalLM(cfg)
    params = dict(bundle.model_for(dtype, "cpu").named_parameters())
    state = {}
    for name, src in hf_llama_sources(bundle.config, data).items():
        if src.how == "zeros":
            continue
        key = "model." + src.key.split("|")[0]
        state[key] = transform(src, params[name].detach())  # "T" of a transpose is a view of ours
    missing, _ = model.load_state_dict(state, strict=False, assign=True)
    model.tie_weights()
    left = [k for k in missing if k != "lm_head.weight"]
    assert not left, left
    model.model.rotary_emb = type(model.model.rotary_emb)(cfg)  # its buffers were made on the meta device
    return model.eval()


def ids_text(n: int, vocab: int, seed: int = 0) -> tuple[str, list[int]]:
    import random

    rng = random.Random(seed)
    ids = [rng.randrange(1, vocab) for _ in range(n)]
    return " ".join(f"t{i}" for i in ids), ids


if __name__ == "__main__":
    print(json.dumps(config_json()))
