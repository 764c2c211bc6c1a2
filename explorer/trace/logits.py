"""A trace's scores over the vocabulary, derived from ``final.out`` when they are read.

The unembedding final.out · W_u is the largest product of a trace and its result the largest array: for
GPT-2 small at 256 tokens 10 of 33 billion multiply-adds (90 of 290 ms on two cores) and 51 MB; for SmolLM2
at 8,192 tokens 1.6 GB. The window shows one row of it at a time (the next-token distribution after the
selected token). So a trace whose model ends in a plain unembedding keeps final.out, and its logits are
computed when read, with the model's own expression (``affine``, explorer/model/linear.py).

They are computed in blocks of ROWS rows (fewer for a large vocabulary: ``block_rows``) of the B·C rows of
final.out, and every value comes from the product of its own block, with the thread count of the run
(explorer/util/threads.py). So a row is the same number however it was asked for: alone, with its block, or
as part of the whole (B, C, V) (a matrix product's last bits may depend on how many rows it multiplies at
once; tests/core/test_trace_logits.py). A trace of at most block_rows tokens has one block: the very product
the model would have made.

A bfloat16 or float16 run's are derived in its dtype: final.out's block cast back (exactly) and the model's own
half unembedding, each row then held as float32 (exact), as the run's other tensors are (readable.py).

Not derived (the model computes them in its forward pass, as before): encoders' masked-LM head and Gemma 2's
soft-capped logits (more than one product), a run that patches the logits, and a run on a GPU (a derivation
on the CPU would not be the GPU's numbers).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping

import numpy as np

from explorer.config import LOGIT_BLOCKS, LOGIT_ROWS, ModelConfig, RunOptions
from explorer.config import logits_derived as derivable  # the memory estimate counts on the same rule
from explorer.trace.deferred import ArrayRecord, Deferred
from explorer.vocab import HALF_DTYPES

__all__ = ["ROWS", "BLOCK_CACHE", "LogitBlocks", "derivable", "derives_logits"]

ROWS = (
    LOGIT_ROWS  # rows of final.out per product: 29 ms for GPT-2 small's 50,257 words on two cores (the whole 256: 90)
)
BLOCK_CACHE = LOGIT_BLOCKS  # blocks kept for re-display (8 × 64 × 50,257 floats: 103 MB at most)
# A block multiplies at most about this many numbers (rows × E × V): with a 128,256-word vocabulary and E = 2,048
# (Llama 3.2 1B) 64 rows took 2 s on two cores where the window wanted one; 16 rows read the table as fast.
BLOCK_MACS = 1 << 32
FEWEST_ROWS = 8


def block_rows(config: ModelConfig) -> int:
    """Rows of final.out per product for this model: ROWS, halved while a block multiplies more than
    BLOCK_MACS (down to FEWEST_ROWS). Fixed per model, so a row is the same number however it is asked for."""
    rows = ROWS
    while rows > FEWEST_ROWS and rows * config.E * config.V > BLOCK_MACS:
        rows //= 2
    return rows


def derives_logits(arrays: Mapping[str, np.ndarray], config: ModelConfig) -> bool:
    """True for a trace that kept final.out and not its logits (and has the unembedding to derive them)."""
    if "logits" in arrays or "final.out" not in arrays or not derivable(config):
        return False
    return "params.embed.tok" in arrays if config.tie_embeddings else "params.unembed.W_u" in arrays


class LogitBlocks:
    """The derived logits of one trace: blocks computed once, the whole (B, C, V) when asked for."""

    def __init__(self, arrays: Mapping[str, np.ndarray], config: ModelConfig, options: RunOptions) -> None:
        self._arrays, self._config, self._options = arrays, config, options
        self._lock = threading.Lock()
        self._blocks: OrderedDict[int, np.ndarray] = OrderedDict()
        self._whole: np.ndarray | None = None
        self.rows_per_block = block_rows(config)

    @property
    def shape(self) -> tuple[int, int, int]:
        B, C, _ = self._arrays["final.out"].shape
        return (B, C, self._config.V)

    def rows(self, b: int, start: int, stop: int) -> np.ndarray:
        """Logits after tokens start … stop−1 of sentence b: (stop − start, V), read-only."""
        B, C, V = self.shape
        if self._whole is not None:
            return self._whole[b, start:stop]
        first, last = b * C + start, b * C + stop  # rows of the flattened (B·C, V)
        n = self.rows_per_block
        parts = [self._block(k) for k in range(first // n, (max(last, first + 1) - 1) // n + 1)]
        joined = parts[0] if len(parts) == 1 else np.concatenate(parts)
        offset = (first // n) * n
        return joined[first - offset : last - offset]

    def whole(self) -> np.ndarray:
        """(B, C, V): every block, in order (each the same numbers as when derived alone)."""
        with self._lock:
            if self._whole is not None:
                return self._whole
        import torch

        B, C, V = self.shape
        # torch's allocator, not numpy's: numpy asks the kernel for huge pages for a large array, and on a
        # machine whose memory is fragmented the kernel compacts memory to find them, single-threaded, at
        # every fault (SmolLM2's 4,000 × 49,152 logits: 10 s of it, against 1.5 s for the products).
        final = self._arrays["final.out"]
        out = torch.empty((B * C, V), dtype=torch.float64 if final.dtype == np.float64 else torch.float32).numpy()
        n = self.rows_per_block
        for k in range(-(-B * C // n)):
            out[k * n : (k + 1) * n] = self._block(k, keep=False)
        out = out.reshape(B, C, V)
        out.flags.writeable = False
        with self._lock:
            self._whole = out
            self._blocks.clear()
        return out

    def _block(self, k: int, keep: bool = True) -> np.ndarray:
        with self._lock:
            if k in self._blocks:
                self._blocks.move_to_end(k)
                return self._blocks[k]
        block = self._compute(k)
        if keep:
            with self._lock:
                self._blocks[k] = block
                while len(self._blocks) > BLOCK_CACHE:
                    self._blocks.popitem(last=False)
        return block

    def _compute(self, k: int) -> np.ndarray:
        """Rows k·n … (n = rows_per_block) of final.out times W_u (+ b_u): the model's expression, on the
        run's thread count."""
        import torch  # here: reading a trace needs numpy alone

        from explorer.model.linear import affine
        from explorer.util.threads import threads_for

        final = self._arrays["final.out"]
        B, C, E = final.shape
        n = self.rows_per_block
        half = getattr(torch, self._options.dtype) if self._options.dtype in HALF_DTYPES else None
        x = _tensor(final.reshape(B * C, E)[k * n : (k + 1) * n])  # (≤ n, E)
        if half is not None:  # final.out holds the half numbers as float32 (exact): back to the run's dtype
            x = x.to(half)
        if self._config.tie_embeddings:
            W_u = self._weight("params.embed.tok", half).T  # (V, E) → (E, V), as the model's W_u()
        else:
            W_u = self._weight("params.unembed.W_u", half)  # (E, V)
        b_u = self._weight("params.unembed.b_u", half) if "params.unembed.b_u" in self._arrays else None  # (V,)
        with torch.inference_mode(), threads_for(B * C * self._config.parameter_count()):
            out = affine(x, W_u, b_u)  # (≤ n, E) · (E, V) → (≤ n, V)
        out = (out.float() if half is not None else out).numpy()  # a half run's: float32 holding them exactly
        out.flags.writeable = False
        return out

    def _weight(self, name: str, half):
        """A parameter as the product reads it: in a half run the model's own half tensor (the trace lists it
        as a float32 array it makes only when read: explorer/trace/deferred.py), else a view of the array."""
        entry = self._arrays.entry(name) if isinstance(self._arrays, ArrayRecord) else self._arrays[name]
        if isinstance(entry, Deferred) and entry.source is not None:
            return entry.source if half is None else entry.source.to(half)
        t = _tensor(self._arrays[name])
        return t if half is None else t.to(half)  # a reopened half snapshot: float32 arrays holding half numbers


def _tensor(a: np.ndarray):
    """A torch view of a trace's read-only array, without copying it (a 50,257 × 768 table is 154 MB): the
    product only reads it. Copied where the memory itself is read-only (a snapshot mapped from a file)."""
    import torch

    if not a.flags.writeable:
        view = a.view()
        try:
            view.flags.writeable = True
        except ValueError:
            view = np.array(a)
        a = view
    return torch.from_numpy(a)
