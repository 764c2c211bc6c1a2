"""Reading one config.json field, checked (explorer/util/schema.py), and the settings several families share
(RoPE, partial rotation, activations, sliding layers). A size of 0 once ended in ZeroDivisionError, an
epsilon of "abc" in a ValueError traceback, a NaN theta in NaN probabilities: every field a family reads goes
through here, and whatever the traced model cannot do is refused in one line that names the field."""

from __future__ import annotations

from typing import Any

from explorer.config import ModelConfig
from explorer.errors import ConfigError, ModelLoadError
from explorer.util.schema import Where, flag, number, text, whole

GELU = {  # config.json's activation → ours, for the families with a plain (ungated) FFN
    "gelu": "gelu",
    "gelu_new": "gelu_tanh",
    "gelu_fast": "gelu_tanh",
    "gelu_pytorch_tanh": "gelu_tanh",
    "relu": "relu",
}


# Where transformers keeps float32 inside a bfloat16/float16 model (model/norm.py, model/transformer.py).
_HALF_NORM_WEIGHT_FLOAT32 = ("gemma", "gemma2", "gemma3", "gemma3_text", "olmo2")
_HALF_ROPE_FLOAT32 = ("olmo2",)


def make_config(origin: str, **fields) -> ModelConfig:
    """A ModelConfig from a file's settings; a size our model cannot take becomes a ModelLoadError."""
    family = fields.get("family")
    fields.setdefault("half_norm_weight_float32", family in _HALF_NORM_WEIGHT_FLOAT32)
    fields.setdefault("half_rope_float32", family in _HALF_ROPE_FLOAT32)
    try:
        return ModelConfig(**fields)
    except ConfigError as exc:
        raise ModelLoadError(f"{origin}: {exc}") from None


def size(data: dict, *keys: str, default: Any = None, origin: str = "config.json") -> Any:
    """The first of ``keys`` present: a size, count or length, at least 1."""
    for k in keys:
        if data.get(k) is not None:
            return whole(data[k], k, Where(origin, ModelLoadError), lo=1)
    if default is None:
        raise ModelLoadError(f"{origin} has no {' / '.join(keys)}")
    return default


def eps(data: dict, key: str, default: float, origin: str) -> float:
    """A norm epsilon: a small positive number."""
    if data.get(key) is None:
        return default
    return number(data[key], key, Where(origin, ModelLoadError), positive=True, hi=1.0)


def text_field(data: dict, key: str, default: str, origin: str) -> str:
    if data.get(key) is None:
        return default
    return text(data[key], key, Where(origin, ModelLoadError), 200)


def bool_field(data: dict, key: str, default: bool, origin: str) -> bool:
    if data.get(key) is None:
        return default
    return flag(data[key], key, Where(origin, ModelLoadError))


def optional_positive(data: dict, key: str, origin: str) -> float | None:
    return None if data.get(key) is None else number(data[key], key, Where(origin, ModelLoadError), positive=True)


def activation(data: dict, origin: str, *keys: str, default: str, allowed: dict[str, str]) -> str:
    """Our activation for the first of ``keys`` the config sets; refused unless ``allowed`` names it."""
    key = next((k for k in keys if data.get(k) is not None), keys[0])
    act = text_field(data, key, default, origin)
    if act not in allowed:
        raise ModelLoadError(f"{origin}: {key} {act!r} is not supported (use {', '.join(allowed)})")
    return allowed[act]


def rope_settings(data: dict, origin: str) -> float:
    """rope_theta from either spelling of the config (transformers 4: rope_theta + rope_scaling; 5:
    rope_parameters). The scaling itself is read by explorer/families/rope_fields.py."""
    params = data.get("rope_parameters") or {}
    scaling = data.get("rope_scaling") or {}
    if not isinstance(params, dict) or not isinstance(scaling, dict):
        raise ModelLoadError(f"{origin}: rope_parameters / rope_scaling must be objects")
    theta = data.get("rope_theta", params.get("rope_theta", data.get("rotary_emb_base", 10_000.0)))
    return number(theta, "rope_theta", Where(origin, ModelLoadError), positive=True)


def rotary_dims(data: dict, D: int, origin: str) -> int | None:
    """R, the dimensions of a head that RoPE turns, when only a part does (partial_rotary_factor, or
    GPT-NeoX's older rotary_pct); None when all D do."""
    params = data.get("rope_parameters") or {}
    if not isinstance(params, dict):
        raise ModelLoadError(f"{origin}: rope_parameters must be an object")
    partial = params.get("partial_rotary_factor", data.get("partial_rotary_factor", data.get("rotary_pct", 1.0)))
    partial = number(
        1.0 if partial is None else partial,
        "partial_rotary_factor",
        Where(origin, ModelLoadError),
        positive=True,
        hi=1.0,
    )
    R = int(D * partial)
    if R == D:
        return None
    if R < 2 or R % 2:
        raise ModelLoadError(
            f"{origin}: partial rotary embeddings of {R} of {D} dimensions (an odd or empty part) are not supported"
        )
    return R


def sliding_layers(data: dict, L: int, pattern: int | None, origin: str) -> tuple[int, ...]:
    """The layers whose queries see only the last W keys: ``layer_types`` where the config lists them, else
    every layer but each ``pattern``-th (Gemma 2: every other one; Gemma 3: five of six)."""
    types = data.get("layer_types")
    if types is not None:
        if not isinstance(types, list) or len(types) != L:  # explorer/families/hf_schema.py says which
            raise ModelLoadError(f"{origin}: layer_types must list one kind for each of the {L} layers")
        unknown = sorted({str(t)[:30] for t in types} - {"sliding_attention", "full_attention"})
        if unknown:
            raise ModelLoadError(
                f"{origin}: layer type {unknown[0]!r} is not supported (sliding_attention, full_attention)"
            )
        return tuple(l for l, t in enumerate(types) if t == "sliding_attention")
    if pattern is None:
        return ()
    return tuple(l for l in range(L) if (l + 1) % pattern)
