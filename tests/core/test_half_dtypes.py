"""bfloat16 and float16 runs (issue 42, item 3): the dtypes checkpoints ship in.

The oracle is transformers, eager attention, run in the same half dtype on the same folder (saved in that
dtype, as checkpoints are). Measured on random-weight models (``BATCH``, every layer); docs/real-models.md
("Dtypes") states them:

    family     bfloat16: attention max |Δ|, logits max |Δ| / max |logit|    float16: the same
    Llama      0, 0 (bit for bit)                                           0, 0
    Gemma 2    0, 0 (γ = 1 + w multiplied in float32, as transformers)      0, 0
    Gemma 3    0, 0                                                         0, 0
    OLMo 2     0, 0 (γ and the rotation in float32, as transformers)        0, 0
    Qwen 2     4.9e-4, 5.0e-3                                               4.9e-4, 8.5e-4
    GPT-2      7.8e-3, 5.5e-3 (transformers' gelu_new rounds each of its    1.1e-3, 6.8e-4
               six operations to bfloat16; the explorer's tanh GELU once)

The bounds allow one step of the dtype near 1 (bfloat16 2⁻⁸ ≈ 3.9e-3, float16 2⁻¹¹ ≈ 4.9e-4) to the exact
families, and about twice what was measured to the others.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

from explorer.config import RunOptions, estimate_memory
from explorer.trace.run import run_trace
from explorer.weights.loaders import load_model

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers = pytest.importorskip("transformers")

from test_hf_families import build  # noqa: E402
from test_hf_oracle import BATCH, make_gpt2, make_llama, oracle_ids  # noqa: E402

# (attention max |Δ|, logits max |Δ| relative to the largest |logit|): measured, with room (docstring)
EXACT = ("llama", "gemma2", "gemma3", "olmo2")  # measured bit for bit; bound: one step of the dtype
BOUNDS = {
    **{(f, "bfloat16"): (4e-3, 1e-2) for f in EXACT},
    **{(f, "float16"): (5e-4, 2e-3) for f in EXACT},
    ("qwen2", "bfloat16"): (4e-3, 1e-2),
    ("qwen2", "float16"): (1e-3, 2e-3),
    ("gpt2", "bfloat16"): (1.6e-2, 1.5e-2),
    ("gpt2", "float16"): (2e-3, 2e-3),
}


def half_folder(tmp_path, family: str, tokenizer_json: str, dtype: str):
    """A random-weight model of ``family`` saved in ``dtype`` (as checkpoints ship), and transformers' model
    read from that folder in that dtype, eager attention."""
    if family in ("llama", "gpt2"):
        folder = (make_llama if family == "llama" else make_gpt2)(tmp_path, tokenizer_json)
        cls = transformers.AutoModelForCausalLM
        model = cls.from_pretrained(folder, dtype=torch.float32)
    else:
        folder, model = build(tmp_path, family, tokenizer_json)
        cls = type(model)
    model.to(getattr(torch, dtype)).save_pretrained(folder)
    oracle = cls.from_pretrained(folder, attn_implementation="eager", dtype=getattr(torch, dtype)).eval()
    return folder, oracle


def worst_differences(trace, oracle, folder) -> tuple[float, float]:
    attn = logits = 0.0
    for b, row in enumerate(trace.rows):
        ids = oracle_ids(folder, row.text)
        assert list(row.ids) == ids
        n = len(ids)
        with torch.no_grad():
            out = oracle(torch.tensor([ids]), output_attentions=True)
        theirs = out.logits[0].float().numpy()
        logits = max(logits, float(np.abs(trace["logits"][b, :n] - theirs).max() / np.abs(theirs).max()))
        for l in range(trace.config.layers):
            ours = trace[f"layers.{l}.attn.weights"][b, :, :n, :n]
            attn = max(attn, float(np.abs(ours - out.attentions[l][0].float().numpy()).max()))
    return attn, logits


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("family", ["llama", "qwen2", "gpt2", "gemma2", "gemma3", "olmo2"])
def test_a_half_run_matches_transformers_in_the_same_dtype(tmp_path, tokenizer_json, family, dtype):
    folder, oracle = half_folder(tmp_path, family, tokenizer_json, dtype)
    bundle = load_model(folder, dtype=dtype)
    assert bundle.stored == dtype and bundle.dtype == dtype  # kept as stored: no float32 model
    from explorer.model.norm import RMSNorm

    norms = {m.weight.dtype for m in bundle.model.modules() if isinstance(m, RMSNorm)}
    if family in ("gemma2", "gemma3", "olmo2"):  # γ multiplied in float32, as transformers does
        assert norms == {torch.float32}
    trace = run_trace(bundle, BATCH, RunOptions(dtype=dtype))
    assert trace["layers.0.attn.weights"].dtype == np.float32  # the computed numbers, held exactly
    attn, logits = worst_differences(trace, oracle, folder)
    print(f"\n{family} {dtype} vs transformers: attention {attn:.3g}, logits {logits:.3g} relative")
    attn_bound, logits_bound = BOUNDS[family, dtype]
    assert attn <= attn_bound and logits <= logits_bound, (attn, logits)
    # The same folder traced in float32 is far from transformers' half run: the bound says something.
    if family == "llama" and dtype == "bfloat16":
        assert worst_differences(run_trace(bundle, BATCH), oracle, folder)[1] > 1e-3


def test_the_numbers_of_a_half_run_are_exactly_half_numbers(tmp_path, tokenizer_json):
    folder, _ = half_folder(tmp_path, "llama", tokenizer_json, "bfloat16")
    trace = run_trace(load_model(folder, dtype="bfloat16"), BATCH, RunOptions(dtype="bfloat16"))
    for name in ("layers.0.attn.q_rot", "layers.1.attn.weights", "layers.2.out", "logits"):
        a = torch.from_numpy(np.array(trace[name]))
        assert torch.equal(a.to(torch.bfloat16).float(), a), name  # float32 holding bfloat16 values, unrounded


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_maps_derived_from_q_and_k_equal_the_model_s_in_its_dtype(tmp_path, tokenizer_json, dtype):
    folder, _ = half_folder(tmp_path, "gemma2", tokenizer_json, dtype)  # soft-capped and sliding layers
    bundle = load_model(folder, dtype=dtype)
    full = run_trace(bundle, BATCH, RunOptions(dtype=dtype))
    lazy = run_trace(bundle, BATCH, RunOptions(dtype=dtype, lazy_pairwise=True))
    assert "layers.0.attn.weights" not in lazy.stored_names()
    for l in range(full.config.layers):
        for stage in ("scores", "scaled", "masked", "weights"):
            for h in range(full.config.H):
                np.testing.assert_array_equal(lazy.head_map(l, stage, 1, h), full.head_map(l, stage, 1, h))
    # Derived in float32 instead, the weights would not be the model's: the run's dtype is what makes them equal.
    from explorer.trace.derive import derive_maps

    qk = ("layers.1.attn.q_rot", "layers.1.attn.k_rot")
    arrays = {n: lazy[n] for n in lazy.stored_names()}
    in_float32 = derive_maps(arrays, lazy.config, RunOptions(), qk, 1, 1, 0)[3][0, 0]
    assert not np.array_equal(in_float32, full.head_map(1, "weights", 1, 0))


def test_a_bfloat16_checkpoint_opened_in_float32_is_upcast_and_says_so(tmp_path, tokenizer_json):
    folder, _ = half_folder(tmp_path, "llama", tokenizer_json, "bfloat16")
    bundle = load_model(folder)  # the default: float32
    assert bundle.stored == "bfloat16" and {p.dtype for p in bundle.model.parameters()} == {torch.float32}
    trace = run_trace(bundle, BATCH)
    assert any("stored in bfloat16 and computed in float32" in n for n in trace.notices), trace.notices
    kept = load_model(folder, dtype="bfloat16")
    # The float32 weights are the stored ones, converted exactly.
    for (name, p), q in zip(bundle.model.named_parameters(), kept.model.parameters()):
        assert torch.equal(p, q.float()), name
    assert not any("stored in" in n for n in run_trace(kept, BATCH, RunOptions(dtype="bfloat16")).notices)
    assert kept.model_for("bfloat16", "cpu") is kept.model  # the run uses the kept model itself
    assert kept.model_for("float32", "cpu").W_u().dtype == torch.float32  # float32, when asked, is a copy


LOAD_PEAK = textwrap.dedent(
    """
    import sys, json
    from explorer.weights.loaders import load_model
    import torch

    def hwm():  # the peak resident memory since the last reset, in bytes (Linux)
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmHWM:"))

    def rss():
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmRSS:"))

    load_model(sys.argv[3], dtype=sys.argv[2])  # a tiny model of the family first: what loading imports
    before = rss()
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset the peak to what is resident now
    bundle = load_model(sys.argv[1], dtype=sys.argv[2])
    params = sum(p.numel() for p in bundle.model.parameters())
    print(json.dumps({"grew": hwm() - before, "params": params, "dtype": bundle.dtype}))
    """
)


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="resets the peak memory as Linux does")
def test_opening_a_bfloat16_model_in_bfloat16_makes_no_float32_copy(tmp_path, tokenizer_json):
    """Peak memory of the load alone, in a fresh process: a float32 copy of 24 M parameters would add 96 MB."""
    V = len(json.loads(tokenizer_json)["model"]["vocab"])
    cfg = transformers.LlamaConfig(
        vocab_size=V, hidden_size=512, intermediate_size=2048, num_hidden_layers=6, num_attention_heads=8,
        num_key_value_heads=8, max_position_embeddings=64,
    )  # fmt: skip
    torch.manual_seed(0)
    big, tiny = tmp_path / "big", tmp_path / "tiny"
    transformers.LlamaForCausalLM(cfg).to(torch.bfloat16).save_pretrained(big)
    small = dict(
        hidden_size=64, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2
    )
    transformers.LlamaForCausalLM(transformers.LlamaConfig(**{**cfg.to_dict(), **small})).to(
        torch.bfloat16
    ).save_pretrained(tiny)
    for folder in (big, tiny):
        (folder / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}

    def load(dtype: str) -> dict:
        out = subprocess.run(
            [sys.executable, "-c", LOAD_PEAK, str(big), dtype, str(tiny)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        return json.loads(out.stdout.strip().splitlines()[-1])

    half, full = load("bfloat16"), load("float32")
    assert half["dtype"] == "bfloat16" and full["dtype"] == "float32"
    weights32 = half["params"] * 4
    # Measured: bfloat16 grew 1.01 × the float32 weights' bytes (its own 2 bytes a parameter and the 2 of the
    # file's pages it read), float32 1.56 ×. A float32 copy made on the way would take bfloat16 to 2 ×.
    assert half["grew"] < 1.25 * weights32, half
    assert full["grew"] - half["grew"] > 0.35 * weights32, (half, full)


def test_a_half_run_converts_a_parameter_to_float32_only_when_it_is_read(tmp_path, tokenizer_json):
    """A 1B model in bfloat16 would otherwise gain 4.6 GB of float32 copies that no map or bar reads."""
    folder, _ = half_folder(tmp_path, "llama", tokenizer_json, "bfloat16")
    bundle = load_model(folder, dtype="bfloat16")
    trace = run_trace(bundle, BATCH, RunOptions(dtype="bfloat16"))
    params = dict(bundle.model.named_parameters())
    name = "params.layers.0.attn.W_q"
    assert not trace.entry(name).made  # listed, sized, not made
    assert trace.shape(name) == tuple(params["layers.0.attn.W_q"].shape) and name in trace.stored_names()
    expected = params["layers.0.attn.W_q"].detach().float().numpy()
    assert trace.nbytes >= sum(p.numel() * 4 for p in params.values())  # counted as float32 though not made
    got = trace[name]
    assert got.dtype == np.float32 and np.array_equal(got, expected) and not got.flags.writeable
    assert trace.entry(name).made and trace[name] is got  # made once
    assert not trace.entry("params.layers.0.attn.W_k").made
    # A second trace of the same model shares the made copy instead of converting again.
    again = run_trace(bundle, BATCH, RunOptions(dtype="bfloat16"))
    assert again[name] is got


def test_a_half_run_derives_its_logits_in_its_dtype_without_a_float32_table(tmp_path, tokenizer_json):
    """Every row's logits of a 1B model at 2,048 tokens are 1 GB as float32: a half run keeps final.out and
    derives them when read, as a float32 run does, multiplying by the model's own half unembedding."""
    folder, _ = half_folder(tmp_path, "llama", tokenizer_json, "bfloat16")
    bundle = load_model(folder, dtype="bfloat16")
    trace = run_trace(bundle, BATCH, RunOptions(dtype="bfloat16"))
    assert "logits" not in trace.stored_names() and "final.out" in trace.stored_names()
    got = np.array(trace["logits"])
    model = bundle.model_for("bfloat16", "cpu")
    final = torch.from_numpy(np.array(trace["final.out"])).to(torch.bfloat16)  # exact: half numbers held as float32
    with torch.inference_mode():  # the model's last step, as its forward makes it: (B, C, E) · (E, V) in bfloat16
        expected = torch.nn.functional.linear(final, model.W_u().T, model.unembed.b_u).float().numpy()
    np.testing.assert_array_equal(got, expected)
    with torch.inference_mode():  # in float32 the product differs: the dtype is what makes them equal
        in_float32 = torch.nn.functional.linear(final.float(), model.W_u().T.float()).numpy()
    assert not np.array_equal(got, in_float32)
    table = "params.embed.tok" if trace.config.tie_embeddings else "params.unembed.W_u"
    assert not trace.entry(table).made  # read in bfloat16, never copied to float32
    assert torch.equal(torch.from_numpy(got).to(torch.bfloat16).float(), torch.from_numpy(got))  # half numbers


def test_float16_logits_past_its_largest_number_are_said(tmp_path, tokenizer_json):
    """float16 ends at 65,504: logits that overflow there are infinities in the run's dtype though float32 would
    hold them; the trace's notice names the logits (a bound against float32's range said they were finite)."""
    from explorer.trace.finite import nonfinite_source

    folder, _ = half_folder(tmp_path, "llama", tokenizer_json, "float16")
    bundle = load_model(folder, dtype="float16")
    with torch.no_grad():
        bundle.model.unembed.W_u.fill_(60_000.0)  # representable; x · W_u over E = 64 is not
    trace = run_trace(bundle, BATCH, RunOptions(dtype="float16"))
    assert np.isinf(np.asarray(trace["logits"])).any()
    assert nonfinite_source(trace.notices) == "logits", trace.notices


def test_the_memory_estimate_follows_the_dtype():
    from explorer.weights.presets import preset_config

    cfg = preset_config("classroom")
    est = {d: estimate_memory(cfg, 1, 32, RunOptions(dtype=d)) for d in ("float32", "bfloat16", "float16", "float64")}
    assert est["bfloat16"].params_bytes * 2 == est["float32"].params_bytes == cfg.parameter_count() * 4
    assert est["float16"].params_bytes == est["bfloat16"].params_bytes
    assert est["float64"].params_bytes == 2 * est["float32"].params_bytes
    # A half run's trace holds float32 arrays: never less than float32's.
    assert est["bfloat16"].trace_bytes >= est["float32"].trace_bytes


def test_a_preset_runs_in_half_and_generates(tokenizer):
    """Random and preset models keep a float32 master; a half run casts its own copy (generation too)."""
    from explorer.generation.loop import GenerateOptions, generate
    from explorer.generation.sampling import Sampling
    from explorer.weights.presets import load_preset

    bundle = load_preset("classroom")
    trace = run_trace(bundle, "the cat sat on the mat", RunOptions(dtype="bfloat16"))
    model = bundle.model_for("bfloat16", "cpu")
    assert model is not bundle.model and model.W_u().dtype == torch.bfloat16
    assert bundle.model.W_u().dtype == torch.float32
    assert any("rounded to bfloat16" in n for n in trace.notices)
    gen = generate(bundle, ["the cat"], RunOptions(dtype="bfloat16"), GenerateOptions(3, Sampling(greedy=True)))
    assert gen.trace["gen.logits"].dtype == np.float32 and len(gen.steps) == 3
    # Greedy decoding picks the argmax of the half logits the model computed at each step.
    first = run_trace(bundle, "the cat", RunOptions(dtype="bfloat16"))["logits"][0, -1]
    assert gen.steps[0].token_id == int(np.argmax(first))


def test_a_float16_gguf_is_kept_in_float16_and_matches_transformers(tmp_path, tokenizer_json, monkeypatch):
    """llama.cpp's F16 file (its norms' vectors in F32): opened in float16, every weight stays float16, the
    cache keeps it so, and the numbers are transformers' Llama run in float16 on the same weights."""
    gguf = pytest.importorskip("gguf")
    from test_gguf import write_gguf

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = make_llama(tmp_path / "hf", tokenizer_json)
    model = transformers.LlamaForCausalLM.from_pretrained(folder, dtype=torch.float32)
    path = tmp_path / "tiny-f16.gguf"
    write_gguf(path, model, tokenizer_json, qtype=gguf.GGMLQuantizationType.F16)
    oracle = transformers.LlamaForCausalLM.from_pretrained(folder, attn_implementation="eager", dtype=torch.float16)
    for attempt in ("file", "cache"):
        bundle = load_model(path, dtype="float16")
        assert bundle.stored == "float16" and {p.dtype for p in bundle.model.parameters()} == {torch.float16}, attempt
        trace = run_trace(bundle, BATCH, RunOptions(dtype="float16"))
        assert worst_differences(trace, oracle, folder) == (0.0, 0.0), attempt
    upcast = load_model(path)  # the default float32: the same numbers, converted exactly
    assert upcast.dtype == "float32" and upcast.stored == "float16"
    assert torch.equal(upcast.model.W_u(), bundle.model.W_u().float())


@pytest.mark.parametrize("fmt", ["npz", "safetensors"])
def test_a_half_snapshot_reopens_and_derives_in_its_dtype(tmp_path, fmt):
    """Stored as float32 with "dtype": "bfloat16" in its manifest; the reopened trace derives its maps in
    bfloat16 again, so they equal the ones the run showed."""
    from explorer.export.snapshot import write_snapshot
    from explorer.export.snapshot_read import read_snapshot
    from explorer.weights.presets import load_preset

    trace = run_trace(
        load_preset("classroom"), "the cat sat on the mat", RunOptions(dtype="bfloat16", lazy_pairwise=True)
    )
    path = tmp_path / f"half.{fmt}"
    write_snapshot(trace, path)
    back = read_snapshot(path)
    assert back.options.dtype == "bfloat16"
    for stage in ("scaled", "weights"):
        np.testing.assert_array_equal(back.head_map(1, stage, 0, 2), trace.head_map(1, stage, 0, 2))


def test_a_half_run_of_a_text_whose_maps_would_be_tiles_is_refused_in_one_line(monkeypatch):
    """Tiles (trace/tiles.py) are computed in float32: a half run past the whole-map length says so instead
    of showing maps that are not its model's. float32 traces the same text, tiled."""
    import explorer.config.memory as memory
    from explorer.errors import InputError
    from explorer.weights.presets import load_preset

    monkeypatch.setattr(memory, "TILED_MAP_BYTES", 4 * 12 * 12)  # whole maps up to 12 tokens
    bundle = load_preset("classroom")
    text = "the cat sat on the mat and the dog sat on the rug too"
    assert len(bundle.tokenizer.encode(text).ids) > 12
    with pytest.raises(InputError, match=r"a bfloat16 trace holds at most 12 tokens .* trace it in float32"):
        run_trace(bundle, text, RunOptions(dtype="bfloat16"))
    assert run_trace(bundle, text).tiled(0)
    assert run_trace(bundle, "the cat sat", RunOptions(dtype="bfloat16")).options.dtype == "bfloat16"
