"""Property tests (issue 13): hostile manifests, Hugging Face configs and GGUF metadata generated from the
fields each reader declares. Whatever the values, a reader either returns something usable or raises its
own one-line error (SnapshotError / ModelLoadError) — never another exception — so that the next sibling of
each case of the issue is found here and not by a user.
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.errors import ModelLoadError, SnapshotError

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hostile  # noqa: E402

# JSON values as a careless tool or an attacker writes them: wrong types, zero, negative, huge, NaN,
# infinities, lone surrogates, nesting.
EDGES = st.sampled_from(
    [0, -1, -4, 1, 2, 3, 2**31, 10**30, 0.0, -1.0, 0.5, math.nan, math.inf, -math.inf, "abc", "", [1], True]
)
SCALARS = (
    EDGES
    | EDGES
    | st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([0, -1, 1, 2, 3, 5, 2**31, 2**63, 10**30])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0.0, -0.0, -1.0, 1e-300, 1e300, math.nan, math.inf, -math.inf])
    | st.text(max_size=12)
    | st.sampled_from(["", "abc", "\ud800", "1", "nan", "gpt2", "llama", "silu", "causal", "float32"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)

SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)


# ------------------------------------------------------------------------------------------ snapshots


@pytest.fixture(scope="module")
def good_parts(tmp_path_factory):
    return hostile.npz_parts(hostile.good_snapshot(tmp_path_factory.mktemp("good") / "good.npz"))


def _paths(manifest: dict) -> list[tuple]:
    """Every place in the manifest a value can be replaced: top-level fields, config and options fields,
    the first row's fields, the first names entry's fields, and new keys."""
    first = next(iter(manifest["names"]))
    return (
        [(k,) for k in manifest]
        + [("config", k) for k in manifest["config"]]
        + [("options", k) for k in manifest["options"]]
        + [("batch", 0, k) for k in manifest["batch"][0]]
        + [("names", first, k) for k in manifest["names"][first]]
        + [("names", "tokens"), ("options", "mask", "kind"), ("options", "mask", "size")]
        + [("new",), ("new", "deeper"), ("\ud800",)] * 4  # fields no reader checks must be printable too
    )


def _replaced(manifest: dict, path: tuple, value):
    """A copy with the value at ``path`` replaced (or added); unchanged when an earlier change removed the path."""
    manifest = json.loads(json.dumps(manifest, allow_nan=True))
    node = manifest
    for key in path[:-1]:
        if isinstance(node, dict):
            node = node.setdefault(key, {})
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            return manifest
    last = path[-1]
    if isinstance(node, dict):
        node[last] = value
    elif isinstance(node, list) and isinstance(last, int) and last < len(node):
        node[last] = value
    return manifest


def _read_or_refuse(manifest_text: str, arrays: dict) -> None:
    from explorer.export.snapshot import read_header, read_snapshot

    with tempfile.TemporaryDirectory() as folder:
        path = hostile.write_npz(Path(folder) / "h.npz", manifest_text, arrays)
        for read in (read_header, read_snapshot):
            try:
                result = read(path)
            except SnapshotError as exc:
                assert "\n" not in str(exc)
                continue
            if read is read_snapshot:  # accepted: it must be usable as a trace, and printable
                trace = result
                json.dumps(trace.manifest(), ensure_ascii=False).encode("utf-8")
                for name in trace.names():
                    assert trace[name].shape == trace.shape(name)
                assert trace.B == len(trace.rows) >= 1
            else:  # what `info` prints
                json.dumps(result[0], ensure_ascii=False, indent=2).encode("utf-8")


@SETTINGS
@given(data=st.data())
def test_hostile_manifests_are_read_or_refused_in_one_line(good_parts, data):
    manifest, arrays = good_parts
    paths = _paths(manifest)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        manifest = _replaced(manifest, path, data.draw(VALUES))
    text = json.dumps(manifest, allow_nan=True)
    _read_or_refuse(text, arrays)


def _filled(shape: tuple, dtype: str, fill) -> np.ndarray:
    with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        return np.full(shape, fill, dtype=np.float64).astype(dtype)  # NaN → int is garbage, which is the point


ARRAYS = st.builds(
    _filled,
    st.lists(st.integers(0, 6), max_size=4).map(tuple),
    st.sampled_from(["float32", "float64", "int64", "int32", "bool", "float16", "uint8"]),
    st.sampled_from([0, 1, -1, 3.5, math.nan, math.inf, -math.inf, 10**6]),
)


@SETTINGS
@given(data=st.data())
def test_hostile_tensors_are_read_or_refused_in_one_line(good_parts, data):
    manifest, arrays = good_parts
    arrays = dict(arrays)
    name = data.draw(st.sampled_from(sorted(arrays) + ["layers.9.attn.q", "params.unembed.b_u"]))
    arrays[name] = data.draw(ARRAYS)
    _read_or_refuse(json.dumps(manifest), arrays)


# ------------------------------------------------------------------------------------------ Hugging Face configs

GPT2 = {"model_type": "gpt2", "vocab_size": 50, "n_embd": 8, "n_head": 2, "n_layer": 1, "n_positions": 16}
LLAMA = {
    "model_type": "llama",
    "vocab_size": 50,
    "hidden_size": 8,
    "num_attention_heads": 2,
    "num_key_value_heads": 2,
    "num_hidden_layers": 1,
    "intermediate_size": 16,
    "max_position_embeddings": 32,
}
HF_KEYS = sorted(
    {
        *GPT2,
        *LLAMA,
        "n_inner",
        "activation_function",
        "layer_norm_epsilon",
        "tie_word_embeddings",
        "scale_attn_weights",
        "head_dim",
        "rms_norm_eps",
        "rope_theta",
        "rope_scaling",
        "rope_parameters",
        "partial_rotary_factor",
        "hidden_act",
        "sliding_window",
        "use_sliding_window",
        "attention_bias",
        "mlp_bias",
        "n_ctx",
    }
)


def _usable(cfg) -> None:
    """What the traced model needs of a config it accepted (the issue's NaN and ZeroDivision cases)."""
    assert cfg.E >= 1 and cfg.H >= 1 and cfg.D >= 1 and cfg.L >= 1 and cfg.V >= 1 and cfg.H % cfg.H_kv == 0
    assert math.isfinite(cfg.norm_eps) and cfg.norm_eps > 0
    assert math.isfinite(cfg.rope_theta) and cfg.rope_theta > 0


@SETTINGS
@given(
    base=st.sampled_from([GPT2, LLAMA]),
    changes=st.dictionaries(st.sampled_from(HF_KEYS), VALUES, min_size=1, max_size=4),
)
def test_hostile_hf_configs_are_read_or_refused_in_one_line(base, changes):
    from explorer.weights.hf import config_from_hf, llama_biases

    data = {**base, **changes}
    try:
        cfg = config_from_hf(data, "config.json")
        if cfg.family != "gpt2":
            llama_biases(data)
    except ModelLoadError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("config.json")
        return
    _usable(cfg)


# ------------------------------------------------------------------------------------------ GGUF metadata

GGUF = {
    "general.architecture": "llama",
    "llama.embedding_length": 8,
    "llama.attention.head_count": 2,
    "llama.block_count": 1,
    "llama.feed_forward_length": 16,
}
GGUF_KEYS = sorted(
    {
        *GGUF,
        "llama.attention.head_count_kv",
        "llama.attention.key_length",
        "llama.attention.value_length",
        "llama.rope.dimension_count",
        "llama.rope.scaling.type",
        "llama.context_length",
        "llama.attention.layer_norm_rms_epsilon",
        "llama.rope.freq_base",
        "tokenizer.ggml.model",
        "tokenizer.ggml.tokens",
        "tokenizer.ggml.merges",
        "tokenizer.ggml.token_type",
        "tokenizer.ggml.scores",
        "tokenizer.ggml.pre",
        "tokenizer.ggml.unknown_token_id",
    }
)


class _Tensor:
    def __init__(self, *shape: int) -> None:
        self.shape = shape


# GGUF metadata holds scalars, strings and flat arrays (no objects): numpy scalars as the reader gives them too.
GGUF_VALUES = (
    SCALARS
    | st.sampled_from([np.float32(math.nan), np.float32(-2.0), np.uint32(0), np.int32(-4), np.float64(math.inf)])
    | st.lists(SCALARS, max_size=4)
)


@SETTINGS
@given(changes=st.dictionaries(st.sampled_from(GGUF_KEYS), GGUF_VALUES, min_size=1, max_size=4))
def test_hostile_gguf_metadata_is_read_or_refused_in_one_line(changes):
    from explorer.weights.gguf import check_tokenizer_metadata, config_from_gguf

    meta = {**GGUF, **changes}
    tensors = {"token_embd.weight": _Tensor(8, 50), "output.weight": _Tensor(8, 50)}
    try:
        cfg = config_from_gguf(meta, tensors, "m.gguf")
        check_tokenizer_metadata(meta, "m.gguf")
    except ModelLoadError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("m.gguf")
        return
    _usable(cfg)
