"""Every key a family's config.json can carry, accounted for (issue 42): each is **implemented** (the family's
``config`` reads it), **inert** (known not to change the computation, and why), or **refused** (a value other
than the harmless ones is refused in one line that names the key and its value).

Each family's module holds its table (``FIELDS``, built from the shared pieces here); the reader calls
``refuse_unfollowed`` after the family's own reading (whose messages, where it refuses a value itself, say
more). A key no table names is tool metadata the traced model
does not need (``unsloth_version``, ``auto_map``, ``_attn_implementation_autoset``, …): it is ignored at run
time, and tests/core/test_field_tables.py walks transformers' own config class of every family and FAILS on a
key the table does not name, so that a key transformers reads can never be ignored silently here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer.errors import ModelLoadError

IMPLEMENTED, INERT, REFUSED = "implemented", "inert", "refused"


@dataclass(frozen=True)
class Field:
    """How one config.json key is treated. ``why``: for an inert key why it changes nothing, for a refused one
    what the traced model lacks; ``harmless``: a refused key's values that change nothing (None always is);
    ``sample``: a value it refuses (the tests set it and read the message)."""

    kind: str
    why: str = ""
    harmless: Callable[[Any], bool] | None = None
    sample: Any = None


def implemented(*keys: str, why: str = "") -> dict[str, Field]:
    return {k: Field(IMPLEMENTED, why) for k in keys}


def inert(why: str, *keys: str) -> dict[str, Field]:
    return {k: Field(INERT, why) for k in keys}


def refused(key: str, why: str, harmless: Callable[[Any], bool], sample: Any) -> dict[str, Field]:
    return {key: Field(REFUSED, why, harmless, sample)}


def off(value: Any) -> bool:
    """A switch left off: false, 0 or empty."""
    return not value


# rope_parameters and rope_scaling (explorer/families/rope_fields.py): plain RoPE and the scalings transformers
# computes (linear, dynamic, yarn, llama3, longrope), each with the fields of its kind (factor,
# original_max_position_embeddings, low/high_freq_factor, beta_fast/slow, truncate, attention_factor, mscale,
# mscale_all_dim, short/long_factor); another kind is refused there, naming it.
ROPE_BLOCKS = implemented(
    "rope_parameters",
    "rope_scaling",
    why="RoPE's base and its scaling (linear, dynamic, yarn, llama3, longrope); another kind is refused",
)
DROPOUT = "dropout: off when a trained model runs (evaluation)"
GENERATION = "the ids of special tokens: what generation stops at or pads with, not what a layer computes"

# What every transformers config carries (PretrainedConfig), plus the keys of any era that change nothing.
COMMON: dict[str, Field] = {
    **implemented("model_type", why="picks the family"),
    **implemented("_name_or_path", why="the name shown for the model"),
    **inert("the class transformers builds; model_type decides the family here", "architectures"),
    **inert("the stored dtype: the weights are read into the traced model's own dtype", "dtype", "torch_dtype"),
    **inert("the FFN in chunks along the tokens: the same numbers", "chunk_size_feed_forward"),
    **inert("labels of a classification head, which is not loaded", "id2label", "label2id", "problem_type"),
    **inert(
        "what transformers returns, not what it computes",
        "output_attentions",
        "output_hidden_states",
        "return_dict",
    ),
    **inert("the version that wrote the file", "transformers_version"),
    **inert("a speed switch: the key/value cache gives the same numbers", "use_cache"),
    **inert("how random weights are drawn; a checkpoint's are read", "initializer_range"),
    **inert(GENERATION, "bos_token_id", "eos_token_id", "pad_token_id", "sep_token_id", "decoder_start_token_id"),
    **inert("the tokenizer's class name; tokenizer.json is read", "tokenizer_class"),
    **inert("a KV-cache kind for generation: the same numbers", "cache_implementation"),
    # transformers 4's PretrainedConfig wrote these into every config.json (the project accepts transformers>=4.45)
    **inert(
        "a generation default: what generate() samples, not what a layer computes",
        *"max_length min_length do_sample early_stopping num_beams num_beam_groups diversity_penalty".split(),
        *"temperature top_k top_p typical_p repetition_penalty length_penalty no_repeat_ngram_size".split(),
        *"encoder_no_repeat_ngram_size bad_words_ids num_return_sequences output_scores".split(),
        *"return_dict_in_generate forced_bos_token_id forced_eos_token_id remove_invalid_values".split(),
        *"exponential_decay_length_penalty suppress_tokens begin_suppress_tokens".split(),
    ),
    **inert(
        "a switch of other frameworks or of fine-tuning, not of the forward pass",
        *"torchscript use_bfloat16 tf_legacy_loss finetuning_task prefix task_specific_params".split(),
    ),
    **inert(
        "read only with an encoder's states, which a decoder-only or encoder model is never given",
        "add_cross_attention",
        "cross_attention_hidden_size",
        "tie_encoder_decoder",
        "is_decoder",
    ),
    **refused("pruned_heads", "pruned attention heads: layers with fewer heads", off, sample={"0": [1]}),
    **refused("is_encoder_decoder", "an encoder-decoder model, with cross-attention", off, sample=True),
    **refused(
        "quantization_config",
        "quantized weights are not read: open the unquantised checkpoint or a GGUF file",
        off,
        sample={"quant_method": "gptq"},
    ),
}


def short(value: Any) -> str:
    """A value as the one-line message quotes it: at most 60 characters."""
    if isinstance(value, dict):  # its kind first: {'rope_type': 'llama3', …} says what is refused
        value = dict(sorted(value.items(), key=lambda kv: kv[0] not in ("rope_type", "type")))
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def refuse_unfollowed(table: dict[str, Field], data: dict, origin: str) -> None:
    """Refuse, in one line naming the key and its value, a refused key set to a value that would change the
    numbers."""
    for key, value in data.items():
        field = table.get(key, COMMON.get(key))
        if field is None or field.kind != REFUSED or value is None:
            continue
        if field.harmless is not None and field.harmless(value):
            continue
        raise ModelLoadError(f"{origin}: {key} {short(value)} is not supported ({field.why})")


def table_of(*parts: dict[str, Field]) -> dict[str, Field]:
    """A family's table: the shared parts in order, a later part's entry replacing an earlier one's."""
    out: dict[str, Field] = {}
    for part in parts:
        out.update(part)
    return out
