"""Issue 44, item 1: one schema per model format, checked before use. Hypothesis draws hostile values for every
field of each schema (config.json's table, a GGUF header's declared numbers and each architecture's metadata,
tokenizer.json's ids, templates, normalizers and truncation, a safetensors header's entries) and the file is
either read into a usable model or refused in one ModelLoadError line; where the value is wrong for its kind
the line names the field. Anything else (AttributeError, IndexError, NotImplementedError, a hang, gigabytes)
fails the test.
"""

from __future__ import annotations

import json
import math
import re
import struct
import sys
import tempfile
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.errors import ExplorerError, ModelLoadError

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hostile  # noqa: E402
import hostile_formats as hf  # noqa: E402

gguf = pytest.importorskip("gguf")

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
GiB = 1024**3


@pytest.fixture(autouse=True)
def no_cache(monkeypatch):
    monkeypatch.setenv("ATTENTION_EXPLORER_NO_CACHE", "1")


def one_line(exc: ExplorerError, origin: str) -> str:
    text = str(exc)
    assert isinstance(exc, ModelLoadError), repr(exc)
    assert "\n" not in text and text.startswith(origin), text
    return text


# ---------------------------------------------------------------------------------------------- config.json

# Values that no field of a kind may hold: each must be refused, naming the field.
NOT_A_SIZE = st.sampled_from([0, -1, 1.5, "8", None, [], {}, True, math.nan, math.inf, 2**80, "\ud800"])
NOT_A_FRACTION = st.sampled_from([0, -0.5, 1.5, "0.5", [], {}, True, math.nan, -math.inf, 1e400])
NOT_A_FLAG = st.sampled_from([0, 1, "true", "", [], {}, 2.0, "yes"])
NOT_A_NAME = st.sampled_from([0, 1.5, [], {}, True, "x" * 201, "\ud800"])
NOT_AN_OBJECT = st.sampled_from([0, 5, "default", [], [1], True, 1.5])


def _kind(key: str) -> str:
    from explorer.families import hf_schema as s

    check = s.FIELDS[key]
    return {
        s._size: "size",
        s._count: "count",
        s._token_id: "token_id",
        s._positive: "positive",
        s._fraction: "fraction",
        s._name: "name",
        s._layer_list: "layers",
    }.get(check, "flag" if check is s.flag else "rope")


def _wrong_for(key: str):
    kind = _kind(key)
    return {
        "size": NOT_A_SIZE.filter(lambda v: v is not None),
        "count": st.sampled_from([-1, 1.5, "8", [], {}, True, math.nan, 2**80]),
        "token_id": st.sampled_from([-2, 1.5, "8", [], {}, True, math.nan, 2**80]),
        "positive": st.sampled_from([0, -1, "1e4", [], {}, True, math.nan, math.inf, -math.inf]),
        "fraction": NOT_A_FRACTION,
        "name": NOT_A_NAME,
        "flag": NOT_A_FLAG,
        "layers": st.sampled_from([5, "1", {}, True, [-1], [1.5], ["0"], [None], [2**80]]),
        "rope": NOT_AN_OBJECT
        | st.builds(
            lambda k, v: {k: v},
            st.sampled_from(["rope_type", "type", "rope_theta", "partial_rotary_factor", "factor"]),
            st.sampled_from([None, [], {}, math.nan, -1.0, True, 0]),
        ),
    }[kind]


def _examples():
    from explorer.families import FAMILIES

    return {f.hf_type: f.example for f in FAMILIES}


def _schema_keys():
    from explorer.families.hf_schema import FIELDS

    return sorted(k for k in FIELDS if k != "model_type")


PER_FIELD = settings(SETTINGS, max_examples=25)


@pytest.mark.parametrize("key", _schema_keys())
@PER_FIELD
@given(data=st.data())
def test_a_value_wrong_for_its_field_is_refused_naming_the_field(key, data):
    from explorer.weights.hf import config_from_hf

    family = data.draw(st.sampled_from(sorted(_examples())))
    value = data.draw(_wrong_for(key))
    with pytest.raises(ModelLoadError) as info:
        config_from_hf({**_examples()[family], key: value}, "config.json")
    assert key in one_line(info.value, "config.json")


def _layers(example: dict) -> int:
    return next(example[k] for k in ("num_hidden_layers", "n_layer", "n_layers") if k in example)


LAYER_TYPES = st.one_of(
    st.sampled_from(["sliding_attention", "", 5, True, {}, 1.5]),
    st.lists(
        st.sampled_from(["sliding_attention", "full_attention", "chunked_attention", "linear_attention", None, 5, ""]),
        max_size=6,
    ),
)


@SETTINGS
@given(family=st.sampled_from(sorted(_examples())), types=LAYER_TYPES)
def test_layer_types_are_one_known_kind_per_layer(family, types):
    from explorer.weights.hf import config_from_hf

    example = _examples()[family]
    known = isinstance(types, list) and all(t in ("sliding_attention", "full_attention") for t in types)
    fits = known and len(types) == _layers(example)
    try:
        cfg = config_from_hf({**example, "layer_types": types}, "config.json")
    except ModelLoadError as exc:
        assert "layer_types" in one_line(exc, "config.json") or fits, str(exc)
        return
    assert fits, f"accepted layer_types {types!r} for {_layers(example)} layers"
    assert all(l < cfg.L for l in cfg.sliding_layers)


ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.integers(-2, 9) | st.text(max_size=5) | st.none(), max_size=4),
    st.dictionaries(st.sampled_from(["rope_type", "rope_theta", "full_attention", "x"]), st.none() | st.integers()),
)


@SETTINGS
@given(
    family=st.sampled_from(sorted(_examples())),
    changes=st.dictionaries(st.sampled_from([*_schema_keys(), "layer_types", "model_type"]), ANY_VALUE, max_size=4),
)
def test_any_values_give_a_usable_config_or_one_line(family, changes):
    from explorer.weights.hf import config_from_hf

    try:
        cfg = config_from_hf({**_examples()[family], **changes}, "config.json")
    except ModelLoadError as exc:
        one_line(exc, "config.json")
        return
    assert min(cfg.E, cfg.H, cfg.D, cfg.L, cfg.V, cfg.F) >= 1 and cfg.H % cfg.H_kv == 0
    assert math.isfinite(cfg.norm_eps) and 0 < cfg.norm_eps <= 1
    assert math.isfinite(cfg.rope_theta) and cfg.rope_theta > 0


# ---------------------------------------------------------------------------------------------- GGUF header


@pytest.fixture(scope="module")
def good_gguf(tmp_path_factory) -> Path:
    return hf.gguf_file(tmp_path_factory.mktemp("gguf") / "good.gguf")


def _load(path: Path):
    from explorer.weights.loaders import load_model

    return load_model(path)


HOSTILE_NUMBERS = st.one_of(
    st.sampled_from([0, 1, 2, 3, 7, 13, 255, 2**31, 2**32 - 1, 50_000_000, 2**40, 2**63, 2**64 - 1]),
    st.integers(0, 2**64 - 1),
)


@pytest.mark.parametrize("arch", ["llama"])
def test_the_header_walk_finds_every_declared_number(good_gguf, arch):
    names = [n for n, _, _ in hf.header_fields(good_gguf)]
    assert "tokenizer.ggml.tokens length" in names and "token_embd.weight shape[1]" in names
    assert sum(n.endswith(" offset") for n in names) == struct.unpack_from("<Q", good_gguf.read_bytes(), 8)[0]
    assert {_field_class(n) for n in names} == set(HEADER_CLASSES)


def _field_class(name: str) -> str:
    """What a header number is, whichever key or tensor it belongs to ("length", "shape[1]", …)."""
    if name in ("tensor count", "metadata count"):
        return name
    for end in ("item type", "type", "length", "dimensions", "offset"):
        if name.endswith(" " + end):
            return end
    return name.rsplit(" ", 1)[1]  # shape[d]


HEADER_CLASSES = [
    "tensor count",
    "metadata count",
    "length",
    "type",
    "item type",
    "dimensions",
    "shape[0]",
    "shape[1]",
    "offset",
]


@pytest.mark.parametrize("kind", HEADER_CLASSES)
@PER_FIELD
@given(data=st.data())
def test_any_declared_number_of_a_gguf_header_loads_or_is_one_line(good_gguf, kind, data):
    fields = [f for f in hf.header_fields(good_gguf) if _field_class(f[0]) == kind]
    name, offset, fmt = data.draw(st.sampled_from(fields))
    value = data.draw(HOSTILE_NUMBERS) % (1 << (8 * struct.calcsize(fmt)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "h.gguf"
        path.write_bytes(good_gguf.read_bytes())
        hf.patch(path, offset, fmt, value)
        # The peak of what this load allocates (numpy's arrays included), not the worker's RSS peak: in the whole
        # suite an xdist worker has already held GBs for earlier tests, and ru_maxrss never goes down.
        tracemalloc.start()
        try:
            _load(path)
        except ExplorerError as exc:
            one_line(exc, "h.gguf")
        finally:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    assert peak < 1 * GiB


ARCH_KEYS = [  # every metadata key the readers take, after "<arch>."; then the architecture-free ones
    "block_count",
    "context_length",
    "embedding_length",
    "feed_forward_length",
    "attention.head_count",
    "attention.head_count_kv",
    "attention.key_length",
    "attention.value_length",
    "attention.layer_norm_rms_epsilon",
    "rope.freq_base",
    "rope.freq_base_swa",
    "rope.dimension_count",
    "rope.scaling.type",
    "rope.scaling.factor",
    "rope.scaling.original_context_length",
    "rope.scaling.yarn_beta_fast",
    "rope.scaling.yarn_beta_slow",
    "expert_count",
    "expert_used_count",
    "expert_weights_norm",
    "expert_feed_forward_length",
    "expert_shared_feed_forward_length",
    "attention.sliding_window",
    "attention.sliding_window_pattern",
    "attn_logit_softcapping",
    "final_logit_softcapping",
]
PLAIN_KEYS = [
    "tokenizer.ggml.pre",
    "tokenizer.ggml.unknown_token_id",
    "tokenizer.ggml.add_space_prefix",
    "general.name",
    "general.alignment",
]


def _key(arch: str, key: str) -> str:
    return key if key in PLAIN_KEYS else f"{arch}.{key}"


GGUF_VALUES = st.one_of(
    st.sampled_from([0, 1, 2, 3, 5, 8, 2**31 - 1, -1, -7, 0.0, -2.5, math.nan, math.inf, 1e-30, True, False]),
    st.text(max_size=8),
    st.lists(st.booleans(), max_size=4),
    st.lists(st.integers(0, 9), min_size=1, max_size=4),
)


@pytest.mark.parametrize("key", ARCH_KEYS + PLAIN_KEYS)
@PER_FIELD
@given(data=st.data())
def test_every_architectures_metadata_loads_or_is_one_line(key, data):
    from explorer.families import GGUF_ARCHITECTURES

    arch = data.draw(st.sampled_from(GGUF_ARCHITECTURES))
    others = st.sampled_from([_key(arch, k) for k in ARCH_KEYS + PLAIN_KEYS])
    changes = {_key(arch, key): data.draw(GGUF_VALUES), **data.draw(st.dictionaries(others, GGUF_VALUES, max_size=2))}
    with tempfile.TemporaryDirectory() as tmp:
        path = hf.gguf_file(Path(tmp) / "m.gguf", arch, meta=changes)
        try:
            bundle = _load(path)
        except ExplorerError as exc:
            one_line(exc, "m.gguf")
            return
    cfg = bundle.config
    assert min(cfg.E, cfg.H, cfg.D, cfg.L, cfg.V, cfg.F) >= 1 and all(l < cfg.L for l in cfg.sliding_layers)


@pytest.mark.parametrize("value", ["\n", "32\nx", 3, -8])
def test_an_alignment_that_is_no_power_of_two_is_one_quoted_line(tmp_path, value):
    """Hypothesis found a string with a line break quoted raw: the message ran onto a second line."""
    path = hf.gguf_file(tmp_path / "m.gguf", "llama", meta={"general.alignment": value})
    with pytest.raises(ModelLoadError) as info:
        _load(path)
    text = one_line(info.value, "m.gguf")
    assert text.endswith(f"general.alignment must be a power of two, got {value!r}"), text  # repr: quoted, escaped


@pytest.mark.parametrize("arch", ["llama", "qwen2", "qwen3", "gemma", "gemma2", "gemma3", "phi3"])
@pytest.mark.parametrize("shape", [(2056,), (8, 257, 1), (257 * 8, 1, 1, 1)])
def test_a_token_embedding_that_is_not_a_matrix_is_refused(tmp_path, arch, shape):
    weights = {"token_embd.weight": np.zeros(shape, np.float32)}
    path = hf.gguf_file(tmp_path / "e.gguf", arch, tensors=weights)
    with pytest.raises(ModelLoadError) as info:
        _load(path)
    assert "token_embd.weight" in one_line(info.value, "e.gguf")


def test_a_long_sentencepiece_token_is_refused_by_its_length(tmp_path):
    path = hf.gguf_file(tmp_path / "t.gguf", kind="llama", tokens=[*hf.byte_tokens(), "x" * 100_000])
    with pytest.raises(ModelLoadError) as info:
        _load(path)
    assert "tokenizer.ggml.tokens[257]" in one_line(info.value, "t.gguf")


def test_a_sentencepiece_vocabulary_of_real_lengths_loads(tmp_path):
    tokens = [*hf.byte_tokens(), "\u2581" * 30, "=" * 2000]
    bundle = _load(hf.gguf_file(tmp_path / "t.gguf", kind="llama", tokens=tokens))
    assert bundle.tokenizer.vocab_size == len(tokens)


# ---------------------------------------------------------------------------------------------- tokenizer.json

WORDS = ["<unk>", "This", "is", "a", "pen", ".", "dog", "?"]
HOSTILE_IDS = st.sampled_from([-1, 8, 9, 2**31, 2**40, 1.5, "3", None, True, math.nan])


def _template(sep_id, type_id) -> dict:
    return {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": type_id}}],
        "special_tokens": {"[SEP]": {"id": "[SEP]", "ids": [sep_id], "tokens": ["[SEP]"]}},
    }


def _added(i) -> dict:
    flags = dict.fromkeys(("single_word", "lstrip", "rstrip", "normalized"), False)
    return {"id": i, "content": "[X]", **flags, "special": True}


def _replace(content, literal=True) -> dict:
    return {"type": "Replace", "pattern": {"String" if literal else "Regex": "a"}, "content": content}


NORMALIZERS = st.one_of(
    st.builds(_replace, st.text(max_size=3) | st.sampled_from(["b" * 65, "b" * 1000, 5, None]), st.booleans()),
    st.builds(
        lambda parts: {"type": "Sequence", "normalizers": parts},
        st.lists(st.builds(_replace, st.sampled_from(["bb", "b", "bbbb"])) | st.just({"type": "NFKC"}), max_size=8),
    ),
    st.sampled_from([{"type": "NFKC"}, {"type": "Lowercase"}, {"type": "Explode"}, 5, []]),
    st.builds(lambda kind: {"type": kind}, st.sampled_from([None, [], {}, 5, ["NFKC"]])),
    st.builds(lambda p: {"type": "Prepend", "prepend": p}, st.sampled_from(["\u2581", "x" * 100, 3])),
)


TOKENIZER_FIELDS = ["vocab", "added", "template", "normalizer", "truncation", "padding"]


@st.composite
def tokenizer_edits(draw, field: str):
    """(name, edit of the parsed tokenizer.json) for one of TOKENIZER_FIELDS."""
    if field == "vocab":
        i = draw(HOSTILE_IDS)
        return field, lambda d: d["model"]["vocab"].update({"pen": i})
    if field == "added":
        i = draw(HOSTILE_IDS)
        return field, lambda d: d.update(added_tokens=[_added(i)])
    if field == "template":
        sep, kind = draw(HOSTILE_IDS), draw(HOSTILE_IDS)
        return field, lambda d: d.update(post_processor=_template(sep, kind))
    if field == "normalizer":
        n = draw(NORMALIZERS)
        return field, lambda d: d.update(normalizer=n)
    if field == "truncation":
        length, stride = draw(HOSTILE_IDS), draw(HOSTILE_IDS)
        cut = {"direction": "Right", "max_length": length, "strategy": "LongestFirst", "stride": stride}
        return field, lambda d: d.update(truncation=cut)
    length = draw(st.sampled_from([2_000_000_000, 2**40, 64, 0]))
    pad = {"strategy": {"Fixed": length}, "direction": "Right", "pad_to_multiple_of": None, "pad_id": 0}
    pad |= {"pad_type_id": 0, "pad_token": "<unk>"}
    return field, lambda d: d.update(padding=pad)


@pytest.mark.parametrize("field", TOKENIZER_FIELDS)
@PER_FIELD
@given(data=st.data())
def test_a_hostile_tokenizer_json_loads_bounded_or_is_one_line(field, data):
    from explorer.tokenize.json_schema import MAX_GROWTH

    _, change = data.draw(tokenizer_edits(field))
    data = json.loads(hf.word_tokenizer(WORDS))
    change(data)
    with tempfile.TemporaryDirectory() as tmp:
        folder = hostile.tiny_llama(Path(tmp) / "m", tokenizer_json=json.dumps(data))
        try:
            bundle = _load(folder)
        except ExplorerError as exc:
            one_line(exc, "")
            return
    # Loaded: every id it can give has an embedding, and a long text stays within the normalizer's bound.
    ids = [i for i in bundle.tokenizer.hf.get_vocab(with_added_tokens=True).values()]
    assert max(ids) < bundle.config.V
    text = "This is a pen . " * 500
    encoded = bundle.tokenizer.encode(text)
    assert len(encoded) < 2 * len(text.split()) + 2  # no padding added to the text
    if field in ("truncation", "padding"):  # neither is used: the text is traced whole, as it is
        assert len(encoded) == len(text.split())
    normalizer = bundle.tokenizer.hf.normalizer
    sample = "a aa İ \ufdfa 한 😀 This"  # characters each normalizer kind grows most
    if normalizer is not None:  # the growth it was allowed is what it does at most, measured in bytes
        grown = len(normalizer.normalize_str(sample).encode()) - 1000  # a Prepend's text, added once
        assert grown <= MAX_GROWTH * len(sample.encode())


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda d: d["model"]["vocab"].update({"pen": 8}), "model.vocab"),
        (lambda d: d["model"]["vocab"].update({"pen": 2**40}), "model.vocab"),
        (lambda d: d.update(added_tokens=[_added(9)]), "added_tokens[0]"),
        (lambda d: d.update(post_processor=_template(8, 0)), "special_tokens['[SEP]']"),
        (lambda d: d.update(post_processor={"type": "BertProcessing", "sep": ["[SEP]", 50], "cls": ["x", 0]}), "sep"),
        (lambda d: d.update(normalizer=_replace("b" * 1000)), "normalizer"),
        (lambda d: d.update(normalizer={"type": "Sequence", "normalizers": [_replace("bb")] * 7}), "normalizer"),
    ],
)
def test_an_id_past_the_vocabulary_or_a_multiplying_normalizer_is_refused_naming_it(tmp_path, change, field):
    data = json.loads(hf.word_tokenizer(WORDS))
    change(data)
    folder = hostile.tiny_llama(tmp_path / "m", tokenizer_json=json.dumps(data))
    with pytest.raises(ModelLoadError) as info:
        _load(folder)
    assert field in one_line(info.value, "m/tokenizer.json")


def test_a_template_type_past_the_segment_table_is_refused(tmp_path):
    from explorer.weights.hf import load_hf_tokenizer
    from explorer.weights.hf.config import config_from_hf

    cfg = config_from_hf({**_examples()["bert"], "vocab_size": 8, "type_vocab_size": 2}, "config.json")
    data = json.loads(hf.word_tokenizer(WORDS))
    data["post_processor"] = _template(1, 2)
    (tmp_path / "tokenizer.json").write_text(json.dumps(data))
    tokenizer = load_hf_tokenizer(tmp_path, specials=True)
    with pytest.raises(ModelLoadError) as info:
        tokenizer.check_fits(cfg.V, cfg.segments, "b/tokenizer.json")
    assert "type_vocab_size" in one_line(info.value, "b/tokenizer.json")
    tokenizer.check_fits(cfg.V, 3, "b/tokenizer.json")  # a table of three takes it


# ---------------------------------------------------------------------------------------------- safetensors


def _header(path: Path) -> tuple[dict, bytes]:
    raw = path.read_bytes()
    (n,) = struct.unpack_from("<Q", raw)
    return json.loads(raw[8 : 8 + n]), raw[8 + n :]


ENTRY_VALUES = {
    "dtype": st.sampled_from(["F7", "", "f32", "F64", "I64", "BOOL", "C64", "F8_E8M0", "F4", 5, None, []]),
    "shape": st.sampled_from([[], [-1], [2**40, 2**40], [8], [8, 8, 8], "8", [1.5, 8], [0, 8], None, [True]]),
    "data_offsets": st.sampled_from([[0], [10, 0], [0, 2**62], [-1, 10], "0", None, [0, 0], [0, 1, 2]]),
}


@pytest.mark.parametrize("field", sorted(ENTRY_VALUES))
@PER_FIELD
@given(data=st.data())
def test_any_safetensors_header_entry_loads_or_is_one_line(tmp_path_factory, field, data):
    good = hostile.tiny_llama(tmp_path_factory.mktemp("st") / "m")
    header, blob = _header(good / "model.safetensors")
    name = data.draw(st.sampled_from(sorted(k for k in header if k != "__metadata__")))
    value = data.draw(ENTRY_VALUES[field])
    header[name] = {**header[name], field: value}
    hf.safetensors_file(good / "model.safetensors", header, blob)
    try:
        _load(good)
    except ExplorerError as exc:
        message = one_line(exc, "")
        assert "model.safetensors" in message or "tensor" in message, message


def test_a_safetensors_header_longer_than_the_file_is_refused(tmp_path):
    folder = hostile.tiny_llama(tmp_path / "m")
    raw = (folder / "model.safetensors").read_bytes()
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", 2**40) + raw[8:])
    with pytest.raises(ModelLoadError) as info:
        _load(folder)
    assert "the header declares" in one_line(info.value, "model.safetensors")


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2"])
def test_float8_weights_are_read_as_float32(tmp_path, dtype):
    import torch
    from safetensors.torch import load_file, save_file

    folder = hostile.tiny_llama(tmp_path / "m")
    exact = load_file(str(folder / "model.safetensors"))
    save_file({k: v.to(getattr(torch, dtype)) for k, v in exact.items()}, str(folder / "model.safetensors"))
    bundle = _load(folder)
    embed = dict(bundle.model.named_parameters())["embed.tok"]
    expected = exact["model.embed_tokens.weight"].to(getattr(torch, dtype)).float()
    assert embed.dtype == torch.float32 and torch.equal(embed, expected)


# ---------------------------------------------------------------------------------------------- the header reader


@pytest.mark.parametrize("arch", ["llama", "qwen2", "qwen3", "gemma", "gemma2", "gemma3", "phi3"])
@pytest.mark.parametrize("kind", ["gpt2", "llama"])
def test_the_header_reader_agrees_with_the_gguf_package(tmp_path, arch, kind):
    """The metadata and tensors read against the schema are the ones the gguf package's reader gives."""
    from explorer.weights.gguf.header import read_header

    meta_values = {f"{arch}.attention.sliding_window_pattern": [True, False], "x.scores": [0.5, -1.0, 2.0]}
    path = hf.gguf_file(tmp_path / "m.gguf", arch, meta=meta_values, kind=kind)
    meta, tensors = read_header(path, "m.gguf")
    reader = gguf.GGUFReader(str(path))
    expected = {k: f.contents() for k, f in reader.fields.items() if not k.startswith("GGUF.")}
    assert meta == expected
    assert sorted(tensors) == sorted(t.name for t in reader.tensors)
    for t in reader.tensors:
        mine = tensors[t.name]
        assert mine.tensor_type == t.tensor_type and mine.shape == tuple(int(n) for n in t.shape)
        assert mine.data.dtype == t.data.dtype and np.array_equal(mine.data, t.data)


def test_an_array_longer_than_any_vocabulary_is_refused_though_the_file_holds_it(tmp_path):
    path = hf.gguf_file(tmp_path / "m.gguf", meta={"x.counts": [1] * 1_000_001})
    with pytest.raises(ModelLoadError) as info:
        _load(path)
    assert "x.counts declares 1,000,001 entries" in one_line(info.value, "m.gguf")


def test_a_metadata_key_written_twice_is_refused(tmp_path):
    path = hf.gguf_file(tmp_path / "m.gguf", meta={"a.first": 1, "a.other": 2})
    raw = path.read_bytes().replace(b"a.other", b"a.first")
    path.write_bytes(raw)
    with pytest.raises(ModelLoadError) as info:
        _load(path)
    assert "metadata a.first appears twice" in one_line(info.value, "m.gguf")


@pytest.mark.parametrize(
    "make",
    [
        lambda n: n.BertNormalizer(clean_text=True, handle_chinese_chars=True, lowercase=True),
        lambda n: n.Sequence([n.Prepend("\u2581"), n.Replace(" ", "\u2581")]),  # Llama 2, Mistral
        lambda n: n.Sequence([n.NFD(), n.Lowercase(), n.StripAccents()]),
        lambda n: n.Sequence([n.NFKC(), n.Replace(tokenizers_regex(" {2,}"), " ")]),  # T5-like
        lambda n: n.Sequence([n.NFKC(), n.BertNormalizer(lowercase=False)]),
    ],
    ids=["bert", "llama2", "nfd-lower-strip", "nfkc-spaces", "nfkc-bert"],
)
def test_the_normalizers_of_real_tokenizers_are_accepted(make):
    import tokenizers
    from tokenizers import models, normalizers

    from explorer.tokenize import Tokenizer

    hf_tok = tokenizers.Tokenizer(models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="<unk>"))
    hf_tok.normalizer = make(normalizers)
    tokenizer = Tokenizer.from_str(hf_tok.to_str())
    assert tokenizer.encode("This is a pen .").ids


def tokenizers_regex(pattern: str):
    from tokenizers import Regex

    return Regex(pattern)


@pytest.mark.parametrize(
    "block, field",
    [
        ({"rope_type": "longrope", "factor": 2.0, "short_factor": "1,1", "long_factor": [1.0]}, "short_factor"),
        ({"rope_type": "longrope", "factor": 2.0, "short_factor": [1.0], "long_factor": [1.0, "x"]}, "long_factor[1]"),
        ({"rope_type": "yarn", "factor": 4.0, "truncate": "yes"}, "truncate"),
        ({"rope_type": "yarn", "factor": 4.0, "beta_fast": math.nan}, "beta_fast"),
        (
            {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 0},
            "original_max_position_embeddings",
        ),
        ({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": -1.0, "high_freq_factor": 4.0}, "low_freq_factor"),
    ],
)
def test_a_scaled_rope_blocks_wrong_field_is_refused_by_the_schema_naming_it(block, field):
    """The rotary scalings' own fields are typed by the schema (issue 42's rope scaling), before any family."""
    from explorer.families.hf_schema import check_config_json

    with pytest.raises(ModelLoadError, match=f"rope_scaling.{re.escape(field)}"):
        check_config_json({**_examples()["llama"], "rope_scaling": block}, "config.json")
