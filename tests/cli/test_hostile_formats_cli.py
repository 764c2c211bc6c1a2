"""Issue 44, item 1, from outside: `export --model <hostile file>` as a real process, several instances of each
class (config.json fields, GGUF declared counts and shapes, tokenizer.json ids and normalizers, safetensors
headers and dtypes). Each ends in exit code 2 and exactly one `error:` line naming the field, never a
traceback, with the child's peak memory under 1.5 GB (measured inside it: the 2⁴⁰-entry array once reached
7.5 GB, a multiplying normalizer 7 GB). Files that are legal but odd (float8 weights, a tokenizer.json padded
to 2,000,000,000 or truncated to 2 tokens) are traced whole, exit 0.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
import hostile  # noqa: E402
import hostile_formats as hf  # noqa: E402
from hostile import PEN, one_error, run_cli  # noqa: E402

pytest.importorskip("gguf")
BUDGET = 1.5 * 1024**3
WORDS = ["<unk>", "This", "is", "a", "pen", ".", "dog", "?"]


def _config(model_type: str, **changes):
    return lambda tmp: hostile.tiny_llama(tmp / "m", config={"model_type": model_type, **changes})


def _gguf(arch: str = "llama", patch: tuple | None = None, **kwargs):
    def make(tmp: Path) -> Path:
        path = hf.gguf_file(tmp / "m.gguf", arch, **kwargs)
        return hf.patched_field(path, *patch) if patch else path

    return make


def _tokenizer(edit):
    def make(tmp: Path) -> Path:
        data = json.loads(hf.word_tokenizer(WORDS))
        edit(data)
        return hostile.tiny_llama(tmp / "m", tokenizer_json=json.dumps(data))

    return make


def _safetensors(edit):
    def make(tmp: Path) -> Path:
        folder = hostile.tiny_llama(tmp / "m")
        raw = (folder / "model.safetensors").read_bytes()
        n = int.from_bytes(raw[:8], "little")
        header = json.loads(raw[8 : 8 + n])
        edit(header)
        hf.safetensors_file(folder / "model.safetensors", header, raw[8 + n :])
        return folder

    return make


def _sep_template(sep: int) -> dict:
    return {
        "type": "TemplateProcessing",
        "single": [{"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {"[SEP]": {"id": "[SEP]", "ids": [sep], "tokens": ["[SEP]"]}},
    }


def _encoder_sep_past_vocabulary(tmp: Path) -> Path:
    """A BERT folder whose template's [SEP] is id 30 of an 8-row table (weights never reached)."""
    folder = tmp / "bert"
    folder.mkdir()
    config = {
        "model_type": "bert",
        "vocab_size": 8,
        "hidden_size": 8,
        "num_attention_heads": 2,
        "num_hidden_layers": 1,
        "intermediate_size": 16,
        "max_position_embeddings": 16,
    }
    (folder / "config.json").write_text(json.dumps(config))
    data = json.loads(hf.word_tokenizer(WORDS))
    data["post_processor"] = _sep_template(30)
    (folder / "tokenizer.json").write_text(json.dumps(data))
    return folder


def _long_vocab_entry(tmp: Path) -> Path:
    tokens = [*hf.byte_tokens(), "x" * 1_000_000]
    return hf.gguf_file(tmp / "m.gguf", kind="llama", tokens=tokens)


REFUSED = {
    # config.json
    "neox-rope-parameters-number": (_config("gpt_neox", rope_parameters=5), "rope_parameters"),
    "neox-rope-parameters-list": (_config("gpt_neox", rope_parameters=[0.25]), "rope_parameters"),
    "gemma3-rope-parameters-zero": (_config("gemma3_text", rope_parameters=0), "rope_parameters"),
    "gemma3-rope-parameters-string": (_config("gemma3_text", rope_parameters="default"), "rope_parameters"),
    "rope-type-null": (_config("llama", rope_parameters={"rope_type": None}), "rope_type"),
    "rope-scaling-type-null": (_config("qwen2", rope_scaling={"type": None}), "rope_scaling.type"),
    "gemma2-layer-types-short": (_config("gemma2", layer_types=["sliding_attention", "full_attention"]), "layer_types"),
    "gemma3-layer-types-empty": (_config("gemma3_text", layer_types=[]), "layer_types"),
    "qwen3-layer-types-string": (_config("qwen3", layer_types="full_attention"), "layer_types"),
    "gemma2-layer-types-null-5": (_config("gemma2", layer_types=[None]), "layer_types[0]"),
    "qwen3-chunked-attention": (_config("qwen3", layer_types=["chunked_attention"]), "chunked_attention"),
    "gemma3-chunked-attention": (_config("gemma3_text", layer_types=["chunked_attention"]), "chunked_attention"),
    "eps-string": (_config("llama", rms_norm_eps="1e-6"), "rms_norm_eps"),
    "heads-list": (_config("mistral", num_attention_heads=[2]), "num_attention_heads"),
    # GGUF: shapes, declared counts, lengths
    **{
        f"gguf-{arch}-embedding-1d": (
            _gguf(arch, tensors={"token_embd.weight": np.zeros(257 * 8, np.float32)}),
            "token_embd.weight",
        )
        for arch in ("llama", "qwen3", "gemma", "gemma2", "gemma3", "phi3")
    },
    "gguf-token-type-2^40": (_gguf(patch=("tokenizer.ggml.token_type length", 2**40)), "tokenizer.ggml.token_type"),
    "gguf-sliding-pattern-50M": (
        _gguf(
            "gemma3",
            meta={"gemma3.attention.sliding_window": 4, "gemma3.attention.sliding_window_pattern": [True, False]},
            patch=("gemma3.attention.sliding_window_pattern length", 50_000_000),
        ),
        "sliding_window_pattern",
    ),
    "gguf-array-1M+1-in-the-file": (_gguf(meta={"x.counts": [1] * 1_000_001}), "x.counts"),
    "gguf-tokens-50M": (_gguf(patch=("tokenizer.ggml.tokens length", 50_000_000)), "tokenizer.ggml.tokens"),
    "gguf-scores-2^63": (_gguf(kind="llama", patch=("tokenizer.ggml.scores length", 2**63)), "tokenizer.ggml.scores"),
    "gguf-key-length-2^62": (_gguf(patch=("key length", 2**62)), "metadata key"),
    "gguf-tensor-count-2^60": (_gguf(patch=("tensor count", 2**60)), "tensors"),
    "gguf-tensor-7-dims": (_gguf(patch=("blk.0.attn_q.weight dimensions", 7)), "blk.0.attn_q.weight"),
    "gguf-tensor-past-end": (_gguf(patch=("output_norm.weight shape[0]", 2**35)), "output_norm.weight"),
    "gguf-sentencepiece-token-1MB": (_long_vocab_entry, "tokenizer.ggml.tokens[257]"),
    # tokenizer.json
    "vocab-id-at-size": (_tokenizer(lambda d: d["model"]["vocab"].update({"pen": 8})), "model.vocab"),
    "vocab-id-2^40": (_tokenizer(lambda d: d["model"]["vocab"].update({"pen": 2**40})), "model.vocab"),
    "template-sep-past-size": (_tokenizer(lambda d: d.update(post_processor=_sep_template(8))), "[SEP]"),
    "encoder-sep-past-size": (_encoder_sep_past_vocabulary, "[SEP]"),
    "normalizer-replace-x1000": (
        _tokenizer(
            lambda d: d.update(normalizer={"type": "Replace", "pattern": {"String": "a"}, "content": "a" * 1000})
        ),
        "normalizer",
    ),
    "normalizer-doubling-sequence": (
        _tokenizer(
            lambda d: d.update(
                normalizer={
                    "type": "Sequence",
                    "normalizers": [{"type": "Replace", "pattern": {"Regex": "."}, "content": "ab"}] * 10,
                }
            )
        ),
        "normalizer",
    ),
    # safetensors
    "safetensors-unknown-dtype": (
        _safetensors(lambda h: h["model.norm.weight"].update(dtype="F7")),
        "model.norm.weight",
    ),
    "safetensors-offsets-past-end": (
        _safetensors(lambda h: h["model.norm.weight"].update(data_offsets=[0, 2**40])),
        "model.norm.weight",
    ),
    "safetensors-shape-disagrees": (
        _safetensors(lambda h: h["model.norm.weight"].update(shape=[2**20, 2**20])),
        "model.norm.weight",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_hostile_model_file_is_one_line_within_the_budget(tmp_path, case):
    make, field = REFUSED[case]
    model = make(tmp_path)
    code, _, err, rss = run_cli(tmp_path, "export", PEN, "--model", model, "-o", tmp_path / "s.npz", timeout=120)
    assert code == 2, err
    assert field in one_error(err), err
    assert len(err.strip().splitlines()) == 1, err
    assert rss < BUDGET, f"{case}: {rss / 1024**3:.2f} GB"
    assert not (tmp_path / "s.npz").exists()


def _float8(tmp: Path) -> Path:
    folder = hostile.tiny_llama(tmp / "m")
    hf.float8_weights(folder)
    return folder


PADDED = {"strategy": {"Fixed": 2_000_000_000}, "direction": "Right", "pad_to_multiple_of": None, "pad_id": 0}
PADDED |= {"pad_type_id": 0, "pad_token": "<unk>"}
CUT = {"direction": "Right", "max_length": 2, "strategy": "LongestFirst", "stride": 5}
TRACED = {
    "float8-weights": _float8,
    "padding-2e9": _tokenizer(lambda d: d.update(padding=PADDED)),
    "truncation-to-2": _tokenizer(lambda d: d.update(truncation=CUT)),
}


@pytest.mark.parametrize("case", sorted(TRACED))
def test_a_legal_but_odd_model_file_is_traced(tmp_path, case):
    model = TRACED[case](tmp_path)
    out = tmp_path / "s.npz"
    code, _, err, rss = run_cli(tmp_path, "export", PEN, "--model", model, "-o", out, timeout=120)
    assert code == 0, err
    assert "Traceback" not in err and rss < BUDGET
    with np.load(out) as snapshot:
        assert snapshot["tokens"].shape[-1] == len(PEN.split())  # the text's five tokens, no padding, none cut
