"""Property tests: random small configurations, masks and texts.

Whatever the sizes, masks and words, a trace either fails with one of the documented ExplorerError
subclasses or gives: no NaN anywhere, attention rows that sum to 1 (exactly 0 for rows the mask empties),
and arrays whose shapes are the trace's own shape labels resolved against the config.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer import names
from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.errors import ConfigError, ExplorerError, InputError
from explorer.tokenize import word_tokenizer
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle

VOCAB = "the a cat dog sat on mat is . ?".split()
TOKENIZER = word_tokenizer(VOCAB)
ALPHABET = VOCAB + ["zebra", "Xylophone", "42"]  # the last three are unknown words
DOCUMENTED = (ConfigError, InputError)  # what a user can cause by sizes, masks and text


def resolve(label: str, sizes: dict[str, int]) -> int:
    return math.prod(sizes[part] for part in label.split("·"))


@st.composite
def configs(draw):
    H = draw(st.integers(1, 4))
    kv = draw(st.sampled_from([d for d in range(1, H + 1) if H % d == 0]))
    unfactored = H == 1 and draw(st.booleans())
    positions = draw(st.sampled_from(["none", "sinusoidal", "learned", "rope"]))
    E = draw(st.integers(1, 12))
    D = draw(st.integers(1, 6))
    if positions == "rope":
        D += D % 2
    return dict(
        vocab_size=TOKENIZER.vocab_size,
        embed_dim=E,
        key_dim=D,
        heads=H,
        kv_heads=None if unfactored else kv,
        layers=draw(st.integers(1, 3)),
        value_dim=None if unfactored else draw(st.none() | st.integers(1, 5)),
        ffn_dim=draw(st.none() | st.integers(1, 10)),
        unfactored_value=unfactored,
        positions=positions,
        max_positions=draw(st.integers(3, 16)),
        norm=draw(st.sampled_from(["layernorm", "rmsnorm", "none"])),
        residual=draw(st.booleans()),
        ffn_activation=draw(st.sampled_from(["gelu", "gelu_tanh", "relu", "silu_gated"])),
        bias=draw(st.booleans()),
        tie_embeddings=draw(st.booleans()),
    )


@st.composite
def masks(draw):
    kind = draw(st.sampled_from(["causal", "none", "window", "prefix", "explicit"]))
    if kind in ("window", "prefix"):
        return MaskSpec(kind, draw(st.integers(1, 6)))
    if kind == "explicit":
        n = draw(st.integers(1, 10))
        cells = draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
        return MaskSpec.explicit([cells[i * n : (i + 1) * n] for i in range(n)])
    return MaskSpec(kind)


texts = st.lists(st.lists(st.sampled_from(ALPHABET), min_size=0, max_size=8).map(" ".join), min_size=1, max_size=3).map(
    "\n".join
)


def _check(trace, cfg: ModelConfig):
    sizes = {
        "B": trace.B,
        "C": trace.C,
        "E": cfg.E,
        "D": cfg.D,
        "D_v": cfg.D_v,
        "R": cfg.R,
        "H": cfg.H,
        "H_kv": cfg.H_kv,
        "F": cfg.F,
        "V": cfg.V,
        "P": cfg.max_positions,
    }
    for name in trace.names():
        a = np.asarray(trace[name])
        expected = tuple(resolve(lab, sizes) for lab in trace.labels(name))
        assert a.shape == expected, f"{name}: {a.shape} vs labels {trace.labels(name)} = {expected}"
        assert len(trace.labels(name)) == len(names.spec(name).labels)
        if a.dtype.kind == "f":
            assert not np.isnan(a).any(), name
            if not name.endswith(".masked"):
                assert np.isfinite(a).all(), name
    empty = np.asarray(trace["mask.empty_rows"])
    assert np.array_equal(empty, ~trace["mask"].any(-1))
    for l in trace.layers:
        w = np.asarray(trace[names.attn(l, "weights")], dtype=np.float64)
        sums = w.sum(-1)  # (B, H, C)
        live = np.broadcast_to(~empty[:, None], sums.shape)
        np.testing.assert_allclose(sums[live], 1.0, atol=1e-5)
        assert (sums[~live] == 0).all()
    probs = np.asarray(trace["probs"], np.float64)
    np.testing.assert_allclose(probs.sum(-1), 1.0, atol=1e-5)
    for b, row in enumerate(trace.rows):
        assert trace["tokens"][b, : row.length].tolist() == list(row.ids)
        assert all(u == (i == TOKENIZER.unk_id) for u, i in zip(row.unknown, row.ids))


@settings(max_examples=35, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cfg=configs(),
    mask=masks(),
    text=texts,
    scale=st.booleans(),
    lazy=st.booleans(),
    f64=st.booleans(),
    seed=st.integers(0, 2**31 - 1),
)
def test_random_configs_trace_cleanly(cfg, mask, text, scale, lazy, f64, seed):
    config = ModelConfig(**cfg)
    bundle = random_bundle(config, TOKENIZER, seed)
    options = RunOptions(mask=mask, scale=scale, lazy_pairwise=lazy, dtype="float64" if f64 else "float32")
    try:
        trace = run_trace(bundle, text, options)
    except DOCUMENTED as exc:
        # the only expected refusals: no words at all, or a painted mask smaller than the text
        lines = [ln for ln in text.splitlines() if ln.strip()]
        assert (not lines) or (mask.kind == "explicit" and "painted mask" in str(exc)), str(exc)
        return
    assert trace.B == len([ln for ln in text.splitlines() if ln.strip()])
    if config.positions == "learned":
        assert trace.C <= config.max_positions  # longer sentences are cut, with a notice
    _check(trace, config)


@settings(max_examples=30, deadline=None)
@given(
    E=st.integers(-3, 20) | st.floats(-2, 20) | st.sampled_from(["8", "x", None]),
    H=st.integers(-1, 5),
    kv=st.none() | st.integers(-1, 5),
)
def test_sizes_are_validated_not_crashed(E, H, kv):
    try:
        cfg = ModelConfig(
            TOKENIZER.vocab_size, embed_dim=E, key_dim=2, heads=H, kv_heads=kv, layers=1, positions="none"
        )
    except ExplorerError as exc:
        assert isinstance(exc, ConfigError) and str(exc)
        return
    # accepted: then every size is a positive whole number and the model builds and traces
    assert isinstance(cfg.E, int) and cfg.E >= 1 and cfg.H % cfg.H_kv == 0
    trace = run_trace(random_bundle(cfg, TOKENIZER, 0), "the cat sat")
    assert trace["layers.0.attn.q"].shape == (1, cfg.H, 3, 2)


@settings(max_examples=25, deadline=None)
@given(spec=st.text(alphabet="causlnowidprefx:0123456789- ", max_size=12))
def test_mask_parse_accepts_or_refuses_cleanly(spec):
    try:
        m = MaskSpec.parse(spec)
    except ConfigError:
        return
    assert m.kind in ("causal", "none", "window", "prefix")
    if m.kind in ("window", "prefix"):
        assert m.size >= 1
        assert str(m) == f"{m.kind}:{m.size}"


# ------------------------------------------------------------------------------------ any text, any format

from explorer.tokenize import char_tokenizer  # noqa: E402
from explorer.weights.presets import preset_tokenizer  # noqa: E402

TOKENIZERS = {
    "word": TOKENIZER,
    "char": char_tokenizer(list("abcde .猫")),
    "bpe": preset_tokenizer("bpe-en.json"),
}
# Any Unicode at all (lone surrogates too: undecodable bytes on a command line arrive as those), with the
# characters that have broken text tools before mixed in: NUL, escapes, bidi overrides, emoji, CJK.
NASTY = [
    "pen",
    "a",
    "the cat",
    "This",
    "\x00",
    "\x1b[31m",
    "\u202e",
    "👨\u200d👩",
    "猫です",
    "\udcff",
    "\n",
    "  ",
    "\t",
]
any_text = st.lists(st.sampled_from(NASTY) | st.text(st.characters(codec=None), max_size=4), max_size=8).map(" ".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=any_text,
    kind=st.sampled_from(sorted(TOKENIZERS)),
    mask=masks(),
    fmt=st.sampled_from(["npz", "safetensors", "pt"]),
    f64=st.booleans(),
    seed=st.integers(0, 2**63 - 1),
)
def test_any_text_traces_and_survives_a_snapshot(tmp_path_factory, text, kind, mask, fmt, f64, seed):
    """Whatever the characters: a trace or a documented refusal; no NaN in weights or tensors; and the
    snapshot written and read back holds the very same arrays."""
    from explorer.export.snapshot import read_snapshot, write_snapshot

    tok = TOKENIZERS[kind]
    config = ModelConfig(
        tok.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=2, positions="learned", max_positions=12
    )
    bundle = random_bundle(config, tok, seed)
    for name, p in bundle.model.named_parameters():
        assert bool(p.isfinite().all()), name
    try:
        trace = run_trace(bundle, text, RunOptions(mask=mask, dtype="float64" if f64 else "float32"))
    except DOCUMENTED as exc:
        assert str(exc) and "\n" not in str(exc)
        assert (not text.strip()) or "no tokens" in str(exc) or "no text" in str(exc) or "painted mask" in str(exc), (
            str(exc)
        )
        return
    assert all(len(n) < 400 and "\n" not in n for n in trace.notices)
    assert not any(ch in n for n in trace.notices for ch in "\x00\x1b\u202e\udcff")  # shown, never raw
    assert trace.C <= config.max_positions
    _check_arrays(trace)
    path = write_snapshot(trace, tmp_path_factory.mktemp("snap") / f"s.{fmt}")
    back = read_snapshot(path)
    assert back.rows == trace.rows and back.notices == trace.notices
    for name in trace.names():
        assert np.array_equal(back[name], trace[name], equal_nan=True), name


def _check_arrays(trace) -> None:
    for name in trace.names():
        a = np.asarray(trace[name])
        if a.dtype.kind == "f":
            assert not np.isnan(a).any(), name
