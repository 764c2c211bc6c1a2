"""Open a Hugging Face model folder offline: config.json + *.safetensors + tokenizer.json.

Families: GPT-2 (learned positions, LayerNorm, GELU, biases, tied embeddings) and Llama (RoPE, RMSNorm,
SiLU-gated FFN, grouped-query attention), with Llama's plain relatives Mistral and Qwen 2. The weights go
into the same readable ``Transformer`` as the configurable model, so a real model is traced with the same
stages and names.

Orientation. The note writes x · W_q with W_q of shape (E, H·D). GPT-2's Conv1D already stores (in, out);
its fused c_attn (E, 3E) is W_q, W_k and W_v side by side. Llama's nn.Linear stores (out, in): transposed
here. Nothing here imports ``transformers``; it is only the tests' oracle.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.util.reading import MAX_JSON_BYTES, check_regular, is_regular, read_json
from explorer.util.schema import Where, flag, number, text, whole
from explorer.tokenize import Tokenizer
from explorer.weights.bundle import ModelBundle
from explorer.weights.real_models import Filler, Progress, check_cancel, check_shape, make_config, report

SUPPORTED = ("gpt2", "llama", "mistral", "qwen2")

_GPT2_ACTIVATIONS = {"gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu_fast": "gelu_tanh", "gelu": "gelu", "relu": "relu"}


# ----------------------------------------------------------------------------------------------- config


# Every field this importer reads from config.json, checked here (explorer/util/schema.py): a size of 0 once
# ended in ZeroDivisionError, an epsilon of "abc" in a ValueError traceback, a NaN theta in NaN probabilities.


def _int(data: dict, *keys: str, default: Any = None, origin: str = "config.json") -> Any:
    """The first of ``keys`` present: a size, count or length, at least 1."""
    for k in keys:
        if data.get(k) is not None:
            return whole(data[k], k, Where(origin, ModelLoadError), lo=1)
    if default is None:
        raise ModelLoadError(f"{origin} has no {' / '.join(keys)}")
    return default


def _eps(data: dict, key: str, default: float, origin: str) -> float:
    """A norm epsilon: a small positive number."""
    if data.get(key) is None:
        return default
    return number(data[key], key, Where(origin, ModelLoadError), positive=True, hi=1.0)


def _name(data: dict, key: str, default: str, origin: str) -> str:
    if data.get(key) is None:
        return default
    return text(data[key], key, Where(origin, ModelLoadError), 200)


def _flag(data: dict, key: str, default: bool, origin: str) -> bool:
    if data.get(key) is None:
        return default
    return flag(data[key], key, Where(origin, ModelLoadError))


def config_from_hf(data: dict[str, Any], origin: str = "config.json") -> ModelConfig:
    """Our ModelConfig for a Hugging Face config.json; ModelLoadError for what the traced model cannot do."""
    model_type = _name(data, "model_type", "", origin)
    if model_type == "gpt2":
        return _gpt2_config(data, origin)
    if model_type in ("llama", "mistral", "qwen2"):
        return _llama_config(data, origin)
    raise ModelLoadError(
        f"{origin}: model type {model_type!r} is not supported; this version opens {', '.join(SUPPORTED)} models"
    )


def _gpt2_config(data: dict, origin: str) -> ModelConfig:
    act = _name(data, "activation_function", "gelu_new", origin)
    if act not in _GPT2_ACTIVATIONS:
        raise ModelLoadError(f"{origin}: GPT-2 activation {act!r} is not supported (use gelu_new, gelu or relu)")
    if data.get("scale_attn_by_inverse_layer_idx"):
        raise ModelLoadError(f"{origin}: scale_attn_by_inverse_layer_idx is not supported")
    if data.get("scale_attn_weights") is False:
        raise ModelLoadError(f"{origin}: scale_attn_weights=false is not supported (the traced model divides by √D)")
    if data.get("add_cross_attention"):
        raise ModelLoadError(f"{origin}: cross-attention (encoder-decoder GPT-2) is not supported")
    E = _int(data, "n_embd", "hidden_size", origin=origin)
    H = _int(data, "n_head", "num_attention_heads", origin=origin)
    if E % H:
        raise ModelLoadError(f"{origin}: n_embd {E} is not a multiple of n_head {H}")
    return make_config(
        origin,
        vocab_size=_int(data, "vocab_size", origin=origin),
        embed_dim=E,
        key_dim=E // H,
        heads=H,
        layers=_int(data, "n_layer", "num_hidden_layers", origin=origin),
        ffn_dim=_int(data, "n_inner", default=4 * E, origin=origin),
        positions="learned",
        max_positions=_int(data, "n_positions", "max_position_embeddings", "n_ctx", origin=origin),
        norm="layernorm",
        ffn_activation=_GPT2_ACTIVATIONS[act],
        bias=True,
        unembed_bias=False,
        tie_embeddings=_flag(data, "tie_word_embeddings", True, origin),
        norm_eps=_eps(data, "layer_norm_epsilon", 1e-5, origin),
        family="gpt2",
    )


def rope_settings(data: dict, origin: str) -> float:
    """rope_theta from either spelling of the config (transformers 4: rope_theta + rope_scaling; 5: rope_parameters)."""
    params = data.get("rope_parameters") or {}
    scaling = data.get("rope_scaling") or {}
    if not isinstance(params, dict) or not isinstance(scaling, dict):
        raise ModelLoadError(f"{origin}: rope_parameters / rope_scaling must be objects")
    for block in (params, scaling):
        kind = block.get("rope_type", block.get("type", "default"))
        if kind not in (None, "default"):
            raise ModelLoadError(
                f"{origin}: rotary scaling {kind!r} is not supported; only plain RoPE (rope_type 'default') is implemented"
            )
    partial = params.get("partial_rotary_factor", data.get("partial_rotary_factor", 1.0))
    if partial not in (None, 1, 1.0):
        raise ModelLoadError(f"{origin}: partial rotary embeddings (partial_rotary_factor {partial}) are not supported")
    theta = data.get("rope_theta", params.get("rope_theta", 10_000.0))
    return number(theta, "rope_theta", Where(origin, ModelLoadError), positive=True)


def llama_biases(data: dict) -> frozenset[str]:
    """Which projections of a Llama-like model have biases: a subset of q, k, v, o, mlp.

    Llama says so in its config (attention_bias, mlp_bias); Qwen 2 always has q/k/v biases; Mistral none.
    """
    if data.get("model_type") == "qwen2":
        return frozenset("qkv")
    out = set("qkvo") if data.get("attention_bias") else set()
    if data.get("mlp_bias"):
        out.add("mlp")
    return frozenset(out)


def _sliding_window(data: dict, origin: str) -> int | None:
    """The attention window of Mistral / Qwen 2 when one is in force, else None."""
    if data.get("model_type") == "qwen2" and not data.get("use_sliding_window"):
        return None
    if data.get("sliding_window") is None:
        return None
    return _int(data, "sliding_window", origin=origin)


def _llama_config(data: dict, origin: str) -> ModelConfig:
    """Llama and its plain relatives (Mistral, Qwen 2): RoPE, RMSNorm, SiLU-gated FFN, grouped-query attention."""
    act = _name(data, "hidden_act", "silu", origin)
    if act != "silu":
        raise ModelLoadError(f"{origin}: activation {act!r} is not supported (only silu)")
    E = _int(data, "hidden_size", origin=origin)
    H = _int(data, "num_attention_heads", origin=origin)
    Hkv = _int(data, "num_key_value_heads", default=H, origin=origin)
    D = _int(data, "head_dim", default=E // H if E % H == 0 else -1, origin=origin)
    if D <= 0:
        raise ModelLoadError(f"{origin}: hidden_size {E} is not a multiple of num_attention_heads {H} and there is no head_dim")
    max_positions = _int(data, "max_position_embeddings", default=2048, origin=origin)
    window = _sliding_window(data, origin)
    if window is not None:
        # A sliding window of W keys equals the causal mask for inputs of at most W tokens: cut longer ones there.
        max_positions = min(max_positions, window)
    return make_config(
        origin,
        vocab_size=_int(data, "vocab_size", origin=origin),
        embed_dim=E,
        key_dim=D,
        heads=H,
        kv_heads=Hkv if Hkv != H else None,
        layers=_int(data, "num_hidden_layers", origin=origin),
        ffn_dim=_int(data, "intermediate_size", origin=origin),
        positions="rope",
        max_positions=max_positions,
        norm="rmsnorm",
        ffn_activation="silu_gated",
        bias=bool(llama_biases(data)),
        unembed_bias=False,
        tie_embeddings=_flag(data, "tie_word_embeddings", False, origin),
        norm_eps=_eps(data, "rms_norm_eps", 1e-6, origin),
        rope_theta=rope_settings(data, origin),
        family=str(data["model_type"]),
    )


# ----------------------------------------------------------------------------------------------- name maps


@dataclass(frozen=True)
class Source:
    """Where one of our parameters comes from in the file.

    ``how``: "copy" (same orientation), "T" (nn.Linear (out, in) → (in, out)), "cols" (columns
    part·n … of a fused matrix or bias, GPT-2's c_attn), "zeros" (the architecture has no such tensor).
    """

    key: str
    how: str = "copy"
    part: int = 0
    parts: int = 1


def gpt2_sources(cfg: ModelConfig) -> dict[str, Source]:
    out: dict[str, Source] = {"embed.tok": Source("wte.weight"), "embed.pos": Source("wpe.weight")}
    for l in range(cfg.layers):
        h, p = f"h.{l}", f"layers.{l}"
        out |= {
            f"{p}.ln_attn.weight": Source(f"{h}.ln_1.weight"),
            f"{p}.ln_attn.bias": Source(f"{h}.ln_1.bias"),
            f"{p}.ln_ffn.weight": Source(f"{h}.ln_2.weight"),
            f"{p}.ln_ffn.bias": Source(f"{h}.ln_2.bias"),
            f"{p}.attn.W_o": Source(f"{h}.attn.c_proj.weight"),  # Conv1D: already (in, out)
            f"{p}.attn.b_o": Source(f"{h}.attn.c_proj.bias"),
            f"{p}.ffn.W_in": Source(f"{h}.mlp.c_fc.weight"),
            f"{p}.ffn.b_in": Source(f"{h}.mlp.c_fc.bias"),
            f"{p}.ffn.W_out": Source(f"{h}.mlp.c_proj.weight"),
            f"{p}.ffn.b_out": Source(f"{h}.mlp.c_proj.bias"),
        }
        for i, x in enumerate("qkv"):  # c_attn (E, 3E) = [W_q | W_k | W_v]
            out[f"{p}.attn.W_{x}"] = Source(f"{h}.attn.c_attn.weight", "cols", i, 3)
            out[f"{p}.attn.b_{x}"] = Source(f"{h}.attn.c_attn.bias", "cols", i, 3)
    out["ln_final.weight"] = Source("ln_f.weight")
    out["ln_final.bias"] = Source("ln_f.bias")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("lm_head.weight", "T")
    return out


def llama_sources(cfg: ModelConfig, biases: frozenset[str]) -> dict[str, Source]:
    out: dict[str, Source] = {"embed.tok": Source("embed_tokens.weight")}
    for l in range(cfg.layers):
        m, p = f"layers.{l}", f"layers.{l}"
        out |= {
            f"{p}.ln_attn.weight": Source(f"{m}.input_layernorm.weight"),
            f"{p}.ln_ffn.weight": Source(f"{m}.post_attention_layernorm.weight"),
            f"{p}.attn.W_q": Source(f"{m}.self_attn.q_proj.weight", "T"),
            f"{p}.attn.W_k": Source(f"{m}.self_attn.k_proj.weight", "T"),
            f"{p}.attn.W_v": Source(f"{m}.self_attn.v_proj.weight", "T"),
            f"{p}.attn.W_o": Source(f"{m}.self_attn.o_proj.weight", "T"),
            f"{p}.ffn.W_gate": Source(f"{m}.mlp.gate_proj.weight", "T"),
            f"{p}.ffn.W_in": Source(f"{m}.mlp.up_proj.weight", "T"),
            f"{p}.ffn.W_out": Source(f"{m}.mlp.down_proj.weight", "T"),
        }
        if cfg.bias:  # our model has all biases or none: the ones this architecture lacks are zeros
            for x in "qkvo":
                out[f"{p}.attn.b_{x}"] = Source(f"{m}.self_attn.{x}_proj.bias") if x in biases else Source("", "zeros")
            out[f"{p}.ffn.b_in"] = Source(f"{m}.mlp.up_proj.bias") if "mlp" in biases else Source("", "zeros")
            out[f"{p}.ffn.b_out"] = Source(f"{m}.mlp.down_proj.bias") if "mlp" in biases else Source("", "zeros")
    out["ln_final.weight"] = Source("norm.weight")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("lm_head.weight", "T")
    return out


def source_shape(src: Source, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape the file's tensor must have for our parameter of ``shape``."""
    if src.how == "T":
        return tuple(reversed(shape))
    if src.how == "cols":
        return (*shape[:-1], shape[-1] * src.parts)
    return shape


def transform(src: Source, t: torch.Tensor) -> torch.Tensor:
    if src.how == "T":
        return t.T  # (out, in) → (in, out)
    if src.how == "cols":
        n = t.shape[-1] // src.parts
        return t[..., src.part * n : (src.part + 1) * n]
    return t


# ----------------------------------------------------------------------------------------------- tensors


class TensorFiles:
    """Every tensor of a folder by name, read lazily from (possibly sharded) safetensors or PyTorch files."""

    _PREFIXES = ("", "model.", "transformer.")

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._stack = ExitStack()
        self._handles: dict[Path, Any] = {}
        self._where: dict[str, Path] = {}
        self._torch: dict[str, torch.Tensor] | None = None
        self._scan()
        self._keys = frozenset(self._torch) if self._torch is not None else frozenset(self._where)

    def _scan(self) -> None:
        folder = self.folder
        index = folder / "model.safetensors.index.json"
        files: list[Path]
        if is_regular(index, ModelLoadError):
            weight_map = _read_json(index).get("weight_map")
            if not isinstance(weight_map, dict):
                raise ModelLoadError(f"{index} has no weight_map")
            for key, fname in weight_map.items():
                # A shard is a file beside the index: a list, a path elsewhere (/etc/…, ../) is not one.
                if not isinstance(fname, str) or not fname or Path(fname).name != fname or fname in (".", ".."):
                    raise ModelLoadError(f"{index.name}: weight_map[{str(key)[:60]!r}] must name a file in {folder.name}, got {str(fname)[:60]!r}")
                self._where[key] = folder / fname
            files = sorted(set(self._where.values()))
            for f in files:
                check_regular(f, ModelLoadError, missing=f"{index.name} names {f.name}, which is not in {folder}")
            return
        files = sorted(folder.glob("*.safetensors"))
        if files:
            for f in files:
                check_regular(f, ModelLoadError)  # a FIFO here blocked the window's worker forever
                for key in self._open(f).keys():
                    self._where.setdefault(key, f)
            return
        bins = sorted(folder.glob("pytorch_model*.bin"))
        if bins:
            import pickle

            self._torch = {}
            for f in bins:
                check_regular(f, ModelLoadError)
                try:
                    try:
                        state = torch.load(f, map_location="cpu", weights_only=True, mmap=True)
                    except RuntimeError:  # the legacy (pre-zip) format cannot be memory-mapped
                        state = torch.load(f, map_location="cpu", weights_only=True)
                except pickle.UnpicklingError as exc:
                    if "Weights only load failed" in str(exc):
                        raise ModelLoadError(f"{f.name} contains Python objects (pickle), which are never loaded; "
                                             "use the model's .safetensors weights") from None
                    raise ModelLoadError(f"cannot read {f.name} as a PyTorch checkpoint ({_first_line(exc)})") from None
                except Exception as exc:  # zip and torch errors alike
                    raise ModelLoadError(f"cannot read {f.name} as a PyTorch checkpoint ({_first_line(exc)})") from None
                if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
                    raise ModelLoadError(f"{f.name} does not hold a dictionary of tensors")
                self._torch.update(state)
            return
        raise ModelLoadError(f"{folder} has no *.safetensors (or pytorch_model.bin) weights")

    def _open(self, f: Path):
        if f not in self._handles:
            from safetensors import safe_open

            try:
                self._handles[f] = self._stack.enter_context(safe_open(str(f), framework="pt"))
            except Exception as exc:  # SafetensorError, OSError
                raise ModelLoadError(f"cannot read {f.name}: {_first_line(exc)} (is the file complete?)") from None
        return self._handles[f]

    def keys(self) -> frozenset[str]:
        return self._keys

    def resolve(self, key: str) -> str | None:
        """The stored name of ``key``, allowing the 'model.' / 'transformer.' prefix of *ForCausalLM."""
        for prefix in self._PREFIXES:
            if prefix + key in self._keys:
                return prefix + key
        return None

    def shape(self, stored: str) -> tuple[int, ...]:
        if self._torch is not None:
            return tuple(self._torch[stored].shape)
        return tuple(self._open(self._where[stored]).get_slice(stored).get_shape())

    def get(self, stored: str) -> torch.Tensor:
        if self._torch is not None:
            return self._torch[stored]
        f = self._where[stored]
        try:
            return self._open(f).get_tensor(stored)
        except Exception as exc:
            raise ModelLoadError(f"cannot read tensor {stored} from {f.name}: {_first_line(exc)} (is the file complete?)") from None

    def close(self) -> None:
        self._stack.close()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _read_json(path: Path) -> dict:
    data = read_json(path, ModelLoadError, MAX_JSON_BYTES)  # bounded; a FIFO, deep nesting or 5000 digits are one line
    if not isinstance(data, dict):
        raise ModelLoadError(f"{path} does not hold a JSON object")
    return data


# ----------------------------------------------------------------------------------------------- tokenizer


def load_hf_tokenizer(folder: Path) -> Tokenizer:
    """tokenizer.json, or GPT-2's older vocab.json + merges.txt pair."""
    tj = folder / "tokenizer.json"
    if is_regular(tj, ModelLoadError):
        return Tokenizer.from_file(tj, kind="hf")
    vocab, merges = folder / "vocab.json", folder / "merges.txt"
    if is_regular(vocab, ModelLoadError) and is_regular(merges, ModelLoadError):
        import tokenizers
        from tokenizers import decoders, models, pre_tokenizers, processors

        try:
            bpe = models.BPE.from_file(str(vocab), str(merges))
        except Exception as exc:
            raise ModelLoadError(f"cannot read {vocab.name} / {merges.name}: {_first_line(exc)}") from None
        hf = tokenizers.Tokenizer(bpe)
        hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        hf.decoder = decoders.ByteLevel()
        hf.post_processor = processors.ByteLevel(trim_offsets=False)
        return Tokenizer(hf, "hf")
    raise ModelLoadError(f"{folder} has no tokenizer.json (nor vocab.json + merges.txt): the text cannot be turned into tokens")


# ----------------------------------------------------------------------------------------------- loading


def load_hf_folder(
    path: str | Path, progress: Progress | None = None, cancel: threading.Event | None = None
) -> ModelBundle:
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise ModelLoadError(f"no such folder: {folder}")
    data = _read_json(folder / "config.json")
    cfg = config_from_hf(data, f"{folder.name}/config.json")
    tokenizer = load_hf_tokenizer(folder)
    if tokenizer.vocab_size > cfg.vocab_size:
        raise ModelLoadError(
            f"{folder.name}: the tokenizer has {tokenizer.vocab_size} tokens but the model only {cfg.vocab_size} embeddings"
        )
    check_cancel(cancel)

    if cfg.family == "gpt2":
        sources = gpt2_sources(cfg)
    else:
        sources = llama_sources(cfg, llama_biases(data))
    files = TensorFiles(folder)
    try:
        model = _fill(cfg, sources, files, folder, progress, cancel)
    finally:
        files.close()
    try:  # shown and written into snapshots: only valid text (no lone surrogate), else the folder's name
        name = _name(data, "_name_or_path", "", folder.name) or folder.name
    except ModelLoadError:
        name = folder.name
    return ModelBundle(cfg, tokenizer, model, f"hf:{folder}", None, name=Path(name).name or folder.name, editable_sizes=False)


def _fill(
    cfg: ModelConfig, sources: dict[str, Source], files: TensorFiles, folder: Path,
    progress: Progress | None, cancel: threading.Event | None,
) -> torch.nn.Module:
    origin = folder.name
    filler = Filler(cfg, origin)
    # Check every name and shape before reading any data: a wrong file fails at once, naming the tensor.
    stored: dict[str, str] = {}
    for ours, src in sources.items():
        if src.how == "zeros":
            continue
        found = files.resolve(src.key)
        if found is None:
            raise ModelLoadError(f"{origin}: tensor {src.key} is missing from the weights (needed for {ours})")
        check_shape(origin, found, files.shape(found), source_shape(src, filler.shape(ours)), "config.json")
        stored[ours] = found
    keys = sorted({stored[o] for o in stored})
    total = len(keys)
    report(progress, 0, total, "reading weights")
    by_key: dict[str, list[str]] = {}
    for ours, key in stored.items():
        by_key.setdefault(key, []).append(ours)
    for done, key in enumerate(keys, 1):
        check_cancel(cancel)
        t = files.get(key)
        for ours in by_key[key]:
            filler.put(ours, transform(sources[ours], t), key)
        report(progress, done, total, key)
    for ours, src in sources.items():
        if src.how == "zeros":
            filler.zero(ours)
    return filler.finish()
