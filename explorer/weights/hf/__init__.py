"""Open a Hugging Face model folder offline: config.json + *.safetensors + tokenizer.json.

Families: GPT-2 (learned positions, LayerNorm, GELU, biases, tied embeddings) and Llama (RoPE, RMSNorm,
SiLU-gated FFN, grouped-query attention), with Llama's plain relatives Mistral and Qwen 2; Qwen 3, Gemma 1–3,
Phi-3, OLMo 2, the mixtures of experts Mixtral, Qwen-MoE and OLMoE (each expert's tensors stacked into one
parameter), GPT-NeoX (Pythia) and the encoders BERT, RoBERTa and DistilBERT, each declared in its module
of ``explorer/families/`` (config.json fields, refusals, tensor names). The weights go
into the same readable ``Transformer`` as the configurable model, so a real model is traced with the same
stages and names.

Orientation. The note writes x · W_q with W_q of shape (E, H·D). GPT-2's Conv1D already stores (in, out);
its fused c_attn (E, 3E) is W_q, W_k and W_v side by side. Llama's nn.Linear stores (out, in): transposed
here. Nothing here imports ``transformers``; it is only the tests' oracle.

The parts: ``config`` (config.json → ModelConfig), ``sources`` (the file's tensor turned as declared), ``files``
(the tensors on disk), ``tokenizer``; this module joins them.
"""

from __future__ import annotations

import threading
from pathlib import Path

import torch

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families import hf_family
from explorer.families.hf_fields import rope_settings, text_field
from explorer.families.llama_kind import config_biases
from explorer.weights.bundle import ModelBundle
from explorer.weights.hf.config import SUPPORTED, config_from_hf
from explorer.weights.hf.files import TensorFiles, read_config_json
from explorer.weights.hf.sources import Source, source_shape, transform
from explorer.weights.hf.tokenizer import load_hf_tokenizer
from explorer.weights.real_models import Filler, Progress, check_cancel, check_shape, kept_dtype, report

__all__ = [
    "SUPPORTED",
    "Source",
    "TensorFiles",
    "config_from_hf",
    "llama_biases",
    "load_hf_folder",
    "load_hf_tokenizer",
    "rope_settings",
    "source_shape",
    "transform",
]


def load_hf_folder(
    path: str | Path, progress: Progress | None = None, cancel: threading.Event | None = None, dtype: str = "float32"
) -> ModelBundle:
    """The model in ``folder``; ``dtype``: the run's, which a model stored in that half dtype is kept in
    (explorer/weights/real_models.py's ``kept_dtype``), else float32."""
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise ModelLoadError(f"no such folder: {folder}")
    data = read_config_json(folder / "config.json")
    cfg = config_from_hf(data, f"{folder.name}/config.json")
    tokenizer = load_hf_tokenizer(folder, specials=cfg.bidirectional)
    # Its largest id (vocabulary, added tokens, an encoder template's [SEP]) and token type, not its count.
    tokenizer.check_fits(cfg.vocab_size, cfg.segments, f"{folder.name}/tokenizer.json")
    check_cancel(cancel)

    files = TensorFiles(folder)
    try:
        cfg = untied_where_stored(cfg, data, files)
        sources = _sources(cfg, data)
        stored = _stored_dtypes(sources, files)
        model = _fill(cfg, sources, files, folder, progress, cancel, kept_dtype(stored, dtype))
    finally:
        files.close()
    try:  # shown and written into snapshots: only valid text (no lone surrogate), else the folder's name
        name = text_field(data, "_name_or_path", "", folder.name) or folder.name
    except ModelLoadError:
        name = folder.name
    return ModelBundle(
        cfg,
        tokenizer,
        model,
        f"hf:{folder}",
        None,
        name=Path(name).name or folder.name,
        editable_sizes=False,
        stored=", ".join(sorted(stored)) or "float32",
    )


def _stored_dtypes(sources: dict[str, Source], files: TensorFiles) -> set[str]:
    """The dtypes the file stores the model's matrices in (from the headers: nothing is read yet). Its vectors
    (norms, biases) may be float32 beside half matrices; they are then rounded like the rest."""
    found = (_resolve(files, src.key) for src in sources.values() if src.how != "zeros")
    return {files.dtype(key) for key in found if key is not None and len(files.shape(key)) >= 2}


def _sources(cfg: ModelConfig, data: dict) -> dict[str, Source]:
    """Our parameter name → where it is in this family's checkpoint (config_from_hf found the family)."""
    return hf_family(data["model_type"]).hf_sources(cfg, data)


def untied_where_stored(cfg: ModelConfig, data: dict, files: TensorFiles) -> ModelConfig:
    """transformers 5 ties the unembedding to the embedding (tie_word_embeddings) only where the checkpoint
    does not store one of its own that differs: then the stored lm_head (or decoder) is what it uses."""
    if not cfg.tie_embeddings:
        return cfg
    untied = cfg.replace(tie_embeddings=False)
    sources = _sources(untied, data)
    head, embed = sources.get("unembed.W_u"), sources.get("embed.tok")
    if head is None or embed is None:
        return cfg
    found_head, found_embed = _resolve(files, head.key), _resolve(files, embed.key)
    if found_head is None or found_embed is None:
        return cfg
    same = files.shape(found_head) == files.shape(found_embed) and torch.equal(
        files.get(found_head), files.get(found_embed)
    )
    return cfg if same else untied


def llama_biases(data: dict) -> frozenset[str]:
    """Which projections of a Llama-like model have biases (q, k, v, o, mlp): the family's own where it fixes
    them (Qwen 2: q, k, v), else what the config says (attention_bias, mlp_bias)."""
    family = hf_family(data.get("model_type"))
    if family is not None and family.biases is not None:
        return family.biases
    return config_biases(data)


def _resolve(files: TensorFiles, key: str) -> str | None:
    """The stored name of a source key, trying each alternative of "a|b" in turn."""
    return next((found for alt in key.split("|") if (found := files.resolve(alt)) is not None), None)


def _parts(src: Source) -> list[tuple[int | None, str]]:
    """The file's tensors of one parameter: its one key, or expert e's of a stacked one ("experts": e = 0 …)."""
    if src.how == "experts":
        return [(e, src.key.format(e=e)) for e in range(src.parts)]
    return [(None, src.key)]


def _fill(
    cfg: ModelConfig,
    sources: dict[str, Source],
    files: TensorFiles,
    folder: Path,
    progress: Progress | None,
    cancel: threading.Event | None,
    dtype: str = "float32",
) -> torch.nn.Module:
    origin = folder.name
    filler = Filler(cfg, origin, dtype)
    # Check every name and shape before reading any data: a wrong file fails at once, naming the tensor.
    stored: dict[tuple[str, int | None], str] = {}  # (ours, expert or None) → the file's tensor
    for ours, src in sources.items():
        if src.how == "zeros":
            continue
        for part, key in _parts(src):
            found = _resolve(files, key)
            if found is None:
                raise ModelLoadError(
                    f"{origin}: tensor {key.split('|')[0]} is missing from the weights (needed for {ours})"
                )
            check_shape(origin, found, files.shape(found), source_shape(src, filler.shape(ours)), "config.json")
            stored[ours, part] = found
    keys = sorted(set(stored.values()))
    total = len(keys)
    report(progress, 0, total, "reading weights")
    by_key: dict[str, list[tuple[str, int | None]]] = {}
    for target, key in stored.items():
        by_key.setdefault(key, []).append(target)
    for done, key in enumerate(keys, 1):
        check_cancel(cancel)
        t = files.get(key)
        for ours, part in by_key[key]:
            if part is None:
                filler.put(ours, transform(sources[ours], t), key)
            else:
                filler.put_part(ours, part, transform(sources[ours], t), key)
        report(progress, done, total, key)
    for ours, src in sources.items():
        if src.how == "zeros":
            filler.zero(ours)
    return filler.finish()
