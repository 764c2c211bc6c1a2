"""What the mixtures of experts share (Mixtral, Qwen-MoE, OLMoE): their config.json keys (how many experts,
how many a token runs), where a Hugging Face checkpoint keeps the router and each expert, and what a GGUF file
of one says (llama.cpp's ``{arch}.expert_*`` keys and stacked ``ffn_*_exps`` tensors). Every layer's FFN is the
same mixture but where Qwen-MoE keeps a dense one (``dense_layers``)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.field_table import implemented, inert, table_of
from explorer.families.hf_fields import bool_field, size
from explorer.families.source import Source
from explorer.util.schema import Where, flag, whole

ROUTER_TRAINING = (
    "the router's load-balancing loss, its noise and whether the forward returns the router's scores: training "
    "only, a forward pass computes the same numbers"
)
# The keys every mixture's table adds to its dense family's.
MOE_FIELDS = table_of(
    implemented("num_experts_per_tok", why="K: each token runs the K experts of highest router probability"),
    inert(ROUTER_TRAINING, "router_aux_loss_coef", "output_router_logits", "router_jitter_noise"),
)


def expert_fields(data: dict, origin: str, experts_key: str, default: tuple[int, int], norm_topk: bool) -> dict:
    """X, K and whether the K weights are renormalised (``norm_topk_prob`` where the family reads it)."""
    X = size(data, experts_key, default=default[0], origin=origin)
    return dict(
        experts=X,
        experts_per_token=size(data, "num_experts_per_tok", default=default[1], origin=origin),
        norm_topk=norm_topk if "norm_topk_prob" not in data else bool_field(data, "norm_topk_prob", False, origin),
    )


def hf_experts(
    cfg: ModelConfig,
    out: dict[str, Source],
    block: str = "mlp",
    names: tuple[str, str, str] = ("gate_proj", "up_proj", "down_proj"),
) -> dict[str, Source]:
    """Llama's map with each MoE layer's FFN replaced by the router (``{block}.gate``, (X, E) transposed) and
    the X experts (``{block}.experts.{e}.<gate|up|down>``, each transposed into its row of our stack)."""
    gate, up, down = names
    for l in range(cfg.layers):
        if not cfg.is_moe(l):
            continue
        m, p = f"layers.{l}.{block}", f"layers.{l}.ffn"
        for key in [k for k in out if k.startswith(f"{p}.")]:
            del out[key]  # the dense FFN's W_gate, W_in, W_out (and zero biases) are not there
        X = cfg.experts
        out |= {
            f"{p}.W_router": Source(f"{m}.gate.weight", "T"),
            f"{p}.experts.W_gate": Source(f"{m}.experts.{{e}}.{gate}.weight", "experts", parts=X),
            f"{p}.experts.W_in": Source(f"{m}.experts.{{e}}.{up}.weight", "experts", parts=X),
            f"{p}.experts.W_out": Source(f"{m}.experts.{{e}}.{down}.weight", "experts", parts=X),
        }
    return out


# ----------------------------------------------------------------------------------------------- GGUF

# The "{arch}." keys of a mixture every GGUF family with experts reads (explorer/families/gguf_fields.py).
GGUF_MOE_KEYS = ("expert_count", "expert_used_count", "expert_weights_norm")


def gguf_expert_fields(meta: dict, arch: str, origin: str, norm_topk: bool) -> dict:
    """X, K and the renormalisation of a GGUF file's mixture; nothing when expert_count is 0 or absent (a dense
    model). llama.cpp fixes the renormalisation per architecture (llama: yes; qwen2moe, olmoe: no), which is
    ``norm_topk`` here; ``{arch}.expert_weights_norm``, where a converter writes it, says it for the file."""
    where = Where(origin, ModelLoadError)
    X = whole(meta.get(f"{arch}.expert_count", 0), f"{arch}.expert_count", where, lo=0)
    if not X:
        return {}
    return dict(
        experts=X,
        experts_per_token=whole(meta.get(f"{arch}.expert_used_count"), f"{arch}.expert_used_count", where, lo=1),
        norm_topk=flag(meta.get(f"{arch}.expert_weights_norm", norm_topk), f"{arch}.expert_weights_norm", where),
    )


def gguf_experts(cfg: ModelConfig, out: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """A GGUF map with each MoE layer's dense FFN replaced by llama.cpp's router (``ffn_gate_inp``, (X, E))
    and stacked experts (``ffn_gate_exps``, ``ffn_up_exps``: (X, F_x, E); ``ffn_down_exps``: (X, E, F_x)),
    each expert's matrix transposed into our (X, in, out) stack."""
    for l in range(cfg.layers):
        if not cfg.is_moe(l):
            continue
        b, p = f"blk.{l}", f"layers.{l}.ffn"
        for key in [k for k in out if k.startswith(f"{p}.")]:
            del out[key]
        out |= {
            f"{p}.W_router": (f"{b}.ffn_gate_inp.weight", "T"),
            f"{p}.experts.W_gate": (f"{b}.ffn_gate_exps.weight", "T"),
            f"{p}.experts.W_in": (f"{b}.ffn_up_exps.weight", "T"),
            f"{p}.experts.W_out": (f"{b}.ffn_down_exps.weight", "T"),
        }
    return out
