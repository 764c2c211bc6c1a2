"""The mixtures of experts (Mixtral, Qwen-MoE, OLMoE) against ``transformers`` (eager attention), which nobody
here wrote: a random-weight model of each, saved with save_pretrained (per-expert tensors, as the hub's
checkpoints), opened by our loader and traced. Every layer's attention within 1e-5, logits within 1e-4
relative, and the router's own numbers, which transformers returns with output_router_logits=True: its scores
within 1e-5, its probabilities within 1e-6 and the chosen experts identical (the same K experts, in the same
order, for every token)."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from explorer.trace.run import run_trace
from explorer.weights.loaders import load_model

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers = pytest.importorskip("transformers")
transformers.utils.logging.disable_progress_bar()
transformers.utils.logging.set_verbosity_error()

from test_hf_oracle import sharpen  # noqa: E402

TEXT = "This is a pen .\nThe cat sat on the mat because it was tired , and the dog saw it ."
ATTN_TOL, LOGITS_REL, PROBS_TOL, ROUTER_TOL = 1e-5, 1e-4, 1e-6, 1e-5


def vocab_size(tokenizer_json: str) -> int:
    from tokenizers import Tokenizer

    return Tokenizer.from_str(tokenizer_json).get_vocab_size(with_added_tokens=True)


def settings(V: int, layers: int = 2) -> dict:
    return dict(
        vocab_size=V,
        hidden_size=64,
        intermediate_size=48,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        rms_norm_eps=1e-5,
        bos_token_id=0,
        eos_token_id=0,
        pad_token_id=None,
    )


def configs(V: int) -> dict:
    t = transformers
    return {
        "mixtral": (t.MixtralConfig(**settings(V), num_local_experts=8, num_experts_per_tok=2), t.MixtralForCausalLM),
        "mixtral-window": (
            t.MixtralConfig(**settings(V), num_local_experts=4, num_experts_per_tok=3, sliding_window=5),
            t.MixtralForCausalLM,
        ),
        "olmoe": (t.OlmoeConfig(**settings(V), num_experts=8, num_experts_per_tok=3), t.OlmoeForCausalLM),
        "olmoe-normalised": (
            t.OlmoeConfig(**settings(V), num_experts=6, num_experts_per_tok=2, norm_topk_prob=True),
            t.OlmoeForCausalLM,
        ),
        # layer 1 dense (mlp_only_layers), 0 and 2 routed; renormalised top-k
        "qwen2_moe": (
            t.Qwen2MoeConfig(
                **settings(V, layers=3),
                num_experts=6,
                num_experts_per_tok=2,
                moe_intermediate_size=24,
                shared_expert_intermediate_size=40,
                mlp_only_layers=[1],
                norm_topk_prob=True,
            ),
            t.Qwen2MoeForCausalLM,
        ),
        # a sliding window on layer 0 (every other layer below max_window_layers), Qwen's own rule
        "qwen2_moe-window": (
            t.Qwen2MoeConfig(
                **settings(V, layers=3),
                num_experts=4,
                num_experts_per_tok=2,
                moe_intermediate_size=24,
                shared_expert_intermediate_size=32,
                use_sliding_window=True,
                sliding_window=4,
                max_window_layers=2,
            ),
            t.Qwen2MoeForCausalLM,
        ),
        # every other layer routed (decoder_sparse_step 2: layers 1 and 3), probabilities kept as they are
        "qwen2_moe-step": (
            t.Qwen2MoeConfig(
                **settings(V, layers=4),
                num_experts=4,
                num_experts_per_tok=1,
                moe_intermediate_size=24,
                shared_expert_intermediate_size=32,
                decoder_sparse_step=2,
            ),
            t.Qwen2MoeForCausalLM,
        ),
    }


def build(folder, name: str, tokenizer_json: str):
    cfg, cls = configs(vocab_size(tokenizer_json))[name]
    torch.manual_seed(0)
    model = cls(cfg).eval()
    sharpen(model, 11)
    model.save_pretrained(folder)
    (folder / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")
    return cls.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()


def moe_layers(cfg) -> list[int]:
    return [l for l in range(cfg.layers) if cfg.is_moe(l)]


@pytest.mark.parametrize(
    "name",
    ["mixtral", "mixtral-window", "olmoe", "olmoe-normalised", "qwen2_moe", "qwen2_moe-step", "qwen2_moe-window"],
)
def test_a_mixture_of_experts_matches_transformers_and_its_router(tmp_path, tokenizer_json, name):
    oracle = build(tmp_path, name, tokenizer_json)
    bundle = load_model(tmp_path)
    cfg = bundle.config
    trace = run_trace(bundle, TEXT)
    routed = moe_layers(cfg)
    assert routed, "the model has no MoE layer"
    windows = {"mixtral-window": (5, (0, 1)), "qwen2_moe-window": (4, (0,))}  # the text is longer than both
    assert (cfg.sliding_window, cfg.sliding_layers) == windows.get(name, (None, ()))
    worst = {"attn": 0.0, "logits_rel": 0.0, "probs": 0.0, "router": 0.0}
    for b, row in enumerate(trace.rows):
        n = row.length
        with torch.no_grad():
            out = oracle(torch.tensor([list(row.ids)]), output_attentions=True, output_router_logits=True)
        theirs = out.logits[0].numpy()
        worst["logits_rel"] = max(
            worst["logits_rel"], np.abs(trace["logits"][b, :n] - theirs).max() / np.abs(theirs).max()
        )
        for l in range(cfg.layers):
            d = np.abs(trace[f"layers.{l}.attn.weights"][b, :, :n, :n] - out.attentions[l][0].numpy()).max()
            worst["attn"] = max(worst["attn"], float(d))
        # transformers returns one (C, X) tensor of router scores per MoE layer, in layer order
        assert len(out.router_logits) == len(routed)
        for l, logits in zip(routed, out.router_logits):
            logits = logits.reshape(n, cfg.experts)
            probs = torch.softmax(logits.float(), dim=-1)
            ours = trace[f"layers.{l}.ffn.router_logits"][b, :n]
            worst["router"] = max(worst["router"], float(np.abs(ours - logits.numpy()).max()))
            worst["probs"] = max(
                worst["probs"], float(np.abs(trace[f"layers.{l}.ffn.router_probs"][b, :n] - probs.numpy()).max())
            )
            chosen = torch.topk(probs, cfg.experts_per_token, dim=-1).indices.numpy()
            np.testing.assert_array_equal(trace[f"layers.{l}.ffn.experts_chosen"][b, :n], chosen, err_msg=f"layer {l}")
    print(f"\n{name} vs transformers: {worst}")
    assert worst["attn"] < ATTN_TOL and worst["logits_rel"] < LOGITS_REL, worst
    assert worst["probs"] < PROBS_TOL and worst["router"] < ROUTER_TOL, worst


def test_the_experts_chosen_are_the_ones_transformers_runs(tmp_path, tokenizer_json):
    """Mixtral's layer 0 through transformers' own modules: its router (gate) picks the same experts with the
    same weights, and its experts' weighted sum is our ffn.out; each expert_out row is that expert's own FFN."""
    oracle = build(tmp_path, "mixtral", tokenizer_json)
    trace = run_trace(load_model(tmp_path), "The cat sat on the mat .")
    n = trace.rows[0].length
    x = torch.from_numpy(np.array(trace["layers.0.ffn.in"][0, :n]))
    moe = oracle.model.layers[0].mlp
    with torch.no_grad():
        _, weights, chosen = moe.gate(x)
        summed = moe.experts(x, chosen, weights)
    np.testing.assert_array_equal(trace["layers.0.ffn.experts_chosen"][0, :n], chosen.numpy())
    np.testing.assert_allclose(trace["layers.0.ffn.expert_weights"][0, :n], weights.numpy(), atol=1e-7)
    assert np.allclose(trace["layers.0.ffn.expert_weights"][0, :n].sum(-1), 1.0, atol=1e-6)  # Mixtral renormalises
    np.testing.assert_allclose(trace["layers.0.ffn.out"][0, :n], summed.numpy(), atol=1e-6)
    experts = oracle.model.layers[0].mlp.experts
    for i in (0, n - 1):
        for j in range(2):
            e = int(chosen[i, j])
            gate, up = torch.nn.functional.linear(x[i], experts.gate_up_proj[e]).chunk(2, dim=-1)
            theirs = torch.nn.functional.linear(torch.nn.functional.silu(gate) * up, experts.down_proj[e])
            np.testing.assert_allclose(
                trace["layers.0.ffn.expert_out"][0, j, i], theirs.detach().numpy(), rtol=1e-5, atol=1e-6
            )


def test_olmoe_keeps_the_chosen_probabilities_as_they_are(tmp_path, tokenizer_json):
    build(tmp_path, "olmoe", tokenizer_json)
    trace = run_trace(load_model(tmp_path), "The cat sat on the mat .")
    probs, chosen = trace["layers.1.ffn.router_probs"][0], trace["layers.1.ffn.experts_chosen"][0]
    weights = trace["layers.1.ffn.expert_weights"][0]
    np.testing.assert_array_equal(weights, np.take_along_axis(probs, chosen, axis=-1))
    assert np.all(weights.sum(-1) < 1.0)  # 3 of 8: never the whole of the probability


def test_qwen_moe_keeps_its_dense_layers_and_gates_its_shared_expert(tmp_path, tokenizer_json):
    build(tmp_path, "qwen2_moe", tokenizer_json)
    trace = run_trace(load_model(tmp_path), "The cat sat on the mat .")
    cfg = trace.config
    assert cfg.dense_layers == (1,) and cfg.shared_expert_dim == 40 and cfg.F_x == 24 and cfg.F == 48
    assert "layers.1.ffn.hidden" in trace and "layers.1.ffn.router_probs" not in trace
    gate, shared = trace["layers.0.ffn.shared_gate"][0], trace["layers.0.ffn.shared_out"][0]
    weights, outs = trace["layers.0.ffn.expert_weights"][0], trace["layers.0.ffn.expert_out"][0]
    routed = np.einsum("ck,kce->ce", weights, outs)
    np.testing.assert_allclose(trace["layers.0.ffn.out"][0], routed + gate * shared, atol=1e-6)
    assert np.all((gate > 0) & (gate < 1))


def test_active_parameters_count_only_the_chosen_experts(tmp_path, tokenizer_json):
    """Total: every parameter transformers builds; active: minus the X − K experts a token skips per layer."""
    oracle = build(tmp_path, "mixtral", tokenizer_json)
    cfg = load_model(tmp_path).config
    theirs = sum(p.numel() for p in oracle.parameters())
    assert cfg.parameter_count() == theirs
    one_expert = 3 * 64 * 48
    assert cfg.active_parameter_count() == theirs - 2 * (8 - 2) * one_expert


@pytest.mark.parametrize("fmt", ["npz", "safetensors"])
def test_a_mixture_trace_reopens_from_a_snapshot(tmp_path, tokenizer_json, fmt):
    """The router's tensors (the chosen experts as integers) and the stacked experts survive a snapshot."""
    from explorer.export.snapshot import read_snapshot, write_snapshot

    build(tmp_path / "m", "qwen2_moe", tokenizer_json)
    trace = run_trace(load_model(tmp_path / "m"), "The cat sat on the mat .")
    path = tmp_path / f"moe.{fmt}"
    write_snapshot(trace, path)
    back = read_snapshot(path)
    assert back.config == trace.config
    for name in ("layers.0.ffn.experts_chosen", "layers.2.ffn.router_probs", "layers.0.ffn.expert_out"):
        np.testing.assert_array_equal(back[name], trace[name])
    assert back["layers.0.ffn.experts_chosen"].dtype.kind == "i"
    np.testing.assert_array_equal(back["params.layers.2.ffn.experts.W_out"], trace["params.layers.2.ffn.experts.W_out"])


@pytest.mark.parametrize("name", ["mixtral", "olmoe", "qwen2_moe"])
def test_the_router_and_the_experts_are_stages_whose_hovers_add_up(tmp_path, tokenizer_json, name):
    """Each MoE stage has its label and shape; every hover of the router's and experts' tensors is arithmetic
    on the numbers the previous stage shows (the checker of tests/core/test_hover_arithmetic.py); the router's
    map marks exactly the experts each token does not run."""
    import test_hover_arithmetic as checker

    from explorer.present import matrices
    from explorer.present.explain import explain_value
    from explorer.present.stage_facts import stage_shape
    from explorer.present.stages import edge_label, stage_keys_for

    build(tmp_path, name, tokenizer_json)
    trace = run_trace(load_model(tmp_path), "The cat sat on the mat .")
    cfg = trace.config
    keys = stage_keys_for(cfg)
    assert keys.index("norm_ffn") < keys.index("router") < keys.index("experts") < keys.index("ffn")
    n, K, X = trace.rows[0].length, cfg.experts_per_token, cfg.experts
    assert stage_shape("router", trace, 0, 0) == (f"({n}, {X})", 1)
    assert stage_shape("experts", trace, 0, 0) == (f"({n}, {cfg.E})", K)
    assert f"{K} most probable of {X}" in edge_label("router", trace, 0, 0)
    assert "Σⱼ wⱼ" in edge_label("ffn", trace, 0, 0)
    m = matrices.stage_matrix(trace, "layers.0.ffn.router_probs", 0, 0)
    assert m.passed_over.sum() == n * (X - K)
    chosen = trace["layers.0.ffn.experts_chosen"][0, :n]
    assert not m.passed_over[np.arange(n)[:, None], chosen].any()
    second = matrices.stage_matrix(trace, "layers.0.ffn.expert_out", K + 1, 0)  # the head control wraps round K
    np.testing.assert_array_equal(second.data, trace["layers.0.ffn.expert_out"][0, 1 % K, :n])
    counted = 0
    for stage in ("router_logits", "router_probs", "expert_weights", "out", "shared_gate"):
        tensor = f"layers.0.ffn.{stage}"
        if tensor not in trace:
            continue
        for i in range(n):
            for j in (0, trace[tensor].shape[-1] - 1):
                counted += checker.assert_adds_up(explain_value(trace, tensor, 0, 0, i, j))
    assert counted >= 4 * n
    assert "expert" in explain_value(trace, "layers.0.ffn.experts_chosen", 0, 0, 0, 0)


def test_the_ffn_anatomy_of_a_mixture_says_so_and_a_dense_layer_keeps_its_own(tmp_path, tokenizer_json):
    from explorer.anatomy import anatomy
    from explorer.anatomy.cell import Cell
    from explorer.errors import ConfigError

    build(tmp_path, "qwen2_moe", tokenizer_json)
    trace = run_trace(load_model(tmp_path), "The cat sat on the mat .")
    with pytest.raises(ConfigError, match="layer 0's FFN is a mixture of experts") as caught:
        anatomy(trace, Cell("ffn", layer=0, query=2, dim=1))
    assert "\n" not in str(caught.value)
    steps = anatomy(trace, Cell("ffn", layer=1, query=2, dim=1))  # mlp_only_layers: a dense FFN
    assert steps[-1].result == pytest.approx(float(trace["layers.1.ffn.out"][0, 2, 1]), abs=1e-6)


@pytest.mark.parametrize("name", ["mixtral", "qwen2_moe"])
def test_generation_through_the_cache_writes_what_transformers_writes(tmp_path, tokenizer_json, name):
    from explorer.generation.loop import GenerateOptions, generate

    oracle = build(tmp_path, name, tokenizer_json)
    ours = generate(load_model(tmp_path), "The cat sat on the mat because", gen=GenerateOptions(max_new_tokens=8))
    ids = list(ours.trace.rows[0].ids)
    with torch.no_grad():
        theirs = oracle.generate(torch.tensor([ids]), max_new_tokens=8, do_sample=False, min_new_tokens=8)
    assert [s.token_id for s in ours.steps] == theirs[0, len(ids) :].tolist()


def test_play_walks_the_router_only_through_the_layers_that_route(tmp_path, tokenizer_json):
    """Qwen-MoE's dense layer 1 has no router: Play and Export all stages skip it there, and asking for it
    there lands on the next stage that layer has."""
    from explorer.handouts.all_stages import plan
    from explorer.present.stage_walk import position, walk
    from explorer.session.request import Selection

    build(tmp_path, "qwen2_moe", tokenizer_json)
    cfg = load_model(tmp_path).config
    steps = walk((0, 1, 2), cfg)
    assert ("router", 0) in steps and ("experts", 2) in steps
    assert ("router", 1) not in steps and ("experts", 1) not in steps
    i, _ = position("router", 1, (0, 1, 2), cfg)
    assert steps[i] == ("ffn", 1)
    trace = run_trace(load_model(tmp_path), "The cat sat .")
    names = [name for name, _ in plan(trace, Selection(), (0, 1, 2), "svg")]
    assert any(n.endswith("layer0-router.svg") for n in names) and not any("layer1-router" in n for n in names)


def test_what_each_family_reads_and_ignores_as_transformers_does():
    """Mixtral's transformers class has no biases whatever attention_bias says; OLMoE's follow it; Qwen-MoE's
    follow qkv_bias (q, k, v only); clip_qkv is refused naming its value; the router's training keys change
    nothing."""
    from explorer.errors import ModelLoadError
    from explorer.families import hf_family
    from explorer.weights.hf.config import config_from_hf

    mixtral, olmoe, qwen = (hf_family(t) for t in ("mixtral", "olmoe", "qwen2_moe"))
    assert not config_from_hf({**mixtral.example, "attention_bias": True}).bias
    assert config_from_hf({**olmoe.example, "attention_bias": True}).bias
    assert not config_from_hf({**qwen.example, "qkv_bias": False}).bias
    with pytest.raises(ModelLoadError, match="clip_qkv 8.0 is not supported"):
        config_from_hf({**olmoe.example, "clip_qkv": 8.0})
    training = {"router_aux_loss_coef": 0.5, "output_router_logits": True, "router_jitter_noise": 0.1}
    for family in (mixtral, olmoe, qwen):
        assert config_from_hf({**family.example, **training}) == config_from_hf(family.example)
    with pytest.raises(ModelLoadError, match="experts per token K must be at most 4"):
        config_from_hf({**mixtral.example, "num_experts_per_tok": 5})
    dense = config_from_hf({**qwen.example, "num_experts": 0})  # no layer routes: a plain Qwen 2
    assert not dense.moe and dense.experts == 0
