"""What the Model view shows of one layer of a long text, streamed from the trace's q and k a band of query
rows at a time, every head of the band at once, so that no head's (C, C) map, nor a layer's (H, C, C), ever
exists (a 1B-parameter model's 32 heads at 2,048 tokens are 512 MiB a layer as maps):

    thumbs        each f × f block's largest cell of the shown stage (the head grid's ``matrices.pooled``)
    low, high     the stage's smallest and largest finite cell over every head (its colour levels)
    samples       the weights at chosen cells (the weights' clipped colour scale is a quantile of them)
    row_entropy   −Σⱼ Aᵢⱼ ln Aᵢⱼ of each query row, from its scores: ln Zᵢ − Σⱼ Aᵢⱼ (sᵢⱼ − mᵢ), one exp a cell
    previous      Aᵢ,ᵢ₋₁ (0 for row 0)        first   Aᵢ₀

A band holds every key its rows see, so its softmax is whole: Aᵢⱼ = exp(sᵢⱼ − mᵢ) / Zᵢ with mᵢ the row's
largest score and Zᵢ = Σⱼ exp(sᵢⱼ − mᵢ). Keys no row of the band sees (a causal band's future) are never
computed: their weight is 0 by the mask alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from explorer import names
from explorer.trace.layer_mask import allowed_block

# One band's scores of every head (a second buffer of the same size holds their exponentials).
BAND_BYTES = 32 * 1024**2
# Blocked cells during the pass: exp() of it is 0 as of −∞, and 0 · LOWEST is 0 where 0 · −∞ is NaN.
LOWEST = -1e30


@dataclass(frozen=True)
class LayerGlance:
    thumbs: np.ndarray  # (H, t, t) float32, t = ceil(n / block)
    low: float  # smallest finite cell of the shown stage, every head
    high: float  # largest finite cell
    samples: np.ndarray  # (H, s) float32: the weights at the sampled cells
    row_entropy: np.ndarray  # (H, n) float64, nats
    previous: np.ndarray  # (H, n) float64
    first: np.ndarray  # (H, n) float64


def streams(trace, layer: int) -> bool:
    """True when this layer's maps come from stored q and k (a lazy trace), which this module reads."""
    stored = trace.stored_names()
    return names.attn(layer, "weights") not in stored and all(
        n in stored for n in names.qk(layer, trace.config.positions)
    )


def band_rows(H: int, n: int, block: int) -> int:
    """Query rows per band: whole blocks of thumbnail rows, the band's scores under BAND_BYTES."""
    return max(block, BAND_BYTES // (4 * H * n) // block * block)


def glance_layer(trace, layer: int, stage: str, b: int, n: int, block: int, cells: tuple) -> LayerGlance:
    """The layer's glance for sentence b's first n tokens, thumbnails of ``block`` tokens a cell; ``cells``:
    (rows, cols) of the cells whose weights are sampled."""
    import torch

    cfg = trace.config
    H = cfg.H
    step = band_rows(H, n, block)
    t = math.ceil(n / block)
    sample_rows, sample_cols = cells
    out = _Glance(H, n, t, stage, len(sample_rows))
    with torch.inference_mode(), _free_cores():
        for r0 in range(0, n, step):
            r1 = min(n, r0 + step)
            chosen = np.flatnonzero((sample_rows >= r0) & (sample_rows < r1))
            band = _Band(trace, layer, b, (r0, r1), n if stage != "weights" else None, block)
            band.run(stage, out, sample_rows[chosen] - r0, sample_cols[chosen], chosen)
    return out.finish()


@contextmanager
def _free_cores() -> Iterator[None]:
    """As many threads as the cores other programs leave free (explorer/util/cpu_share.py), at least one. A
    band is some ten operations: split over two threads on a busy two-core machine, each waited for the second
    thread's turn (at load 11 a 1B layer at 2,048 tokens took 3.8 s on two threads, 1.1 s on one); on a quiet
    one two threads are faster (0.59 s against 0.84 s). The numbers of a glance may differ in the last bits
    with the count: they are drawn, not traced."""
    import torch

    from explorer.util import cpu_share
    from explorer.util.threads import default_threads

    watch = cpu_share.watch()
    before = torch.get_num_threads()
    torch.set_num_threads(max(1, min(default_threads(), watch.cores - watch.taken())))
    try:
        yield
    finally:
        torch.set_num_threads(before)


class _Glance:
    """The glance's arrays, filled band by band."""

    def __init__(self, H: int, n: int, t: int, stage: str, samples: int) -> None:
        blank = 0.0 if stage == "weights" else -np.inf  # cells never computed: weight 0 (only weights skips any)
        self.thumbs = np.full((H, t, t), blank, np.float32)
        self.low, self.high = np.inf, -np.inf
        self.entropy = np.zeros((H, n))
        self.previous = np.zeros((H, n))
        self.first = np.zeros((H, n))
        self.samples = np.zeros((H, samples), np.float32)

    def finish(self) -> LayerGlance:
        return LayerGlance(
            self.thumbs, float(self.low), float(self.high), self.samples, self.entropy, self.previous, self.first
        )


class _Band:
    """One band of query rows r0 … r1 − 1 of every head, against keys 0 … width − 1."""

    def __init__(self, trace, layer: int, b: int, rows: tuple[int, int], width: int | None, block: int) -> None:
        import torch

        cfg = trace.config
        self.rows, self.block, self.cfg = rows, block, cfg
        self.H, self.groups = cfg.H, cfg.H // cfg.H_kv
        allowed = np.array(allowed_block(trace["mask"], cfg, layer, b, rows, (0, trace.C)), dtype=bool)
        if width is None:  # weights alone: the keys after the last one these rows see have weight 0
            seen = _span(allowed)[1]
            width = min(trace.C, max(block, math.ceil(seen / block) * block))
        self.allowed = allowed[:, :width]  # (r, w) numpy: its reductions are several times torch's on booleans
        self.no_key = ~self.allowed.any(axis=1)  # (r,) a query that sees no key: weights 0, entropy 0
        q_name, k_name = names.qk(layer, cfg.positions)
        q = torch.from_numpy(np.array(trace[q_name][b, :, rows[0] : rows[1]]))  # (H, r, D)
        self.k = torch.from_numpy(np.array(trace[k_name][b, :, :width]))  # (H_kv, w, D)
        self.q = q.reshape(cfg.H_kv, self.groups * q.shape[1], q.shape[2])  # a key head's query heads together
        self.root = math.sqrt(cfg.score_dim) if trace.options.scale else None

    def scores(self):
        """(H, r, w) scores of the stage "scaled": q · kᵀ / √D (q divided first: one pass less over the band)."""
        import torch

        q = self.q if self.root is None else self.q / self.root
        S = torch.matmul(q, self.k.transpose(1, 2))  # (H_kv, g·r, D) · (H_kv, D, w)
        return S.view(self.H, -1, S.shape[-1])

    def run(self, stage: str, out: _Glance, s_rows: np.ndarray, s_cols: np.ndarray, chosen: np.ndarray) -> None:
        import torch

        from explorer.model.score_transforms import soft_cap

        S = self.scores()
        if stage in ("scores", "scaled"):
            factor = self.root if stage == "scores" and self.root is not None else 1.0
            self._shown(out, _row_blocks(S, self.block) * factor, float(S.amin()) * factor)
        if self.cfg.attn_softcap is not None:
            S = soft_cap(S, self.cfg.attn_softcap)
        blocked = ~self.allowed
        k0, k1 = _span(blocked)
        if k1 > k0:  # only the keys some row of the band may not see (a causal band: its diagonal square)
            S[:, :, k0:k1].masked_fill_(torch.from_numpy(np.ascontiguousarray(blocked[:, k0:k1])), LOWEST)
        M = _row_blocks(S, self.block)  # (H, r, t_w) each row's largest score of each block of keys
        if stage == "masked":
            finite = torch.where(S > LOWEST / 2, S, torch.inf).amin()
            self._shown(out, M.masked_fill(M <= LOWEST / 2, -torch.inf), float(finite))
        self._weights(S, M, stage, out, s_rows, s_cols, chosen)

    def _weights(self, S, M, stage: str, out: _Glance, s_rows, s_cols, chosen) -> None:
        import torch

        r0, r1 = self.rows
        m = M.amax(-1, keepdim=True)  # (H, r, 1)
        T = S.sub_(m)  # sᵢⱼ − mᵢ: ≤ 0, about LOWEST where blocked
        E = torch.exp(T)
        Z = E.sum(-1)  # (H, r)
        ET = E.mul_(T).sum(-1)  # Σⱼ exp(tᵢⱼ) tᵢⱼ (0 · LOWEST = 0 at the blocked cells)
        log_z = torch.log(Z)
        entropy = log_z - ET / Z
        if self.no_key.any():
            no_key = torch.from_numpy(self.no_key)
            log_z[:, no_key], entropy[:, no_key] = torch.inf, 0.0
        out.entropy[:, r0:r1] = entropy.double().numpy()
        out.first[:, r0:r1] = torch.exp(T[:, :, 0] - log_z).double().numpy()
        i = np.arange(max(r0, 1), r1)
        inside = i - 1 < T.shape[-1]
        i = i[inside]
        previous = torch.exp(T[:, i - r0, i - 1] - log_z[:, i - r0])
        out.previous[:, i] = previous.double().numpy()
        if stage == "weights":
            W = torch.exp(M - (m + log_z.unsqueeze(-1)))  # (H, r, t_w) each block's largest weight in each row
            self._shown(out, W, 0.0)
        self._sample(T, log_z, out, s_rows, s_cols, chosen)

    def _sample(self, T, log_z, out: _Glance, s_rows, s_cols, chosen) -> None:
        import torch

        inside = s_cols < T.shape[-1]  # the rest lie after every key the band sees: weight 0
        rows, cols = torch.from_numpy(s_rows[inside]), torch.from_numpy(s_cols[inside])
        values = torch.exp(T[:, rows, cols] - log_z[:, rows])
        out.samples[:, chosen[inside]] = values.float().numpy()

    def _shown(self, out: _Glance, row_blocks, low: float) -> None:
        """A band's (H, r, t_w) row-wise block maxima into the thumbnails, and its range into the levels."""
        import torch

        blocks = _column_blocks(row_blocks, self.block)  # (H, r / f, t_w)
        first = self.rows[0] // self.block
        out.thumbs[:, first : first + blocks.shape[1], : blocks.shape[2]] = blocks.float().numpy()
        finite = blocks[torch.isfinite(blocks)]
        if finite.numel():
            out.high = max(out.high, float(finite.max()))
        out.low = min(out.low, low)


def _span(cells: np.ndarray) -> tuple[int, int]:
    """The first and one past the last column with a True cell in the band ((0, 0): none)."""
    where = np.flatnonzero(cells.any(axis=0))
    return (int(where[0]), int(where[-1]) + 1) if where.size else (0, 0)


def _row_blocks(S, f: int):
    """(H, r, ceil(w / f)): each row's largest value in each block of f keys (the last block may be short)."""
    import torch

    w = S.shape[-1]
    full = w // f * f
    parts = [S[..., :full].unflatten(-1, (full // f, f)).amax(-1)] if full else []
    if full < w:
        parts.append(S[..., full:].amax(-1, keepdim=True))
    return parts[0] if len(parts) == 1 else torch.cat(parts, dim=-1)


def _column_blocks(R, f: int):
    """(H, ceil(r / f), t): the largest of each f rows (the band's last block of rows may be short)."""
    import torch

    r = R.shape[1]
    full = r // f * f
    parts = [R[:, :full].unflatten(1, (full // f, f)).amax(2)] if full else []
    if full < r:
        parts.append(R[:, full:].amax(1, keepdim=True))
    return parts[0] if len(parts) == 1 else torch.cat(parts, dim=1)
