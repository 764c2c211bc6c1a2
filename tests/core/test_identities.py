"""The lecture note's identities, the tokenizers, the presets, and the guards around a trace."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import explorer.weights.bundle as bundle_mod
from explorer import names
from explorer.config import MaskSpec, ModelConfig, RunOptions, check_memory
from explorer.errors import ConfigError, InputError, MemoryBudgetError
from explorer.tokenize import Tokenizer, char_tokenizer
from explorer.trace import run_trace
from explorer.util.paths import resource
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import get_preset, load_preset, preset_tokenizer
from tests.core.fused_tolerance import assert_fused_close

TEXT = "This is a pen .\nThe cat is on the mat .\nA dog"


@pytest.fixture(scope="module")
def bundle(words):
    cfg = ModelConfig(words.vocab_size, embed_dim=12, key_dim=4, heads=3, layers=2, value_dim=5, bias=True)
    return random_bundle(cfg, words, 42)


def _cfg(words, **kw):
    return ModelConfig(words.vocab_size, **{**dict(embed_dim=8, key_dim=4, heads=2, layers=2), **kw})


# --------------------------------------------------------------------------------------- attention maps


@pytest.mark.parametrize("mask", ["causal", "none", "window:2", "prefix:3"])
def test_weight_rows_sum_to_one_except_blocked_rows(bundle, mask):
    trace = run_trace(bundle, TEXT, RunOptions(mask=MaskSpec.parse(mask)))
    empty = np.asarray(trace["mask.empty_rows"])  # (B, C)
    for l in range(2):
        w = np.asarray(trace[f"layers.{l}.attn.weights"], dtype=np.float64)  # (B, H, C, C)
        sums = w.sum(-1)  # (B, H, C)
        live = np.broadcast_to(~empty[:, None, :], sums.shape)
        np.testing.assert_allclose(sums[live], 1.0, atol=1e-6)
        assert np.array_equal(sums[~live], np.zeros(int((~live).sum())))
        assert (w >= 0).all()
        # every weight sits where the mask allows, and nowhere else
        assert not w[np.broadcast_to(~trace["mask"][:, None], w.shape)].any()


def test_causal_weights_are_lower_triangular(bundle):
    trace = run_trace(bundle, TEXT, RunOptions(mask=MaskSpec("causal")))
    w = trace["layers.1.attn.weights"]
    C = trace.C
    upper = np.triu(np.ones((C, C), dtype=bool), k=1)
    assert not w[..., upper].any()
    assert (w[..., ~upper] > 0).sum() > 0
    # and without the mask the future is visible: the same map is not triangular any more
    w_none = run_trace(bundle, TEXT, RunOptions(mask=MaskSpec("none")))["layers.1.attn.weights"]
    assert (w_none[..., upper] > 0).any()


def test_sum_of_heads_times_their_W_o_slices_equals_concat_times_W_o(bundle):
    trace = run_trace(bundle, TEXT)
    H, Dv = 3, 5
    for l in range(2):
        heads = np.asarray(trace[f"layers.{l}.attn.heads"], np.float64)  # (B, H, C, D_v)
        W_o = np.asarray(trace[f"params.layers.{l}.attn.W_o"], np.float64)  # (H·D_v, E)
        b_o = np.asarray(trace[f"params.layers.{l}.attn.b_o"], np.float64)
        summed = sum(heads[:, h] @ W_o[h * Dv : (h + 1) * Dv] for h in range(H))  # Σᵢ Rⁱ·W_oⁱ
        concat = np.asarray(trace[f"layers.{l}.attn.concat"], np.float64)
        np.testing.assert_allclose(summed, concat @ W_o, atol=1e-5)
        np.testing.assert_allclose(summed + b_o, trace[f"layers.{l}.attn.out"], atol=1e-5)
        # the concat really is the heads side by side: head h in columns h·D_v … h·D_v+D_v−1
        for h in range(H):
            assert np.array_equal(
                trace[f"layers.{l}.attn.concat"][..., h * Dv : (h + 1) * Dv], trace[f"layers.{l}.attn.heads"][:, h]
            )


def test_embedding_lookup_equals_one_hot_times_table(bundle):
    trace = run_trace(bundle, TEXT)
    ids = np.asarray(trace["tokens"])
    table = np.asarray(trace["params.embed.tok"], np.float64)  # (V, E)
    one_hot = np.eye(table.shape[0])[ids]  # (B, C, V)
    np.testing.assert_allclose(one_hot @ table, trace["embed.tok"], atol=1e-6)
    np.testing.assert_allclose(trace["embed.out"], trace["embed.tok"] + trace["embed.pos"], atol=1e-6)
    assert [list(r.ids) for r in trace.rows] == [ids[b, : r.length].tolist() for b, r in enumerate(trace.rows)]


@pytest.mark.parametrize("mask", ["causal", "none", "window:2"])
def test_batch_rows_are_independent(bundle, mask):
    options = RunOptions(mask=MaskSpec.parse(mask))
    batch = run_trace(bundle, TEXT, options)
    for b, sentence in enumerate(TEXT.splitlines()):
        alone = run_trace(bundle, sentence, options)
        n = alone.C
        assert batch.rows[b].ids == alone.rows[0].ids and batch.rows[b].length == n
        for name in alone.activations():
            a, x = np.asarray(alone[name]), np.asarray(batch[name])
            labels = alone.labels(name)
            index = [0 if lab == "B" else slice(None) for lab in labels]
            index = tuple(slice(0, n) if lab == "C" else i for lab, i in zip(labels, index))  # real tokens only
            if a.dtype == bool or a.dtype.kind == "i":
                assert np.array_equal(a[index], x[b : b + 1][index]), name
            else:
                np.testing.assert_allclose(x[b : b + 1][index], a[index], atol=2e-6, rtol=2e-6, err_msg=name)


# What a trace computes before its first attention mixes positions: equal in a lazy and an eager trace, bit
# for bit (the same arithmetic on the same numbers). From there on the lazy trace's fused attention kernel
# gives the same numbers to rounding (tests/core/fused_tolerance.py).
BEFORE_MIXING = (
    "tokens",
    "mask",
    "mask.empty_rows",
    "embed.tok",
    "embed.pos",
    "embed.out",
    "layers.0.attn.in",
    "layers.0.attn.q",
    "layers.0.attn.k",
    "layers.0.attn.v",
    "layers.0.attn.q_rot",
    "layers.0.attn.k_rot",
)


def test_lazy_trace_equals_eager_trace_to_the_fused_tolerance(bundle):
    options = RunOptions(mask=MaskSpec.parse("window:3"))
    eager = run_trace(bundle, TEXT, options)
    lazy = run_trace(bundle, TEXT, options.replace(lazy_pairwise=True))
    pairwise = [n for n in eager.names() if names.spec(n).pairwise]
    assert len(pairwise) == 2 * 4
    assert not any(n in lazy.stored_names() for n in pairwise)  # really kept out of memory
    assert set(lazy.names()) == set(eager.names())
    for name in eager.names():
        assert lazy[name].dtype == eager[name].dtype
        if (
            name in BEFORE_MIXING
            or name.startswith("params.")
            or name.startswith("layers.0.attn.")
            and names.spec(name).pairwise
        ):
            assert np.array_equal(lazy[name], eager[name]), name  # layer 0's maps come from the same q and k
        else:
            assert_fused_close(lazy[name], eager[name], name)
    for l in range(2):
        for stage in names.PAIRWISE_STAGES:
            for b in range(3):
                for h in range(3):
                    # one head derived alone equals the same head of the whole layer, in either trace
                    assert np.array_equal(lazy.head_map(l, stage, b, h), lazy[names.attn(l, stage)][b, h])
                    assert np.array_equal(eager.head_map(l, stage, b, h), eager[names.attn(l, stage)][b, h])


def test_lazy_head_map_before_whole_layer(words):
    # a fresh lazy trace asked for one head first (the cheap path), with grouped-query heads and RoPE
    cfg = _cfg(words, heads=4, kv_heads=2, positions="rope", key_dim=4)
    b = random_bundle(cfg, words, 8)
    eager = run_trace(b, TEXT)
    lazy = run_trace(b, TEXT, RunOptions(lazy_pairwise=True))
    for h in range(4):
        one = lazy.head_map(1, "weights", 2, h)
        assert_fused_close(one, eager["layers.1.attn.weights"][2, h])
        assert np.array_equal(one, lazy["layers.1.attn.weights"][2, h])  # the same numbers as the whole layer's
    assert np.array_equal(lazy.head_map(0, "weights", 2, 1), eager["layers.0.attn.weights"][2, 1])
    assert np.array_equal(lazy["layers.0.attn.masked"], eager["layers.0.attn.masked"])


def test_layers_to_capture_keeps_only_those_layers(words):
    b = random_bundle(_cfg(words, layers=3), words, 4)
    full = run_trace(b, TEXT)
    some = run_trace(b, TEXT, RunOptions(layers_to_capture=(1,)))
    assert some.layers == (1,)
    acts = [n for n in some.stored_names() if not n.startswith("params.")]
    assert {names.layer_of(n) for n in acts} == {None, 1}
    assert "layers.1.attn.weights" in some and "layers.0.attn.q" not in some and "layers.2.out" not in some
    assert np.array_equal(some["logits"], full["logits"])
    assert np.array_equal(some["probs"], full["probs"])
    assert np.array_equal(some["layers.1.attn.weights"], full["layers.1.attn.weights"])
    assert set(some.params()) == set(full.params())  # parameters are always kept


def test_scaling_keeps_score_variance_near_one_and_softmax_soft(words):
    """Var(q·k) ≈ D for unit-variance entries; ÷√D brings it to ≈1. Unscaled rows saturate to one-hot."""
    D = 256
    text = "the cat is on the mat . this is a pen . that dog is near the old river and the white house is good ."
    cfg = ModelConfig(words.vocab_size, embed_dim=64, key_dim=D, heads=1, layers=1, positions="none")
    b = random_bundle(cfg, words, 0)
    raw = run_trace(b, text, RunOptions(mask=MaskSpec("none"), scale=False))
    scaled = run_trace(b, text, RunOptions(mask=MaskSpec("none"), scale=True))
    s = np.asarray(raw["layers.0.attn.scores"], np.float64)
    C = raw.C
    assert C == 26
    assert 0.5 < s.var() / D < 2.0  # the unscaled variance grows like D
    assert 0.5 < np.asarray(scaled["layers.0.attn.scaled"], np.float64).var() < 2.0

    def entropy(w):
        w = np.asarray(w, np.float64)
        return float(-(w * np.log(np.where(w > 0, w, 1.0))).sum(-1).mean())

    w_raw, w_scaled = raw["layers.0.attn.weights"], scaled["layers.0.attn.weights"]
    assert w_raw.max(-1).mean() > 0.7 and entropy(w_raw) < 0.6  # near one-hot
    assert w_scaled.max(-1).mean() < 0.35 and entropy(w_scaled) > 2.0  # spread out (log 26 ≈ 3.26)
    assert np.array_equal(raw["layers.0.attn.scores"], scaled["layers.0.attn.scores"])  # scaling acts after


# --------------------------------------------------------------------------------------- presets, tokenizers


def test_seed_toy_preset_has_the_notes_sizes():
    preset = get_preset("seed-toy")
    b = load_preset("seed-toy")
    cfg = b.config
    assert (cfg.E, cfg.D, cfg.H) == (3, 2, 2)
    trace = run_trace(b, preset.example)
    assert (trace.B, trace.C) == (2, 2)
    assert trace["layers.0.attn.q"].shape == (2, 2, 2, 2)  # (B, H, C, D)
    assert trace["layers.0.attn.weights"].shape == (2, 2, 2, 2)  # (B, H, C, C)
    assert trace["params.layers.0.attn.W_q"].shape == (3, 4)  # (E, H·D)
    assert trace["params.layers.0.attn.W_o"].shape == (4, 3)  # (H·D, E)
    # a fixed seed: the same numbers every time
    again = run_trace(load_preset("seed-toy"), preset.example)
    assert np.array_equal(again["logits"], trace["logits"])


def test_this_is_a_pen_gives_five_word_tokens(words):
    enc = words.encode("This is a pen .")
    assert enc.tokens == ("This", "is", "a", "pen", ".") and len(enc) == 5 and not any(enc.unknown)
    b = random_bundle(_cfg(words, layers=1), words, 0)
    trace = run_trace(b, "This is a pen .")
    assert (trace.B, trace.C) == (1, 5) and trace["logits"].shape == (1, 5, words.vocab_size)


def test_unknown_words_become_unk_and_are_flagged(words):
    enc = words.encode("This is a flibbertigibbet xqzt .")
    unk = words.unk_id
    assert enc.ids[3] == unk and enc.ids[4] == unk and enc.unknown == (False, False, False, True, True, False)
    assert enc.tokens[3] == "flibbertigibbet"  # the typed piece is kept for display
    trace = run_trace(random_bundle(_cfg(words, layers=1), words, 0), "zzz qqq\nThis is")
    assert trace.rows[0].unknown == (True, True) and trace["tokens"][0].tolist() == [unk, unk]
    assert any("zzz" in n for n in trace.notices)


def test_character_tokenizer_splits_japanese():
    ja = preset_tokenizer("chars-ja.json")
    enc = ja.encode("これはペンです。")
    assert enc.tokens == tuple("これはペンです。") and not any(enc.unknown)
    assert len(set(enc.ids)) == len(set("これはペンです。"))
    enc = ja.encode("これは鬱")  # a character outside the vocabulary
    assert enc.unknown == (False, False, False, True)
    tok = char_tokenizer("猫が好き")
    assert tok.encode("猫が好き").tokens == ("猫", "が", "好", "き")


_BPE = Tokenizer.from_file(resource("tokenizers", "bpe-en.json"))


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=60))
def test_byte_bpe_round_trips_any_text(text):
    enc = _BPE.encode(text)
    assert _BPE.decode(enc.ids) == text
    assert not any(enc.unknown)  # every byte is in the base alphabet
    assert "".join(enc.tokens) == text or len(text.encode()) != len(text)  # pieces cover the text (ASCII)


# --------------------------------------------------------------------------------------- dtype and device


def test_float64_path_gives_float64_everywhere_and_agrees_with_float32(bundle):
    t32 = run_trace(bundle, TEXT)
    t64 = run_trace(bundle, TEXT, RunOptions(dtype="float64"))
    for name in t64.names():
        a = t64[name]
        if a.dtype.kind == "f":
            assert a.dtype == np.float64, name
            np.testing.assert_allclose(a, t32[name], atol=1e-4, rtol=1e-4, err_msg=name)
    assert t64.manifest()["dtype"] == "float64"


def test_absent_device_falls_back_to_cpu_with_a_notice(bundle):
    trace = run_trace(bundle, "This is a pen .", RunOptions(device="cuda:7"))
    import torch

    if torch.cuda.device_count() > 7:
        pytest.skip("this machine really has a cuda:7")
    assert trace.options.device == "cpu"
    assert any("cuda:7" in n and "cpu" in n for n in trace.notices)
    assert np.array_equal(trace["logits"], run_trace(bundle, "This is a pen .")["logits"])
    with pytest.raises(ConfigError):
        run_trace(bundle, "This is a pen .", RunOptions(device="tpu:0"))


# --------------------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "field,value",
    [
        ("embed_dim", 0),
        ("embed_dim", -4),
        ("embed_dim", 2.5),
        ("embed_dim", "four"),
        ("embed_dim", True),
        ("key_dim", 0),
        ("heads", -1),
        ("layers", 0),
        ("layers", 1.5),
        ("value_dim", 0),
        ("kv_heads", -2),
        ("ffn_dim", 0),
        ("embed_dim", 10**9),
        ("heads", 10**6),
    ],
)
def test_bad_sizes_are_refused_with_a_message(words, field, value):
    with pytest.raises(ConfigError) as err:
        ModelConfig(words.vocab_size, **{field: value})
    assert str(err.value) and "\n" not in str(err.value)


def test_other_bad_configs(words):
    V = words.vocab_size
    with pytest.raises(ConfigError, match="multiple"):
        ModelConfig(V, heads=6, kv_heads=4)
    with pytest.raises(ConfigError):
        ModelConfig(V, positions="spiral")
    with pytest.raises(ConfigError):
        ModelConfig(V, heads=2, unfactored_value=True)
    assert (
        ModelConfig(V, embed_dim=7, positions="sinusoidal").E == 7
    )  # odd E is fine since issue 12: the last cosine is dropped
    with pytest.raises(ConfigError):
        ModelConfig(V, key_dim=3, positions="rope")
    with pytest.raises(ConfigError, match="bfloat16, float16"):  # float16 is a dtype since issue 42
        RunOptions(dtype="float8")
    with pytest.raises(ConfigError):
        RunOptions(temperature=0)
    assert ModelConfig(V, heads=6, kv_heads=3).H_kv == 3  # a proper divisor is fine


@pytest.mark.parametrize(
    "spec", ["diagonal", "window:0", "window:-1", "window:", "prefix:x", "prefix:0", "causal:3", "explicit"]
)
def test_bad_mask_specs_are_refused(spec):
    with pytest.raises(ConfigError):
        MaskSpec.parse(spec)


def test_explicit_mask_must_be_square_and_cover_the_text(bundle):
    with pytest.raises(ConfigError):
        MaskSpec.explicit([[True, False], [True]])
    with pytest.raises(ConfigError):
        run_trace(bundle, "This is a pen .", RunOptions(mask=MaskSpec.explicit(np.ones((3, 3), bool))))


def test_empty_text_is_an_input_error(bundle):
    for text in ("", "   ", "\n \n", []):
        with pytest.raises(InputError):
            run_trace(bundle, text)


def _fastest(fn, times: int = 5) -> float:
    """The shortest of a few runs: what the work itself costs, whatever else the machine is doing."""
    best = float("inf")
    for _ in range(times):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _refused(fn) -> None:
    with pytest.raises(MemoryBudgetError):
        fn()


def test_check_memory_refuses_huge_sizes_at_once(words, monkeypatch):
    cfg = ModelConfig(words.vocab_size, embed_dim=65536, key_dim=4096, heads=16, layers=256)
    small = ModelConfig(words.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1)
    with pytest.raises(MemoryBudgetError, match="budget"):
        check_memory(cfg, 1, 8)
    # "at once": arithmetic on the sizes, as cheap for a 65,536-wide model as for refusing an 8-wide one of as
    # many layers under a tiny budget (allocating anything of the huge size would take seconds and gigabytes)
    narrow = ModelConfig(words.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=256)
    huge_s = _fastest(lambda: _refused(lambda: check_memory(cfg, 1, 8)))
    with monkeypatch.context() as m:
        m.setenv("ATTENTION_EXPLORER_MEMORY_GB", "0.000001")
        small_s = _fastest(lambda: _refused(lambda: check_memory(narrow, 1, 8)))
    assert huge_s < 10 * small_s, (huge_s, small_s)
    est = check_memory(small, 1, 8)
    assert est.params_bytes == small.parameter_count() * 4
    # parameter_count is the sum of the shapes a model really has
    model_params = sum(p.numel() for p in random_bundle(small, words, 0).model.parameters())
    assert small.parameter_count() == model_params


def test_huge_model_is_refused_before_it_is_built(words, monkeypatch):
    built = []
    real = bundle_mod.Transformer
    monkeypatch.setattr(bundle_mod, "Transformer", lambda cfg: built.append(cfg) or real(cfg))
    huge = ModelConfig(words.vocab_size, embed_dim=32768, key_dim=2048, heads=16, layers=64)
    refused_s = _fastest(
        lambda: _refused(lambda: load_preset("classroom", embed_dim=65536, layers=256, random_weights=True)), 3
    )
    refused_s += _fastest(lambda: _refused(lambda: random_bundle(huge, words)), 3)
    assert built == []  # no model of that size was ever constructed
    # refusing both costs about what loading the preset at its own size costs (reading its files), not what
    # building a 65,536-wide model would
    normal_s = _fastest(lambda: load_preset("classroom", random_weights=True), 3)
    assert refused_s < 5 * normal_s, (refused_s, normal_s)
    built.clear()
    random_bundle(ModelConfig(words.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1), words)
    assert len(built) == 1  # the spy does see models that are built


def test_long_text_over_budget_is_refused_before_running(bundle, monkeypatch):
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "0.01")
    called = []
    monkeypatch.setattr(bundle, "model_for", lambda *a: called.append(a))
    text = " ".join(["the cat is on the mat ."] * 200)  # C = 1400
    with pytest.raises(MemoryBudgetError):
        run_trace(bundle, text)
    assert called == []
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "lots")
    with pytest.raises(ConfigError):
        run_trace(bundle, "This is a pen .")


def test_memory_budget_error_is_a_config_error():
    # the CLI and the window catch ConfigError/ExplorerError: the budget error must be one of them
    assert issubclass(MemoryBudgetError, ConfigError)
