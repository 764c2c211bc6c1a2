"""The whole language model of the note: Embed → [Attention + FFN] × L → Linear → Softmax.

Token ids (B, C) come in; C next-token distributions per sentence (B, C, V) come out. Row i of a sentence
is the distribution of the token that follows tokens 0..i.
"""

from __future__ import annotations

import torch
from torch import nn

from explorer.config import ModelConfig
from explorer.model.block import Block
from explorer.model.capture import Captured, assign_prefixes
from explorer.model.embedding import Embedding
from explorer.model.kv_cache import KVCache
from explorer.model.linear import affine
from explorer.model.mask import empty_rows
from explorer.model.mlm_head import MLMHead
from explorer.model.norm import HALF, RMSNorm, make_norm
from explorer.model.positions import Rope, rope_cos_sin
from explorer.model.score_transforms import sliding, soft_cap


class Unembed(nn.Module):
    """(B, C, E) → (B, C, V) scores. Tied models reuse the embedding table, transposed."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.W_u = None if cfg.tie_embeddings else nn.Parameter(torch.empty(cfg.E, cfg.V))
        self.b_u = nn.Parameter(torch.zeros(cfg.V)) if cfg.unembed_bias else None


class Transformer(Captured):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.embed = Embedding(cfg)
        self.layers = nn.ModuleList(Block(cfg, l) for l in range(cfg.layers))
        self.ln_final = make_norm(cfg.norm, cfg.E, cfg.norm_eps) if cfg.final_norm else None
        self.mlm = MLMHead(cfg) if cfg.mlm_head else None
        self.unembed = Unembed(cfg)
        assign_prefixes(self)
        if cfg.half_norm_weight_float32:  # γ × in float32 in a half run (model/norm.py)
            for m in self.modules():
                if isinstance(m, RMSNorm):
                    m.float32_weight = True

    def _ropes(self, start: int, C: int, device, dtype) -> dict[tuple, Rope]:
        """The new positions' RoPE tables for each (base, scaling) the layers use (Gemma 3: a local base,
        unscaled, for its sliding layers): (C, R) cosines, sines and angles. Empty without rotary
        positions. Dynamic and longrope scaling depend on start + C, the positions seen so far."""
        if self.cfg.positions != "rope":
            return {}
        kinds = {self._rope_key(l) for l in range(self.cfg.layers)}
        return {key: rope_cos_sin(start + C, self.cfg.R, key[0], device, dtype, key[1], start) for key in kinds}

    def _rope_key(self, layer: int) -> tuple:
        return self.cfg.rope_theta_of(layer), self.cfg.rope_scaling_of(layer)

    def W_u(self) -> torch.Tensor:
        """The (E, V) unembedding in the note's orientation (the embedding table transposed when tied)."""
        return self.embed.tok.T if self.unembed.W_u is None else self.unembed.W_u

    def forward(
        self,
        ids: torch.Tensor,
        allowed: torch.Tensor | None = None,
        scale: bool = True,
        layers: int | None = None,
        cache: KVCache | None = None,
        empty: torch.Tensor | None = None,
        segments: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """Logits (B, C, V). ``allowed`` (B, C, C) defaults to causal; ``layers`` stops early (None: all).
        Under a trace that derives its logits (explorer/trace/logits.py), final.out (B, C, E) instead.

        With ``cache`` (generation), ``ids`` are the new tokens only, at positions cache.length …; their
        keys and values are appended to the cache and ``allowed`` is (B, C, cache.length + C). ``empty``
        (B, 1, C, 1), the queries that see no key (mask.empty_rows), is computed here when not given.
        ``segments`` (B, C): each token's sentence (0 or 1) for models with a segment table (BERT).
        """
        B, C = ids.shape  # ids: (B, C)
        start = cache.length if cache is not None else 0  # positions already in the cache
        if allowed is None:
            i = torch.arange(start, start + C, device=ids.device).unsqueeze(1)  # (C, 1) query positions
            j = torch.arange(start + C, device=ids.device).unsqueeze(0)  # (1, start + C) key positions
            allowed = (j <= i).expand(B, C, start + C)  # (B, C, start + C): causal
        if empty is None:
            empty = empty_rows(allowed)  # (B, 1, C, 1): once for every layer
        x = self.embed(ids, start, segments)  # (B, C, E)
        # OLMo 2 turns half q and k by float32 cosines and sines, then rounds (transformers' Olmo2 does)
        turn = torch.float32 if self.cfg.half_rope_float32 and x.dtype in HALF else x.dtype
        ropes = self._ropes(start, C, ids.device, turn)  # (base, scaling) → Rope, or {}
        window = None  # the sliding layers' mask, made once (explorer/model/score_transforms.py)
        if self.cfg.sliding_layers:
            window = sliding(allowed, self.cfg.sliding_window, start)  # (B, C, start + C)
            window_empty = empty_rows(window)  # (B, 1, C, 1)
        for index, block in enumerate(list(self.layers)[:layers]):
            kv = cache.layers[index] if cache is not None else None
            rope = ropes.get(self._rope_key(index))
            if self.cfg.is_sliding(index):
                x = block(x, window, scale, rope, kv, window_empty)  # (B, C, E)
            else:
                x = block(x, allowed, scale, rope, kv, empty)  # (B, C, E)
        if self.ln_final is not None:
            x = self.ln_final(x)
        x = self.capture("final.out", x)
        if self._sink is not None and self._sink.derives_logits:
            return x  # (B, C, E): the trace computes final.out · W_u when read (explorer/trace/logits.py)
        if self.mlm is not None:  # an encoder's masked-LM head
            x = self.mlm(x)  # (B, C, E)
        logits = affine(x, self.W_u(), self.unembed.b_u)  # (B, C, E) · (E, V) → (B, C, V)
        if self.cfg.logit_softcap is not None:  # Gemma 2: c·tanh(z / c) keeps every logit inside (−c, c)
            logits = soft_cap(self.capture("logits.uncapped", logits), self.cfg.logit_softcap)  # (B, C, V)
        # probs = softmax(logits / T) is derived by the Trace when read: (B, C, V) is its largest array
        return self.capture("logits", logits)
