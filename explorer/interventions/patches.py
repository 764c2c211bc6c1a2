"""Interventions → patch functions at the model's capture points (name → tensor → tensor).

Each function returns a new tensor (never edits the one it is given), and several interventions on one name
are applied one after the other, in the order they were listed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import torch

from explorer import names
from explorer.config import ModelConfig
from explorer.errors import ConfigError
from explorer.interventions.spec import EdgeCut, HeadAblation, Interventions, PatchSpec, patchable

Patch = Callable[[torch.Tensor], torch.Tensor]


def allowed_name(layer: int) -> str:
    """The (non-public) capture point where the attention of ``layer`` reads its mask (model.capture)."""
    return f"layers.{layer}.attn.allowed"


def _check_layer_head(cfg: ModelConfig, layer: int, head: int, option: str, spelled: str) -> None:
    if not 0 <= layer < cfg.layers:
        raise ConfigError(
            f"{option} {spelled}: layer {layer} does not exist: the model has layers 0 … {cfg.layers - 1}"
        )
    if not 0 <= head < cfg.H:
        raise ConfigError(f"{option} {spelled}: head {head} does not exist: layers have heads 0 … {cfg.H - 1}")


def _ablate(a: HeadAblation, lengths: Sequence[int]) -> Patch:
    def fn(heads: torch.Tensor) -> torch.Tensor:  # (B, H, C, D_v), the note's Rⁱ side by side
        out = heads.clone()
        if a.mode == "zero":
            out[:, a.head] = 0.0
        else:  # the head's mean over the real (unpadded) positions of each sentence, at every position
            for b, n in enumerate(lengths):
                out[b, a.head] = heads[b, a.head, :n].mean(dim=0)  # (D_v,) broadcast over C
        return out

    return fn


def _cut(cuts: Sequence[EdgeCut], H: int) -> Patch:
    def fn(allowed: torch.Tensor) -> torch.Tensor:  # (B, C, C) shared by the heads → (B, H, C, C)
        B, C = allowed.shape[0], allowed.shape[-1]
        per_head = (allowed.unsqueeze(1) if allowed.dim() == 3 else allowed).expand(B, H, C, C).clone()
        for c in cuts:
            per_head[:, c.head, c.query, c.key] = False  # −∞ before the softmax for this one cell
        return per_head

    return fn


def _axes(name: str, cfg: ModelConfig) -> tuple[int | None, int | None, int | None]:
    """(position axis, head axis, per-head width for a heads-side-by-side last axis) of a public name."""
    labels = names.spec(name).labels
    pos = labels.index("C") if "C" in labels else None
    head = next((i for i, l in enumerate(labels) if l in ("H", "H_kv")), None)
    width = None
    if head is None and labels and labels[-1].startswith("H·"):
        head, width = len(labels) - 1, cfg.D_v if labels[-1] == "H·D_v" else cfg.D
    return pos, head, width


def _activation_patch(p: PatchSpec, source: np.ndarray, cfg: ModelConfig) -> Patch:
    pos_axis, head_axis, width = _axes(p.name, cfg)

    def fn(t: torch.Tensor) -> torch.Tensor:
        src = torch.from_numpy(np.array(source)).to(device=t.device, dtype=t.dtype)
        if p.positions is None and p.heads is None:
            return src
        keep = torch.ones(t.shape, dtype=torch.bool, device=t.device)  # True where the source is taken
        for axis, chosen, per in ((pos_axis, p.positions, None), (head_axis, p.heads, width)):
            if chosen is None:
                continue
            sel = torch.zeros(t.shape[axis], dtype=torch.bool, device=t.device)
            for i in chosen:
                if per:  # heads side by side in the last axis (concat): head i is a block of columns
                    sel[i * per : (i + 1) * per] = True
                else:
                    sel[i] = True
            shape = [1] * t.dim()
            shape[axis] = -1
            keep = keep & sel.view(shape)
        return torch.where(keep, src, t)

    return fn


def _check_patch(p: PatchSpec, cfg: ModelConfig, C: int) -> None:
    if not patchable(p.name):
        raise ConfigError(
            f"--patch {p.name}: not an activation that can be patched (any public activation name except "
            "tokens, mask, the (C, C) maps and probs, e.g. layers.0.out or layers.1.attn.heads)"
        )
    layer = names.layer_of(p.name)
    if layer is not None and layer >= cfg.layers:
        raise ConfigError(f"--patch {p.name}: layer {layer} does not exist: the model has layers 0 … {cfg.layers - 1}")
    pos_axis, head_axis, width = _axes(p.name, cfg)
    if p.positions is not None:
        if pos_axis is None:
            raise ConfigError(f"--patch {p.name}: this tensor has no position axis; drop the @positions")
        bad = [i for i in p.positions if i >= C]
        if bad:
            raise ConfigError(f"--patch {p.name}: position {bad[0]} does not exist: the text has positions 0 … {C - 1}")
    if p.heads is not None:
        if head_axis is None:
            raise ConfigError(f"--patch {p.name}: this tensor has no head axis; drop the #heads")
        n = cfg.H_kv if names.spec(p.name).labels[head_axis] == "H_kv" else cfg.H
        bad = [h for h in p.heads if h >= n]
        if bad:
            raise ConfigError(f"--patch {p.name}: head {bad[0]} does not exist: it has heads 0 … {n - 1}")


def build_patches(
    iv: Interventions, cfg: ModelConfig, lengths: Sequence[int], C: int, source: Mapping[str, np.ndarray] | None
) -> dict[str, Patch]:
    """The patch functions of ``iv`` by capture-point name. ``source`` holds the patch source's activations
    (a Trace of the other text) when ``iv`` patches anything. Refuses heads, layers and positions that do
    not exist with one-line ConfigErrors."""
    chain: dict[str, list[Patch]] = {}
    for a in iv.ablations:
        _check_layer_head(cfg, a.layer, a.head, "--ablate", f"{a.layer}.{a.head}")
        chain.setdefault(names.attn(a.layer, "heads"), []).append(_ablate(a, lengths))
    by_layer: dict[int, list[EdgeCut]] = {}
    for c in iv.cuts:
        spelled = f"{c.layer}.{c.head}:{c.query}:{c.key}"
        _check_layer_head(cfg, c.layer, c.head, "--cut", spelled)
        if not (c.query < C and c.key < C):
            raise ConfigError(f"--cut {spelled}: positions run 0 … {C - 1} for this text")
        by_layer.setdefault(c.layer, []).append(c)
    for layer, cuts in by_layer.items():
        chain.setdefault(allowed_name(layer), []).append(_cut(cuts, cfg.H))
    if iv.patches and source is None:
        raise ConfigError("--patch needs --patch-from TEXT2: the text whose activations are patched in")
    for p in iv.patches:
        _check_patch(p, cfg, C)
        chain.setdefault(p.name, []).append(_activation_patch(p, source[p.name], cfg))
    return {name: _compose(fns) for name, fns in chain.items()}


def _compose(fns: list[Patch]) -> Patch:
    if len(fns) == 1:
        return fns[0]

    def fn(t: torch.Tensor) -> torch.Tensor:
        for f in fns:
            t = f(t)
        return t

    return fn
