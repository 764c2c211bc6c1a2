"""Issue 42, "every field accounted for": each family's table (explorer/families/field_table.py) names every key
that transformers' own config class of the family carries, and every refused key refuses in one line that
names it and its value. A key transformers adds in a new version makes THIS test fail, never a user's numbers
silently wrong."""

from __future__ import annotations

import inspect
import re

import pytest

from explorer.errors import ModelLoadError
from explorer.families import FAMILIES
from explorer.families.field_table import COMMON, IMPLEMENTED, INERT, REFUSED, refuse_unfollowed
from explorer.weights.hf.config import config_from_hf

transformers = pytest.importorskip("transformers")

CLASSES = {  # model_type → transformers' config class
    "gpt2": "GPT2Config",
    "llama": "LlamaConfig",
    "mistral": "MistralConfig",
    "qwen2": "Qwen2Config",
    "qwen3": "Qwen3Config",
    "gpt_neox": "GPTNeoXConfig",
    "gemma": "GemmaConfig",
    "gemma2": "Gemma2Config",
    "gemma3_text": "Gemma3TextConfig",
    "phi3": "Phi3Config",
    "olmo2": "Olmo2Config",
    "mixtral": "MixtralConfig",
    "qwen2_moe": "Qwen2MoeConfig",
    "olmoe": "OlmoeConfig",
    "bert": "BertConfig",
    "roberta": "RobertaConfig",
    "distilbert": "DistilBertConfig",
}
IDS = [f.name for f in FAMILIES]


def transformers_keys(cls) -> set[str]:
    """Every key the class writes into config.json and every argument its constructor takes by name."""
    params = inspect.signature(cls.__init__).parameters.values()
    named = {p.name for p in params if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and p.name != "self"}
    return set(cls().to_dict()) | named


def test_every_family_has_its_transformers_class_here():
    assert set(CLASSES) == {f.hf_type for f in FAMILIES}


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_the_table_names_every_key_of_transformers_config_class(family):
    cls = getattr(transformers, CLASSES[family.hf_type])
    named = set(family.fields) | set(COMMON)
    missing = sorted(transformers_keys(cls) - named)
    assert not missing, f"{family.name}: keys of {cls.__name__} its table does not name: {missing}"


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_each_entry_says_what_it_is_and_why(family):
    for key, field in {**COMMON, **family.fields}.items():
        assert field.kind in (IMPLEMENTED, INERT, REFUSED), key
        if field.kind != IMPLEMENTED:
            assert field.why, f"{family.name}: {key} is {field.kind} without a reason"


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_each_refused_key_refuses_in_one_line_naming_it_and_its_value(family):
    refused = {k: f for k, f in {**COMMON, **family.fields}.items() if f.kind == REFUSED}
    assert "quantization_config" in refused and "is_encoder_decoder" in refused
    for key, field in refused.items():
        data = {**family.example, key: field.sample}
        with pytest.raises(ModelLoadError) as caught:  # the table's own line
            refuse_unfollowed(family.fields, data, "config.json")
        message = str(caught.value)
        assert "\n" not in message and re.search(rf"{re.escape(key)} .*{re.escape(repr(field.sample)[:20])}", message)
        with pytest.raises(ModelLoadError) as caught:  # the whole reading: the family's line where it says more
            config_from_hf(data)
        assert "\n" not in str(caught.value) and str(caught.value).startswith("config.json: ")
        config_from_hf({**family.example, key: None})  # left out (null) is never refused


def test_a_harmless_value_of_a_refused_key_is_accepted():
    gemma = next(f for f in FAMILIES if f.hf_type == "gemma")
    refuse_unfollowed(gemma.fields, {"use_bidirectional_attention": False, "is_encoder_decoder": False}, "c")
    with pytest.raises(ModelLoadError, match="use_bidirectional_attention True is not supported"):
        refuse_unfollowed(gemma.fields, {"use_bidirectional_attention": True}, "c")


def test_the_walk_fails_on_a_key_no_table_names():
    """The check itself: a config class with one more key than the table is caught."""

    class Newer(transformers.LlamaConfig):
        def __init__(self, new_switch: bool = False, **kwargs):
            super().__init__(**kwargs)
            self.new_switch = new_switch

    llama = next(f for f in FAMILIES if f.hf_type == "llama")
    assert "new_switch" in transformers_keys(Newer) - set(llama.fields) - set(COMMON)


def test_scaled_rope_blocks_open_and_an_unknown_kind_is_refused_naming_it():
    """Issue 42's rotary scaling: the table implements rope_scaling / rope_parameters (a llama3 block, once
    refused by the table, now opens with its factor read); a kind the traced model does not compute is refused
    by the family's reading, naming it, and so is a scaled block of Gemma 3's sliding layers."""
    llama = next(f for f in FAMILIES if f.hf_type == "llama")
    assert {llama.fields[k].kind for k in ("rope_scaling", "rope_parameters")} == {IMPLEMENTED}
    llama3 = {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0, "rope_type": "llama3"}
    refuse_unfollowed(llama.fields, {"rope_scaling": llama3}, "c")
    cfg = config_from_hf({**llama.example, "rope_scaling": llama3})
    assert cfg.rope_scaling.kind == "llama3" and cfg.rope_scaling.factor == 32.0
    with pytest.raises(ModelLoadError, match="rotary scaling 'proportional' is not supported"):
        config_from_hf({**llama.example, "rope_scaling": {"rope_type": "proportional", "factor": 2.0}})
    gemma3 = next(f for f in FAMILIES if f.hf_type == "gemma3_text")
    blocks = {"full_attention": {"rope_type": "default"}, "sliding_attention": {"rope_type": "yarn", "factor": 2.0}}
    with pytest.raises(ModelLoadError, match="of the sliding layers is not supported"):
        config_from_hf({**gemma3.example, "rope_parameters": blocks})


def test_roberta_refuses_a_padding_id_of_its_default_start_token():
    """RobertaConfig's <s> is 0 where config.json leaves bos_token_id out: a padding id of 0 is refused then too."""
    roberta = next(f for f in FAMILIES if f.hf_type == "roberta")
    with pytest.raises(ModelLoadError, match="pad_token_id 0 equals bos_token_id"):
        config_from_hf({**roberta.example, "pad_token_id": 0})
    config_from_hf({**roberta.example, "pad_token_id": -1})  # no token's id: positions from row 0


# ---------------------------------------------------------------------------- GGUF metadata

GGUF_FAMILIES = [f for f in FAMILIES if f.gguf_arch]


@pytest.mark.parametrize("family", GGUF_FAMILIES, ids=[f.name for f in GGUF_FAMILIES])
def test_every_gguf_key_of_its_architecture_is_read_inert_or_refused_by_name(family):
    """The gguf package's own list of "{arch}." keys (llama.cpp's): each one the family does not read nor
    know to be inert, set to 1, is refused in one line that names it; the ones it reads are spelled as llama.cpp
    spells them."""
    gguf = pytest.importorskip("gguf")
    from explorer.families.gguf_fields import GGUF_INERT, GGUF_READ, refuse_unread

    arch = family.gguf_arch
    groups = [gguf.Keys.LLM, gguf.Keys.Attention, gguf.Keys.Rope, gguf.Keys.SSM]
    named = [v for g in groups for v in vars(g).values() if isinstance(v, str) and v.startswith("{arch}.")]
    keys = {v.format(arch=arch) for v in named if "{" not in v[1:]}
    known = {f"{arch}.{k}" for k in (*GGUF_READ, *family.gguf_keys)}
    assert known <= keys, f"misspelt: {sorted(known - keys)}"
    inert = {f"{arch}.{k}" for k in GGUF_INERT}
    for key in sorted(keys - known - inert):
        with pytest.raises(ModelLoadError, match=re.escape(f"metadata {key} = 1 is not supported")):
            refuse_unread({key: 1}, {}, arch, family.gguf_keys, "m.gguf")
        refuse_unread({key: 0}, {}, arch, family.gguf_keys, "m.gguf")  # 0: nothing set
    with pytest.raises(ModelLoadError, match="attention.causal"):
        refuse_unread({f"{arch}.attention.causal": False}, {}, arch, family.gguf_keys, "m.gguf")
    with pytest.raises(ModelLoadError, match="rope_factors_long.weight"):
        refuse_unread({}, {"rope_factors_long.weight": None}, arch, family.gguf_keys, "m.gguf")
