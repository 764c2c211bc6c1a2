"""The families beyond GPT-2 and Llama against ``transformers`` (eager attention), which nobody here wrote.

Each test builds a random-weight model of the family with transformers' own classes (config → model →
``save_pretrained`` into a temporary folder, tiny: E = 64, 2 layers), writes a tokenizer built here with
``tokenizers`` (a byte-level BPE for the decoders, a WordPiece or a byte BPE with the encoder's template for
BERT, DistilBERT and RoBERTa), opens the folder with our loader, traces, and compares with transformers run on
the same ids: token ids equal, every layer's attention weights within 1e-5, logits within 1e-4 relative,
hidden states within 1e-4. The encoders are traced with two sentences (segments A and B) and a [MASK].
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import torch

from explorer.config import MaskSpec, RunOptions
from explorer.errors import ModelLoadError
from explorer.trace.run import run_trace
from explorer.weights.loaders import load_model
from tests.core.fused_tolerance import assert_fused_close

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers = pytest.importorskip("transformers")
transformers.utils.logging.disable_progress_bar()
transformers.utils.logging.set_verbosity_error()

from test_hf_oracle import sharpen  # noqa: E402
from tiny_bpe import train_tokenizer  # noqa: E402

ATTN_TOL = 1e-5
LOGITS_REL = 1e-4
HIDDEN_TOL = 1e-4
# Longer than the sliding windows below (4 keys), so that a sliding layer's map differs from a full one's.
DECODER_TEXT = "This is a pen .\nThe cat sat on the mat because it was tired , and the dog saw it ."
ENCODER_TEXT = "The cat sat on the [MASK] . [SEP] It was tired .\nThis is a pen ."
CORPUS = [
    "This is a pen .",
    "The cat sat on the mat .",
    "The dog saw the cat and the cat saw the dog .",
    "It was tired because it ran all day .",
    "A pen is on the table , and a book is on the chair .",
] * 20


# ------------------------------------------------------------------------------------------ tokenizers


def wordpiece_json() -> str:
    """A BERT-style WordPiece: lower-cased, [CLS] A [SEP] (B [SEP]) with token types 0 and 1."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    hf = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    hf.normalizer = normalizers.BertNormalizer(lowercase=True)
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    hf.train_from_iterator(
        CORPUS, trainers.WordPieceTrainer(vocab_size=160, special_tokens=specials, show_progress=False)
    )
    cls, sep = hf.token_to_id("[CLS]"), hf.token_to_id("[SEP]")
    hf.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    hf.decoder = decoders.WordPiece()
    return hf.to_str()


def roberta_bpe_json() -> str:
    """RoBERTa's: a byte-level BPE with <s> A </s></s> B </s>, <pad> at id 1 (its padding_idx)."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    specials = ["<s>", "<pad>", "</s>", "<unk>", AddedToken("<mask>", lstrip=True)]
    trainer = trainers.BpeTrainer(
        vocab_size=340,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    hf.train_from_iterator(CORPUS, trainer=trainer)
    hf.post_processor = processors.RobertaProcessing(
        ("</s>", hf.token_to_id("</s>")), ("<s>", hf.token_to_id("<s>")), trim_offsets=True, add_prefix_space=False
    )
    return hf.to_str()


@pytest.fixture(scope="module")
def bpe_json():
    return train_tokenizer().to_str()


def vocab_size(tokenizer_json: str) -> int:
    from tokenizers import Tokenizer

    return Tokenizer.from_str(tokenizer_json).get_vocab_size(with_added_tokens=True)


# ------------------------------------------------------------------------------------------ the models


def decoder_settings(V: int) -> dict:
    return dict(
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
        pad_token_id=None,
    )


def build(folder, family: str, tokenizer_json: str):
    """(folder, transformers model) of a random-weight model of ``family`` saved with save_pretrained."""
    V = vocab_size(tokenizer_json)
    t = transformers
    d = decoder_settings(V)
    gemma = dict(d, head_dim=16, query_pre_attn_scalar=16, rms_norm_eps=1e-6)
    table = {
        "qwen2": (t.Qwen2Config(**d), t.Qwen2ForCausalLM),
        "qwen3": (t.Qwen3Config(**d, head_dim=16), t.Qwen3ForCausalLM),
        "gemma": (t.GemmaConfig(**gemma), t.GemmaForCausalLM),
        "gemma2": (
            t.Gemma2Config(
                **gemma,
                sliding_window=4,
                layer_types=["sliding_attention", "full_attention"],
                attn_logit_softcapping=5.0,
                final_logit_softcapping=3.0,
            ),
            t.Gemma2ForCausalLM,
        ),
        "gemma3": (
            t.Gemma3TextConfig(
                **gemma,
                sliding_window=4,
                layer_types=["sliding_attention", "full_attention"],
                rope_parameters={
                    "full_attention": {"rope_type": "default", "rope_theta": 1e6},
                    "sliding_attention": {"rope_type": "default", "rope_theta": 100.0},
                },
            ),
            t.Gemma3ForCausalLM,
        ),
        "phi3": (t.Phi3Config(**dict(d, pad_token_id=0), sliding_window=5), t.Phi3ForCausalLM),
        "olmo2": (t.Olmo2Config(**dict(d, pad_token_id=0)), t.Olmo2ForCausalLM),
        "gpt_neox": (
            t.GPTNeoXConfig(
                vocab_size=V,
                hidden_size=64,
                intermediate_size=96,
                num_hidden_layers=2,
                num_attention_heads=4,
                max_position_embeddings=128,
                rotary_pct=0.25,
                bos_token_id=0,
                eos_token_id=0,
            ),
            t.GPTNeoXForCausalLM,
        ),
        "bert": (
            t.BertConfig(
                vocab_size=V,
                hidden_size=64,
                num_hidden_layers=2,
                num_attention_heads=4,
                intermediate_size=96,
                max_position_embeddings=64,
                pad_token_id=0,
            ),
            t.BertForMaskedLM,
        ),
        "roberta": (
            t.RobertaConfig(
                vocab_size=V,
                hidden_size=64,
                num_hidden_layers=2,
                num_attention_heads=4,
                intermediate_size=96,
                max_position_embeddings=66,
                pad_token_id=1,
                bos_token_id=0,
                eos_token_id=2,
                type_vocab_size=1,
            ),
            t.RobertaForMaskedLM,
        ),
        "distilbert": (
            t.DistilBertConfig(
                vocab_size=V, dim=64, n_layers=2, n_heads=4, hidden_dim=96, max_position_embeddings=64, pad_token_id=0
            ),
            t.DistilBertForMaskedLM,
        ),
    }
    cfg, cls = table[family]
    torch.manual_seed(0)
    model = cls(cfg).eval()
    sharpen(model, 7)
    model.save_pretrained(folder)
    (folder / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")
    oracle = cls.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()
    return folder, oracle


def oracle_encoding(folder, text: str, encoder: bool) -> tuple[list[int], list[int] | None]:
    """transformers' own tokenizer: ids (and token types for a pair of sentences)."""
    tok = transformers.PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"))
    if not encoder:
        return tok(text, add_special_tokens=False)["input_ids"], None
    mask = "<mask>" if "<mask>" in tok.get_vocab() else "[MASK]"
    text = text.replace("[MASK]", mask)
    sep = "[SEP]"
    a, _, b = text.partition(sep)
    enc = tok(a.strip(), b.strip(), return_token_type_ids=True) if b else tok(a.strip(), return_token_type_ids=True)
    return enc["input_ids"], enc.get("token_type_ids")


def compare(bundle, oracle, folder, text: str, encoder: bool = False) -> dict[str, float]:
    options = RunOptions(mask=MaskSpec("none")) if encoder else RunOptions()
    trace = run_trace(bundle, text, options)
    L = bundle.config.layers
    worst = {"logits_rel": 0.0, "attn": 0.0, "hidden": 0.0}
    for b, row in enumerate(trace.rows):
        ids, types = oracle_encoding(folder, row.text, encoder)
        assert list(row.ids) == ids, "token ids differ from transformers' tokenizer"
        n = len(ids)
        kwargs = {"token_type_ids": torch.tensor([types])} if types is not None and bundle.config.segments > 1 else {}
        if types is not None and bundle.config.segments > 1:
            np.testing.assert_array_equal(trace["segments"][b, :n], types)
        with torch.no_grad():
            out = oracle(torch.tensor([ids]), output_attentions=True, output_hidden_states=True, **kwargs)
        theirs = out.logits[0].numpy()
        rel = np.abs(trace["logits"][b, :n] - theirs).max() / np.abs(theirs).max()
        worst["logits_rel"] = max(worst["logits_rel"], float(rel))
        assert len(out.attentions) == L
        for l in range(L):
            d = np.abs(trace[f"layers.{l}.attn.weights"][b, :, :n, :n] - out.attentions[l][0].numpy()).max()
            worst["attn"] = max(worst["attn"], float(d))
        hs = out.hidden_states
        pairs = [("embed.out", hs[0])] + [(f"layers.{l}.out", hs[l + 1]) for l in range(L - 1)] + [("final.out", hs[L])]
        for name, h in pairs:
            worst["hidden"] = max(worst["hidden"], float(np.abs(trace[name][b, :n] - h[0].numpy()).max()))
    assert worst["logits_rel"] < LOGITS_REL, worst
    assert worst["attn"] < ATTN_TOL, worst
    assert worst["hidden"] < HIDDEN_TOL, worst
    return worst


# ------------------------------------------------------------------------------------------ decoders


@pytest.mark.parametrize("family", ["qwen3", "gemma", "gemma2", "gemma3", "phi3", "olmo2", "gpt_neox"])
def test_decoder_family_matches_transformers(tmp_path, bpe_json, family):
    folder, oracle = build(tmp_path, family, bpe_json)
    bundle = load_model(folder)
    assert not bundle.editable_sizes
    worst = compare(bundle, oracle, folder, DECODER_TEXT)
    print(f"\n{family} vs transformers: {worst}")


def test_what_each_decoder_family_brings(tmp_path, bpe_json):
    """The options each family sets, and the stages they add to a trace."""
    expect = {
        "qwen3": dict(qk_norm="head", norm_placement="pre"),
        "gemma": dict(embed_scale=True, ffn_activation="gelu_tanh_gated", tie_embeddings=True),
        "gemma2": dict(
            norm_placement="sandwich", attn_softcap=5.0, logit_softcap=3.0, sliding_window=4, sliding_layers=(0,)
        ),
        "gemma3": dict(
            norm_placement="sandwich", qk_norm="head", rope_local_theta=100.0, rope_theta=1e6, sliding_layers=(0,)
        ),
        "phi3": dict(sliding_window=5, sliding_layers=(0, 1)),
        "olmo2": dict(norm_placement="output", qk_norm="all"),
        "gpt_neox": dict(parallel_block=True, rotary_dims=4, norm="layernorm", bias=True),
    }
    stages = {
        "qwen3": ("layers.0.attn.q_norm", "layers.1.attn.k_norm"),
        "gemma2": ("layers.0.attn.capped", "layers.1.attn.out_norm", "layers.0.ffn.out_norm", "logits.uncapped"),
        "olmo2": ("layers.0.attn.q_norm", "layers.0.attn.out_norm"),
    }
    for family, fields in expect.items():
        folder, _ = build(tmp_path / family, family, bpe_json)
        bundle = load_model(folder)
        for key, value in fields.items():
            assert getattr(bundle.config, key) == value, (family, key)
        if family in stages:
            trace = run_trace(bundle, "This is a pen .")
            for name in stages[family]:
                assert name in trace.stored_names(), (family, name)


def test_sliding_layer_sees_only_the_window(tmp_path, bpe_json):
    """Gemma 2's layer 0 slides (4 keys), layer 1 sees every earlier key: the maps say so."""
    folder, _ = build(tmp_path, "gemma2", bpe_json)
    trace = run_trace(load_model(folder), "The cat sat on the mat because it was tired .")
    C = trace.C
    assert C > 6
    slid, full = trace["layers.0.attn.weights"][0], trace["layers.1.attn.weights"][0]
    i = C - 1
    assert np.all(slid[:, i, : i - 3] == 0) and np.all(slid[:, i, i - 3 : i + 1] > 0)
    assert np.all(full[:, i, :] > 0)
    capped = trace["layers.1.attn.capped"][0]
    assert np.abs(capped).max() < 5.0  # c·tanh(s / c) stays inside (−c, c)
    np.testing.assert_allclose(capped, 5.0 * np.tanh(trace["layers.1.attn.scaled"][0] / 5.0), atol=1e-6)
    assert np.abs(trace["logits"]).max() < 3.0


def test_partial_rotary_turns_only_the_first_dimensions(tmp_path, bpe_json):
    folder, _ = build(tmp_path, "gpt_neox", bpe_json)
    trace = run_trace(load_model(folder), "This is a pen .")
    q, q_rot = trace["layers.0.attn.q"], trace["layers.0.attn.q_rot"]
    np.testing.assert_array_equal(q[..., 4:], q_rot[..., 4:])  # D = 16, R = 4: dimensions 4… pass unchanged
    assert not np.allclose(q[0, :, 1:, :4], q_rot[0, :, 1:, :4])


# ------------------------------------------------------------------------------------------ encoders


@pytest.fixture(scope="module")
def wordpiece():
    return wordpiece_json()


@pytest.mark.parametrize("family", ["bert", "distilbert", "roberta"])
def test_encoder_family_matches_transformers(tmp_path, wordpiece, family):
    tokenizer_json = roberta_bpe_json() if family == "roberta" else wordpiece
    folder, oracle = build(tmp_path, family, tokenizer_json)
    bundle = load_model(folder)
    cfg = bundle.config
    assert cfg.bidirectional and cfg.mlm_head and cfg.norm_placement == "post" and cfg.embed_norm
    assert cfg.segments == {"bert": 2, "distilbert": 0, "roberta": 1}[family]
    worst = compare(bundle, oracle, folder, ENCODER_TEXT, encoder=True)
    print(f"\n{family} vs transformers: {worst}")


def test_bert_two_sentences_and_mask(tmp_path, wordpiece):
    folder, oracle = build(tmp_path, "bert", wordpiece)
    bundle = load_model(folder)
    trace = run_trace(bundle, "The cat sat on the [MASK] . [SEP] It was tired .", RunOptions(mask=MaskSpec("none")))
    row = trace.rows[0]
    assert row.tokens[0] == "[CLS]" and row.tokens.count("[SEP]") == 2 and "[MASK]" in row.tokens
    second = row.tokens.index("[SEP]") + 1
    assert list(trace["segments"][0, : row.length]) == [0] * second + [1] * (row.length - second)
    seg = trace["params.embed.seg"]
    np.testing.assert_array_equal(trace["embed.seg"][0, second], seg[1])
    np.testing.assert_array_equal(trace["embed.seg"][0, 0], seg[0])
    # The distribution at the [MASK] is transformers' fill-mask distribution there
    at = row.tokens.index("[MASK]")
    ids, types = oracle_encoding(folder, row.text, True)
    with torch.no_grad():
        theirs = torch.softmax(
            oracle(torch.tensor([ids]), token_type_ids=torch.tensor([types])).logits[0, at], -1
        ).numpy()
    np.testing.assert_allclose(trace["probs"][0, at], theirs, atol=1e-6)
    # every token sees every other: no −∞ in an encoder's maps
    assert np.all(trace["layers.0.attn.weights"][0, :, : row.length, : row.length] > 0)


def test_a_tab_also_parts_two_sentences(tmp_path, wordpiece):
    folder, _ = build(tmp_path, "bert", wordpiece)
    bundle = load_model(folder)
    a = bundle.tokenizer.encode("the cat sat .\tit was tired .")
    b = bundle.tokenizer.encode("the cat sat . [SEP] it was tired .")
    assert a.ids == b.ids and a.segments == b.segments and max(a.segments) == 1


# ------------------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    "change, message",
    [
        ({"model_type": "t5"}, "model type 't5' is not supported; this version opens gpt2, llama"),
        ({"query_pre_attn_scalar": "8"}, "query_pre_attn_scalar must be a number"),
        ({"use_bidirectional_attention": True}, "use_bidirectional_attention"),
        ({"layer_types": ["chunked_attention", "full_attention"]}, "layer type 'chunked_attention'"),
    ],
)
def test_unsupported_settings_are_refused_in_one_line(tmp_path, bpe_json, change, message):
    folder, _ = build(tmp_path, "gemma2", bpe_json)
    data = json.loads((folder / "config.json").read_text())
    data.update(change)
    (folder / "config.json").write_text(json.dumps(data))
    with pytest.raises(ModelLoadError, match=message) as info:
        load_model(folder)
    assert "\n" not in str(info.value)


# ------------------------------------------------------------------------------------------ hovers chain


ARITHMETIC_NAMES = {  # a hover of these must spell out at least one equation a student can check
    "embed.out",
    "embed.sum",
    "layers.{l}.attn.q_norm",
    "layers.{l}.attn.k_norm",
    "layers.{l}.attn.capped",
    "layers.{l}.attn.out_norm",
    "layers.{l}.ffn.out_norm",
    "layers.{l}.attn.sum",
    "layers.{l}.ffn.sum",
    "layers.{l}.mid",
    "layers.{l}.out",
    "mlm.hidden",
    "mlm.out",
    "layers.{l}.attn.q_rot",
    "layers.{l}.ffn.hidden",
}


@pytest.mark.parametrize("family", ["gemma", "gemma2", "gemma3", "olmo2", "gpt_neox", "bert", "qwen3", "phi3"])
def test_every_new_stage_hover_adds_up(tmp_path, bpe_json, wordpiece, family, monkeypatch):
    """Each hover of a family's trace is arithmetic on the numbers the previous stage shows (the checker of
    tests/core/test_hover_arithmetic.py, taught tanh for the soft-caps)."""
    import math
    import re

    import test_hover_arithmetic as checker

    from explorer import names
    from explorer.present.explain import explain_cell, explain_value

    monkeypatch.setitem(checker.NAMESPACE, "tanh", math.tanh)
    monkeypatch.setattr(checker, "ARITHMETIC", re.compile(r"(?:sqrt|exp|sin|cos|tanh|GELU|ReLU|SiLU|[0-9.e+\-*/() ])+"))
    encoder = family == "bert"
    folder, _ = build(tmp_path, family, wordpiece if encoder else bpe_json)
    bundle = load_model(folder)
    text = (
        "the cat sat on the [MASK] . [SEP] it was tired ."
        if encoder
        else "The cat sat on the mat because it was tired ."
    )
    trace = run_trace(bundle, text, RunOptions(mask=MaskSpec("none")) if encoder else RunOptions())
    gelu = checker._gelu_tanh if bundle.config.ffn_activation.startswith("gelu_tanh") else checker._gelu
    n = trace.rows[0].length
    for name in trace.names():
        entry = names.spec(name)
        if entry.is_param or entry.pattern in ("tokens", "mask", "mask.empty_rows") or entry.pairwise:
            continue
        a = trace[name]
        for i in range(0, n, 3):
            for j in (0, 1, a.shape[-1] - 1) if a.ndim > 2 else (0,):
                text_ = explain_value(trace, name, 0, 0, i, j)
                count = checker.assert_adds_up(text_, gelu)
                if entry.pattern in ARITHMETIC_NAMES and "unchanged" not in text_:  # partial RoPE's passing dims
                    assert count >= 1, (name, text_)
    for layer in trace.layers:
        for stage in names.PAIRWISE_STAGES:
            for i in range(0, n, 2):
                for j in range(n):
                    checker.assert_adds_up(explain_cell(trace, stage, layer, 0, 0, i, j), gelu)
    from explorer.present.stage_facts import stage_numbers, stage_shape
    from explorer.present.stages import edge_label, stage_keys_for

    for key in stage_keys_for(bundle.config):  # every stage this family shows has its label and its shape
        assert edge_label(key, trace, 0, 0), key
        assert stage_shape(key, trace, 0, 0)[0], key
    stage_numbers(trace, 0, 0)
    if bundle.config.is_sliding(0):  # a key outside the window reads "masked −∞" though the run's mask is causal
        assert "−∞" in explain_cell(trace, "masked", 0, 0, 0, n - 1, 0)
        if not bundle.config.is_sliding(1):
            assert "−∞" not in explain_cell(trace, "masked", 1, 0, 0, n - 1, 0)


@pytest.mark.parametrize("family", ["gemma2", "phi3"])
def test_lazy_and_chunked_maps_of_sliding_and_capped_layers_equal_the_full_trace(
    tmp_path, bpe_json, family, monkeypatch
):
    """A lazy trace derives a head's maps from q and k; a long input runs the chunked path: both apply the
    layer's window and the soft-cap as the reference does."""
    folder, _ = build(tmp_path, family, bpe_json)
    bundle = load_model(folder)
    text = "The cat sat on the mat because it was tired , and the dog saw it ."
    full = run_trace(bundle, text)
    lazy = run_trace(bundle, text, RunOptions(lazy_pairwise=True))
    monkeypatch.setattr("explorer.model.attention.fits_at_once", lambda *a: False)
    chunked = run_trace(bundle, text)
    for l in range(bundle.config.layers):
        for stage in ("scores", "scaled", "masked", "weights"):
            for h in range(bundle.config.H):
                ours = full.head_map(l, stage, 0, h)
                # a lazy trace's attention runs the fused kernel (no soft-cap) from layer 0 on: its maps equal
                # the reference to the documented rounding tolerance (tests/core/fused_tolerance.py)
                assert_fused_close(lazy.head_map(l, stage, 0, h), ours, f"{l} {stage} {h}")
                np.testing.assert_allclose(chunked.head_map(l, stage, 0, h), ours, atol=1e-6, err_msg=f"{l} {stage}")
    np.testing.assert_allclose(chunked["logits"], full["logits"], atol=1e-5)
    # without a trace attached (generation, training) the model takes the path that keeps no map
    with torch.no_grad():
        ids = torch.tensor([full.rows[0].ids])
        np.testing.assert_allclose(bundle.model(ids).numpy(), full["logits"], atol=1e-5)


def test_a_bert_trace_reopens_from_a_snapshot(tmp_path, wordpiece):
    from explorer.export.snapshot import read_snapshot, write_snapshot

    folder, _ = build(tmp_path / "m", "bert", wordpiece)
    trace = run_trace(load_model(folder), "the cat sat . [SEP] it was [MASK] .", RunOptions(mask=MaskSpec("none")))
    path = tmp_path / "bert.npz"
    write_snapshot(trace, path)
    back = read_snapshot(path)
    assert back.config == trace.config
    np.testing.assert_array_equal(back["segments"], trace["segments"])
    np.testing.assert_array_equal(back["mlm.out"], trace["mlm.out"])


@pytest.mark.parametrize("family", ["gemma2", "gemma3", "gpt_neox"])
def test_generation_with_the_cache_equals_transformers_greedy(tmp_path, bpe_json, family):
    """Decoding step by step through the KV cache (sliding layers, local RoPE bases, partial RoPE) writes the
    tokens transformers' own greedy generation writes."""
    from explorer.generation.loop import GenerateOptions, generate

    folder, oracle = build(tmp_path, family, bpe_json)
    bundle = load_model(folder)
    prompt = "The cat sat on the mat because"
    ours = generate(bundle, prompt, gen=GenerateOptions(max_new_tokens=8))
    ids = list(ours.trace.rows[0].ids)
    with torch.no_grad():
        theirs = oracle.generate(torch.tensor([ids]), max_new_tokens=8, do_sample=False, min_new_tokens=8)[
            0, len(ids) :
        ]
    assert [s.token_id for s in ours.steps] == theirs.tolist()


def test_an_encoder_does_not_generate(tmp_path, wordpiece):
    from explorer.errors import ConfigError
    from explorer.generation.loop import generate

    folder, _ = build(tmp_path, "bert", wordpiece)
    with pytest.raises(ConfigError, match="fills in a \\[MASK\\]"):
        generate(load_model(folder), "the cat sat")
