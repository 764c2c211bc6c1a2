"""Hugging Face folders against an oracle nobody here wrote: ``transformers`` with eager attention.

Randomly initialised GPT-2 and Llama models (small, with GQA for Llama) are saved with ``save_pretrained``
beside a tiny byte-level BPE tokenizer.json, opened with our loader, and traced. transformers reads the same
folder; token ids must be equal, logits within 1e-4, attention weights within 1e-5 and hidden states
within 1e-4, at every layer, in float32. Then the errors a damaged folder must give.
"""

from __future__ import annotations

import json
import os
import threading

import numpy as np
import pytest
import torch

from explorer.errors import Cancelled, ModelLoadError
from explorer.trace.run import run_trace
from explorer.weights.hf import load_hf_folder
from explorer.weights.loaders import load_model

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the oracle must never reach the network
transformers = pytest.importorskip("transformers")
transformers.utils.logging.disable_progress_bar()
transformers.utils.logging.set_verbosity_error()

TEXT = "This is a pen . The cat sat on the mat because it was tired ."
BATCH = "This is a pen .\nThe cat sat on the mat , and the dog saw it ."

LOGITS_TOL = 1e-4
ATTN_TOL = 1e-5
HIDDEN_TOL = 1e-4


# ------------------------------------------------------------------------------------------ fixtures


def sharpen(model: torch.nn.Module, seed: int) -> None:
    """HF's initialisation (std 0.02) gives near-uniform attention; larger weights make a sharper test."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "ln" in name or "norm" in name:
                p.copy_(1.0 + 0.1 * torch.randn(p.shape, generator=gen))
            elif name.endswith("bias"):
                p.copy_(0.1 * torch.randn(p.shape, generator=gen))
            else:
                p.copy_(0.15 * torch.randn(p.shape, generator=gen))


def save_model(model, folder, tokenizer_json: str, **save_kwargs) -> None:
    model.save_pretrained(folder, **save_kwargs)
    (folder / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")


def make_gpt2(folder, tokenizer_json, **overrides):
    V = json.loads(tokenizer_json)["model"]["vocab"].__len__()
    cfg = transformers.GPT2Config(
        vocab_size=V, n_embd=64, n_layer=2, n_head=4, n_positions=64, bos_token_id=0, eos_token_id=0, **overrides
    )
    torch.manual_seed(0)
    model = transformers.GPT2LMHeadModel(cfg).eval()
    sharpen(model, 1)
    save_model(model, folder, tokenizer_json)
    return folder


def make_llama(folder, tokenizer_json, **overrides):
    V = json.loads(tokenizer_json)["model"]["vocab"].__len__()
    settings = dict(
        vocab_size=V,
        hidden_size=64,
        intermediate_size=96,
        num_hidden_layers=3,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        rope_theta=500.0,
        rms_norm_eps=1e-5,
        bos_token_id=0,
        eos_token_id=0,
        pad_token_id=None,
    )
    settings.update(overrides)
    cfg = transformers.LlamaConfig(**settings)
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(cfg).eval()
    sharpen(model, 2)
    save_model(model, folder, tokenizer_json)
    return folder


@pytest.fixture(scope="module")
def gpt2_dir(tmp_path_factory, tokenizer_json):
    return make_gpt2(tmp_path_factory.mktemp("gpt2"), tokenizer_json)


@pytest.fixture(scope="module")
def llama_dir(tmp_path_factory, tokenizer_json):
    return make_llama(tmp_path_factory.mktemp("llama"), tokenizer_json)


def oracle(folder):
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32)
    return model.eval()


def oracle_ids(folder, text: str) -> list[int]:
    tok = transformers.PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"))
    return tok(text, add_special_tokens=False)["input_ids"]


def compare(bundle, hf_model, folder, text: str) -> dict[str, float]:
    """Trace every line of ``text`` as one batch; compare each row with transformers run on that row alone."""
    trace = run_trace(bundle, text)
    L = bundle.config.layers
    worst = {"logits": 0.0, "attn": 0.0, "hidden": 0.0}
    for b, row in enumerate(trace.rows):
        ids = oracle_ids(folder, row.text)
        assert list(row.ids) == ids, "token ids differ from transformers' tokenizer"
        n = len(ids)
        with torch.no_grad():
            out = hf_model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
        d = np.abs(trace["logits"][b, :n] - out.logits[0].numpy()).max()
        worst["logits"] = max(worst["logits"], float(d))
        assert len(out.attentions) == L
        for l in range(L):
            ours = trace[f"layers.{l}.attn.weights"][b, :, :n, :n]
            d = np.abs(ours - out.attentions[l][0].numpy()).max()
            worst["attn"] = max(worst["attn"], float(d))
        # hidden_states: [embeddings, out of layer 0, …, out of layer L−2, final norm of layer L−1's out]
        hs = out.hidden_states
        assert len(hs) == L + 1
        pairs = [("embed.out", hs[0])] + [(f"layers.{l}.out", hs[l + 1]) for l in range(L - 1)] + [("final.out", hs[L])]
        for name, theirs in pairs:
            d = np.abs(trace[name][b, :n] - theirs[0].numpy()).max()
            worst["hidden"] = max(worst["hidden"], float(d))
    assert worst["logits"] < LOGITS_TOL, worst
    assert worst["attn"] < ATTN_TOL, worst
    assert worst["hidden"] < HIDDEN_TOL, worst
    return worst


# ------------------------------------------------------------------------------------------ against the oracle


def test_gpt2_matches_transformers(gpt2_dir):
    bundle = load_model(gpt2_dir)
    assert bundle.source == f"hf:{gpt2_dir}" and not bundle.editable_sizes and bundle.name
    cfg = bundle.config
    assert (cfg.family, cfg.positions, cfg.norm, cfg.ffn_activation, cfg.bias, cfg.tie_embeddings) == (
        "gpt2",
        "learned",
        "layernorm",
        "gelu_tanh",
        True,
        True,
    )
    assert cfg.max_positions == 64 and bundle.tokenizer.kind == "hf"
    worst = compare(bundle, oracle(gpt2_dir), gpt2_dir, BATCH)
    print(f"\nGPT-2 vs transformers: {worst}")


def test_llama_gqa_matches_transformers(llama_dir):
    bundle = load_hf_folder(llama_dir)
    cfg = bundle.config
    assert (cfg.family, cfg.positions, cfg.norm, cfg.ffn_activation, cfg.H, cfg.H_kv, cfg.rope_theta) == (
        "llama",
        "rope",
        "rmsnorm",
        "silu_gated",
        4,
        2,
        500.0,
    )
    assert not cfg.tie_embeddings and cfg.max_positions == 128
    worst = compare(bundle, oracle(llama_dir), llama_dir, BATCH)
    print(f"\nLlama (GQA 4/2) vs transformers: {worst}")
    trace = run_trace(bundle, TEXT)
    assert trace["layers.0.attn.q_rot"].shape[1] == 4 and trace["layers.0.attn.k_rot"].shape[1] == 2
    # Query head h reads key/value head names.kv_head_of(h): recompute each head's map from that pairing.
    from explorer import names
    from explorer.model.attention import attention_maps

    assert [names.kv_head_of(h, 4, 2) for h in range(4)] == [0, 0, 1, 1]
    assert names.query_heads_of(1, 4, 2) == (2, 3)
    for l in range(cfg.layers):
        q, k = (
            torch.from_numpy(trace[f"layers.{l}.attn.q_rot"].copy()),
            torch.from_numpy(trace[f"layers.{l}.attn.k_rot"].copy()),
        )
        allowed = torch.from_numpy(trace["mask"].copy())
        for h in range(cfg.H):
            g = names.kv_head_of(h, cfg.H, cfg.H_kv)
            weights = attention_maps(q[:, h : h + 1], k[:, g : g + 1], allowed, True)[3]
            np.testing.assert_array_equal(weights.numpy()[:, 0], trace[f"layers.{l}.attn.weights"][:, h])


def test_llama_tied_with_attention_bias_matches_transformers(tmp_path, tokenizer_json):
    folder = make_llama(
        tmp_path,
        tokenizer_json,
        tie_word_embeddings=True,
        attention_bias=True,
        num_key_value_heads=1,
        num_hidden_layers=2,
        head_dim=8,
    )
    bundle = load_hf_folder(folder)
    assert bundle.config.tie_embeddings and bundle.config.bias and bundle.config.H_kv == 1 and bundle.config.D == 8
    compare(bundle, oracle(folder), folder, TEXT)


@pytest.mark.parametrize("family", ["qwen2", "mistral"])
def test_llama_relatives_match_transformers(tmp_path, tokenizer_json, family):
    """Qwen 2 (q/k/v biases, no o or FFN bias) and Mistral (a sliding window) load into the same modules."""
    V = len(json.loads(tokenizer_json)["model"]["vocab"])
    common = dict(
        vocab_size=V,
        hidden_size=64,
        intermediate_size=96,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        rms_norm_eps=1e-5,
        bos_token_id=0,
        eos_token_id=0,
    )
    if family == "qwen2":
        cfg, cls = transformers.Qwen2Config(**common, tie_word_embeddings=True), transformers.Qwen2ForCausalLM
    else:
        cfg, cls = transformers.MistralConfig(**common, sliding_window=12), transformers.MistralForCausalLM
    torch.manual_seed(0)
    model = cls(cfg).eval()
    sharpen(model, 3)
    save_model(model, tmp_path, tokenizer_json)
    bundle = load_hf_folder(tmp_path)
    assert bundle.config.family == family
    if family == "qwen2":
        assert bundle.config.bias and bundle.config.tie_embeddings
        assert not bundle.model.layers[0].attn.b_o.any() and bundle.model.layers[0].attn.b_q.any()
    else:
        # the window is a mask on every layer: a longer text is traced whole, keys beyond the window blocked
        assert bundle.config.sliding_window == 12 and bundle.config.sliding_layers == (0, 1)
        long = run_trace(bundle, TEXT)
        assert long.C > 12 and not any("cut" in n for n in long.notices)
        assert np.all(long["layers.0.attn.weights"][0, :, long.C - 1, : long.C - 12] == 0)
    compare(bundle, oracle(tmp_path), tmp_path, "This is a pen .\nThe cat sat on the mat .")


def test_sharded_folder_loads_the_same(tmp_path, tokenizer_json, llama_dir):
    sharded = make_llama(tmp_path, tokenizer_json)
    model = transformers.LlamaForCausalLM.from_pretrained(llama_dir)
    model.save_pretrained(sharded, max_shard_size="100KB")
    assert (sharded / "model.safetensors.index.json").is_file()
    a, b = load_hf_folder(llama_dir), load_hf_folder(sharded)
    for (n, p), (_, q) in zip(a.model.named_parameters(), b.model.named_parameters()):
        assert torch.equal(p, q), n


def test_pytorch_bin_folder_loads_the_same(tmp_path, gpt2_dir):
    from safetensors.torch import load_file

    folder = _copy(gpt2_dir, tmp_path / "bin")
    state = load_file(folder / "model.safetensors")
    (folder / "model.safetensors").unlink()
    torch.save(state, folder / "pytorch_model.bin")
    a, b = load_hf_folder(gpt2_dir), load_hf_folder(folder)
    for (n, p), (_, q) in zip(a.model.named_parameters(), b.model.named_parameters()):
        assert torch.equal(p, q), n
    (folder / "pytorch_model.bin").write_bytes(b"junk" * 10)
    with pytest.raises(ModelLoadError, match="pytorch_model.bin as a PyTorch checkpoint"):
        load_hf_folder(folder)


def test_gpt2_vocab_and_merges_instead_of_tokenizer_json(tmp_path, gpt2_dir, tokenizer_json):
    """Older GPT-2 folders have vocab.json + merges.txt; the ids must be those of tokenizer.json."""
    from tokenizers import Tokenizer

    folder = _copy(gpt2_dir, tmp_path / "old")
    (folder / "tokenizer.json").unlink()
    Tokenizer.from_str(tokenizer_json).model.save(str(folder))
    assert (folder / "vocab.json").is_file() and (folder / "merges.txt").is_file()
    old, new = load_hf_folder(folder).tokenizer, load_hf_folder(gpt2_dir).tokenizer
    for text in (TEXT, "  two spaces, a tab\tand 日本"):
        assert old.encode(text).ids == new.encode(text).ids
        assert old.encode(text).tokens == new.encode(text).tokens


def test_progress_and_cancel(gpt2_dir):
    seen = []
    load_hf_folder(gpt2_dir, progress=lambda d, t, w: seen.append((d, t, w)))
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] > 10
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)

    cancel = threading.Event()

    def stop_after_three(done, total, what):
        if done == 3:
            cancel.set()

    with pytest.raises(Cancelled):
        load_hf_folder(gpt2_dir, progress=stop_after_three, cancel=cancel)
    cancel.set()
    with pytest.raises(Cancelled):
        load_hf_folder(gpt2_dir, cancel=cancel)


def test_layers_to_capture_keeps_only_those_layers(llama_dir):
    from explorer.config import RunOptions

    bundle = load_hf_folder(llama_dir)
    full = run_trace(bundle, TEXT)
    part = run_trace(bundle, TEXT, RunOptions(layers_to_capture=(1,)))
    assert part.layers == (1,)
    assert not any(n.startswith("layers.0.") or n.startswith("layers.2.") for n in part.stored_names())
    np.testing.assert_array_equal(part["logits"], full["logits"])
    np.testing.assert_array_equal(part["layers.1.attn.weights"], full["layers.1.attn.weights"])


# ------------------------------------------------------------------------------------------ damaged folders


def _copy(src, dst):
    import shutil

    shutil.copytree(src, dst)
    return dst


def _rewrite_weights(folder, change):
    from safetensors.torch import load_file, save_file

    f = folder / "model.safetensors"
    state = load_file(f)
    change(state)
    save_file(state, f, metadata={"format": "pt"})


def test_missing_tensor_is_named(tmp_path, gpt2_dir):
    folder = _copy(gpt2_dir, tmp_path / "m")
    _rewrite_weights(folder, lambda s: s.pop("transformer.h.1.mlp.c_fc.weight"))
    with pytest.raises(ModelLoadError, match=r"h\.1\.mlp\.c_fc\.weight is missing"):
        load_hf_folder(folder)


def test_wrong_shape_is_named(tmp_path, llama_dir):
    folder = _copy(llama_dir, tmp_path / "m")
    _rewrite_weights(folder, lambda s: s.__setitem__("model.layers.2.self_attn.k_proj.weight", torch.zeros(64, 64)))
    with pytest.raises(
        ModelLoadError, match=r"model\.layers\.2\.self_attn\.k_proj\.weight has shape \(64, 64\).*\(32, 64\)"
    ):
        load_hf_folder(folder)


def test_truncated_safetensors(tmp_path, gpt2_dir):
    folder = _copy(gpt2_dir, tmp_path / "m")
    f = folder / "model.safetensors"
    data = f.read_bytes()
    f.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelLoadError, match="model.safetensors"):
        load_hf_folder(folder)
    f.write_bytes(data[:100])  # even the header is cut
    with pytest.raises(ModelLoadError, match="model.safetensors"):
        load_hf_folder(folder)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"model_type": "t5"}, "model type 't5' is not supported"),
        ({"rope_parameters": {"rope_type": "proportional", "rope_theta": 5e5}}, "rotary scaling 'proportional'"),
        ({"rope_scaling": {"type": "mrope", "factor": 2.0}}, "rotary scaling 'mrope'"),
        ({"rope_scaling": {"type": "llama3", "factor": 8.0}}, "rope_scaling.low_freq_factor must be a number"),
        ({"hidden_act": "relu"}, "hidden_act 'relu' is not supported"),
        ({"model_type": "falcon"}, "model type 'falcon' is not supported"),
        ({"num_attention_heads": 3}, "multiple"),
    ],
)
def test_unsupported_configs_are_refused(tmp_path, llama_dir, change, message):
    folder = _copy(llama_dir, tmp_path / "m")
    data = json.loads((folder / "config.json").read_text())
    data.update(change)
    (folder / "config.json").write_text(json.dumps(data))
    with pytest.raises(ModelLoadError, match=message):
        load_model(folder)


def test_model_larger_than_the_memory_budget_is_refused_before_loading(gpt2_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "0.0001")
    with pytest.raises(ModelLoadError, match="memory budget"):
        load_hf_folder(gpt2_dir)


def test_missing_tokenizer_and_weights(tmp_path, gpt2_dir):
    folder = _copy(gpt2_dir, tmp_path / "m")
    (folder / "tokenizer.json").unlink()
    with pytest.raises(ModelLoadError, match="no tokenizer.json"):
        load_hf_folder(folder)
    folder = _copy(gpt2_dir, tmp_path / "n")
    (folder / "model.safetensors").unlink()
    with pytest.raises(ModelLoadError, match="no \\*.safetensors"):
        load_hf_folder(folder)
