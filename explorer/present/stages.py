"""The pipeline as the flow view, Play and presentation mode step through it.

Each stage names the traced tensors it shows (DESIGN.md section 3) and builds its edge label from the
real shapes of the current trace, e.g. ``x (5, 64) · W_q (64, 16) → Q (5, 16)``. Titles are in
``stage_titles.py`` (English, translated where the window shows them), captions in the Qt layer; this module
holds only structure and shapes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from explorer.names import PAIRWISE_STAGES
from explorer.present.row_facts import blocked_rows

if TYPE_CHECKING:
    from explorer.trace import Trace


@dataclass(frozen=True)
class Stage:
    key: str
    symbol: str  # short label on the flow diagram (language-neutral math)
    names: tuple[str, ...]  # patterns with {l}; the first is the stage's main tensor
    per_layer: bool = True
    norm: bool = False  # a pre-norm: shown only when the model has one (the note's toy has none)
    needs: str = ""  # a stage of some real families only: the ModelConfig property that says the model has it
    layer_needs: str = ""  # the ModelConfig method that says whether a layer runs it (a mixture's dense layers)


# A stage's first name the trace holds is the one it shows: "residual" shows x + attn (attn.sum) in a post-norm
# block (BERT), whose mid is that sum normalised ("post_norm_attn"); "logits" the scores before Gemma 2's cap.
STAGES: tuple[Stage, ...] = (
    Stage("tokens", "ids", ("tokens",), False),
    Stage("segment", "+ seg", ("embed.seg", "segments"), False, needs="segments"),
    Stage("embed", "Embed", ("embed.out", "embed.tok", "embed.seg", "embed.pos", "embed.sum"), False),
    Stage("norm_attn", "norm", ("layers.{l}.attn.in",), norm=True),
    Stage("parallel", "∥ norm", ("layers.{l}.ffn.in",), needs="parallel_block"),
    Stage("qkv", "Q K V", ("layers.{l}.attn.q", "layers.{l}.attn.k", "layers.{l}.attn.v")),
    Stage("qk_norm", "norm q k", ("layers.{l}.attn.q_norm", "layers.{l}.attn.k_norm"), needs="qk_norm"),
    # A rotary scaling's angles i·ω (C, R): position by turning dimension, the frequencies ω in row 1
    Stage("rope", "RoPE", ("layers.{l}.attn.rope_angles", "layers.{l}.attn.q_rot"), needs="rope_scaling"),
    Stage("scores", "Q·Kᵀ", ("layers.{l}.attn.scores",)),
    Stage("scaled", "÷√D", ("layers.{l}.attn.scaled",)),
    Stage("capped", "soft-cap", ("layers.{l}.attn.capped",), needs="attn_softcap"),
    Stage("masked", "mask", ("layers.{l}.attn.masked",)),
    Stage("weights", "softmax", ("layers.{l}.attn.weights",)),
    Stage("heads", "·V", ("layers.{l}.attn.heads",)),
    Stage("concat", "concat", ("layers.{l}.attn.concat",)),
    Stage("out", "·W_o", ("layers.{l}.attn.out",)),
    Stage("attn_out_norm", "norm", ("layers.{l}.attn.out_norm",), needs="out_norms"),
    Stage("residual", "+ x", ("layers.{l}.attn.sum", "layers.{l}.mid")),
    Stage("post_norm_attn", "norm", ("layers.{l}.mid",), needs="post_norms"),
    Stage("norm_ffn", "norm", ("layers.{l}.ffn.in",), norm=True),
    # A mixture of experts: the router's probabilities (tokens × experts, the chosen ones marked), then each
    # token's K chosen experts on it (the head control steps through them); "ffn" shows their weighted sum
    Stage(
        "router",
        "router",
        (
            "layers.{l}.ffn.router_probs",
            "layers.{l}.ffn.router_logits",
            "layers.{l}.ffn.experts_chosen",
            "layers.{l}.ffn.expert_weights",
        ),
        needs="moe",
        layer_needs="is_moe",
    ),
    Stage(
        "experts",
        "experts",
        ("layers.{l}.ffn.expert_out", "layers.{l}.ffn.shared_out", "layers.{l}.ffn.shared_gate"),
        needs="moe",
        layer_needs="is_moe",
    ),
    Stage("ffn", "FFN", ("layers.{l}.ffn.hidden", "layers.{l}.ffn.out")),
    Stage("ffn_out_norm", "norm", ("layers.{l}.ffn.out_norm",), needs="out_norms"),
    Stage("block", "block out", ("layers.{l}.ffn.sum", "layers.{l}.out")),
    Stage("post_norm_ffn", "norm", ("layers.{l}.out",), needs="post_norms"),
    Stage("final_norm", "norm", ("final.out",), False, norm=True),
    Stage("mlm", "MLM head", ("mlm.out", "mlm.hidden"), False, needs="mlm_head"),
    Stage("logits", "Linear", ("logits.uncapped", "logits"), False),
    Stage("logit_cap", "soft-cap", ("logits",), False, needs="logit_softcap"),
    Stage("probs", "softmax", ("probs",), False),
)

STAGE_KEYS = tuple(s.key for s in STAGES)
PAIRWISE_STAGE_KEYS = PAIRWISE_STAGES  # the (C, C) stages: defined once, with the tensor names
NORM_STAGE_KEYS = tuple(s.key for s in STAGES if s.norm)
_FAMILY_STAGES = frozenset(s.key for s in STAGES if s.needs)  # the stages only some real families have


def shown(key: str, config) -> bool:
    """Whether a model with this config has the stage: the pre-norm stages exist only with a pre-norm (and
    the final norm only with one), a family's own stage only in that family (``Stage.needs``)."""
    s = stage(key)
    if s.needs:
        value = getattr(config, s.needs, None)
        return bool(value) and value != "none"
    if not s.norm:
        return True
    if getattr(config, "norm", "none") == "none":
        return False
    if key == "final_norm":
        return getattr(config, "final_norm", True)
    if key == "norm_ffn" and getattr(config, "parallel_block", False):
        return False  # shown as "parallel", beside the attention's norm
    return getattr(config, "pre_norms", True)


def stages_for(config) -> tuple[Stage, ...]:
    """The stages a model with this config runs through, in order (None: every stage)."""
    if config is None:  # the stages every model of this app's own kind can have
        return tuple(s for s in STAGES if not s.needs)
    return tuple(s for s in STAGES if shown(s.key, config))


def stage_keys_for(config) -> tuple[str, ...]:
    return tuple(s.key for s in stages_for(config))


def stage(key: str) -> Stage:
    for s in STAGES:
        if s.key == key:
            return s
    raise KeyError(f"unknown stage {key!r}")


def tensor_names(key: str, layer: int) -> tuple[str, ...]:
    return tuple(p.format(l=layer) for p in stage(key).names)


def main_tensor(key: str, layer: int, present=None) -> str:
    """The tensor the stage shows: its first name, or the first of them in ``present`` (a trace) when given."""
    found = tensor_names(key, layer)
    if present is not None:
        return next((n for n in found if n in present), found[-1])
    return found[0]


def _t(*dims: int | str) -> str:
    return "(" + ", ".join(str(d) for d in dims) + ")"


# The few words in the edge labels. The window passes translated ones (explorer/ui/words/stage_words.py).
WORDS = {
    "text": "text",
    "scaling off": "scaling off",
    "where blocked": "−∞ where blocked",
    "softmax over keys": "softmax over keys",
    "rows sum to 1": "rows sum to 1",
    "no W_o": "no W_o in the unfactored form",
    "attention": "attention",
    "no residual": "no residual",
    "scores": "scores",
    "row i predicts": "row i predicts token i+1",
    "blocked rows": "rows sum to 1 except {n} fully blocked rows: all 0",
    "all rows blocked": "every row fully blocked: all 0",
    "mean": "mean",
    "variance": "variance",
    "norm": "norm",
    "sentence A/B": "sentence A → row 0, B → row 1",
    "normalised": "normalised",
    "each head": "each head",
    "all heads": "all heads together",
    "sliding": "sliding layer: the last {W} keys",
    "parallel": "the FFN reads x, beside attention",
    "mask token": "at [MASK]: the token that belongs there",
    "top K": "the {K} most probable of {X} experts",
    "dense layer": "a dense FFN in this layer: no router",
    "shared expert": "shared expert",
}


def edge_label(key: str, trace: Trace, layer: int = 0, row: int = 0, words: dict[str, str] | None = None) -> str:
    """The stage's computation with the real shapes of one sentence (C = its length), one head."""
    w = {**WORDS, **(words or {})}
    cfg = trace.config
    C = trace.rows[row].length if trace.rows else trace.C
    family = _family_edge(key, trace, C, layer, w)
    if family:
        return family
    E, D, H, Dv, F, V = cfg.E, cfg.D, cfg.H, cfg.D_v, cfg.F, cfg.V
    if key == "tokens":
        return f"{w['text']} → ids {_t(C)}"
    if key == "embed":
        pos = {"none": "", "rope": "", "sinusoidal": f" + PE {_t(C, E)}", "learned": f" + P[:C] {_t(C, E)}"}[
            cfg.positions
        ]
        return f"ids {_t(C)} → W{_t(V, E)}[ids] {_t(C, E)}{pos} → x {_t(C, E)}"
    if key in NORM_STAGE_KEYS:
        symbol = {"norm_attn": "x", "norm_ffn": "mid", "final_norm": "out"}[key]
        return _norm_formula(symbol, cfg.norm, C, E, w)
    if key == "qkv":
        v = f"W_v {_t(E, E)} → V {_t(C, E)}" if cfg.unfactored_value else f"W_v {_t(E, Dv)} → V {_t(C, Dv)}"
        return f"x {_t(C, E)} · W_q {_t(E, D)} → Q {_t(C, D)};  · W_k {_t(E, D)} → K {_t(C, D)};  · {v}  × H={H}"
    if key in _ATTENTION_EDGE_KEYS:
        return _attention_edge(key, trace, C, row, w)
    if key == "residual":
        return (
            f"x {_t(C, E)} + {w['attention']} {_t(C, E)} → {_t(C, E)}"
            if cfg.residual
            else f"{w['attention']} {_t(C, E)} ({w['no residual']})"
        )
    if key == "ffn":
        act = {
            "gelu": "GELU",
            "gelu_tanh": "GELU",
            "relu": "ReLU",
            "silu_gated": "SiLU-gate",
            "gelu_gated": "GELU-gate",
            "gelu_tanh_gated": "GELU-gate",
        }[cfg.ffn_activation]
        return f"{_t(C, E)} · W_in {_t(E, F)} → {act} {_t(C, F)} · W_out {_t(F, E)} → {_t(C, E)}"
    if key == "block":
        return f"x {_t(C, E)} + FFN {_t(C, E)} → {_t(C, E)}" if cfg.residual else f"FFN {_t(C, E)} ({w['no residual']})"
    if key == "logits":
        return f"{_t(C, E)} · W_u {_t(E, V)} → {w['scores']} {_t(C, V)}"
    if key == "probs":
        return f"softmax({w['scores']} / T={trace.options.temperature:g}) → {_t(C, V)}: {w['row i predicts']}"
    raise KeyError(key)


_ATTENTION_EDGE_KEYS = ("scores", "scaled", "masked", "weights", "heads", "concat", "out")


def _attention_edge(key: str, trace: Trace, C: int, row: int, w: dict[str, str]) -> str:
    """The edge labels of attention itself, from the scores to the output projection (edge_label)."""
    cfg = trace.config
    D, H, Dv, E = cfg.D, cfg.H, cfg.D_v, cfg.E
    if key == "scores":
        return f"Q {_t(C, D)} · Kᵀ {_t(D, C)} → S {_t(C, C)}"
    if key == "scaled":
        if not trace.options.scale:
            return f"S {_t(C, C)} ({w['scaling off']})"
        n = cfg.score_dim  # D, or Gemma 2/3's query_pre_attn_scalar
        return f"S {_t(C, C)} ÷ √{n:g} = ÷{math.sqrt(n):.3g} → {_t(C, C)}"
    if key == "masked":
        return f"{_t(C, C)} + mask {trace.options.mask}: {w['where blocked']}"
    if key == "weights":
        blocked = blocked_rows(trace, row)
        if blocked >= C:
            return f"{w['softmax over keys']} → A {_t(C, C)}, " + w["all rows blocked"]
        if blocked:
            return f"{w['softmax over keys']} → A {_t(C, C)}, " + w["blocked rows"].format(n=blocked)
        return f"{w['softmax over keys']} → A {_t(C, C)}, {w['rows sum to 1']}"
    if key == "heads":
        return f"A {_t(C, C)} · V {_t(C, Dv)} → Rⁱ {_t(C, Dv)}"
    if key == "concat":
        return f"[R¹ … R{_sup(H)}] → {_t(C, H * Dv)}"
    if key == "out":
        if cfg.unfactored_value:
            return f"R {_t(C, E)} ({w['no W_o']})"
        return f"concat {_t(C, H * Dv)} · W_o {_t(H * Dv, E)} → {_t(C, E)}"
    raise KeyError(key)


def _norm_formula(symbol: str, kind: str, C: int, E: int, w) -> str:
    if kind == "rmsnorm":
        return f"{symbol} {_t(C, E)} → {symbol} / √(mean({symbol}²) + ε) · γ → {_t(C, E)}"
    return f"{symbol} {_t(C, E)} → ({symbol} − {w['mean']}) / √({w['variance']} + ε) · γ + β → {_t(C, E)}"


def _rope_edge(cfg, C: int, layer: int) -> str:
    """i·ω (C, R) → Q̃, K̃: the rotary angles of a scaled RoPE and what they turn."""
    scaling = cfg.rope_scaling_of(layer)
    kind = scaling.kind if scaling is not None else "plain"
    factor = f" · {scaling.attention_factor:.4g}" if scaling is not None and scaling.attention_factor != 1 else ""
    return f"θ = i·ω ({kind}) {_t(C, cfg.R)} → cos, sin{factor} → Q̃, K̃ {_t(C, cfg.D)}"


def _router_edge(cfg, C: int, layer: int, w: dict[str, str]) -> str:
    """x · W_router → softmax over the X experts → the top K of each token (a mixture of experts)."""
    if not cfg.is_moe(layer):
        return w["dense layer"]
    X, K = cfg.experts, cfg.experts_per_token
    top = w["top K"].format(K=K, X=X)
    return f"x {_t(C, cfg.E)} · W_router {_t(cfg.E, X)} → softmax {_t(C, X)} → {top} {_t(C, K)}"


def _experts_edge(cfg, C: int, layer: int, w: dict[str, str]) -> str:
    """Each token's K experts on it: a gated FFN of width F_x each."""
    if not cfg.is_moe(layer):
        return w["dense layer"]
    E, Fx, K = cfg.E, cfg.F_x, cfg.experts_per_token
    return f"x {_t(C, E)} → {K} × (W_in {_t(E, Fx)} → W_out {_t(Fx, E)}) → {_t(K, C, E)}"


def _family_edge(key: str, trace: Trace, C: int, layer: int, w: dict[str, str]) -> str:
    """The edge labels of the stages real families add, and of the usual stages they compute another way;
    "" where the usual label (edge_label) is right."""
    cfg = trace.config
    E, D, V = cfg.E, cfg.D, cfg.V
    post, out_norms = getattr(cfg, "post_norms", False), getattr(cfg, "out_norms", False)
    if key in _FAMILY_STAGES:  # built only for the stage asked (all ten were formatted for every box)
        return {
            "segment": f"{w['sentence A/B']}: S{_t(cfg.segments, E)}[seg] → {_t(C, E)}",
            "parallel": f"x {_t(C, E)} → {w['norm']} → {_t(C, E)}: {w['parallel']}",
            "qk_norm": (
                f"Q, K {_t(C, D)} → RMSNorm ({w['each head'] if cfg.qk_norm == 'head' else w['all heads']}) · γ → "
                f"{_t(C, D)}"
            ),
            "capped": f"{cfg.attn_softcap or 0:g} · tanh(S̃ / {cfg.attn_softcap or 0:g}) → {_t(C, C)}",
            "rope": _rope_edge(cfg, C, layer),
            "router": _router_edge(cfg, C, layer, w),
            "experts": _experts_edge(cfg, C, layer, w),
            "attn_out_norm": _norm_formula("attn", cfg.norm, C, E, w),
            "post_norm_attn": _norm_formula("x + attn", cfg.norm, C, E, w),
            "ffn_out_norm": _norm_formula("FFN", cfg.norm, C, E, w),
            "post_norm_ffn": _norm_formula("mid + FFN", cfg.norm, C, E, w),
            "mlm": f"{_t(C, E)} · W_t {_t(E, E)} → GELU → {w['norm']} → {_t(C, E)}",
            "logit_cap": f"{cfg.logit_softcap or 0:g} · tanh({w['scores']} / {cfg.logit_softcap or 0:g}) → {_t(C, V)}",
        }[key]
    if key == "embed" and (cfg.embed_scale or cfg.segments or cfg.embed_norm):
        tok = f"W{_t(V, E)}[ids]" + (f" · √{E}" if cfg.embed_scale else "")
        seg = " + S[seg]" if cfg.segments else ""
        pos = " + P[:C]" if cfg.positions == "learned" else ""
        norm = f" → {w['norm']}" if cfg.embed_norm else ""
        return f"ids {_t(C)} → {tok}{seg}{pos}{norm} → x {_t(C, E)}"
    if key == "masked" and cfg.is_sliding(layer):
        return (
            f"{_t(C, C)} + mask {trace.options.mask}, {w['sliding'].format(W=cfg.sliding_window)}: {w['where blocked']}"
        )
    if key == "residual" and (post or out_norms):
        return f"x {_t(C, E)} + {w['attention']}{' ' + w['normalised'] if out_norms else ''} {_t(C, E)} → {_t(C, E)}"
    if key == "block" and (post or out_norms or cfg.parallel_block):
        first = "x + attn" if cfg.parallel_block else "mid"
        return f"{first} {_t(C, E)} + FFN{' ' + w['normalised'] if out_norms else ''} {_t(C, E)} → {_t(C, E)}"
    if key == "ffn" and cfg.is_moe(layer):
        shared = f" + σ(g) · {w['shared expert']} {_t(C, E)}" if cfg.shared_expert_dim is not None else ""
        return f"Σⱼ wⱼ · expertⱼ {_t(cfg.experts_per_token, C, E)}{shared} → {_t(C, E)}"
    if key == "probs" and cfg.mlm_head:
        return f"softmax({w['scores']} / T={trace.options.temperature:g}) → {_t(C, V)}: {w['mask token']}"
    return ""


_SUP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _sup(n: int) -> str:
    return str(n).translate(_SUP)
