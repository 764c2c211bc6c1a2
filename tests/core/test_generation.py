"""Generation with the KV cache against the independent path: a full forward pass of the whole text at every
step (the model's ordinary trace, no cache), appending its argmax.

Three models: the classroom preset (trained, sinusoidal positions), a GPT-2-shaped one (learned positions,
LayerNorm, biases, tied embeddings) and a Llama-shaped one with grouped-query heads (RoPE, RMSNorm, SwiGLU,
H = 4 query heads sharing H_kv = 2 key/value heads).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer import names
from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.errors import ConfigError, InputError
from explorer.generation import GenerateOptions, Sampling, generate
from explorer.model.capture import CaptureSink, capturing
from explorer.trace.run import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import load_preset, preset_tokenizer

TOL = 1e-5
# A cached step multiplies one query row where the full pass multiplies all C: the same sums, whose last bits
# may differ on some CPUs, so logits (tens in size) agree to TOL of their row's largest magnitude, not 1e-5 flat.
PROMPT = "the cat sat on the"


def gpt2_shaped():
    tok = preset_tokenizer("words-en.json")
    cfg = ModelConfig(
        vocab_size=tok.vocab_size,
        embed_dim=32,
        key_dim=8,
        heads=4,
        layers=2,
        positions="learned",
        max_positions=64,
        norm="layernorm",
        bias=True,
        ffn_activation="gelu_tanh",
        tie_embeddings=True,
        family="gpt2",
    )
    return random_bundle(cfg, tok, seed=3, name="gpt2-shaped")


def llama_gqa():
    tok = preset_tokenizer("words-en.json")
    cfg = ModelConfig(
        vocab_size=tok.vocab_size,
        embed_dim=32,
        key_dim=8,
        heads=4,
        kv_heads=2,
        layers=2,
        positions="rope",
        norm="rmsnorm",
        ffn_activation="silu_gated",
        rope_theta=10_000.0,
        family="llama",
    )
    return random_bundle(cfg, tok, seed=5, name="llama-gqa")


MODELS = {"classroom": lambda: load_preset("classroom"), "gpt2": gpt2_shaped, "llama-gqa": llama_gqa}


@pytest.fixture(scope="module", params=list(MODELS))
def bundle(request):
    return MODELS[request.param]()


def full_pass(bundle, ids: list[int]) -> dict[str, np.ndarray]:
    """Every captured tensor of one ordinary forward pass over the whole sequence (no cache)."""
    sink = CaptureSink()
    x = torch.tensor([ids], dtype=torch.long)
    with torch.inference_mode(), capturing(bundle.model, sink):
        bundle.model(x)  # causal by default
    return {n: t.numpy() for n, t in sink.tensors.items()}


def test_greedy_equals_successive_full_traces_appending_argmax(bundle):
    N = 8
    g = generate(bundle, PROMPT, gen=GenerateOptions(max_new_tokens=N))
    assert g.stopped == "count" and len(g.steps) == N
    ids = list(g.trace.rows[0].ids)
    C0 = len(ids)
    L = bundle.config.layers
    for t, step in enumerate(g.steps):
        full = full_pass(bundle, ids)
        last = full["logits"][0, -1]
        assert step.token_id == int(np.argmax(last)), f"step {t}"
        np.testing.assert_allclose(
            g.trace["gen.logits"][0, t], last, atol=TOL * max(1.0, float(np.abs(last).max())), rtol=0
        )
        for l in range(L):
            row = g.trace[f"gen.layers.{l}.attn.weights"][0, :, t]  # (H, C_total)
            np.testing.assert_allclose(row[:, : len(ids)], full[names.attn(l, "weights")][0, :, -1], atol=TOL, rtol=0)
            assert not row[:, len(ids) :].any()  # keys the step could not see yet
        assert step.query == len(ids) - 1 and step.cached == (t > 0)
        ids.append(step.token_id)
    assert g.trace["gen.tokens"][0].tolist() == ids[C0:]


def test_cache_equals_the_full_traces_keys_and_values(bundle):
    g = generate(bundle, PROMPT, gen=GenerateOptions(max_new_tokens=6))
    fed = list(g.trace.rows[0].ids) + list(g.token_ids[:-1])  # the last token chosen is not fed yet
    full = full_pass(bundle, fed)
    cfg = bundle.config
    k_name = "k_rot" if cfg.positions == "rope" else "k"
    for l in range(cfg.layers):
        k, v = g.trace[f"cache.layers.{l}.k"], g.trace[f"cache.layers.{l}.v"]
        assert k.shape == (1, cfg.H_kv, len(fed), cfg.D) and v.shape == (1, cfg.H_kv, len(fed), cfg.D_v)
        np.testing.assert_allclose(k, full[names.attn(l, k_name)], atol=TOL, rtol=0)
        np.testing.assert_allclose(v, full[names.attn(l, "v")], atol=TOL, rtol=0)


def test_gqa_cache_holds_only_the_key_value_heads():
    b = llama_gqa()
    g = generate(b, PROMPT, gen=GenerateOptions(max_new_tokens=3))
    assert g.trace["cache.layers.0.k"].shape[1] == 2 and g.trace["gen.layers.0.attn.weights"].shape[1] == 4
    assert g.trace.labels("cache.layers.0.k") == ("B", "H_kv", "C_total", "D")


def test_the_full_trace_of_the_generated_text_predicts_the_same_tokens():
    """Through the text path too: the generated text traced from scratch gives the same ids and argmaxes."""
    b = load_preset("classroom")
    g = generate(b, "This is a", gen=GenerateOptions(max_new_tokens=5))
    trace = run_trace(b, g.text)
    C0 = g.prompt_tokens
    assert list(trace.rows[0].ids) == list(g.trace.rows[0].ids) + list(g.token_ids)
    assert [int(np.argmax(trace["logits"][0, C0 - 1 + t])) for t in range(5)] == list(g.token_ids)


@pytest.mark.parametrize(
    "sampling", [Sampling(), Sampling(greedy=False, temperature=1.3, top_k=20, top_p=0.9, seed=11)]
)
def test_no_cache_gives_the_same_tokens_and_rows(bundle, sampling):
    opts = dict(max_new_tokens=7, sampling=sampling)
    a = generate(bundle, PROMPT, gen=GenerateOptions(**opts))
    b = generate(bundle, PROMPT, gen=GenerateOptions(**opts, use_cache=False))
    assert a.token_ids == b.token_ids
    assert not any(s.cached for s in b.steps) and "cache.layers.0.k" not in b.trace
    for l in range(bundle.config.layers):
        np.testing.assert_allclose(
            a.trace[f"gen.layers.{l}.attn.weights"], b.trace[f"gen.layers.{l}.attn.weights"], atol=TOL
        )


def test_same_seed_same_tokens_and_the_seed_matters():
    b = load_preset("classroom")
    runs = {
        seed: [
            generate(
                b,
                "the",
                gen=GenerateOptions(max_new_tokens=12, sampling=Sampling(greedy=False, temperature=2.0, seed=seed)),
            ).token_ids
            for _ in range(2)
        ]
        for seed in (1, 2, 3)
    }
    for seed, (first, second) in runs.items():
        assert first == second, seed
    assert len({r[0] for r in runs.values()}) > 1  # at temperature 2 three seeds do not all write the same 12 tokens


def test_top_k_1_is_greedy():
    b = gpt2_shaped()
    greedy = generate(b, PROMPT, gen=GenerateOptions(max_new_tokens=6))
    k1 = generate(
        b,
        PROMPT,
        gen=GenerateOptions(max_new_tokens=6, sampling=Sampling(greedy=False, top_k=1, temperature=3.0, seed=9)),
    )
    assert greedy.token_ids == k1.token_ids


def test_stops_at_a_stop_token_keeping_it():
    b = load_preset("classroom")
    first = generate(b, PROMPT, gen=GenerateOptions(max_new_tokens=5)).token_ids
    g = generate(b, PROMPT, gen=GenerateOptions(max_new_tokens=5, stop_ids=(first[1],)))
    assert g.stopped == "token" and g.token_ids == first[:2]


def test_stops_at_the_context_with_a_notice():
    b = gpt2_shaped()
    tok = b.tokenizer
    C0 = len(tok.encode(PROMPT))
    small = random_bundle(b.config.replace(max_positions=C0 + 3), tok, seed=3)
    g = generate(small, PROMPT, gen=GenerateOptions(max_new_tokens=10))
    assert g.stopped == "context" and len(g.steps) == 3
    assert any("context of" in n for n in g.notices)
    assert g.trace["cache.layers.0.k"].shape[2] == C0 + 2


def test_sliding_window_rows_see_only_the_window():
    b = llama_gqa()
    opts = RunOptions(mask=MaskSpec("window", 3))
    g = generate(b, PROMPT, opts, GenerateOptions(max_new_tokens=4))
    ng = generate(b, PROMPT, opts, GenerateOptions(max_new_tokens=4, use_cache=False))
    assert g.token_ids == ng.token_ids
    rows = g.trace["gen.layers.0.attn.weights"][0]  # (H, T, C_total)
    for t, step in enumerate(g.steps):
        assert not rows[:, t, : step.query - 2].any() and np.allclose(rows[:, t].sum(-1), 1.0)


def test_float64_cache_matches_tightly():
    b = llama_gqa()
    g = generate(b, PROMPT, RunOptions(dtype="float64"), GenerateOptions(max_new_tokens=4))
    assert g.trace["cache.layers.1.k"].dtype == np.float64
    fed = list(g.trace.rows[0].ids) + list(g.token_ids[:-1])
    model = b.model_for("float64", "cpu")
    sink = CaptureSink()
    with torch.inference_mode(), capturing(model, sink):
        model(torch.tensor([fed]))
    np.testing.assert_allclose(
        g.trace["cache.layers.1.k"], sink.tensors["layers.1.attn.k_rot"].numpy(), atol=1e-12, rtol=0
    )


def test_refusals():
    b = load_preset("classroom")
    with pytest.raises(ConfigError, match="causal mask or a sliding window"):
        generate(b, PROMPT, RunOptions(mask=MaskSpec("none")))
    with pytest.raises(InputError, match="one line"):
        generate(b, "a\nb")
    with pytest.raises(InputError, match="no text to continue"):
        generate(b, "  ")
    with pytest.raises(ConfigError, match="new tokens"):
        GenerateOptions(max_new_tokens=0)
    with pytest.raises(ConfigError, match="top-p"):
        Sampling(greedy=False, top_p=0.0)
    with pytest.raises(ConfigError, match="top-k"):
        Sampling(greedy=False, top_k=0)
    with pytest.raises(ConfigError, match="temperature"):
        Sampling(greedy=False, temperature=float("nan"))


@pytest.mark.parametrize("fmt", ["npz", "safetensors", "pt"])
def test_snapshot_round_trip_is_read_only_and_identical(tmp_path, fmt):
    from explorer.errors import SnapshotError
    from explorer.export.snapshot import read_generation, read_snapshot, write_generation, write_snapshot

    g = generate(
        llama_gqa(), PROMPT, gen=GenerateOptions(max_new_tokens=4, sampling=Sampling(greedy=False, top_p=0.9, seed=4))
    )
    path = write_generation(g, tmp_path / f"gen.{fmt}")
    back = read_generation(path)
    assert back.read_only and back.steps == g.steps and back.text == g.text and back.stopped == g.stopped
    assert back.sampling == g.sampling and back.use_cache
    assert set(back.trace.names()) == set(g.trace.names())
    for name in g.trace.names():
        np.testing.assert_array_equal(back.trace[name], g.trace[name])
        assert not back.trace[name].flags.writeable
    plain = write_snapshot(run_trace(llama_gqa(), PROMPT), tmp_path / f"plain.{fmt}")
    with pytest.raises(SnapshotError, match="not a generation"):
        read_generation(plain)
    assert read_snapshot(path).C == g.prompt_tokens  # an ordinary reader sees the prompt's trace


def test_documented_numpy_reader_works(tmp_path):
    from pathlib import Path

    from explorer.export.snapshot import write_generation

    doc = (Path(__file__).parents[2] / "docs" / "snapshot-format.md").read_text(encoding="utf-8")
    block = next(b.split("```", 1)[0] for b in doc.split("```python\n")[1:] if 'manifest["generation"]' in b)
    g = generate(gpt2_shaped(), PROMPT, gen=GenerateOptions(max_new_tokens=5))
    scope = {"path": str(write_generation(g, tmp_path / "g.npz"))}
    exec(compile(block, "docs/snapshot-format.md (generation)", "exec"), scope)  # its asserts must hold
    assert scope["generation"]["text"] == g.text and scope["T"] == 5


def test_cache_buffer_grows_keeps_its_contents_and_truncates():
    from explorer.model.kv_cache import KVCache

    cache = KVCache(1)
    kv = cache.layers[0]
    parts = [torch.randn(1, 2, n, 3) for n in (5, 1, 20, 1)]
    for p in parts:
        k, v = kv.extend(p, -p)
    whole = torch.cat(parts, dim=2)
    assert torch.equal(k, whole) and torch.equal(v, -whole) and cache.length == 27
    assert cache.nbytes() == 2 * whole.numel() * 4
    cache.truncate(6)
    k, _ = kv.extend(parts[3], parts[3])
    assert torch.equal(k, torch.cat([whole[:, :, :6], parts[3]], dim=2))


def test_panel_frames_equal_the_full_causal_map_and_the_cache_so_far():
    """What the Generate panel shows at step t: the prefill map with decode rows beneath is the causal map
    of the first C + t positions computed in one full pass; the cache table is that pass's keys."""
    from explorer.generation.frames import attention_so_far, cache_table, labels, new_rows

    b = llama_gqa()
    g = generate(b, PROMPT, gen=GenerateOptions(max_new_tokens=5))
    C = g.prompt_tokens
    fed = list(g.trace.rows[0].ids) + list(g.token_ids)
    for t in (0, 2, 4):
        full = full_pass(b, fed[: C + t])
        for h in range(4):
            shown, blocked = attention_so_far(g, 1, h, t)
            np.testing.assert_allclose(shown, full["layers.1.attn.weights"][0, h], atol=TOL)
            assert blocked.sum() == (C + t) * (C + t - 1) // 2
        np.testing.assert_allclose(cache_table(g, 0, 1, t, "k"), full["layers.0.attn.k_rot"][0, 1], atol=TOL)
        assert len(labels(g, t)) == C + t
    assert list(new_rows(g, 0)) == list(range(C)) and list(new_rows(g, 3)) == [C + 2]
    assert (
        cache_table(generate(b, PROMPT, gen=GenerateOptions(max_new_tokens=2, use_cache=False)), 0, 0, 1, "k") is None
    )


@pytest.mark.parametrize("make", [gpt2_shaped, llama_gqa])
def test_counted_multiply_adds_equal_torchs_flop_counter(make):
    """The panel's cost line counts multiply-adds from the shapes; torch's FlopCounterMode counts the matmuls
    the model really runs (2 flops per multiply-add), with and without the cache."""
    from torch.utils.flop_counter import FlopCounterMode

    from explorer.generation.cost import cache_bytes, step_macs
    from explorer.generation.loop import decode_step
    from explorer.model.kv_cache import KVCache

    b = make()
    cfg = b.config
    ids = list(range(3, 3 + 11))
    cache = KVCache(cfg.layers)
    with torch.inference_mode():
        b.model(torch.tensor([ids[:-1]]), cache=cache)
    for use in (cache, None):
        with FlopCounterMode(display=False) as counter:
            decode_step(b.model, ids, use, RunOptions(), cfg.layers, "cpu")
        assert counter.get_total_flops() == 2 * step_macs(cfg, len(ids), cached=use is not None)
    assert cache.nbytes() == cache_bytes(cfg, len(ids), 4)


def test_a_prompt_that_fills_the_context_generates_nothing_and_still_saves(tmp_path):
    from explorer.export.snapshot import read_generation, write_generation

    b = gpt2_shaped()
    C0 = len(b.tokenizer.encode(PROMPT))
    full = random_bundle(b.config.replace(max_positions=C0), b.tokenizer, seed=3)
    g = generate(full, PROMPT, gen=GenerateOptions(max_new_tokens=5))
    assert g.stopped == "context" and g.steps == () and g.text == PROMPT
    assert any("no room to generate" in n for n in g.notices)
    back = read_generation(write_generation(g, tmp_path / "g.npz"))
    assert back.steps == () and back.stopped == "context"


def test_a_tampered_generation_manifest_is_refused(tmp_path):
    import json

    from explorer.errors import SnapshotError
    from explorer.export.snapshot import read_generation, write_generation

    g = generate(load_preset("classroom"), PROMPT, gen=GenerateOptions(max_new_tokens=3))
    path = write_generation(g, tmp_path / "g.npz")
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if k != "manifest"}
        manifest = json.loads(data["manifest"].tobytes().decode("utf-8"))

    def rewrite(change) -> str:
        m = json.loads(json.dumps(manifest))
        change(m["generation"])
        out = tmp_path / "bad.npz"
        np.savez(out, manifest=np.frombuffer(json.dumps(m).encode(), dtype=np.uint8), **arrays)
        return str(out)

    with pytest.raises(SnapshotError, match="do not match the manifest's steps"):
        read_generation(rewrite(lambda gen: gen["steps"][0].update(token_id=gen["steps"][0]["token_id"] + 1)))
    with pytest.raises(SnapshotError, match="generation.steps must be a list"):  # the schema, before any data
        read_generation(rewrite(lambda gen: gen.pop("steps")))
    with pytest.raises(SnapshotError, match="incomplete"):
        read_generation(rewrite(lambda gen: gen.update(stopped="bored")))


def test_a_long_prompt_traced_with_lazy_maps_gives_the_same_rows():
    """Lazy maps (q and k kept, maps derived): the first step's row is computed alone and equals the row of a
    prefill that stored its maps."""
    b = llama_gqa()
    lazy = generate(b, PROMPT, RunOptions(lazy_pairwise=True), GenerateOptions(max_new_tokens=3))
    full = generate(b, PROMPT, RunOptions(), GenerateOptions(max_new_tokens=3))
    assert "layers.0.attn.weights" not in lazy.trace.stored_names()
    assert lazy.token_ids == full.token_ids
    for l in range(2):
        np.testing.assert_allclose(
            lazy.trace[f"gen.layers.{l}.attn.weights"], full.trace[f"gen.layers.{l}.attn.weights"], atol=1e-6
        )
