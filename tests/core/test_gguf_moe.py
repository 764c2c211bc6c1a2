"""GGUF files of the mixtures of experts, as llama.cpp names them: Mixtral (architecture ``llama`` with
``llama.expert_count``), ``qwen2moe`` and ``olmoe``, written here from the same random weights as a transformers
model the way llama.cpp's converter writes them (tests/core/gguf_convert.py: stacked ``ffn_*_exps``, the router
as ``ffn_gate_inp``, Qwen-MoE's ``ffn_*_shexp``), must open equal to transformers running that model (eager):
every layer's attention within 1e-5, logits within 1e-4 relative, the router's probabilities within 1e-6 and
the chosen experts identical; the config equal to the Hugging Face folder's and every weight bit for bit.
What llama.cpp's key table could say that is not computed here is refused in one line naming it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer.errors import ModelLoadError
from explorer.trace.run import run_trace
from explorer.weights.loaders import load_model

gguf = pytest.importorskip("gguf")
transformers = pytest.importorskip("transformers")

from gguf_convert import with_keys, write_gguf  # noqa: E402
from test_hf_moe import ATTN_TOL, LOGITS_REL, PROBS_TOL, TEXT, configs, settings  # noqa: E402
from test_hf_oracle import sharpen  # noqa: E402


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "cache"))


def qwen_moe(V: int, **more):
    t = transformers
    cfg = t.Qwen2MoeConfig(**settings(V), num_experts=6, num_experts_per_tok=2, moe_intermediate_size=24,
                           shared_expert_intermediate_size=40, **more)  # fmt: skip
    return cfg, t.Qwen2MoeForCausalLM


CASES = {  # name → (GGUF architecture, how the transformers model is made)
    "mixtral": ("llama", lambda V: configs(V)["mixtral"]),
    "olmoe": ("olmoe", lambda V: configs(V)["olmoe"]),
    "olmoe-normalised": ("olmoe", lambda V: configs(V)["olmoe-normalised"]),
    "qwen2_moe": ("qwen2moe", lambda V: qwen_moe(V)),
    "qwen2_moe-normalised": ("qwen2moe", lambda V: qwen_moe(V, norm_topk_prob=True)),
}


def vocab(tokenizer_json: str) -> int:
    from tokenizers import Tokenizer

    return Tokenizer.from_str(tokenizer_json).get_vocab_size(with_added_tokens=True)


def build(tmp_path, name: str, tokenizer_json: str):
    """(GGUF path, Hugging Face folder, transformers model) of one case, from the same weights."""
    arch, make = CASES[name]
    cfg, cls = make(vocab(tokenizer_json))
    torch.manual_seed(0)
    model = cls(cfg).eval()
    sharpen(model, 11)
    folder = tmp_path / "hf"
    model.save_pretrained(folder)
    (folder / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")
    oracle = cls.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()
    path = tmp_path / f"tiny-{name}.gguf"
    write_gguf(path, arch, oracle, tokenizer_json)
    return path, folder, oracle


@pytest.mark.parametrize("name", list(CASES))
def test_a_mixture_gguf_equals_transformers_and_its_router(tmp_path, tokenizer_json, name):
    path, folder, oracle = build(tmp_path, name, tokenizer_json)
    bundle, hf_bundle = load_model(path), load_model(folder)
    cfg = bundle.config
    # the same family, experts, K, widths and renormalisation as the folder (GGUF holds ε in float32)
    assert cfg.replace(norm_eps=hf_bundle.config.norm_eps) == hf_bundle.config
    for (n, p), (_, q) in zip(bundle.model.named_parameters(), hf_bundle.model.named_parameters()):
        assert torch.equal(p, q), n  # the stacked experts, router and shared expert bit for bit
    trace = run_trace(bundle, TEXT)
    worst = {"attn": 0.0, "logits_rel": 0.0, "probs": 0.0}
    for b, row in enumerate(trace.rows):
        n = row.length
        with torch.no_grad():
            out = oracle(torch.tensor([list(row.ids)]), output_attentions=True, output_router_logits=True)
        theirs = out.logits[0].numpy()
        rel = np.abs(trace["logits"][b, :n] - theirs).max() / np.abs(theirs).max()
        worst["logits_rel"] = max(worst["logits_rel"], float(rel))
        for l in range(cfg.layers):
            d = np.abs(trace[f"layers.{l}.attn.weights"][b, :, :n, :n] - out.attentions[l][0].numpy()).max()
            worst["attn"] = max(worst["attn"], float(d))
        assert len(out.router_logits) == cfg.layers  # llama.cpp's mixtures route in every layer
        for l, logits in enumerate(out.router_logits):
            probs = torch.softmax(logits.reshape(n, cfg.experts).float(), dim=-1)
            ours = trace[f"layers.{l}.ffn.router_probs"][b, :n]
            worst["probs"] = max(worst["probs"], float(np.abs(ours - probs.numpy()).max()))
            chosen = torch.topk(probs, cfg.experts_per_token, dim=-1).indices.numpy()
            np.testing.assert_array_equal(trace[f"layers.{l}.ffn.experts_chosen"][b, :n], chosen, err_msg=f"{l}")
    print(f"\n{name} GGUF vs transformers: {worst}")
    assert worst["attn"] < ATTN_TOL and worst["logits_rel"] < LOGITS_REL and worst["probs"] < PROBS_TOL, worst


def test_what_each_architecture_renormalises_as_llama_cpp(tmp_path, tokenizer_json):
    """llama.cpp's graphs: llama's mixture (Mixtral) renormalises the K weights, qwen2moe's and olmoe's do not;
    expert_weights_norm, where the file has it, says so for the file."""
    path, _, _ = build(tmp_path, "qwen2_moe", tokenizer_json)
    cfg = load_model(path).config
    assert cfg.family == "qwen2_moe" and not cfg.norm_topk and cfg.shared_expert_dim == 40 and cfg.F_x == 24
    assert load_model(build(tmp_path / "m", "mixtral", tokenizer_json)[0]).config.norm_topk
    assert load_model(build(tmp_path / "n", "olmoe-normalised", tokenizer_json)[0]).config.norm_topk


@pytest.mark.parametrize(
    "arch, key, value, says",
    [
        ("llama", "expert_gating_func", 2, "metadata llama.expert_gating_func = 2 is not supported"),
        ("llama", "expert_weights_scale", 2.5, "metadata llama.expert_weights_scale = 2.5 is not supported"),
        ("llama", "leading_dense_block_count", 1, "metadata llama.leading_dense_block_count = 1 is not supported"),
        ("llama", "expert_shared_feed_forward_length", 8, "llama.expert_shared_feed_forward_length = 8 is not"),
        ("qwen2moe", "expert_shared_count", 2, "metadata qwen2moe.expert_shared_count = 2 is not supported"),
        ("olmoe", "expert_count", 0, "metadata olmoe.expert_count is missing"),
    ],
)
def test_what_is_not_computed_here_is_refused_in_one_line(tmp_path, tokenizer_json, arch, key, value, says):
    name = {"llama": "mixtral", "qwen2moe": "qwen2_moe", "olmoe": "olmoe"}[arch]
    path, _, _ = build(tmp_path, name, tokenizer_json)
    changed = tmp_path / "changed.gguf"
    with_keys(path, changed, arch, **{key: value})
    with pytest.raises(ModelLoadError, match=says) as caught:
        load_model(changed)
    assert "\n" not in str(caught.value)
    with_keys(path, tmp_path / "harmless.gguf", arch, expert_gating_func=1, expert_weights_scale=1.0)
    assert load_model(tmp_path / "harmless.gguf").config.moe  # softmax, weights × 1: what is computed here
