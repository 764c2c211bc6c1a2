"""GGUF files with a rotary scaling, as llama.cpp's converter writes them (tests/core/gguf_convert.py): linear
and YaRN as ``{arch}.rope.scaling.*`` metadata, Llama 3's scaling as the ``rope_freqs`` tensor of per-frequency
factors. Each is written from the same random weights as a transformers model with that scaling and must open
equal to transformers (eager) over a text longer than the original context: every layer's attention within 1e-5,
logits within 1e-4 relative, the frequencies each layer turned by within 1e-6 relative (the checks of
tests/core/test_hf_rope_scaling.py). What llama.cpp and transformers would compute differently is refused in one
line naming the key and its value."""

from __future__ import annotations

import pytest
import torch

from explorer.errors import ModelLoadError
from explorer.weights.loaders import load_model

gguf = pytest.importorskip("gguf")
transformers = pytest.importorskip("transformers")

from gguf_convert import with_keys, write_gguf  # noqa: E402
from test_hf_families import decoder_settings, vocab_size  # noqa: E402
from test_hf_oracle import sharpen  # noqa: E402
from test_hf_rope_scaling import LONG_TEXT, _yarn, case, compare  # noqa: E402


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "cache"))


def models(name: str, V: int):
    t, d = transformers, decoder_settings(V)
    own = {
        "qwen2-yarn": lambda: (t.Qwen2Config(**d, rope_parameters=_yarn()), t.Qwen2ForCausalLM),
        "qwen3-yarn-betas": lambda: (
            t.Qwen3Config(**d, head_dim=16, rope_parameters=_yarn(beta_fast=16, beta_slow=2)),
            t.Qwen3ForCausalLM,
        ),
    }
    return own[name]() if name in own else case(name, V)


ARCH = {"llama-llama3": "llama", "llama-linear": "llama", "qwen2-yarn": "qwen2", "qwen3-yarn-betas": "qwen3",
        "qwen3-yarn-mscale": "qwen3"}  # fmt: skip


def build(tmp_path, name: str, tokenizer_json: str):
    cfg, cls = models(name, vocab_size(tokenizer_json))
    torch.manual_seed(0)
    model = cls(cfg).eval()
    sharpen(model, 7)
    model.save_pretrained(tmp_path / "hf")
    oracle = cls.from_pretrained(tmp_path / "hf", attn_implementation="eager", dtype=torch.float32).eval()
    path = tmp_path / f"{name}.gguf"
    write_gguf(path, ARCH[name], oracle, tokenizer_json)
    return path, oracle


@pytest.mark.parametrize("name", ["llama-llama3", "llama-linear", "qwen2-yarn", "qwen3-yarn-betas"])
def test_a_scaled_gguf_equals_transformers(tmp_path, tokenizer_json, name):
    path, oracle = build(tmp_path, name, tokenizer_json)
    scaling = load_model(path).config.rope_scaling
    kind = {"llama-llama3": "longrope", "llama-linear": "linear"}.get(name, "yarn")
    assert scaling is not None and scaling.kind == kind  # Llama 3's factors: one divisor per frequency
    worst = compare(path, oracle, LONG_TEXT)
    print(f"\n{name} GGUF vs transformers: {worst}")


@pytest.mark.parametrize(
    "name, keys, says",
    [
        # transformers takes attention_factor as the whole factor; llama.cpp multiplies or ignores it
        ("qwen3-yarn-mscale", {}, "metadata qwen3.rope.scaling.yarn_attn_factor = 1.2999999523162842 is not"),
        ("qwen2-yarn", {"rope__scaling__yarn_log_multiplier": 0.1}, "qwen2.rope.scaling.yarn_log_multiplier = 0.1"),
        ("qwen2-yarn", {"rope__scaling__attn_factor": 2.0}, "metadata qwen2.rope.scaling.attn_factor = 2.0 is not"),
        ("qwen2-yarn", {"rope__scaling__yarn_ext_factor": 0.5}, "qwen2.rope.scaling.yarn_ext_factor = 0.5 is not"),
        ("qwen2-yarn", {"rope__scaling__type": "longrope"}, "rotary scaling 'longrope' is not supported"),
        ("llama-llama3", {"rope__scaling__type": "yarn"}, "rope_freqs.weight together with rope.scaling.type yarn"),
    ],
)
def test_what_llama_cpp_and_transformers_would_compute_differently_is_refused(tmp_path, tokenizer_json, name, keys,
                                                                              says):  # fmt: skip
    path, _ = build(tmp_path, name, tokenizer_json)
    if keys:
        changed = tmp_path / "changed.gguf"
        with_keys(path, changed, ARCH[name], **keys)
        path = changed
    with pytest.raises(ModelLoadError, match=says) as caught:
        load_model(path)
    assert "\n" not in str(caught.value)


def test_a_factor_without_a_type_scales_as_llama_cpp_does(tmp_path, tokenizer_json):
    """llama.cpp reads rope.scaling.factor whatever the type (none or absent: linear): so does the reader."""
    path, _ = build(tmp_path, "llama-linear", tokenizer_json)
    with_keys(path, tmp_path / "none.gguf", "llama", rope__scaling__type="none")
    scaling = load_model(tmp_path / "none.gguf").config.rope_scaling
    assert scaling is not None and scaling.kind == "linear" and scaling.factor == 4.0
